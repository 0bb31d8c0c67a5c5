-- Who reviews each row of an access review: assigned when the review starts, by its
-- reviewer_assignment_policy (docs/access-reviews.md, "Who reviews"), and changed by admins afterwards.
-- A row may have several reviewers (the *_ALL policies); any one of them decides it. Nobody is ever
-- assigned a row of their own access. Conventions as in 0001.

CREATE TABLE uar_item_reviewers (
  snapshot_row_seq INTEGER NOT NULL REFERENCES uar_snapshot_rows (seq) ON DELETE CASCADE,
  uar_id           TEXT NOT NULL REFERENCES uars (id) ON DELETE CASCADE,
  reviewer_user_id TEXT NOT NULL,                   -- kept after the user is gone, like the audit trail
  assigned_by      TEXT NOT NULL CHECK (assigned_by IN ('POLICY', 'FALLBACK', 'ADMIN')),
  PRIMARY KEY (snapshot_row_seq, reviewer_user_id)
) STRICT, WITHOUT ROWID;

-- A reviewer's rows, review by review, in snapshot order: "my items" and "my reviews" read this.
CREATE INDEX uar_item_reviewers_by_reviewer ON uar_item_reviewers (reviewer_user_id, uar_id, snapshot_row_seq);
