// SQL for access-review decisions: who reviews each snapshot row, a decision per row, and each review's
// policy for the rows nobody answered by its deadline.
import type { Db } from '../../db/open.ts';
import { reviewIsComplete } from '../access-reviews/sql.ts';
import type { SnapshotEntry } from '../access-reviews/mappers.ts';

export type Decision = 'KEEP' | 'REVOKE' | 'LATER';
export type UnansweredDecision = 'KEEP' | 'REVOKE';

/** A snapshot row as SQLite gives it back, with its decision (null: not answered). */
export interface ReviewItemRow extends Omit<SnapshotEntry, 'has_direct_access' | 'access_path_group_ids'> {
  seq: number;
  uar_id: string;
  has_direct_access: number;
  decision: Decision | null;
  reviewer_user_id: string | null;
  decided_at: string | null;
  /** JSON array of the assigned reviewers' ids, ascending. */
  assigned_reviewers: string;
}

export type AssignedBy = 'POLICY' | 'FALLBACK' | 'ADMIN';

/** One review as a reviewer sees it in their list: how many rows are theirs and how many still wait. */
export interface AssignmentRow {
  seq: number;
  uar_id: string;
  name: string;
  deadline: string;
  closed_at: string | null;
  unanswered_decision: UnansweredDecision;
  assigned_items: number;
  unanswered_items: number;
}

/** A snapshot row as assignment reads it: whose access, on what. */
export interface RowToAssign {
  seq: number;
  item_type: 'RESOURCE' | 'GROUP';
  item_id: string;
  user_id: string;
}

const ITEM_SELECT = `SELECT r.seq, r.uar_id, r.item_type, r.item_id, r.item_name, r.user_id, r.user_full_name, r.user_email,
    r.access_level_remote_id, r.access_level_name, r.expiration_date, r.has_direct_access, r.num_access_paths,
    d.decision, d.reviewer_user_id, d.decided_at,
    (SELECT json_group_array(a.reviewer_user_id) FROM
      (SELECT reviewer_user_id FROM uar_item_reviewers WHERE snapshot_row_seq = r.seq ORDER BY reviewer_user_id) a) AS assigned_reviewers
  FROM uar_snapshot_rows r LEFT JOIN uar_decisions d ON d.snapshot_row_seq = r.seq`;

/** An open review's deadline and reminder settings (the reference's reminder_schedule, as stored). */
export interface ReviewToRemind {
  uar_id: string;
  deadline: string;
  reminder_schedule: string | null;
  reminder_include_manager: number | null;
  send_reviewer_assignment_notification: number;
}

export function createUarDecisionStore(db: Db) {
  const page = db.prepare<{ uarId: string; after: number; limit: number }, ReviewItemRow>(
    `${ITEM_SELECT} WHERE r.uar_id = @uarId AND r.seq > @after ORDER BY r.seq LIMIT @limit`,
  );
  // A reviewer's rows: the join walks their index entries for this review, in snapshot order.
  const pageOfReviewer = db.prepare<{ uarId: string; reviewer: string; after: number; limit: number }, ReviewItemRow>(
    `${ITEM_SELECT} JOIN uar_item_reviewers m ON m.snapshot_row_seq = r.seq AND m.reviewer_user_id = @reviewer
     WHERE r.uar_id = @uarId AND m.uar_id = @uarId AND r.seq > @after ORDER BY r.seq LIMIT @limit`,
  );
  const one = db.prepare<[string, number], ReviewItemRow>(`${ITEM_SELECT} WHERE r.uar_id = ? AND r.seq = ?`);
  const unanswered = db.prepare<[string], ReviewItemRow>(
    `${ITEM_SELECT} WHERE r.uar_id = ? AND (d.decision IS NULL OR d.decision = 'LATER') ORDER BY r.seq`,
  );
  const revoked = db.prepare<[string], ReviewItemRow>(`${ITEM_SELECT} WHERE r.uar_id = ? AND d.decision = 'REVOKE' ORDER BY r.seq`);
  const upsert = db.prepare<[number, string, Decision, string, string]>(
    `INSERT INTO uar_decisions (snapshot_row_seq, uar_id, decision, reviewer_user_id, decided_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (snapshot_row_seq) DO UPDATE SET decision = excluded.decision, reviewer_user_id = excluded.reviewer_user_id,
       decided_at = excluded.decided_at`,
  );
  const policyOf = db.prepare<[string], { unanswered_decision: UnansweredDecision; closed_at: string | null }>(
    'SELECT unanswered_decision, closed_at FROM uar_policies WHERE uar_id = ?',
  );
  const setPolicy = db.prepare<[string, UnansweredDecision]>(
    `INSERT INTO uar_policies (uar_id, unanswered_decision) VALUES (?, ?)
     ON CONFLICT (uar_id) DO UPDATE SET unanswered_decision = excluded.unanswered_decision`,
  );
  const close = db.prepare<[string, string]>(
    `INSERT INTO uar_policies (uar_id, closed_at) VALUES (?, ?) ON CONFLICT (uar_id) DO UPDATE SET closed_at = excluded.closed_at`,
  );
  const due = db.prepare<[string], { id: string; name: string }>(
    `SELECT u.id, u.name FROM uars u LEFT JOIN uar_policies p ON p.uar_id = u.id
     WHERE u.deadline <= ? AND p.closed_at IS NULL
       AND ${reviewIsComplete('u')} ORDER BY u.deadline LIMIT 50`,
  );

  const rowsToAssign = db.prepare<{ uarId: string; after: number; limit: number }, RowToAssign>(
    'SELECT seq, item_type, item_id, user_id FROM uar_snapshot_rows WHERE uar_id = @uarId AND seq > @after ORDER BY seq LIMIT @limit',
  );
  const assign = db.prepare<[number, string, string, AssignedBy]>(
    'INSERT OR IGNORE INTO uar_item_reviewers (snapshot_row_seq, uar_id, reviewer_user_id, assigned_by) VALUES (?, ?, ?, ?)',
  );
  const unassign = db.prepare<[number]>('DELETE FROM uar_item_reviewers WHERE snapshot_row_seq = ?');
  const isAssigned = db.prepare<[number, string], { one: number }>(
    'SELECT 1 AS one FROM uar_item_reviewers WHERE snapshot_row_seq = ? AND reviewer_user_id = ?',
  );
  const reviewsIn = db.prepare<[string, string], { one: number }>(
    'SELECT 1 AS one FROM uar_item_reviewers WHERE reviewer_user_id = ? AND uar_id = ? LIMIT 1',
  );
  // "Unanswered" as the deadline counts it: no decision yet, or LATER.
  const assignments = db.prepare<{ reviewer: string; after: number; limit: number; openOnly: number }, AssignmentRow>(
    `SELECT u.seq, u.id AS uar_id, u.name, u.deadline, p.closed_at, coalesce(p.unanswered_decision, 'KEEP') AS unanswered_decision,
       count(*) AS assigned_items, sum(d.decision IS NULL OR d.decision = 'LATER') AS unanswered_items
     FROM uar_item_reviewers m JOIN uars u ON u.id = m.uar_id
       LEFT JOIN uar_policies p ON p.uar_id = m.uar_id
       LEFT JOIN uar_decisions d ON d.snapshot_row_seq = m.snapshot_row_seq
     WHERE m.reviewer_user_id = @reviewer AND u.seq > @after AND (@openOnly = 0 OR p.closed_at IS NULL)
       AND ${reviewIsComplete('u')}
     GROUP BY u.seq ORDER BY u.seq LIMIT @limit`,
  );

  // Reminders: the open reviews whose deadline is still ahead (few), then one review's reviewers with
  // rows unanswered, from its rows by uar_snapshot_rows_by_uar.
  const openAhead = db.prepare<[string], ReviewToRemind>(
    `SELECT u.id AS uar_id, u.deadline, u.reminder_schedule, u.reminder_include_manager, u.send_reviewer_assignment_notification
     FROM uars u LEFT JOIN uar_policies p ON p.uar_id = u.id
     WHERE u.deadline > ? AND p.closed_at IS NULL
       AND ${reviewIsComplete('u')}
     ORDER BY u.deadline LIMIT 500`,
  );
  const waitingReviewers = db.prepare<[string], { reviewer_user_id: string; unanswered: number }>(
    `SELECT m.reviewer_user_id, count(*) AS unanswered
     FROM uar_snapshot_rows r JOIN uar_item_reviewers m ON m.snapshot_row_seq = r.seq
       LEFT JOIN uar_decisions d ON d.snapshot_row_seq = r.seq
     WHERE r.uar_id = ? AND (d.decision IS NULL OR d.decision = 'LATER')
     GROUP BY m.reviewer_user_id`,
  );

  const countsFor = db.prepare<[string, string], { assigned: number; unanswered: number | null }>(
    `SELECT count(*) AS assigned, sum(d.decision IS NULL OR d.decision = 'LATER') AS unanswered
     FROM uar_item_reviewers m LEFT JOIN uar_decisions d ON d.snapshot_row_seq = m.snapshot_row_seq
     WHERE m.reviewer_user_id = ? AND m.uar_id = ?`,
  );

  return {
    items: (uarId: string, after: number | null, limit: number) => page.all({ uarId, after: after ?? 0, limit }),
    /** The rows assigned to `reviewer` in one review, in snapshot order. */
    itemsOfReviewer: (uarId: string, reviewer: string, after: number | null, limit: number) =>
      pageOfReviewer.all({ uarId, reviewer, after: after ?? 0, limit }),
    /** One chunk of a review's rows for assigning reviewers (seq order, after `after`). */
    rowsToAssign: (uarId: string, after: number, limit: number) => rowsToAssign.all({ uarId, after, limit }),
    assign: (seq: number, uarId: string, reviewerId: string, by: AssignedBy) => void assign.run(seq, uarId, reviewerId, by),
    unassign: (seq: number) => void unassign.run(seq),
    isAssigned: (seq: number, reviewerId: string) => isAssigned.get(seq, reviewerId) !== undefined,
    /** Whether `reviewerId` reviews any row of the review: what lets a member see it at all. */
    reviewsIn: (uarId: string, reviewerId: string) => reviewsIn.get(reviewerId, uarId) !== undefined,
    /** How many rows of one review are assigned to `reviewer`, and how many of those wait for an answer. */
    countsFor(uarId: string, reviewer: string): { assigned: number; unanswered: number } {
      const row = countsFor.get(reviewer, uarId)!;
      return { assigned: row.assigned, unanswered: row.unanswered ?? 0 };
    },
    /** The reviews with rows assigned to `reviewer`, oldest first; `openOnly` leaves out closed ones. */
    assignments: (reviewer: string, after: number | null, limit: number, openOnly: boolean) =>
      assignments.all({ reviewer, after: after ?? 0, limit, openOnly: openOnly ? 1 : 0 }),
    item: (uarId: string, seq: number) => one.get(uarId, seq),
    unanswered: (uarId: string) => unanswered.all(uarId),
    /** The rows of review `uarId` a reviewer decided to revoke, in snapshot order. */
    revoked: (uarId: string) => revoked.all(uarId),
    decide: (seq: number, uarId: string, decision: Decision, reviewerId: string, at: string) => void upsert.run(seq, uarId, decision, reviewerId, at),
    /** The review's policy; KEEP when none was set. */
    policy(uarId: string): { unanswered_decision: UnansweredDecision; closed_at: string | null } {
      return policyOf.get(uarId) ?? { unanswered_decision: 'KEEP', closed_at: null };
    },
    setPolicy: (uarId: string, decision: UnansweredDecision) => void setPolicy.run(uarId, decision),
    close: (uarId: string, at: string) => void close.run(uarId, at),
    /** Open reviews whose deadline is after `now`, soonest first, with what their reminders follow. */
    openReviewsAhead: (now: Date) => openAhead.all(now.toISOString()),
    /** The reviewers of review `uarId` with rows unanswered (or put off with LATER), and how many. */
    waitingReviewers: (uarId: string) => waitingReviewers.all(uarId),
    /** Reviews whose deadline has passed and whose policy has not been applied, soonest first. */
    due: (now: string) => due.all(now),
  };
}
