// The uar-decisions area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, cursor, uuid, dateTime, integer, extension, described } from '../../openapi/responses.ts';
import { ResourceAccessLevel } from '../access/responses.ts';

/** A review's policy for the rows nobody answered by the deadline. */
const policy = {
  unanswered_decision: described(v.picklist(['KEEP', 'REVOKE']), 'What the deadline does to rows nobody answered (or put off with LATER).'),
  closed_at: v.nullable(described(dateTime, "When the deadline's policy was applied; decisions are refused after.")),
};

export const UARItem = component('UARItem', extension(v.object({
  uar_item_id: integer,
  uar_id: uuid,
  item_type: v.picklist(['RESOURCE', 'GROUP']),
  item_id: uuid,
  item_name: v.string(),
  user_id: uuid,
  full_name: v.optional(v.string()),
  email: v.optional(v.string()),
  access_level: ResourceAccessLevel,
  expiration_date: v.optional(v.nullable(dateTime)),
  has_direct_access: v.boolean(),
  num_access_paths: v.optional(integer),
  decision: v.nullable(v.picklist(['KEEP', 'REVOKE', 'LATER'])),
  reviewer_user_id: v.optional(v.nullable(described(uuid, 'Who made the decision.'))),
  decided_at: v.optional(v.nullable(dateTime)),
  assigned_reviewer_ids: described(v.array(uuid), 'Who is asked to review this row (any one of them decides it), ascending; empty: organization admins only.'),
}), "One row of a review's snapshot (who held what at which level) with its decision, if any."));
export type UARItem = v.InferOutput<typeof UARItem>;

export const UARAssignment = component('UARAssignment', extension(v.object({
  uar_id: uuid,
  name: v.string(),
  deadline: dateTime,
  ...policy,
  assigned_items: integer,
  unanswered_items: integer,
}), 'A review with rows assigned to the caller: how many, and how many still wait for an answer (none yet, or LATER).'));
export type UARAssignment = v.InferOutput<typeof UARAssignment>;

export const UARPolicy = component('UARPolicy', v.pipe(v.object({
  uar_id: uuid,
  ...policy,
}), v.metadata({ "x-gatehouse-extension": true })));
export type UARPolicy = v.InferOutput<typeof UARPolicy>;

/** A page of a review's rows, with the review's policy. */
export const ReviewItemsPage = v.object({ results: v.array(UARItem), next: cursor, previous: cursor, ...policy });

/** The caller's assignments, a page at a time. */
export const AssignmentsPage = v.object({ results: v.array(UARAssignment), next: cursor, previous: cursor });

/** The rows a decision or an assignment changed, as they now stand. */
export const ReviewItemsAnswer = v.object({ results: v.array(UARItem) });
