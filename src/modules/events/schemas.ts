// Query schemas for the audit trail.
import * as v from 'valibot';
import { PageQueryEntries, QueryDate, Uuid } from '../../http/common-schemas.ts';

export const ListEventsQuery = v.object({
  ...PageQueryEntries,
  start_date_filter: v.optional(QueryDate),
  end_date_filter: v.optional(QueryDate),
  actor_filter: v.optional(Uuid),
  object_filter: v.optional(Uuid),
  event_type_filter: v.optional(v.pipe(v.string('must be given once'), v.minLength(1, 'must not be empty'))),
  api_token_filter: v.optional(v.pipe(v.string('must be given once'), v.minLength(1, 'must not be empty'))),
});
