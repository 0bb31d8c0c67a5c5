// Valibot schemas for delegations: the reference's CreateDelegationRequest and the list's filters.
import * as v from 'valibot';
import { PageQueryEntries, Text, Uuid } from '../../http/common-schemas.ts';
import { parseDateInput } from '../../lib/dates.ts';

/** A date-time with a zone (or a date: midnight UTC), read strictly; stored as ISO UTC. */
const DateTime = v.pipe(
  v.string('must be a string'),
  v.metadata({ openapi: { type: 'string', format: 'date-time' } }),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const parsed = parseDateInput(dataset.value);
    if (parsed) return parsed.at.toISOString();
    addIssue({ message: 'must be a real date-time with a time zone (YYYY-MM-DDTHH:MM:SSZ) or a date (YYYY-MM-DD)' });
    return NEVER;
  }),
);

export const CreateDelegationBody = v.object({
  delegator_user_id: v.pipe(Uuid, v.toLowerCase()),
  delegate_user_id: v.pipe(Uuid, v.toLowerCase()),
  start_time: DateTime,
  end_time: DateTime,
  reason: v.pipe(Text(2000), v.trim(), v.minLength(1, 'must not be empty')),
});
export type CreateDelegationInput = v.InferOutput<typeof CreateDelegationBody>;

export const ListDelegationsQuery = v.object({
  ...PageQueryEntries,
  delegator_user_id: v.optional(v.pipe(Uuid, v.toLowerCase())),
  delegate_user_id: v.optional(v.pipe(Uuid, v.toLowerCase())),
});
