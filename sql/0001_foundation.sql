-- Foundation: settings, users, API tokens, remote user accounts and the audit trail.
--
-- Conventions for every migration:
--   * Times are TEXT holding ISO 8601 UTC with milliseconds and a trailing Z
--     ('2026-01-02T03:04:05.678Z'): the API's own format, and it sorts correctly as text.
--   * Records have a UUID `id` (the API's identifier) and an INTEGER `seq` primary key that only
--     grows; lists page by keyset on seq, so new rows never shift a page a client is reading.
--   * Tables are STRICT so a wrong type is an error rather than a silent conversion.

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE users (
  seq           INTEGER PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
  full_name     TEXT NOT NULL,
  first_name    TEXT NOT NULL,
  last_name     TEXT NOT NULL,
  position      TEXT NOT NULL DEFAULT '',
  manager_id    TEXT REFERENCES users (id),
  hr_idp_status TEXT NOT NULL DEFAULT 'ACTIVE'
                CHECK (hr_idp_status IN ('ACTIVE', 'SUSPENDED', 'DEPROVISIONED', 'DELETED', 'NOT_FOUND')),
  created_at    TEXT NOT NULL
) STRICT;

-- Only a hash of each secret is kept. `lookup` is the secret's first 16 characters: it finds the
-- candidate rows, and the SHA-256 comparison decides.
CREATE TABLE api_tokens (
  seq             INTEGER PRIMARY KEY,
  id              TEXT NOT NULL UNIQUE,
  lookup          TEXT NOT NULL,
  secret_hash     BLOB NOT NULL,
  preview         TEXT NOT NULL,
  label           TEXT NOT NULL,
  access_level    TEXT NOT NULL CHECK (access_level IN ('FULL_ACCESS', 'READ_ONLY')),
  user_id         TEXT NOT NULL REFERENCES users (id),
  creator_user_id TEXT NOT NULL REFERENCES users (id),
  created_at      TEXT NOT NULL,
  last_used_at    TEXT,
  expires_at      TEXT
) STRICT;
CREATE INDEX api_tokens_by_lookup ON api_tokens (lookup);
CREATE INDEX api_tokens_by_user ON api_tokens (user_id, seq);

-- A user's account on a third-party system (chat, ticketing, paging, identity, source hosting).
CREATE TABLE remote_users (
  seq                  INTEGER PRIMARY KEY,
  user_id              TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  third_party_provider TEXT NOT NULL,
  remote_id            TEXT NOT NULL,
  created_at           TEXT NOT NULL,
  UNIQUE (third_party_provider, remote_id),
  UNIQUE (user_id, third_party_provider)
) STRICT;
CREATE INDEX remote_users_by_user ON remote_users (user_id, seq);

-- The audit trail. Actor and token details are copied in, not referenced: the trail must keep
-- saying who did what after the user or token is gone.
CREATE TABLE events (
  seq               INTEGER PRIMARY KEY,
  id                TEXT NOT NULL UNIQUE,
  event_type        TEXT NOT NULL,
  actor_user_id     TEXT NOT NULL,
  actor_name        TEXT NOT NULL,
  actor_email       TEXT,
  actor_ip_address  TEXT,
  api_token_name    TEXT,
  api_token_preview TEXT,
  sub_events        TEXT NOT NULL,
  created_at        TEXT NOT NULL
) STRICT;
CREATE INDEX events_by_type ON events (event_type, seq);
CREATE INDEX events_by_actor ON events (actor_user_id, seq);
CREATE INDEX events_by_token ON events (api_token_name, seq);
CREATE INDEX events_by_time ON events (created_at, seq);

-- Every object id an event's sub-events name, for the object filter.
CREATE TABLE event_objects (
  object_id TEXT NOT NULL,
  event_seq INTEGER NOT NULL REFERENCES events (seq) ON DELETE CASCADE,
  PRIMARY KEY (object_id, event_seq)
) STRICT, WITHOUT ROWID;
