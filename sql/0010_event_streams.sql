-- Event streams: webhook receivers every audit event is delivered to, at least once and in order.
-- The events table is the outbox: a stream keeps only its durable position in it (the seq of the
-- last event its receiver acknowledged) and its retry state, so delivery survives a restart.
-- Conventions as in 0001.

CREATE TABLE event_streams (
  seq               INTEGER PRIMARY KEY,
  id                TEXT NOT NULL UNIQUE,
  name              TEXT NOT NULL,
  connection_type   TEXT NOT NULL CHECK (connection_type IN ('WEBHOOK')),
  webhook_url       TEXT NOT NULL,
  enabled           INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  auth_type         TEXT NOT NULL CHECK (auth_type IN ('NONE', 'API_KEY', 'HMAC')),
  -- events.seq of the last event delivered; a new stream starts at the newest event there was.
  position          INTEGER NOT NULL CHECK (position >= 0),
  -- Failed attempts since the last success; the back-off and the FAILING mark are read off it.
  failures          INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),
  next_attempt_at   TEXT,                 -- NULL: due at the next tick
  last_error        TEXT,
  last_error_at     TEXT,
  last_delivered_at TEXT,
  created_at        TEXT NOT NULL,
  updated_at        TEXT NOT NULL
) STRICT;

-- A stream's credentials. HMAC secrets must be kept as given (a hash cannot sign), so they sit here
-- in the clear like the rest of the file; the API shows them only in the answer that set them.
CREATE TABLE event_stream_credentials (
  id          TEXT NOT NULL PRIMARY KEY,
  stream_id   TEXT NOT NULL REFERENCES event_streams (id) ON DELETE CASCADE,
  kind        TEXT NOT NULL CHECK (kind IN ('API_KEY', 'HMAC')),
  -- HMAC: 1 or 2 (hmac_credential_1/2); API_KEY: the key's place in api_key_credentials.
  slot        INTEGER NOT NULL,
  name        TEXT,                       -- API_KEY: the header or query parameter
  location    TEXT CHECK (location IN ('HEADER', 'QUERY_PARAM')),
  secret      TEXT NOT NULL,              -- API_KEY: the value; HMAC: whsec_<base64>
  created_at  TEXT NOT NULL,
  UNIQUE (stream_id, kind, slot)
) STRICT;
