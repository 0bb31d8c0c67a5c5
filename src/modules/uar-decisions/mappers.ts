// The uar decisions area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { UARItem } from './responses.ts';
import type { ReviewItemRow } from './store.ts';

export function toApiReviewItem(row: ReviewItemRow): UARItem {
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
    assigned_reviewer_ids: JSON.parse(row.assigned_reviewers) as string[],
  };
}
