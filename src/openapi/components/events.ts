// Response components — the audit trail: events and their sub-events.
// Wire facts (field names, types, formats, enums, required) agree with the reference; see docs/openapi.md.
import { component } from '../schema.ts';

export const SubEvent = component('SubEvent', {
  description: 'One record an event touched.',
  type: 'object',
  properties: { sub_event_type: { type: 'string' } },
  required: ['sub_event_type'],
  additionalProperties: true,
});

export const Event = component('Event', {
  description: 'One entry of the audit trail: who did what, and when.',
  type: 'object',
  properties: {
    event_id: { type: 'string', format: 'uuid' },
    actor_user_id: { type: 'string', format: 'uuid' },
    actor_name: { type: 'string' }, // the reference writes `format: string`, meaning this
    actor_email: { type: 'string' },
    event_type: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    actor_ip_address: { type: 'string' },
    api_token_name: { type: 'string' },
    api_token_preview: { type: 'string' },
    sub_events: { type: 'array', items: SubEvent },
  },
  required: ['event_id', 'actor_user_id', 'actor_name', 'event_type', 'created_at'],
});

export const PaginatedEventList = component('PaginatedEventList', {
  type: 'object',
  properties: {
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: Event },
  },
});
