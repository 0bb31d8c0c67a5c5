// Valibot schemas for access-review decisions.
import * as v from 'valibot';
import { PageQueryEntries } from '../../http/common-schemas.ts';

export const ListReviewItemsQuery = v.object({ ...PageQueryEntries });

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
