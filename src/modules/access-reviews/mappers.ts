// The access reviews area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { UAR, UARSnapshotEntry } from './responses.ts';
import type { UarScopeInput } from './schemas.ts';

export type ItemType = 'RESOURCE' | 'GROUP';

export interface UarRow {
  seq: number;
  id: string;
  name: string;
  reviewer_assignment_policy: UAR['reviewer_assignment_policy'];
  send_reviewer_assignment_notification: number;
  deadline: string;
  time_zone: string;
  self_review_allowed: number;
  instantly_action_reviews: number;
  reminder_schedule: string | null;
  reminder_include_manager: number | null;
  uar_scope: string | null;
  created_by_user_id: string;
  created_at: string;
}

/** One holding as the snapshot keeps it. */
export interface SnapshotEntry {
  item_type: ItemType;
  item_id: string;
  item_name: string;
  user_id: string;
  user_full_name: string;
  user_email: string;
  access_level_remote_id: string;
  access_level_name: string;
  expiration_date: string | null;
  has_direct_access: boolean;
  num_access_paths: number;
  access_path_group_ids: string[];
}

/** A review as the reference's UAR. */
export function toApiAccessReview(row: UarRow): UAR {
  return {
    uar_id: row.id,
    name: row.name,
    reviewer_assignment_policy: row.reviewer_assignment_policy,
    send_reviewer_assignment_notification: row.send_reviewer_assignment_notification === 1,
    deadline: row.deadline,
    time_zone: row.time_zone,
    self_review_allowed: row.self_review_allowed === 1,
    instantly_action_reviews: row.instantly_action_reviews === 1,
    ...(row.uar_scope !== null && { uar_scope: JSON.parse(row.uar_scope) as UarScopeInput }),
  };
}

/**
 * Whose access on what, at which level and until when: the fields a snapshot row and a reviewer's item
 * (uar-decisions' UARItem) both open with, in the same words.
 */
export const snapshotSubject = (row: Omit<SnapshotEntry, 'has_direct_access' | 'num_access_paths' | 'access_path_group_ids'>) => ({
  item_type: row.item_type,
  item_id: row.item_id,
  item_name: row.item_name,
  user_id: row.user_id,
  full_name: row.user_full_name,
  email: row.user_email,
  access_level: { access_level_name: row.access_level_name, access_level_remote_id: row.access_level_remote_id },
  expiration_date: row.expiration_date,
});

/** One row of a review's snapshot as GET /v1/uars/{uar_id}/snapshot answers it. */
export const toApiSnapshotEntry = (row: SnapshotEntry): UARSnapshotEntry => ({
  ...snapshotSubject(row),
  has_direct_access: row.has_direct_access,
  num_access_paths: row.num_access_paths,
  access_path_group_ids: row.access_path_group_ids,
});
