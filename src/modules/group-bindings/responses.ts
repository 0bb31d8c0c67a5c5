// The group-bindings area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, uuid, dateTime, paginated } from '../../openapi/responses.ts';
import { GroupTypeEnum } from '../../openapi/enums.ts';

export const GroupBindingGroup = component('GroupBindingGroup', v.object({
  group_id: uuid,
  group_type: GroupTypeEnum,
}));
export type GroupBindingGroup = v.InferOutput<typeof GroupBindingGroup>;

export const GroupBinding = component('GroupBinding', v.object({
  group_binding_id: uuid,
  created_by_id: uuid,
  created_at: dateTime,
  source_group_id: uuid,
  groups: v.array(GroupBindingGroup),
}));
export type GroupBinding = v.InferOutput<typeof GroupBinding>;

export const PaginatedGroupBindingsList = paginated('PaginatedGroupBindingsList', GroupBinding);

export const GroupBindingList = component('GroupBindingList', v.object({
  group_bindings: v.array(GroupBinding),
}));
