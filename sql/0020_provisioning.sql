-- Provisioning: SCIM 2.0 from an identity provider (docs/scim.md), and connectors creating the people they grant to.
-- A SCIM token works only on /scim/v2, and an API token only on /v1: the scope says which it is.
ALTER TABLE api_tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'API' CHECK (scope IN ('API', 'SCIM'));

-- What an identity provider says of a user that Gatehouse's users table does not carry. A user has a
-- row once SCIM has written them; users made otherwise are served over SCIM too, without one.
CREATE TABLE scim_users (
  user_id         TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  external_id     TEXT,
  department      TEXT,
  employee_number TEXT,
  modified_at     TEXT NOT NULL
) STRICT;
CREATE INDEX scim_users_by_external_id ON scim_users (external_id);

-- The groups an identity provider pushed: Gatehouse groups of the provider's app, whose user members
-- follow the provider. Only these are SCIM Groups; other groups are Gatehouse's own.
CREATE TABLE scim_groups (
  group_id    TEXT PRIMARY KEY REFERENCES groups (id) ON DELETE CASCADE,
  external_id TEXT,
  created_at  TEXT NOT NULL,
  modified_at TEXT NOT NULL
) STRICT;
CREATE INDEX scim_groups_by_external_id ON scim_groups (external_id);

-- Remote users a connector created for a person on their first grant (Opal's POST /users, a PostgreSQL
-- role): only these are removed when the person is offboarded (docs/connectors.md).
ALTER TABLE connector_users ADD COLUMN made_by_gatehouse INTEGER NOT NULL DEFAULT 0 CHECK (made_by_gatehouse IN (0, 1));
