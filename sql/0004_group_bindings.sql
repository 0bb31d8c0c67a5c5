-- Group bindings (groups in different systems that stand for the same set of people) and
-- identity-provider group mappings (which groups an Okta app offers, under what alias).
-- Conventions as in 0001: ISO 8601 UTC text times, UUID ids, a growing seq to page on, STRICT.

CREATE TABLE group_bindings (
  seq             INTEGER PRIMARY KEY,
  id              TEXT NOT NULL UNIQUE,
  -- Always one of the binding's own groups (checked by the service); a group cannot be deleted
  -- while it is bound, so this never dangles.
  source_group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE RESTRICT,
  created_by_id   TEXT NOT NULL,              -- kept after the user is gone, like the audit trail
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL
) STRICT;
CREATE INDEX group_bindings_by_source ON group_bindings (source_group_id);

-- A group's place in its binding. group_id is the key: a group belongs to at most one binding,
-- whatever the service checks. position keeps the order the groups were given in.
CREATE TABLE group_binding_groups (
  group_id         TEXT PRIMARY KEY REFERENCES groups (id) ON DELETE RESTRICT,
  group_binding_id TEXT NOT NULL REFERENCES group_bindings (id) ON DELETE CASCADE,
  position         INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX group_binding_groups_by_binding ON group_binding_groups (group_binding_id, position);

-- A group an Okta app (a resource of type OKTA_APP) offers to its users. A mapping goes with its
-- app resource or its group (ON DELETE CASCADE); the deletion's own event covers it.
CREATE TABLE idp_group_mappings (
  seq                  INTEGER PRIMARY KEY,
  app_resource_id      TEXT NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
  group_id             TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  alias                TEXT,                  -- NULL: no alias
  hidden_from_end_user INTEGER NOT NULL DEFAULT 0 CHECK (hidden_from_end_user IN (0, 1)),
  created_at           TEXT NOT NULL,
  updated_at           TEXT NOT NULL,
  UNIQUE (app_resource_id, group_id)
) STRICT;
CREATE INDEX idp_group_mappings_by_app ON idp_group_mappings (app_resource_id, seq);
CREATE INDEX idp_group_mappings_by_group ON idp_group_mappings (group_id);
