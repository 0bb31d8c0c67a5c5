// The access area's response shapes (Valibot): who holds what — users and groups on resources and groups, the levels items offer — the types its mappers return, and its answers in the API document.
// Valibot schemas; wire facts (field names, types, formats, enums) agree with the reference, and a field Gatehouse always sends is required. See docs/openapi.md.
import * as v from 'valibot';
import { component, uuid, dateTime, integer, extension, described, cursor } from '../../openapi/responses.ts';
import { PropagationStatus } from '../connectors/responses.ts';

export const ResourceAccessLevel = component('ResourceAccessLevel', described(v.object({
  access_level_name: v.string(),
  access_level_remote_id: v.string(),
}), 'A level of access a resource offers.'));
export type ResourceAccessLevel = v.InferOutput<typeof ResourceAccessLevel>;

export const ResourceAccessUser = component('ResourceAccessUser', described(v.object({
  resource_id: uuid,
  resource_name: v.optional(v.string()),
  description: v.optional(v.string()),
  user_id: uuid,
  access_level: ResourceAccessLevel,
  full_name: v.string(),
  email: v.string(),
  expiration_date: v.optional(v.nullable(dateTime)),
  has_direct_access: v.boolean(),
  num_access_paths: v.pipe(integer, v.metadata({ format: 'int32' })),
  propagation_status: v.optional(v.nullable(PropagationStatus)),
}), 'A user with direct access to a resource, as a list shows it.'));
export type ResourceAccessUser = v.InferOutput<typeof ResourceAccessUser>;

export const ResourceAccessUserList = component('ResourceAccessUserList', v.object({
  next: cursor,
  previous: cursor,
  results: v.optional(v.array(ResourceAccessUser)),
}));

export const ResourceUser = component('ResourceUser', described(v.object({
  resource_id: uuid,
  user_id: uuid,
  access_level: ResourceAccessLevel,
  full_name: v.string(),
  email: v.string(),
  expiration_date: v.optional(v.nullable(dateTime)),
}), "A user's direct access to a resource at one level."));
export type ResourceUser = v.InferOutput<typeof ResourceUser>;

export const GroupAccessLevel = component('GroupAccessLevel', described(v.object({
  access_level_name: v.string(),
  access_level_remote_id: v.string(),
}), 'A level of membership a group offers.'));
export type GroupAccessLevel = v.InferOutput<typeof GroupAccessLevel>;

export const GroupUser = component('GroupUser', described(v.object({
  group_id: uuid,
  group_name: v.string(),
  description: v.string(),
  user_id: uuid,
  access_level: v.optional(v.nullable(GroupAccessLevel)),
  full_name: v.string(),
  email: v.string(),
  expiration_date: v.optional(v.nullable(dateTime)),
  propagation_status: v.optional(v.nullable(PropagationStatus)),
}), "A user's membership of a group at one level, direct or through nesting and rules."));
export type GroupUser = v.InferOutput<typeof GroupUser>;

export const GroupUserList = component('GroupUserList', v.object({
  results: v.optional(v.array(GroupUser)),
  next: cursor,
  previous: cursor,
}));

export const GroupResource = component('GroupResource', described(v.object({
  group_id: uuid,
  resource_id: uuid,
  group_name: v.optional(v.string()),
  resource_name: v.optional(v.string()),
  expiration_date: v.optional(v.nullable(dateTime)),
  access_level: ResourceAccessLevel,
}), "A group's access to a resource at one level: its members hold it too."));
export type GroupResource = v.InferOutput<typeof GroupResource>;

export const GroupResourceList = component('GroupResourceList', v.object({
  group_resources: v.array(GroupResource),
}));

export const GroupContainingGroup = component('GroupContainingGroup', described(v.object({
  group_id: v.optional(extension(uuid, 'The group that sits inside the containing group.')),
  containing_group_id: uuid,
  duration_minutes: described(v.pipe(integer, v.maxValue(525960)), 'How long the nesting lasts, in minutes, from when it was given; 0 when it never ends (indefinite).'),
  access_level_remote_id: v.optional(v.string()),
  access_level: v.optional(extension(GroupAccessLevel, 'The level of the containing group this nesting gives, with its name.')),
  expiration_date: v.optional(v.nullable(extension(dateTime, 'When the nesting ends; null for never.'))),
}), 'A group sitting inside another: its members are members of the containing group too.'));
export type GroupContainingGroup = v.InferOutput<typeof GroupContainingGroup>;

export const GroupContainingGroupList = component('GroupContainingGroupList', v.object({
  containing_groups: v.array(GroupContainingGroup),
}));

export const ResourceUserAccessStatusEnum = component('ResourceUserAccessStatusEnum', described(v.picklist(['AUTHORIZED', 'REQUESTED', 'UNAUTHORIZED']), 'Whether a user holds a resource at a level, or has a pending request for it (REQUESTED).'));

export const ResourceUserAccessStatus = component('ResourceUserAccessStatus', described(v.object({
  resource_id: uuid,
  user_id: uuid,
  access_level: v.optional(ResourceAccessLevel),
  status: ResourceUserAccessStatusEnum,
  expiration_date: v.optional(v.nullable(dateTime)),
}), "A user's standing on one level of a resource."));
export type ResourceUserAccessStatus = v.InferOutput<typeof ResourceUserAccessStatus>;

/** Every level a user holds on a resource, directly or through groups: a handful at most, never paged. */
export const ResourceUserAccess = v.object({ data: v.array(ResourceUser), total_count: v.optional(integer) });
