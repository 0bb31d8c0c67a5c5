-- Access requests and review delegations.
--
-- A request snapshots, when it is created, everything its review depends on: each requested item
-- (with its name and level), which request configuration matched and why, and each stage's
-- reviewers. Later edits of a configuration or an owner's users never change a pending request.
-- Items are kept by id without a foreign key: an item deleted while a request is pending is found
-- at approval (409, nothing granted) and the request's history stays readable.
-- Times are ISO 8601 UTC text with milliseconds and Z, like everywhere else.

CREATE TABLE requests (
  seq              INTEGER PRIMARY KEY,
  id               TEXT NOT NULL UNIQUE,
  requester_id     TEXT NOT NULL REFERENCES users (id),
  target_user_id   TEXT REFERENCES users (id),
  target_group_id  TEXT,                    -- no foreign key: a deleted group is found at approval
  status           TEXT NOT NULL CHECK (status IN ('PENDING', 'APPROVED', 'DENIED', 'CANCELED')),
  reason           TEXT NOT NULL,
  duration_minutes INTEGER NOT NULL CHECK (duration_minutes = -1 OR duration_minutes >= 1),
  support_ticket   TEXT,                    -- JSON object, as given
  custom_metadata  TEXT NOT NULL DEFAULT '[]', -- JSON array of {name, type, value}
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL,
  CHECK ((target_user_id IS NULL) <> (target_group_id IS NULL))
) STRICT;
CREATE INDEX requests_by_requester ON requests (requester_id, seq);
CREATE INDEX requests_by_target_user ON requests (target_user_id, seq);
CREATE INDEX requests_by_target_group ON requests (target_group_id, seq);
CREATE INDEX requests_by_created ON requests (created_at);
-- The timeout job reads the oldest pending requests first.
CREATE INDEX requests_pending ON requests (created_at) WHERE status = 'PENDING';

-- One requested item. current_stage is the 1-based stage under review; past the last stage
-- (stage_count + 1) the item is approved. An auto-approved item has no stages.
CREATE TABLE request_items (
  request_id             TEXT NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
  position               INTEGER NOT NULL,
  item_type              TEXT NOT NULL CHECK (item_type IN ('resource', 'group')),
  item_id                TEXT NOT NULL,
  item_name              TEXT NOT NULL,
  remote_id              TEXT,
  remote_name            TEXT,
  access_level_remote_id TEXT NOT NULL,
  access_level_name      TEXT NOT NULL,
  configuration_priority INTEGER,          -- the request configuration that matched (0: the default)
  matched_group_id       TEXT,             -- the condition's group the target belongs to, when one matched
  auto_approved          INTEGER NOT NULL DEFAULT 0 CHECK (auto_approved IN (0, 1)),
  stage_count            INTEGER NOT NULL,
  current_stage          INTEGER NOT NULL,
  PRIMARY KEY (request_id, position)
) STRICT, WITHOUT ROWID;
CREATE INDEX request_items_by_item ON request_items (item_id, request_id);

-- A stage of one item: its number as configured, its operator and what it asks for.
CREATE TABLE request_stages (
  request_id       TEXT NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
  item_position    INTEGER NOT NULL,
  stage_index      INTEGER NOT NULL,       -- 1-based order of review
  stage            INTEGER NOT NULL,       -- the stage number shown
  operator         TEXT NOT NULL CHECK (operator IN ('AND', 'OR')),
  slots            TEXT NOT NULL,          -- JSON array of the slots below, each needed by AND
  PRIMARY KEY (request_id, item_position, stage_index)
) STRICT, WITHOUT ROWID;

-- Who may approve a stage, per slot. A slot is what an AND stage needs every one of: an owner
-- (`owner:<id>`, any of its users approves for it), a service user (`user:<id>`), the target's
-- manager (`manager`) or an administrator (`admin`). A slot is approved when any of its rows is.
-- `reason` says why the user is there (shown by the dry run). acted_by_user_id is who decided for
-- this row: the reviewer, or their delegate through delegation_id.
CREATE TABLE request_reviewers (
  request_id       TEXT NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
  item_position    INTEGER NOT NULL,
  stage_index      INTEGER NOT NULL,
  slot             TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  reason           TEXT NOT NULL,
  status           TEXT NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
  acted_by_user_id TEXT,
  delegation_id    TEXT,
  decided_at       TEXT,
  PRIMARY KEY (request_id, item_position, stage_index, slot, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX request_reviewers_by_user ON request_reviewers (user_id, request_id);

CREATE TABLE request_comments (
  seq        INTEGER PRIMARY KEY,
  id         TEXT NOT NULL UNIQUE,
  request_id TEXT NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
  user_id    TEXT NOT NULL REFERENCES users (id),
  comment    TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX request_comments_by_request ON request_comments (request_id, seq);

-- While start_time <= now < end_time, the delegate reviews in the delegator's place.
CREATE TABLE delegations (
  seq               INTEGER PRIMARY KEY,
  id                TEXT NOT NULL UNIQUE,
  delegator_user_id TEXT NOT NULL REFERENCES users (id),
  delegate_user_id  TEXT NOT NULL REFERENCES users (id),
  start_time        TEXT NOT NULL,
  end_time          TEXT NOT NULL CHECK (end_time > start_time),
  reason            TEXT NOT NULL,
  created_at        TEXT NOT NULL,
  updated_at        TEXT NOT NULL,
  CHECK (delegator_user_id <> delegate_user_id)
) STRICT;
CREATE INDEX delegations_by_delegator ON delegations (delegator_user_id, end_time);
CREATE INDEX delegations_by_delegate ON delegations (delegate_user_id, seq);
