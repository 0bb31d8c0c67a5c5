-- The catalogue: owners, apps, resources (a tree), groups, tags, bundles, non-human identities,
-- access edges of users to resources, and sessions.
--
-- Deleting: link rows (tag attachments, bundle items, edges, sessions) go with either end
-- (ON DELETE CASCADE). References that carry meaning (an app's or resource's owner, a resource's
-- app) are RESTRICTed here and refused with a clear 409 by the service before SQLite would.
-- Booleans are INTEGER 0/1. JSON-valued API fields are stored as JSON text.

CREATE TABLE owners (
  seq                              INTEGER PRIMARY KEY,
  id                               TEXT NOT NULL UNIQUE,
  name                             TEXT NOT NULL UNIQUE,
  description                      TEXT NOT NULL DEFAULT '',
  -- Minutes before an unanswered access request escalates to the next owner user; 0 (the API's
  -- default; NULL reads as 0): never.
  access_request_escalation_period INTEGER,
  reviewer_message_channel_id      TEXT,
  source_group_id                  TEXT REFERENCES groups (id) ON DELETE SET NULL,
  created_at                       TEXT NOT NULL,
  updated_at                       TEXT NOT NULL
) STRICT;

CREATE INDEX owners_by_source_group ON owners (source_group_id);

-- An owner's users, in escalation order.
CREATE TABLE owner_users (
  owner_id TEXT NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
  user_id  TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (owner_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX owner_users_by_user ON owner_users (user_id);

CREATE TABLE apps (
  seq            INTEGER PRIMARY KEY,
  id             TEXT NOT NULL UNIQUE,
  name           TEXT NOT NULL,
  description    TEXT NOT NULL DEFAULT '',
  app_type       TEXT NOT NULL,
  admin_owner_id TEXT NOT NULL REFERENCES owners (id) ON DELETE RESTRICT,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
) STRICT;
CREATE INDEX apps_by_owner ON apps (admin_owner_id);

CREATE TABLE resources (
  seq                            INTEGER PRIMARY KEY,
  id                             TEXT NOT NULL UNIQUE,
  app_id                         TEXT NOT NULL REFERENCES apps (id) ON DELETE RESTRICT,
  name                           TEXT NOT NULL,
  description                    TEXT NOT NULL DEFAULT '',
  admin_owner_id                 TEXT NOT NULL REFERENCES owners (id) ON DELETE RESTRICT,
  resource_type                  TEXT NOT NULL,
  remote_resource_id             TEXT,
  remote_resource_name           TEXT,
  remote_info                    TEXT,            -- JSON object
  metadata                       TEXT,            -- the deprecated JSON text, as given
  parent_resource_id             TEXT REFERENCES resources (id) ON DELETE RESTRICT,
  max_duration                   INTEGER,
  recommended_duration           INTEGER,
  extensions_duration_in_minutes INTEGER NOT NULL DEFAULT 0,
  require_manager_approval       INTEGER NOT NULL DEFAULT 0 CHECK (require_manager_approval IN (0, 1)),
  require_support_ticket         INTEGER NOT NULL DEFAULT 0 CHECK (require_support_ticket IN (0, 1)),
  require_mfa_to_approve         INTEGER NOT NULL DEFAULT 0 CHECK (require_mfa_to_approve IN (0, 1)),
  require_mfa_to_request         INTEGER NOT NULL DEFAULT 0 CHECK (require_mfa_to_request IN (0, 1)),
  require_mfa_to_connect         INTEGER NOT NULL DEFAULT 0 CHECK (require_mfa_to_connect IN (0, 1)),
  auto_approval                  INTEGER NOT NULL DEFAULT 0 CHECK (auto_approval IN (0, 1)),
  is_requestable                 INTEGER NOT NULL DEFAULT 1 CHECK (is_requestable IN (0, 1)),
  request_template_id            TEXT,
  configuration_template_id      TEXT,
  request_configurations         TEXT NOT NULL DEFAULT '[]',  -- JSON array of RequestConfiguration
  ticket_propagation             TEXT,                        -- JSON TicketPropagationConfiguration
  custom_request_notification    TEXT,
  risk_sensitivity_override      TEXT,
  created_at                     TEXT NOT NULL,
  updated_at                     TEXT NOT NULL
) STRICT;
CREATE INDEX resources_by_app ON resources (app_id);
CREATE INDEX resources_by_owner ON resources (admin_owner_id);
CREATE INDEX resources_by_parent ON resources (parent_resource_id);
CREATE INDEX resources_by_type ON resources (resource_type, seq);
CREATE INDEX resources_by_remote_id ON resources (remote_resource_id);

-- Access levels a resource offers besides the default one (whose name and remote id are '').
CREATE TABLE resource_access_levels (
  resource_id TEXT NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
  remote_id   TEXT NOT NULL CHECK (remote_id <> ''),
  name        TEXT NOT NULL,
  PRIMARY KEY (resource_id, remote_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE groups (
  seq                            INTEGER PRIMARY KEY,
  id                             TEXT NOT NULL UNIQUE,
  app_id                         TEXT NOT NULL REFERENCES apps (id) ON DELETE RESTRICT,
  name                           TEXT NOT NULL,
  description                    TEXT NOT NULL DEFAULT '',
  admin_owner_id                 TEXT NOT NULL REFERENCES owners (id) ON DELETE RESTRICT,
  group_type                     TEXT NOT NULL,
  remote_id                      TEXT,
  remote_name                    TEXT,
  remote_info                    TEXT,            -- JSON object
  metadata                       TEXT,
  max_duration                   INTEGER,
  recommended_duration           INTEGER,
  extensions_duration_in_minutes INTEGER NOT NULL DEFAULT 0,
  require_manager_approval       INTEGER NOT NULL DEFAULT 0 CHECK (require_manager_approval IN (0, 1)),
  require_support_ticket         INTEGER NOT NULL DEFAULT 0 CHECK (require_support_ticket IN (0, 1)),
  require_mfa_to_approve         INTEGER NOT NULL DEFAULT 0 CHECK (require_mfa_to_approve IN (0, 1)),
  require_mfa_to_request         INTEGER NOT NULL DEFAULT 0 CHECK (require_mfa_to_request IN (0, 1)),
  auto_approval                  INTEGER NOT NULL DEFAULT 0 CHECK (auto_approval IN (0, 1)),
  is_requestable                 INTEGER NOT NULL DEFAULT 1 CHECK (is_requestable IN (0, 1)),
  request_template_id            TEXT,
  configuration_template_id      TEXT,
  request_configurations         TEXT NOT NULL DEFAULT '[]',
  custom_request_notification    TEXT,
  risk_sensitivity_override      TEXT,
  created_at                     TEXT NOT NULL,
  updated_at                     TEXT NOT NULL
) STRICT;
CREATE INDEX groups_by_app ON groups (app_id);
CREATE INDEX groups_by_owner ON groups (admin_owner_id);
CREATE INDEX groups_by_type ON groups (group_type, seq);

CREATE TABLE group_leaders (
  group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  user_id  TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE tags (
  seq             INTEGER PRIMARY KEY,
  id              TEXT NOT NULL UNIQUE,
  key             TEXT NOT NULL,
  value           TEXT NOT NULL DEFAULT '',   -- '' when the tag has no value
  user_creator_id TEXT NOT NULL,              -- kept after the user is gone, like the audit trail
  admin_owner_id  TEXT REFERENCES owners (id) ON DELETE RESTRICT,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  UNIQUE (key, value)
) STRICT;

CREATE INDEX tags_by_owner ON tags (admin_owner_id);

CREATE TABLE tag_users (
  tag_id  TEXT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (tag_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX tag_users_by_user ON tag_users (user_id);

CREATE TABLE tag_groups (
  tag_id   TEXT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  PRIMARY KEY (tag_id, group_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX tag_groups_by_group ON tag_groups (group_id);

CREATE TABLE tag_resources (
  tag_id      TEXT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  resource_id TEXT NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
  PRIMARY KEY (tag_id, resource_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX tag_resources_by_resource ON tag_resources (resource_id);

CREATE TABLE bundles (
  seq            INTEGER PRIMARY KEY,
  id             TEXT NOT NULL UNIQUE,
  name           TEXT NOT NULL,
  description    TEXT NOT NULL DEFAULT '',
  admin_owner_id TEXT NOT NULL REFERENCES owners (id) ON DELETE RESTRICT,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
) STRICT;
CREATE INDEX bundles_by_owner ON bundles (admin_owner_id);

-- A bundle holds a resource or group at a given access level ('' is the default level).
CREATE TABLE bundle_resources (
  seq                    INTEGER PRIMARY KEY,
  bundle_id              TEXT NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
  resource_id            TEXT NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
  access_level_remote_id TEXT NOT NULL DEFAULT '',
  access_level_name      TEXT NOT NULL DEFAULT '',
  UNIQUE (bundle_id, resource_id, access_level_remote_id)
) STRICT;
CREATE INDEX bundle_resources_by_resource ON bundle_resources (resource_id);

CREATE TABLE bundle_groups (
  seq                    INTEGER PRIMARY KEY,
  bundle_id              TEXT NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
  group_id               TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  access_level_remote_id TEXT NOT NULL DEFAULT '',
  access_level_name      TEXT NOT NULL DEFAULT '',
  UNIQUE (bundle_id, group_id, access_level_remote_id)
) STRICT;
CREATE INDEX bundle_groups_by_group ON bundle_groups (group_id);

-- Access of a user to a resource at an access level, until expiration_date (NULL: no expiry).
-- An expired row is dead: it is never reported, and granting the same edge again replaces it.
-- seq gives the per-resource lists a keyset to page on.
CREATE TABLE resource_users (
  seq                    INTEGER PRIMARY KEY,
  resource_id            TEXT NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
  user_id                TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  access_level_remote_id TEXT NOT NULL DEFAULT '',
  access_level_name      TEXT NOT NULL DEFAULT '',
  expiration_date        TEXT,
  created_at             TEXT NOT NULL,
  updated_at             TEXT NOT NULL,
  UNIQUE (resource_id, user_id, access_level_remote_id)
) STRICT;
CREATE INDEX resource_users_by_resource ON resource_users (resource_id, seq);
CREATE INDEX resource_users_by_user ON resource_users (user_id);

-- A non-human identity (itself a resource) given access to a resource. Expired rows are dead, as
-- for resource_users; seq is the keyset of the per-resource list.
CREATE TABLE resource_non_human_identities (
  seq                    INTEGER PRIMARY KEY,
  resource_id            TEXT NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
  non_human_identity_id  TEXT NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
  access_level_remote_id TEXT NOT NULL DEFAULT '',
  access_level_name      TEXT NOT NULL DEFAULT '',
  expiration_date        TEXT,
  created_at             TEXT NOT NULL,
  UNIQUE (resource_id, non_human_identity_id, access_level_remote_id)
) STRICT;
CREATE INDEX resource_nhis_by_resource ON resource_non_human_identities (resource_id, seq);
CREATE INDEX resource_nhis_by_nhi ON resource_non_human_identities (non_human_identity_id);

-- A user's connection to a resource they hold access to. It is open while ended_at is NULL and
-- expiration_date (never later than the access edge's expiry) is in the future.
CREATE TABLE sessions (
  seq                    INTEGER PRIMARY KEY,
  connection_id          TEXT NOT NULL UNIQUE,
  user_id                TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  resource_id            TEXT NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
  access_level_remote_id TEXT NOT NULL DEFAULT '',
  access_level_name      TEXT NOT NULL DEFAULT '',
  expiration_date        TEXT NOT NULL,
  created_at             TEXT NOT NULL,
  ended_at               TEXT
) STRICT;
CREATE INDEX sessions_by_resource ON sessions (resource_id, seq);
