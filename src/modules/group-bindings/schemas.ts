// Valibot schemas for group bindings: create, bulk update, list.
import * as v from 'valibot';
import { PageQueryEntries, Uuid } from '../../http/common-schemas.ts';

/** A group id, lower-cased once here so every comparison and lookup after it agrees. */
const GroupId = v.pipe(Uuid, v.toLowerCase());

/** A binding joins at least two groups (one alone binds nothing) and at most this many. */
export const MAX_BOUND_GROUPS = 100;

const BoundGroups = v.pipe(
  v.array(v.object({ group_id: GroupId }), 'must be a list of objects with a group_id'),
  v.minLength(2, 'must list at least two groups: a binding joins groups together'),
  v.maxLength(MAX_BOUND_GROUPS, `must list at most ${MAX_BOUND_GROUPS} groups`),
);

export const CreateGroupBindingBody = v.object({
  source_group_id: GroupId,
  groups: BoundGroups,
});
export type CreateGroupBindingInput = v.InferOutput<typeof CreateGroupBindingBody>;

const UpdateGroupBindingItem = v.object({
  group_binding_id: v.pipe(Uuid, v.toLowerCase()),
  source_group_id: GroupId,
  groups: BoundGroups,
});
export type UpdateGroupBindingInput = v.InferOutput<typeof UpdateGroupBindingItem>;

export const UpdateGroupBindingsBody = v.object({
  group_bindings: v.pipe(
    v.array(UpdateGroupBindingItem, 'must be a list of group bindings'),
    v.maxLength(1000, 'must list at most 1000 group bindings'),
  ),
});

export const ListGroupBindingsQuery = v.object({ ...PageQueryEntries });
