-- User access reviews (UARs): the settings a review was started with, and the snapshot of the access
-- in its scope taken when it started. Decisions on the snapshot come with the reviewer console.
-- Conventions as in 0001.

CREATE TABLE uars (
  seq                                   INTEGER PRIMARY KEY,
  id                                    TEXT NOT NULL UNIQUE,
  name                                  TEXT NOT NULL,
  reviewer_assignment_policy            TEXT NOT NULL CHECK (reviewer_assignment_policy IN
    ('MANUALLY', 'BY_OWNING_TEAM_ADMIN', 'BY_OWNING_TEAM_ADMIN_ALL', 'BY_MANAGER', 'BY_APPROVERS', 'BY_APPROVERS_ALL')),
  send_reviewer_assignment_notification INTEGER NOT NULL CHECK (send_reviewer_assignment_notification IN (0, 1)),
  deadline                              TEXT NOT NULL,
  time_zone                             TEXT NOT NULL,     -- an IANA name, checked when given
  self_review_allowed                   INTEGER NOT NULL CHECK (self_review_allowed IN (0, 1)),
  instantly_action_reviews              INTEGER NOT NULL CHECK (instantly_action_reviews IN (0, 1)),
  reminder_schedule                     TEXT,              -- JSON array of whole days, as given; NULL when not given
  reminder_include_manager              INTEGER CHECK (reminder_include_manager IN (0, 1)),
  uar_scope                             TEXT,              -- JSON object as validated (ids lower-cased); NULL when not given
  created_by_user_id                    TEXT NOT NULL,     -- kept after the user is gone, like the audit trail
  created_at                            TEXT NOT NULL      -- also the instant the snapshot reads access at
) STRICT;

-- One row per (item, user, level) held at the snapshot instant, as the access graph's effective-access
-- reads answered it then. Names are copied so the snapshot still reads after an item or user is gone;
-- nothing here references the catalogue, and later changes to access never touch these rows.
CREATE TABLE uar_snapshot_rows (
  seq                     INTEGER PRIMARY KEY,
  uar_id                  TEXT NOT NULL REFERENCES uars (id) ON DELETE CASCADE,
  item_type               TEXT NOT NULL CHECK (item_type IN ('RESOURCE', 'GROUP')),
  item_id                 TEXT NOT NULL,
  item_name               TEXT NOT NULL,
  user_id                 TEXT NOT NULL,
  user_full_name          TEXT NOT NULL,
  user_email              TEXT NOT NULL,
  access_level_remote_id  TEXT NOT NULL,
  access_level_name       TEXT NOT NULL,
  expiration_date         TEXT,                            -- NULL: some path never expires
  has_direct_access       INTEGER NOT NULL CHECK (has_direct_access IN (0, 1)),
  num_access_paths        INTEGER NOT NULL,
  access_path_group_ids   TEXT NOT NULL                    -- JSON array: the groups counted in num_access_paths
) STRICT;

CREATE INDEX uar_snapshot_rows_by_uar ON uar_snapshot_rows (uar_id, seq);
