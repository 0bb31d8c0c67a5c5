// The break-glass area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { BreakGlass } from './responses.ts';
import type { BreakGlassRow } from './store.ts';

/** A row as the API's BreakGlass. */
export function toApiBreakGlass(row: BreakGlassRow, now: Date): BreakGlass {
  return {
    id: row.id,
    request_id: row.request_id,
    user_id: row.user_id,
    ...(row.item_type === 'resource' ? { resource_id: row.item_id } : { group_id: row.item_id }),
    item_name: row.item_name,
    admin_owner_id: row.admin_owner_id,
    access_level_remote_id: row.access_level_remote_id,
    access_level_name: row.access_level_name,
    reason: row.reason,
    ...(row.incident_id !== null && { incident_id: row.incident_id }),
    duration_minutes: row.duration_minutes,
    started_at: row.started_at,
    ends_at: row.ended_at !== null && row.ended_at < row.ends_at ? row.ended_at : row.ends_at,
    active: row.ended_at === null && row.ends_at > now.toISOString(),
    state: row.review_state,
    ...(row.reviewed_by_user_id !== null && { reviewed_by_user_id: row.reviewed_by_user_id }),
    ...(row.review_comment !== null && { review_comment: row.review_comment }),
    ...(row.reviewed_at !== null && { reviewed_at: row.reviewed_at }),
  };
}
