// The delegations area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, uuid, dateTime, integer, described, cursor } from '../../openapi/responses.ts';

export const Delegation = component('Delegation', described(v.object({
  id: uuid,
  delegator_user_id: uuid,
  delegate_user_id: uuid,
  start_time: dateTime,
  end_time: dateTime,
  reason: v.string(),
  created_at: dateTime,
  updated_at: dateTime,
}), "While start_time <= now < end_time, the delegate reviews access requests in the delegator's place."));
export type Delegation = v.InferOutput<typeof Delegation>;

export const PaginatedDelegationsList = component('PaginatedDelegationsList', v.object({
  next: cursor,
  previous: cursor,
  results: v.optional(v.array(Delegation)),
  total_count: v.optional(integer),
}));
