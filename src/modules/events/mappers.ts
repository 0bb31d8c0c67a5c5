// The events area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { Event } from './responses.ts';

export interface EventRow {
  seq: number;
  id: string;
  event_type: string;
  actor_user_id: string;
  actor_name: string;
  actor_email: string | null;
  actor_ip_address: string | null;
  api_token_name: string | null;
  api_token_preview: string | null;
  sub_events: string;
  created_at: string;
  prev_hash: string;
  hash: string;
}

/** An event as the API answers it (the Event response schema). */
export type ApiEvent = Event;

export function toApiEvent(row: EventRow): ApiEvent {
  // Assigned one by one in the schema's order (what JSON shows), the optional ones only when set: no
  // spread of a temporary object per field, on a page of 200 events.
  const event: Partial<ApiEvent> = { event_id: row.id, actor_user_id: row.actor_user_id, actor_name: row.actor_name };
  if (row.actor_email !== null) event.actor_email = row.actor_email;
  if (row.actor_ip_address !== null) event.actor_ip_address = row.actor_ip_address;
  if (row.api_token_name !== null) event.api_token_name = row.api_token_name;
  if (row.api_token_preview !== null) event.api_token_preview = row.api_token_preview;
  event.event_type = row.event_type;
  event.created_at = row.created_at;
  event.sub_events = JSON.parse(row.sub_events) as ApiEvent['sub_events'];
  return event as ApiEvent;
}
