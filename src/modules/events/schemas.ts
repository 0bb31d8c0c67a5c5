// Query schemas for the audit trail.
import * as v from 'valibot';
import { PageQueryEntries, QueryDate, Uuid } from '../../http/common-schemas.ts';
import { isEventType, type EventType } from './types.ts';

/**
 * One of the closed set of event types (src/modules/events/types.ts), in any letter case; an unknown one
 * is refused rather than matching nothing, so a typo cannot pass for "no such events".
 */
export const EventTypeName = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.toUpperCase(),
  v.check(isEventType, 'must be one of the event types listed in docs/events.md'),
  v.transform((name) => name as EventType),
);

export const ListEventsQuery = v.object({
  ...PageQueryEntries,
  start_date_filter: v.optional(QueryDate),
  end_date_filter: v.optional(QueryDate),
  actor_filter: v.optional(Uuid),
  object_filter: v.optional(Uuid),
  event_type_filter: v.optional(v.pipe(v.string('must be given once'), v.minLength(1, 'must not be empty'), EventTypeName)),
  api_token_filter: v.optional(v.pipe(v.string('must be given once'), v.minLength(1, 'must not be empty'))),
});
