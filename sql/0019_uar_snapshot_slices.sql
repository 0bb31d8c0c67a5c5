-- A review whose snapshot is still being written, slice by slice (docs/access-reviews.md, "Taking the
-- snapshot"): its uars row and the rows written so far exist, but nothing reads it (the API, the
-- reviewers' routes, the deadline job) until the last slice deletes this row in the transaction that
-- also records UARS_CREATED. A row left by a crash marks a review that was never created: it is dropped.
CREATE TABLE uar_snapshots_in_progress (
  uar_id      TEXT PRIMARY KEY REFERENCES uars (id) ON DELETE CASCADE,
  started_at  TEXT NOT NULL
) STRICT;
