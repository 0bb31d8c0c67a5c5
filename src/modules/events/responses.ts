// The events area's response shapes (Valibot): the audit trail's events, as the reference writes them; the types its mappers return and its answers in the API document.
import * as v from 'valibot';
import { component, uuid, dateTime, described, cursor } from '../../openapi/responses.ts';

export const SubEvent = component('SubEvent', described(v.objectWithRest({
  sub_event_type: v.string(),
}, v.unknown()), 'One record an event touched.'));
export type SubEvent = v.InferOutput<typeof SubEvent>;

export const Event = component('Event', described(v.object({
  event_id: uuid,
  actor_user_id: uuid,
  actor_name: v.string(),
  actor_email: v.optional(v.string()),
  event_type: v.string(),
  created_at: dateTime,
  actor_ip_address: v.optional(v.string()),
  api_token_name: v.optional(v.string()),
  api_token_preview: v.optional(v.string()),
  sub_events: v.array(SubEvent),
}), 'One entry of the audit trail: who did what, and when.'));
export type Event = v.InferOutput<typeof Event>;

export const PaginatedEventList = component('PaginatedEventList', v.object({
  next: cursor,
  previous: cursor,
  results: v.optional(v.array(Event)),
}));
