// The owners area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { Owner, UpdateOwnerInfo } from './responses.ts';
import type { OwnerRow } from './store.ts';

/** An Owner as Gatehouse writes it: a missing channel or source group is left out, never null, so it is also the reference's UpdateOwnerInfo. */
export type ApiOwner = Owner & UpdateOwnerInfo;

/** Null links are left out rather than sent as null, so the same object also fits UpdateOwnerInfo. */
export function toApiOwner(row: OwnerRow): ApiOwner {
  return {
    owner_id: row.id,
    name: row.name,
    description: row.description,
    access_request_escalation_period: row.access_request_escalation_period ?? 0,
    ...(row.reviewer_message_channel_id !== null && { reviewer_message_channel_id: row.reviewer_message_channel_id }),
    ...(row.source_group_id !== null && { source_group_id: row.source_group_id }),
  };
}
