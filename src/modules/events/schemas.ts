// Query schemas for the audit trail.
import * as v from 'valibot';
import { PageQueryEntries, Uuid } from '../../http/common-schemas.ts';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** A date (`2021-11-01`, a whole UTC day) or an ISO 8601 date-time with a zone (`2025-01-01T00:00:00Z`). */
export const DateOrDateTime = v.pipe(
  v.string('must be given once'),
  v.check((raw) => (DATE_ONLY.test(raw) || DATE_TIME.test(raw)) && !Number.isNaN(Date.parse(raw)),
    'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with a time zone'),
);

export const ListEventsQuery = v.object({
  ...PageQueryEntries,
  start_date_filter: v.optional(DateOrDateTime),
  end_date_filter: v.optional(DateOrDateTime),
  actor_filter: v.optional(Uuid),
  object_filter: v.optional(Uuid),
  event_type_filter: v.optional(v.pipe(v.string('must be given once'), v.minLength(1, 'must not be empty'))),
  api_token_filter: v.optional(v.pipe(v.string('must be given once'), v.minLength(1, 'must not be empty'))),
});

export const isDateOnly = (raw: string): boolean => DATE_ONLY.test(raw);
