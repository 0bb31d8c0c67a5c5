// The events module's operations in Gatehouse's API document (format: src/openapi/operations.ts).
import { defineOperations } from '../../openapi/operations.ts';
import { Event, PaginatedEventList } from '../../openapi/components/events.ts';
import { ListEventsQuery } from './schemas.ts';

export const eventOperations = defineOperations('events', {
  'GET /v1/events': {
    summary: 'Read the audit trail',
    description:
      'Newest first. A date-only `end_date_filter` includes that whole day. `api_token_filter` takes a token ' +
      'label, or `label:preview` as events show it. `event_type_filter` takes one of the closed set of event types ' +
      '(docs/events.md) in any letter case; any other value is refused (`validation_failed`), never matched against nothing.',
    query: ListEventsQuery,
    responses: { 200: PaginatedEventList },
  },
  'GET /v1/events/{event_id}': {
    summary: 'Get an event',
    responses: { 200: Event },
  },
});
