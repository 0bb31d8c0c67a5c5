-- Access a connector's sync found held in the remote system by a remote user no Gatehouse user
-- matches (a PostgreSQL role granted to a login nobody here has): shown on the item's page as held by
-- someone Gatehouse does not know (GET /v1/resources/{id}/unmatched-remote-users). Each sync of the
-- app starts the app's rows afresh, as it does its sync errors; removing the connector or the item
-- removes them. Times are ISO-8601 UTC text, as everywhere (sql/0001).
CREATE TABLE unmatched_remote_access (
  seq                    INTEGER PRIMARY KEY,
  app_id                 TEXT NOT NULL REFERENCES connectors (app_id) ON DELETE CASCADE,
  resource_id            TEXT REFERENCES resources (id) ON DELETE CASCADE,
  group_id               TEXT REFERENCES groups (id) ON DELETE CASCADE,
  remote_user_id         TEXT NOT NULL,
  access_level_remote_id TEXT NOT NULL,
  found_at               TEXT NOT NULL,
  CHECK ((resource_id IS NULL) <> (group_id IS NULL))
) STRICT;
CREATE UNIQUE INDEX unmatched_remote_access_of_resource ON unmatched_remote_access (resource_id, remote_user_id, access_level_remote_id) WHERE resource_id IS NOT NULL;
CREATE UNIQUE INDEX unmatched_remote_access_of_group ON unmatched_remote_access (group_id, remote_user_id, access_level_remote_id) WHERE group_id IS NOT NULL;
CREATE INDEX unmatched_remote_access_by_app ON unmatched_remote_access (app_id);
