-- Notifications (docs/notifications.md): each person's preferences, and every notice Gatehouse
-- decided to send — to whom, through which channel, why, and what became of it. Conventions as in 0001.

-- A person's choice: DEFAULT (email when SMTP is set up, else Slack), EMAIL, SLACK or NONE; and
-- whether their notices wait for one daily digest. No row: DEFAULT, no digest.
CREATE TABLE notification_preferences (
  user_id      TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  channel      TEXT NOT NULL CHECK (channel IN ('DEFAULT', 'EMAIL', 'SLACK', 'NONE')),
  daily_digest INTEGER NOT NULL CHECK (daily_digest IN (0, 1)),
  updated_at   TEXT NOT NULL
);

-- One notice to one person (user_id) or one owner's reviewer channel (message_channel_id).
-- dedupe_key says what the notice is about ("created:<request>:<user>"); being UNIQUE, the same
-- notice is never queued twice, whatever restarts or repeated job runs. Rows are written in the
-- transaction of the change that causes them; the delivery runs later, outside any transaction.
-- status: QUEUED (waiting for delivery), SENT, FAILED (gave up; an admin may re-send), HELD (kept
-- for the person's daily digest), DIGESTED (sent inside digest `digest_id`).
CREATE TABLE notifications (
  seq                INTEGER PRIMARY KEY AUTOINCREMENT,
  id                 TEXT NOT NULL UNIQUE,
  dedupe_key         TEXT NOT NULL UNIQUE,
  type               TEXT NOT NULL,
  user_id            TEXT,
  message_channel_id TEXT,
  channel            TEXT NOT NULL CHECK (channel IN ('EMAIL', 'SLACK')),
  -- An email address, or a Slack channel id; a person's Slack id is looked up by email when sent.
  address            TEXT NOT NULL,
  request_id         TEXT,
  reason             TEXT NOT NULL,
  -- JSON: what the message is about, beyond the request (rendered when sent, from current state).
  data               TEXT NOT NULL,
  status             TEXT NOT NULL CHECK (status IN ('QUEUED', 'SENT', 'FAILED', 'HELD', 'DIGESTED')),
  digest_id          TEXT,
  attempts           INTEGER NOT NULL DEFAULT 0,
  last_error         TEXT,
  -- Where a Slack message was posted, so it can be updated after a decision made anywhere.
  slack_channel      TEXT,
  slack_ts           TEXT,
  created_at         TEXT NOT NULL,
  sent_at            TEXT,
  CHECK ((user_id IS NULL) <> (message_channel_id IS NULL))
);
CREATE INDEX notifications_by_request ON notifications (request_id) WHERE request_id IS NOT NULL;
CREATE INDEX notifications_by_user ON notifications (user_id, seq) WHERE user_id IS NOT NULL;
CREATE INDEX notifications_held ON notifications (user_id) WHERE status = 'HELD';

-- Slack request signatures already accepted, so a captured request replayed within Slack's five
-- minutes is refused (after them its timestamp refuses it). Purged as they age out.
CREATE TABLE slack_request_signatures (
  signature TEXT PRIMARY KEY,
  seen_at   TEXT NOT NULL
);
