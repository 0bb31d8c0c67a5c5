-- Records the reference keeps for integrations Gatehouse does not run: message channels (Slack),
-- on-call schedules (PagerDuty, Opsgenie), which of them resources and groups name, and the
-- permissions of OPAL_SCOPED_ROLE resources. Gatehouse stores and serves them; it sends no message,
-- pages nobody and enforces no scoped role. Conventions as in 0001.

CREATE TABLE message_channels (
  seq                  INTEGER PRIMARY KEY,
  id                   TEXT NOT NULL UNIQUE,
  third_party_provider TEXT NOT NULL,
  remote_id            TEXT NOT NULL,
  name                 TEXT,                 -- as given at creation (Gatehouse cannot ask Slack)
  is_private           INTEGER CHECK (is_private IN (0, 1)),
  created_at           TEXT NOT NULL,
  UNIQUE (third_party_provider, remote_id)
) STRICT;

CREATE TABLE on_call_schedules (
  seq                  INTEGER PRIMARY KEY,
  id                   TEXT NOT NULL UNIQUE,
  third_party_provider TEXT NOT NULL,
  remote_id            TEXT NOT NULL,
  name                 TEXT,
  created_at           TEXT NOT NULL,
  UNIQUE (third_party_provider, remote_id)
) STRICT;

-- The audit message channels of a resource or group, and a group's on-call schedules, in the order
-- set. A link goes with either end.
CREATE TABLE resource_message_channels (
  resource_id        TEXT NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
  message_channel_id TEXT NOT NULL REFERENCES message_channels (id) ON DELETE CASCADE,
  position           INTEGER NOT NULL,
  PRIMARY KEY (resource_id, message_channel_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX resource_message_channels_by_channel ON resource_message_channels (message_channel_id);

CREATE TABLE group_message_channels (
  group_id           TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  message_channel_id TEXT NOT NULL REFERENCES message_channels (id) ON DELETE CASCADE,
  position           INTEGER NOT NULL,
  PRIMARY KEY (group_id, message_channel_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX group_message_channels_by_channel ON group_message_channels (message_channel_id);

CREATE TABLE group_on_call_schedules (
  group_id           TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  on_call_schedule_id TEXT NOT NULL REFERENCES on_call_schedules (id) ON DELETE CASCADE,
  position           INTEGER NOT NULL,
  PRIMARY KEY (group_id, on_call_schedule_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX group_on_call_schedules_by_schedule ON group_on_call_schedules (on_call_schedule_id);

-- The permissions of an OPAL_SCOPED_ROLE resource, in the order set. target_ids is a JSON array of
-- ids, or NULL when the permission was given without any (untargeted scope).
CREATE TABLE scoped_role_permissions (
  resource_id     TEXT NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
  position        INTEGER NOT NULL,
  target_type     TEXT NOT NULL,
  permission_name TEXT NOT NULL,
  allow_all       INTEGER NOT NULL CHECK (allow_all IN (0, 1)),
  target_ids      TEXT,
  PRIMARY KEY (resource_id, position)
) STRICT, WITHOUT ROWID;
