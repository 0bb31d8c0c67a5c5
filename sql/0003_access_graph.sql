-- The access graph: groups' access levels, the four kinds of edge besides resource_users and
-- resource_non_human_identities (user → group, group → resource, group → group), access rules,
-- and where each edge came from.
--
-- Every edge table has the same shape: one row per (principal, item, access level) — the UNIQUE
-- key — with access_level_name copied in, expiration_date (NULL: never), and the edge's source:
--   DIRECT   granted through the edge endpoints (source_id NULL)
--   REQUEST  granted by an approved access request (source_id: the request id)
--   RULE     a member computed by an access rule (source_id: the rule's group id)
-- An edge is live at `now` when expiration_date IS NULL OR expiration_date > now. A dead row is
-- never reported; granting the same key again overwrites it in place, so the unique key alone keeps
-- concurrent writers from ever leaving two live edges for one (principal, item, level).
-- The expiry sweep deletes dead rows (the partial *_by_expiry indexes are what it scans).

-- Access levels a group offers besides the default one (whose name and remote id are '').
CREATE TABLE group_access_levels (
  group_id  TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  remote_id TEXT NOT NULL CHECK (remote_id <> ''),
  name      TEXT NOT NULL,
  PRIMARY KEY (group_id, remote_id)
) STRICT, WITHOUT ROWID;

-- A user's membership of a group at one of the group's levels. Members an access rule computes
-- live here too (source RULE, default level, no expiry).
CREATE TABLE group_users (
  seq                    INTEGER PRIMARY KEY,
  group_id               TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  user_id                TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  access_level_remote_id TEXT NOT NULL DEFAULT '',
  access_level_name      TEXT NOT NULL DEFAULT '',
  expiration_date        TEXT,
  source                 TEXT NOT NULL DEFAULT 'DIRECT' CHECK (source IN ('DIRECT', 'REQUEST', 'RULE')),
  source_id              TEXT,
  created_at             TEXT NOT NULL,
  updated_at             TEXT NOT NULL,
  UNIQUE (group_id, user_id, access_level_remote_id)
) STRICT;
-- The per-user reads start here; (group_id, user_id, …) from the UNIQUE key serves the per-group pages.
CREATE INDEX group_users_by_user ON group_users (user_id, group_id);
CREATE INDEX group_users_by_expiry ON group_users (expiration_date) WHERE expiration_date IS NOT NULL;

-- A group's access to a resource at one of the resource's levels.
CREATE TABLE group_resources (
  seq                    INTEGER PRIMARY KEY,
  group_id               TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  resource_id            TEXT NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
  access_level_remote_id TEXT NOT NULL DEFAULT '',
  access_level_name      TEXT NOT NULL DEFAULT '',
  expiration_date        TEXT,
  source                 TEXT NOT NULL DEFAULT 'DIRECT' CHECK (source IN ('DIRECT', 'REQUEST', 'RULE')),
  source_id              TEXT,
  created_at             TEXT NOT NULL,
  updated_at             TEXT NOT NULL,
  UNIQUE (group_id, resource_id, access_level_remote_id)
) STRICT;
CREATE INDEX group_resources_by_resource ON group_resources (resource_id, group_id);
CREATE INDEX group_resources_by_expiry ON group_resources (expiration_date) WHERE expiration_date IS NOT NULL;

-- Nesting: group_id (the member group) is contained in containing_group_id at one of the containing
-- group's levels, so group_id's members are members of containing_group_id. Cycles are refused by
-- the service before writing; a group is never nested in itself.
CREATE TABLE group_groups (
  seq                    INTEGER PRIMARY KEY,
  group_id               TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  containing_group_id    TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  access_level_remote_id TEXT NOT NULL DEFAULT '',
  access_level_name      TEXT NOT NULL DEFAULT '',
  expiration_date        TEXT,
  source                 TEXT NOT NULL DEFAULT 'DIRECT' CHECK (source IN ('DIRECT', 'REQUEST', 'RULE')),
  source_id              TEXT,
  created_at             TEXT NOT NULL,
  updated_at             TEXT NOT NULL,
  UNIQUE (group_id, containing_group_id, access_level_remote_id),
  CHECK (group_id <> containing_group_id)
) STRICT;
CREATE INDEX group_groups_by_containing ON group_groups (containing_group_id, group_id);
CREATE INDEX group_groups_by_expiry ON group_groups (expiration_date) WHERE expiration_date IS NOT NULL;

-- The existing edges gain a source, and the same expiry index for the sweep.
ALTER TABLE resource_users ADD COLUMN source TEXT NOT NULL DEFAULT 'DIRECT' CHECK (source IN ('DIRECT', 'REQUEST', 'RULE'));
ALTER TABLE resource_users ADD COLUMN source_id TEXT;
CREATE INDEX resource_users_by_expiry ON resource_users (expiration_date) WHERE expiration_date IS NOT NULL;
-- Per-user reads look a user's edges up by (user_id, resource_id).
DROP INDEX resource_users_by_user;
CREATE INDEX resource_users_by_user ON resource_users (user_id, resource_id);

ALTER TABLE resource_non_human_identities ADD COLUMN source TEXT NOT NULL DEFAULT 'DIRECT' CHECK (source IN ('DIRECT', 'REQUEST', 'RULE'));
ALTER TABLE resource_non_human_identities ADD COLUMN source_id TEXT;
ALTER TABLE resource_non_human_identities ADD COLUMN updated_at TEXT;  -- NULL on links made before this migration
CREATE INDEX resource_nhis_by_expiry ON resource_non_human_identities (expiration_date) WHERE expiration_date IS NOT NULL;

-- Offboarding and the sweep end a user's open sessions.
CREATE INDEX sessions_open_by_user ON sessions (user_id, resource_id) WHERE ended_at IS NULL;

-- An access rule is a group (group_type OPAL_ACCESS_RULE) whose members are computed from users'
-- tags. rule_clauses is the API's ruleClauses object as JSON text. An ACTIVE rule's members follow
-- every change; a PAUSED rule keeps the members it had.
CREATE TABLE access_rules (
  seq          INTEGER PRIMARY KEY,
  group_id     TEXT NOT NULL UNIQUE REFERENCES groups (id) ON DELETE CASCADE,
  status       TEXT NOT NULL CHECK (status IN ('ACTIVE', 'PAUSED')),
  rule_clauses TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL
) STRICT;
CREATE INDEX access_rules_by_status ON access_rules (status, group_id);
