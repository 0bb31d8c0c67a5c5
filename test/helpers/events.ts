// Reading the audit trail in tests as a client does, through GET /v1/events: what a write recorded,
// and that a refused write recorded nothing.
import assert from 'node:assert/strict';
import type { ApiClient } from './client.ts';

/** An event as GET /v1/events lists it (the API document has already checked the whole shape). */
export interface AuditEvent {
  event_id: string;
  event_type: string;
  actor_user_id: string;
  created_at: string;
  api_token_name?: string;
  sub_events: ({ sub_event_type: string } & Record<string, unknown>)[];
}

/** Which events: of one `type` (event_type_filter), naming one `object` (object_filter); both optional. */
export interface EventFilter {
  type?: string | undefined;
  object?: string | undefined;
}

/**
 * Every event matching `filter`, newest first, as `api` may see them. Fails unless they all fit one
 * page of 1000, so a count can never be quietly cut short.
 */
export async function readEvents<E = AuditEvent>(api: ApiClient, filter: EventFilter = {}): Promise<E[]> {
  const res = await api.get('/events', { event_type_filter: filter.type, object_filter: filter.object, page_size: 1000 });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.next, null, 'more than 1000 events match: narrow the filter');
  return res.body.results as E[];
}

/** How many events match `filter` (see readEvents). */
export async function countEvents(api: ApiClient, filter: EventFilter = {}): Promise<number> {
  return (await readEvents(api, filter)).length;
}
