-- The tamper-evident audit chain (docs/audit-log.md). Every event stores prev_hash, the hash of
-- the event before it (64 zeros for the first), and hash, the SHA-256 of its own stored fields and
-- prev_hash, serialised as src/modules/audit/chain.ts defines. SQLite cannot compute SHA-256, so
-- the events recorded before this migration are hashed by TypeScript right after this file runs,
-- in the same migration transaction (the `after` step in src/db/migrations.ts): no event is ever
-- left without a hash once version 6 is recorded.
ALTER TABLE events ADD COLUMN prev_hash TEXT;
ALTER TABLE events ADD COLUMN hash TEXT;

-- Gatehouse only appends. These triggers do not stop someone who edits the file by hand (they can
-- drop them); they stop any code path from writing an event outside the chain or forking it, and
-- make a careless hand edit fail loudly. `audit verify` is what catches a deliberate one.
CREATE TRIGGER events_append_to_chain BEFORE INSERT ON events
WHEN NEW.hash IS NULL
  OR NEW.prev_hash IS NOT coalesce((SELECT hash FROM events ORDER BY seq DESC LIMIT 1),
                                   '0000000000000000000000000000000000000000000000000000000000000000')
BEGIN
  SELECT RAISE(ABORT, 'audit chain: an event must carry its hash and follow the newest event');
END;

-- Only the migration's one-time hashing of older events may set a hash; nothing changes it after.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
WHEN OLD.hash IS NOT NULL
BEGIN
  SELECT RAISE(ABORT, 'audit chain: events are append-only');
END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
  SELECT RAISE(ABORT, 'audit chain: events are append-only');
END;
