-- Connectors: the remote side of an app's items (docs/connectors.md). An app has at most one; the
-- access changes of its items are pushed through the outbox (0013) and their state kept in
-- propagations. Conventions as in 0001.

CREATE TABLE connectors (
  app_id               TEXT NOT NULL PRIMARY KEY REFERENCES apps (id) ON DELETE CASCADE,
  connector_type       TEXT NOT NULL CHECK (connector_type IN ('OPAL_HTTP', 'POSTGRES')),
  url                  TEXT,                  -- OPAL_HTTP: the connector's base URL
  -- Secrets kept as given (a hash cannot sign or log in), shown only masked.
  signing_secret       TEXT,                  -- OPAL_HTTP
  connection_url       TEXT,                  -- POSTGRES: postgres://user:password@host:port/db
  timeout_ms           INTEGER NOT NULL CHECK (timeout_ms BETWEEN 100 AND 300000),
  -- What a sync does with access present remotely but not in Gatehouse.
  drift_policy         TEXT NOT NULL CHECK (drift_policy IN ('REPORT', 'IMPORT', 'REMOVE')),
  last_sync_at         TEXT,
  last_successful_sync TEXT,
  created_at           TEXT NOT NULL,
  updated_at           TEXT NOT NULL
) STRICT;

-- Remote users of an app's connector, as its sync or a push learned them, matched to users by email
-- (POSTGRES: the login role, linked by remote_users or the documented rule).
CREATE TABLE connector_users (
  app_id         TEXT NOT NULL REFERENCES connectors (app_id) ON DELETE CASCADE,
  remote_user_id TEXT NOT NULL,
  email          TEXT NOT NULL,
  user_id        TEXT REFERENCES users (id) ON DELETE SET NULL,
  PRIMARY KEY (app_id, remote_user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX connector_users_by_user ON connector_users (app_id, user_id);

-- Where each edge's remote copy stands: one row per edge key (kind, both ends, level) of an app with a
-- connector, kept after the edge ends until its removal is delivered. status is PropagationStatusEnum,
-- NULL for access imported by sync ("synced from the remote system").
CREATE TABLE propagations (
  edge_key               TEXT NOT NULL PRIMARY KEY,
  app_id                 TEXT NOT NULL,
  kind                   TEXT NOT NULL,
  principal_id           TEXT NOT NULL,
  item_id                TEXT NOT NULL,
  access_level_remote_id TEXT NOT NULL,
  desired                TEXT NOT NULL CHECK (desired IN ('PRESENT', 'ABSENT')),
  status                 TEXT,
  outbox_state           TEXT,             -- PENDING, DONE, FAILED: the last queued push's state
  attempts               INTEGER NOT NULL DEFAULT 0,
  last_error             TEXT,
  next_attempt_at        TEXT,
  outbox_seq             INTEGER,
  updated_at             TEXT NOT NULL
) STRICT;
CREATE INDEX propagations_unfinished ON propagations (updated_at, edge_key) WHERE status IS NOT 'SUCCESS';
CREATE INDEX propagations_by_item ON propagations (item_id, principal_id);

-- The reference's SyncError: what went wrong syncing an app (or one of its items), first and last seen.
CREATE TABLE sync_errors (
  seq           INTEGER PRIMARY KEY,
  app_id        TEXT NOT NULL,
  resource_id   TEXT NOT NULL DEFAULT '',  -- '' when the error is the app's as a whole
  group_id      TEXT NOT NULL DEFAULT '',
  error_message TEXT NOT NULL,
  first_seen    TEXT NOT NULL,
  last_seen     TEXT NOT NULL,
  UNIQUE (app_id, resource_id, group_id, error_message)
) STRICT;
