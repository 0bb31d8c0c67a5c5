// Response components — the catalogue: apps, owners, resources, groups, bundles and tags, their lists and bulk updates.
// Valibot schemas; wire facts (field names, types, formats, enums) agree with the reference, and a field Gatehouse always sends is required. See docs/openapi.md.
import * as v from 'valibot';
import { component, uuid, dateTime, integer, extension, described, paginated, cursor } from '../responses.ts';
import { ResourceAccessLevel } from './access.ts';
import { AppTypeEnum, AppValidationSeverityEnum, AppValidationStatusEnum, GroupTypeEnum, ResourceTypeEnum,  } from './enums.ts';
import { GroupRemoteInfo, ResourceRemoteInfo } from './remote-info.ts';
import { requestSettingsFields, TicketPropagationConfiguration } from './request-configuration.ts';

export const AppValidation = component('AppValidation', v.object({
  key: v.string(),
  name: v.unknown(),
  usage_reason: v.optional(v.string()),
  details: v.optional(v.string()),
  severity: AppValidationSeverityEnum,
  status: AppValidationStatusEnum,
  updated_at: dateTime,
}));
export type AppValidation = v.InferOutput<typeof AppValidation>;

export const App = component('App', described(v.object({
  app_id: uuid,
  name: v.string(),
  description: v.string(),
  admin_owner_id: uuid,
  app_type: AppTypeEnum,
  validations: v.optional(v.array(AppValidation)),
}), 'A system that resources and groups live in.'));
export type App = v.InferOutput<typeof App>;

export const AppsList = component('AppsList', v.object({
  apps: v.array(App),
}));

export const Owner = component('Owner', described(v.object({
  owner_id: uuid,
  name: v.string(),
  description: v.string(),
  access_request_escalation_period: integer,
  reviewer_message_channel_id: v.optional(v.nullable(uuid)),
  source_group_id: v.optional(v.nullable(uuid)),
}), 'A team that administers items and reviews requests for them.'));
export type Owner = v.InferOutput<typeof Owner>;

export const PaginatedOwnersList = paginated('PaginatedOwnersList', Owner);

export const UpdateOwnerInfo = component('UpdateOwnerInfo', v.object({
  owner_id: uuid,
  name: v.optional(v.string()),
  description: v.optional(v.string()),
  access_request_escalation_period: v.optional(integer),
  reviewer_message_channel_id: v.optional(v.string()),
  source_group_id: v.optional(uuid),
}));
export type UpdateOwnerInfo = v.InferOutput<typeof UpdateOwnerInfo>;

export const UpdateOwnerInfoList = component('UpdateOwnerInfoList', v.object({
  owners: v.array(UpdateOwnerInfo),
}));

export const SyncTask = component('SyncTask', v.object({
  id: uuid,
  completed_at: dateTime,
}));
export type SyncTask = v.InferOutput<typeof SyncTask>;

export const Resource = component('Resource', described(v.object({
  access_levels: extension(v.array(ResourceAccessLevel), 'The access levels the resource offers; the default level has remote id "".'),
  resource_id: uuid,
  app_id: uuid,
  name: v.string(),
  description: v.string(),
  admin_owner_id: uuid,
  remote_resource_id: v.optional(v.string()),
  remote_resource_name: v.optional(v.string()),
  resource_type: ResourceTypeEnum,
  ...requestSettingsFields,
  require_mfa_to_connect: v.boolean(),
  parent_resource_id: v.optional(uuid),
  ticket_propagation: v.optional(TicketPropagationConfiguration),
  metadata: v.optional(v.string()),
  remote_info: v.optional(ResourceRemoteInfo),
  ancestor_resource_ids: v.array(uuid),
  descendant_resource_ids: v.array(uuid),
  last_successful_sync: v.optional(SyncTask),
}), 'Something access is granted to: a role, a database, an account.'));
export type Resource = v.InferOutput<typeof Resource>;

export const PaginatedResourcesList = paginated('PaginatedResourcesList', Resource);

export const Group = component('Group', described(v.object({
  access_levels: extension(v.array(ResourceAccessLevel), 'The access levels the group offers; the default level has remote id "".'),
  group_id: uuid,
  app_id: uuid,
  name: v.string(),
  description: v.string(),
  admin_owner_id: uuid,
  group_leader_user_ids: v.array(uuid),
  remote_id: v.optional(v.string()),
  remote_name: v.optional(v.string()),
  group_type: GroupTypeEnum,
  ...requestSettingsFields,
  group_binding_id: v.optional(uuid),
  metadata: v.optional(v.string()),
  remote_info: v.optional(GroupRemoteInfo),
  last_successful_sync: v.optional(SyncTask),
}), 'A set of users that is given access as one.'));
export type Group = v.InferOutput<typeof Group>;

export const PaginatedGroupsList = paginated('PaginatedGroupsList', Group);

export const Bundle = component('Bundle', described(v.object({
  id: extension(uuid, 'The same as bundle_id.'),
  bundle_id: uuid,
  name: v.string(),
  description: v.string(),
  created_at: dateTime,
  updated_at: dateTime,
  admin_owner_id: uuid,
  total_num_items: integer,
  total_num_resources: integer,
  total_num_groups: integer,
}), 'A named set of resources and groups, each at an access level.'));
export type Bundle = v.InferOutput<typeof Bundle>;

export const BundleGroup = component('BundleGroup', described(v.object({
  bundle_id: v.optional(uuid),
  group_id: v.optional(uuid),
  access_level_name: v.optional(v.string()),
  access_level_remote_id: v.optional(v.string()),
}), 'A group in a bundle, at one access level.'));
export type BundleGroup = v.InferOutput<typeof BundleGroup>;

export const BundleResource = component('BundleResource', described(v.object({
  bundle_id: v.optional(uuid),
  resource_id: v.optional(uuid),
  access_level_name: v.optional(v.string()),
  access_level_remote_id: v.optional(v.string()),
}), 'A resource in a bundle, at one access level.'));
export type BundleResource = v.InferOutput<typeof BundleResource>;

export const PaginatedBundleList = component('PaginatedBundleList', v.object({
  previous: cursor,
  next: cursor,
  total_count: v.optional(integer),
  bundles: v.array(Bundle),
}));

export const PaginatedBundleResourceList = component('PaginatedBundleResourceList', v.object({
  previous: cursor,
  next: cursor,
  total_count: v.optional(integer),
  bundle_resources: v.array(BundleResource),
}));

export const PaginatedBundleGroupList = component('PaginatedBundleGroupList', v.object({
  previous: cursor,
  next: cursor,
  total_count: v.optional(integer),
  bundle_groups: v.array(BundleGroup),
}));

export const Tag = component('Tag', described(v.object({
  admin_owner_id: v.optional(extension(uuid, 'The owner administering the tag; absent when none does.')),
  tag_id: uuid,
  created_at: dateTime,
  updated_at: dateTime,
  user_creator_id: uuid,
  key: v.string(),
  value: v.string(),
}), 'A key and value attached to users, groups and resources.'));
export type Tag = v.InferOutput<typeof Tag>;

export const PaginatedTagsList = paginated('PaginatedTagsList', Tag);

export const TagsList = component('TagsList', v.object({
  tags: v.array(Tag),
}));
