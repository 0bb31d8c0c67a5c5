// Response components — who holds what: access edges on resources, their levels and propagation.
// Valibot schemas; wire facts (field names, types, formats, enums) agree with the reference, and a field Gatehouse always sends is required. See docs/openapi.md.
import * as v from 'valibot';
import { component, uuid, dateTime, integer, extension, described, cursor } from '../responses.ts';
import { EntityTypeEnum, PropagationStatusEnum } from './enums.ts';

export const ResourceAccessLevel = component('ResourceAccessLevel', described(v.object({
  access_level_name: v.string(),
  access_level_remote_id: v.string(),
}), 'A level of access a resource offers.'));
export type ResourceAccessLevel = v.InferOutput<typeof ResourceAccessLevel>;

export const Access = component('Access', described(v.object({
  principal_id: uuid,
  principal_type: EntityTypeEnum,
  entity_id: uuid,
  entity_type: EntityTypeEnum,
  access_level: v.optional(ResourceAccessLevel),
  expiration_date: v.optional(v.nullable(dateTime)),
  has_direct_access: v.boolean(),
  num_access_paths: v.pipe(integer, v.metadata({ format: 'int32' })),
}), 'Who holds access to what, at which level, until when.'));
export type Access = v.InferOutput<typeof Access>;

export const AccessList = component('AccessList', v.object({
  results: v.optional(v.array(Access)),
  next: v.optional(v.nullable(extension(v.string(), 'The cursor of the next page, or null on the last: `limit` never cuts the list short unsaid.'))),
  previous: v.optional(v.nullable(extension(v.string(), 'The cursor this page was asked with, or null on the first.'))),
}));

export const PropagationStatus = component('PropagationStatus', v.object({
  status: PropagationStatusEnum,
}));
export type PropagationStatus = v.InferOutput<typeof PropagationStatus>;

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

export const ResourceNHI = component('ResourceNHI', described(v.object({
  resource_id: uuid,
  non_human_identity_id: uuid,
  access_level: v.optional(ResourceAccessLevel),
  expiration_date: v.optional(v.nullable(dateTime)),
}), "A non-human identity's direct access to a resource."));
export type ResourceNHI = v.InferOutput<typeof ResourceNHI>;

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

const TagSelector = component('TagSelector', v.object({
  key: v.string(),
  value: v.string(),
  connection_id: uuid,
}));
export type TagSelector = v.InferOutput<typeof TagSelector>;

const RuleDisjunction = component('RuleDisjunction', described(v.object({
  selectors: v.array(TagSelector),
}), "Matches a user carrying any one of its selectors' tags."));
export type RuleDisjunction = v.InferOutput<typeof RuleDisjunction>;

const RuleConjunction = component('RuleConjunction', described(v.object({
  clauses: v.pipe(v.array(RuleDisjunction), v.minLength(1)),
}), 'Matches a user that every one of its clauses matches.'));
export type RuleConjunction = v.InferOutput<typeof RuleConjunction>;

export const RuleClauses = component('RuleClauses', v.object({
  when: RuleConjunction,
  unless: v.optional(RuleConjunction),
}));
export type RuleClauses = v.InferOutput<typeof RuleClauses>;

export const AccessRule = component('AccessRule', described(v.object({
  access_rule_id: uuid,
  name: v.string(),
  description: v.string(),
  admin_owner_id: uuid,
  status: v.picklist(['ACTIVE', 'PAUSED']),
  ruleClauses: RuleClauses,
}), 'A rule that makes users members of its group while their tags match.'));
export type AccessRule = v.InferOutput<typeof AccessRule>;

export const PaginatedAccessRulesList = component('PaginatedAccessRulesList', v.object({
  next: v.optional(v.string()),
  previous: v.optional(v.string()),
  results: v.array(AccessRule),
}));

/** Every level a user holds on a resource, directly or through groups: a handful at most, never paged. */
export const ResourceUserAccess = v.object({ data: v.array(ResourceUser), total_count: v.optional(integer) });
