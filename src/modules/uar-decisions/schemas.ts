// Valibot schemas for access-review decisions.
import * as v from 'valibot';
import { PageQueryEntries, QueryBoolean, Uuid } from '../../http/common-schemas.ts';

/** GET /v1/uar/{uar_id}/items: `assigned_to_me` narrows an admin's list to their own rows (a member's always is). */
export const ListReviewItemsQuery = v.object({ ...PageQueryEntries, assigned_to_me: v.optional(QueryBoolean) });

/** GET /v1/uar-assignments: `open_only` leaves out reviews whose deadline has closed them. */
export const ListAssignmentsQuery = v.object({ ...PageQueryEntries, open_only: v.optional(QueryBoolean) });

/** POST /v1/uar/{uar_id}/assignments: the reviewers of each listed row, replacing those it had. */
export const AssignBody = v.object({
  assignments: v.pipe(
    v.array(
      v.object({
        uar_item_id: v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1')),
        reviewer_ids: v.pipe(
          v.array(Uuid, 'must be a list of user ids'),
          v.maxLength(50, 'must list at most 50 reviewers'),
          v.transform((ids) => ids.map((id) => id.toLowerCase())),
        ),
      }),
      'must be a list of assignments',
    ),
    v.minLength(1, 'must list at least one assignment'),
    v.maxLength(1000, 'must list at most 1000 assignments'),
  ),
});
export type AssignInput = v.InferOutput<typeof AssignBody>;

export const DecideBody = v.object({
  decisions: v.pipe(
    v.array(
      v.object({
        uar_item_id: v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1')),
        decision: v.picklist(['KEEP', 'REVOKE', 'LATER'], 'must be KEEP, REVOKE or LATER'),
      }),
      'must be a list of decisions',
    ),
    v.minLength(1, 'must list at least one decision'),
    v.maxLength(1000, 'must list at most 1000 decisions'),
  ),
});
export type DecideInput = v.InferOutput<typeof DecideBody>;

export const PolicyBody = v.object({
  unanswered_decision: v.picklist(['KEEP', 'REVOKE'], 'must be KEEP or REVOKE'),
});
