// Bodies of the reviewer-stage and reviewer endpoints of resources and groups (the reference's
// ReviewerStageList and ReviewerIDList).
import * as v from 'valibot';
import { Uuid } from '../../http/common-schemas.ts';
import { ReviewerStages } from '../request-settings/schemas.ts';

/** PUT …/reviewer-stages: the reference's ReviewerStageList. */
export const SetReviewerStagesBody = v.object({ stages: ReviewerStages });

/** PUT …/reviewers: the reference's ReviewerIDList. */
export const SetReviewersBody = v.object({
  reviewer_ids: v.pipe(
    v.array(Uuid, 'must be a list of owner ids'),
    v.maxLength(1000, 'must list at most 1000 ids'),
    v.transform((ids) => ids.map((id) => id.toLowerCase())),
  ),
});
