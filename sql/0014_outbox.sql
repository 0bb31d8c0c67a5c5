-- The outbox: the service's one durable work queue (src/outbox/). A row is written in the same
-- transaction as the change that needs work done elsewhere (a connector call, a notice), so a change
-- and its follow-up are never separated by a crash. Conventions as in 0001 (ISO-8601 UTC text times).

CREATE TABLE outbox (
  seq             INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: per-key order is seq order
  kind            TEXT NOT NULL,                      -- which handler runs it (src/outbox/kinds.ts)
  key             TEXT NOT NULL,                      -- rows with one key run one at a time, in seq order
  payload         TEXT NOT NULL,                      -- JSON, the handler's business
  state           TEXT NOT NULL CHECK (state IN ('PENDING', 'DONE', 'FAILED')),
  attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at TEXT NOT NULL,                      -- due from then (PENDING only)
  -- Set while a tick runs the row; a row claimed by a process that died is released at the next start.
  claimed_until   TEXT,
  deadline_at     TEXT NOT NULL,                      -- a failure after this marks the row FAILED
  last_error      TEXT,
  last_code       TEXT,                               -- the handler's short code for the last failure
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  finished_at     TEXT
) STRICT;
CREATE INDEX outbox_due ON outbox (next_attempt_at, seq) WHERE state = 'PENDING';
CREATE INDEX outbox_pending_by_key ON outbox (key, seq) WHERE state = 'PENDING';
CREATE INDEX outbox_by_kind_state ON outbox (kind, state, seq);
CREATE INDEX outbox_done ON outbox (finished_at) WHERE state = 'DONE';
