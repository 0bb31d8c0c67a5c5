// SQL for access-review decisions: a decision per snapshot row, and each review's policy for the rows
// nobody answered by its deadline.
import type { Db } from '../../db/open.ts';
import type { SnapshotEntry } from '../access-reviews/store.ts';

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
}

export function toApiReviewItem(row: ReviewItemRow) {
  return {
    uar_item_id: row.seq,
    uar_id: row.uar_id,
    item_type: row.item_type,
    item_id: row.item_id,
    item_name: row.item_name,
    user_id: row.user_id,
    full_name: row.user_full_name,
    email: row.user_email,
    access_level: { access_level_name: row.access_level_name, access_level_remote_id: row.access_level_remote_id },
    expiration_date: row.expiration_date,
    has_direct_access: row.has_direct_access === 1,
    num_access_paths: row.num_access_paths,
    decision: row.decision,
    reviewer_user_id: row.reviewer_user_id,
    decided_at: row.decided_at,
  };
}

const ITEM_SELECT = `SELECT r.seq, r.uar_id, r.item_type, r.item_id, r.item_name, r.user_id, r.user_full_name, r.user_email,
    r.access_level_remote_id, r.access_level_name, r.expiration_date, r.has_direct_access, r.num_access_paths,
    d.decision, d.reviewer_user_id, d.decided_at
  FROM uar_snapshot_rows r LEFT JOIN uar_decisions d ON d.snapshot_row_seq = r.seq`;

export function createUarDecisionStore(db: Db) {
  const page = db.prepare<{ uarId: string; after: number; limit: number }, ReviewItemRow>(
    `${ITEM_SELECT} WHERE r.uar_id = @uarId AND r.seq > @after ORDER BY r.seq LIMIT @limit`,
  );
  const one = db.prepare<[string, number], ReviewItemRow>(`${ITEM_SELECT} WHERE r.uar_id = ? AND r.seq = ?`);
  const unanswered = db.prepare<[string], ReviewItemRow>(
    `${ITEM_SELECT} WHERE r.uar_id = ? AND (d.decision IS NULL OR d.decision = 'LATER') ORDER BY r.seq`,
  );
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
       AND NOT EXISTS (SELECT 1 FROM uar_snapshots_in_progress w WHERE w.uar_id = u.id) ORDER BY u.deadline LIMIT 50`,
  );

  return {
    items: (uarId: string, after: number | null, limit: number) => page.all({ uarId, after: after ?? 0, limit }),
    item: (uarId: string, seq: number) => one.get(uarId, seq),
    unanswered: (uarId: string) => unanswered.all(uarId),
    decide: (seq: number, uarId: string, decision: Decision, reviewerId: string, at: string) => void upsert.run(seq, uarId, decision, reviewerId, at),
    /** The review's policy; KEEP when none was set. */
    policy(uarId: string): { unanswered_decision: UnansweredDecision; closed_at: string | null } {
      return policyOf.get(uarId) ?? { unanswered_decision: 'KEEP', closed_at: null };
    },
    setPolicy: (uarId: string, decision: UnansweredDecision) => void setPolicy.run(uarId, decision),
    close: (uarId: string, at: string) => void close.run(uarId, at),
    /** Reviews whose deadline has passed and whose policy has not been applied, soonest first. */
    due: (now: string) => due.all(now),
  };
}
