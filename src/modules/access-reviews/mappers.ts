// The access reviews area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { UAR } from './responses.ts';
import type { UarScopeInput } from './schemas.ts';
import type { UarRow } from './store.ts';

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
