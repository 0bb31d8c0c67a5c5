// Valibot schemas for on-call schedules and a group's links to them.
import * as v from 'valibot';
import { Name, Text, Uuid } from '../../http/common-schemas.ts';
import { ON_CALL_PROVIDER_NAMES } from './provider.ts';

/** POST /v1/on-call-schedules: the reference's two fields; a `name` given is accepted and replaced by the provider's. */
export const CreateOnCallScheduleBody = v.object({
  third_party_provider: v.picklist(ON_CALL_PROVIDER_NAMES, `must be one of ${ON_CALL_PROVIDER_NAMES.join(', ')}`),
  remote_id: v.pipe(Text(200), v.trim(), v.minLength(1, 'must not be empty')),
  name: v.optional(Name(200)),
});

/** At most this many schedules linked to one group. */
export const MAX_LINKED_SCHEDULES = 100;

/** PUT /v1/groups/{group_id}/on-call-schedules: the ids, each once, in the order to keep. */
export const SetGroupSchedulesBody = v.object({
  on_call_schedule_ids: v.pipe(
    v.array(v.pipe(Uuid, v.toLowerCase()), 'must be a list of ids'),
    v.maxLength(MAX_LINKED_SCHEDULES, `must list at most ${MAX_LINKED_SCHEDULES} ids`),
  ),
});
