// Valibot schemas for owners and their user lists.
import { MAX_MINUTES } from '../../lib/durations.ts';
import * as v from 'valibot';
import { Name, PageQueryEntries, Text, Uuid } from '../../http/common-schemas.ts';

/** Minutes before an unanswered request escalates to the next owner user; 0 turns escalation off. At most a year. */
const EscalationPeriodMinutes = v.pipe(
  v.number('must be a number'),
  v.integer('must be a whole number of minutes'),
  v.minValue(0, 'must be at least 0'),
  v.maxValue(MAX_MINUTES, `must be at most ${MAX_MINUTES} (a year)`),
);

/** At most this many users on one owner. */
export const MAX_OWNER_USERS = 1000;

/** User ids in escalation order; each at most once. */
const UserIds = v.pipe(
  v.array(Uuid, 'must be a list of user ids'),
  v.maxLength(MAX_OWNER_USERS, `must list at most ${MAX_OWNER_USERS} users`),
  v.transform((ids) => ids.map((id) => id.toLowerCase())),
  v.check((ids) => new Set(ids).size === ids.length, 'must not list a user twice'),
);

export const CreateOwnerBody = v.object({
  name: Name(200),
  description: v.optional(Text(2000), ''),
  access_request_escalation_period: v.optional(EscalationPeriodMinutes, 0),
  user_ids: UserIds,
  reviewer_message_channel_id: v.optional(Uuid),
  source_group_id: v.optional(Uuid),
});

/** "" clears the link, as the reference says for reviewer_message_channel_id and source_group_id. */
const ClearableUuid = v.union([v.literal(''), Uuid], 'must be a UUID, or "" to clear it');

export const UpdateOwnerItem = v.object({
  owner_id: Uuid,
  name: v.optional(Name(200)),
  description: v.optional(Text(2000)),
  access_request_escalation_period: v.optional(EscalationPeriodMinutes),
  reviewer_message_channel_id: v.optional(ClearableUuid),
  source_group_id: v.optional(ClearableUuid),
});

export type UpdateOwnerInput = v.InferOutput<typeof UpdateOwnerItem>;

export const UpdateOwnersBody = v.object({
  owners: v.pipe(
    v.array(UpdateOwnerItem, 'must be a list of owners'),
    v.maxLength(1000, 'must list at most 1000 owners'),
  ),
});

export const SetOwnerUsersBody = v.object({ user_ids: UserIds });

export const ListOwnersQuery = v.object({
  ...PageQueryEntries,
  name: v.optional(v.pipe(v.string('must be given once'), v.minLength(1, 'must not be empty'))),
});
