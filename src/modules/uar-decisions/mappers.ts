// The uar decisions area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { UARItem, UARAssignment } from './responses.ts';
import type { ReviewItemRow, AssignmentRow } from './store.ts';
import { snapshotSubject } from '../access-reviews/mappers.ts';

export function toApiReviewItem(row: ReviewItemRow): UARItem {
  return {
    uar_item_id: row.seq,
    uar_id: row.uar_id,
    ...snapshotSubject(row),
    has_direct_access: row.has_direct_access === 1,
    num_access_paths: row.num_access_paths,
    decision: row.decision,
    reviewer_user_id: row.reviewer_user_id,
    decided_at: row.decided_at,
    assigned_reviewer_ids: JSON.parse(row.assigned_reviewers) as string[],
  };
}

export const toApiAssignment = (row: AssignmentRow): UARAssignment => ({
  uar_id: row.uar_id,
  name: row.name,
  deadline: row.deadline,
  closed_at: row.closed_at,
  unanswered_decision: row.unanswered_decision,
  assigned_items: row.assigned_items,
  unanswered_items: row.unanswered_items,
});
