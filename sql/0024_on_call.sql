-- On-call schedules that live (docs/on-call.md): what each schedule's sync last learned from its provider,
-- the group memberships the rotation made (so hand-added members are never touched), and why a request
-- was approved at once. The schedules and their links to groups stay where 0005 put them; the on-call
-- area owns them now. Conventions as in 0001.

-- One row per schedule once it has been synced (or tried). on_call is a JSON array of
-- {email, remote_user_id, name, starts_at, ends_at} as the provider stated them at last_synced_at;
-- unknown_emails the on-call people no Gatehouse user has the email of.
CREATE TABLE on_call_sync_state (
  schedule_id     TEXT PRIMARY KEY REFERENCES on_call_schedules (id) ON DELETE CASCADE,
  on_call         TEXT NOT NULL DEFAULT '[]',
  unknown_emails  TEXT NOT NULL DEFAULT '[]',
  last_synced_at  TEXT,             -- the last sync that worked
  last_attempt_at TEXT,
  last_error      TEXT,             -- the last failure in words; NULL when the last attempt worked
  failures        INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0), -- failed attempts in a row
  next_attempt_at TEXT,             -- when a failing schedule is tried again (back-off); NULL: at the next tick
  failure_noticed INTEGER NOT NULL DEFAULT 0 CHECK (failure_noticed IN (0, 1)) -- admins were told of this run of failures
) STRICT;

-- A group membership (group_users, default level) the rotation made: who, which schedule and shift gave
-- it, and the end it was given (the edge's expiration_date). A membership whose edge no longer has that
-- end was changed by hand and is no longer the rotation's.
CREATE TABLE on_call_memberships (
  group_id    TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  schedule_id TEXT NOT NULL REFERENCES on_call_schedules (id) ON DELETE CASCADE,
  shift_start TEXT,
  shift_end   TEXT NOT NULL,
  PRIMARY KEY (group_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX on_call_memberships_by_schedule ON on_call_memberships (schedule_id);

-- Why a request was approved at once, in words, when a rule gave it (on call: "approved because you are
-- on call for Payments primary until 18:00 UTC"); NULL otherwise.
ALTER TABLE requests ADD COLUMN approval_reason TEXT;
