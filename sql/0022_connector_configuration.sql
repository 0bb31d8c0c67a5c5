-- A connector's configuration is one JSON object, validated by its connector type's schema (the
-- adapter's: src/modules/connectors/adapters.ts), instead of a column per field of every type and a
-- CHECK naming the types: a new connector type is an adapter, not a migration. Existing rows keep
-- what they held: OPAL_HTTP {url, signing_secret}, POSTGRES {connection_url}. Secrets stay as given
-- (a hash cannot sign or log in) and are shown only masked, as before. Conventions as in 0001.
ALTER TABLE connectors ADD COLUMN configuration TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(configuration) AND json_type(configuration) = 'object');
UPDATE connectors SET configuration = CASE connector_type
  WHEN 'OPAL_HTTP' THEN json_object('url', url, 'signing_secret', signing_secret)
  WHEN 'POSTGRES' THEN json_object('connection_url', connection_url)
  ELSE '{}'
END;
ALTER TABLE connectors DROP COLUMN url;
ALTER TABLE connectors DROP COLUMN signing_secret;
ALTER TABLE connectors DROP COLUMN connection_url;
-- The type without its CHECK: which types exist is the adapters' table (a stored type without an
-- adapter stops the app at start). SQLite cannot drop a CHECK alone, so the column is made again.
ALTER TABLE connectors ADD COLUMN kind TEXT NOT NULL DEFAULT '';
UPDATE connectors SET kind = connector_type;
ALTER TABLE connectors DROP COLUMN connector_type;
ALTER TABLE connectors RENAME COLUMN kind TO connector_type;

-- A remote user an admin linked to a person by hand (PUT /v1/apps/{app_id}/connector/user-links): a
-- sync never changes that link. With made_by_gatehouse (0020), the only ways a PostgreSQL login role
-- belongs to a person: Gatehouse made it for that user id, or an admin said so.
ALTER TABLE connector_users ADD COLUMN mapped_by_admin INTEGER NOT NULL DEFAULT 0 CHECK (mapped_by_admin IN (0, 1));
-- PostgreSQL roles were matched by name (the whole email, or the part before '@'), which handed a
-- service role to whoever took its name as an email, and a reused email the role of its former
-- holder. Those links are forgotten: such a role is unmatched until an admin links it.
UPDATE connector_users SET user_id = NULL
  WHERE made_by_gatehouse = 0 AND app_id IN (SELECT app_id FROM connectors WHERE connector_type = 'POSTGRES');
