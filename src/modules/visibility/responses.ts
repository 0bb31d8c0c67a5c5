// The visibility area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { VISIBILITY_TYPES } from './store.ts';
import { component, uuid, described } from '../../openapi/responses.ts';

export const VisibilityTypeEnum = component('VisibilityTypeEnum', described(v.picklist(VISIBILITY_TYPES), 'The visibility level of the entity.'));

export const VisibilityInfo = component('VisibilityInfo', described(v.object({
  visibility: VisibilityTypeEnum,
  visibility_group_ids: v.optional(v.array(uuid)),
}), 'Visibility information of an entity. GLOBAL: every user sees it. LIMITED: admins, users of its admin owner, users who hold it, and effective members of `visibility_group_ids`.'));
export type VisibilityInfo = v.InferOutput<typeof VisibilityInfo>;
