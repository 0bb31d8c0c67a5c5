-- Settings an admin sets on the console's Settings page (docs/settings.md), by their environment
-- variable's name; only those SETTINGS opts in (`editable`, src/config.ts). The environment still wins
-- over a row here. A secret's value, and a URL carrying a password, is stored encrypted: `value` is then
-- the envelope gh1.<key id>.<iv>.<tag>.<ciphertext> (AES-256-GCM, src/modules/settings/secret-box.ts),
-- never the text. Times are ISO-8601 UTC text, as everywhere (sql/0001).
CREATE TABLE stored_settings (
  name       TEXT PRIMARY KEY,
  value      TEXT NOT NULL,
  encrypted  INTEGER NOT NULL CHECK (encrypted IN (0, 1)),
  updated_at TEXT NOT NULL,
  updated_by TEXT
) STRICT;
