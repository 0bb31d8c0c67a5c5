-- Break-glass (docs/break-glass.md): who may give themselves access to an item at once, for how long,
-- and the after-the-fact review of each time someone did.
--
-- Who may: resources and groups carry their own lists and cap (items without a configuration
-- template), and a template gives its own to every item linked to it, as it does its request settings.
-- Ids are kept as JSON arrays of UUIDs, like the template's break_glass_user_ids (sql/0009).
ALTER TABLE resources ADD COLUMN break_glass_user_ids TEXT NOT NULL DEFAULT '[]';
ALTER TABLE resources ADD COLUMN break_glass_group_ids TEXT NOT NULL DEFAULT '[]';
ALTER TABLE resources ADD COLUMN break_glass_max_minutes INTEGER NOT NULL DEFAULT 60 CHECK (break_glass_max_minutes BETWEEN 1 AND 240);
ALTER TABLE groups ADD COLUMN break_glass_user_ids TEXT NOT NULL DEFAULT '[]';
ALTER TABLE groups ADD COLUMN break_glass_group_ids TEXT NOT NULL DEFAULT '[]';
ALTER TABLE groups ADD COLUMN break_glass_max_minutes INTEGER NOT NULL DEFAULT 60 CHECK (break_glass_max_minutes BETWEEN 1 AND 240);
ALTER TABLE configuration_templates ADD COLUMN break_glass_group_ids TEXT NOT NULL DEFAULT '[]';
ALTER TABLE configuration_templates ADD COLUMN break_glass_max_minutes INTEGER NOT NULL DEFAULT 60 CHECK (break_glass_max_minutes BETWEEN 1 AND 240);

-- A request approved at once by the break-glass rule says so wherever requests are listed.
ALTER TABLE requests ADD COLUMN break_glass INTEGER NOT NULL DEFAULT 0 CHECK (break_glass IN (0, 1));
CREATE INDEX requests_break_glass ON requests (seq) WHERE break_glass = 1;

-- One break-glass: who, what, why, for how long, and its review. The item is kept by id without a
-- foreign key (as requests keep theirs): the record outlives a deleted item. ends_at is when the
-- access it gave ends; ended_at when Gatehouse saw it end (its time was over, or NOT_JUSTIFIED ended
-- it) and told the person. reminded_at/escalated_at: the review was chased once each.
CREATE TABLE break_glass (
  seq                    INTEGER PRIMARY KEY,
  id                     TEXT NOT NULL UNIQUE,
  request_id             TEXT NOT NULL UNIQUE REFERENCES requests (id),
  user_id                TEXT NOT NULL REFERENCES users (id),
  item_type              TEXT NOT NULL CHECK (item_type IN ('resource', 'group')),
  item_id                TEXT NOT NULL,
  item_name              TEXT NOT NULL,
  admin_owner_id         TEXT NOT NULL,     -- the item's owner when it happened: who reviews it
  access_level_remote_id TEXT NOT NULL,
  access_level_name      TEXT NOT NULL,
  reason                 TEXT NOT NULL,
  incident_id            TEXT,
  duration_minutes       INTEGER NOT NULL CHECK (duration_minutes BETWEEN 1 AND 240),
  started_at             TEXT NOT NULL,
  ends_at                TEXT NOT NULL,
  ended_at               TEXT,
  review_state           TEXT NOT NULL DEFAULT 'OPEN' CHECK (review_state IN ('OPEN', 'JUSTIFIED', 'NOT_JUSTIFIED')),
  reviewed_by_user_id    TEXT REFERENCES users (id),
  review_comment         TEXT,
  reviewed_at            TEXT,
  reminded_at            TEXT,
  escalated_at           TEXT
) STRICT;
CREATE INDEX break_glass_by_user_item ON break_glass (user_id, item_id, ends_at);
CREATE INDEX break_glass_open ON break_glass (started_at) WHERE review_state = 'OPEN';
CREATE INDEX break_glass_running ON break_glass (ends_at) WHERE ended_at IS NULL;
CREATE INDEX break_glass_by_owner ON break_glass (admin_owner_id, seq);
