// Valibot schemas for visibility: the reference's VisibilityInfo as a body.
import * as v from 'valibot';
import { Uuid } from '../../http/common-schemas.ts';
import { VISIBILITY_TYPES } from './store.ts';

const GroupIds = v.pipe(
  v.array(Uuid, 'must be a list of group ids'),
  v.maxLength(1000, 'must list at most 1000 groups'),
  v.transform((ids) => ids.map((id) => id.toLowerCase())),
  v.check((ids) => new Set(ids).size === ids.length, 'must not list a group twice'),
);

/** VisibilityInfo: GLOBAL takes no groups; LIMITED with none means admins, owners' users and holders only. */
export const VisibilityInfoBody = v.pipe(
  v.object({
    visibility: v.picklist(VISIBILITY_TYPES, `must be one of ${VISIBILITY_TYPES.join(', ')}`),
    visibility_group_ids: v.optional(GroupIds, []),
  }),
  v.forward(
    v.check((info) => info.visibility === 'LIMITED' || info.visibility_group_ids.length === 0, 'must be empty when visibility is GLOBAL'),
    ['visibility_group_ids'],
  ),
);
export type VisibilityInfoInput = v.InferOutput<typeof VisibilityInfoBody>;
