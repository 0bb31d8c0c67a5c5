// The events area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { Event, PaginatedEventList } from './responses.ts';
import { ListEventsQuery } from './schemas.ts';

export const eventRoutes = defineRoutes('events', {
  'GET /v1/events': {
    role: 'admin-read',
    summary: 'Read the audit trail',
    description:
      'Newest first. A date-only `end_date_filter` includes that whole day. `api_token_filter` takes a token ' +
      'label, or `label:preview` as events show it. `event_type_filter` takes one of the closed set of event types ' +
      '(docs/events.md) in any letter case; any other value is refused (`validation_failed`), never matched against nothing.',
    query: ListEventsQuery,
    responses: { 200: PaginatedEventList },
  },
  'GET /v1/events/{event_id}': {
    role: 'admin-read', items: { event_id: null },
    summary: 'Get an event',
    responses: { 200: Event },
  },
});
