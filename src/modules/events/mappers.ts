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
  return {
    event_id: row.id,
    actor_user_id: row.actor_user_id,
    actor_name: row.actor_name,
    ...(row.actor_email !== null && { actor_email: row.actor_email }),
    ...(row.actor_ip_address !== null && { actor_ip_address: row.actor_ip_address }),
    ...(row.api_token_name !== null && { api_token_name: row.api_token_name }),
    ...(row.api_token_preview !== null && { api_token_preview: row.api_token_preview }),
    event_type: row.event_type,
    created_at: row.created_at,
    sub_events: JSON.parse(row.sub_events) as ApiEvent['sub_events'],
  };
}
