// Response components — the catalogue: apps, owners, resources, groups, bundles and tags, their lists and bulk updates.
// Wire facts (field names, types, formats, enums, required) agree with the reference; see docs/openapi.md.
import { component, extensionField } from '../schema.ts';
import { ResourceAccessLevel } from './access.ts';
import { AppTypeEnum, AppValidationSeverityEnum, AppValidationStatusEnum, GroupTypeEnum, ResourceTypeEnum, RiskSensitivityEnum } from './enums.ts';
import { RequestConfiguration, TicketPropagationConfiguration } from './request-configuration.ts';
import { GroupRemoteInfo, ResourceRemoteInfo } from './remote-info.ts';

export const AppValidation = component('AppValidation', {
  properties: {
    key: { type: 'string' },
    name: {},
    usage_reason: { type: 'string' },
    details: { type: 'string' },
    severity: AppValidationSeverityEnum,
    status: AppValidationStatusEnum,
    updated_at: { type: 'string', format: 'date-time' },
  },
  required: ['key', 'name', 'status', 'severity', 'updated_at'],
});

export const App = component('App', {
  description: 'A system that resources and groups live in.',
  type: 'object',
  properties: {
    app_id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    description: { type: 'string' },
    admin_owner_id: { type: 'string', format: 'uuid' },
    app_type: AppTypeEnum,
    validations: { type: 'array', items: AppValidation },
  },
  required: ['app_id', 'name', 'description', 'admin_owner_id', 'app_type'],
});

export const AppsList = component('AppsList', { type: 'object', properties: { apps: { type: 'array', items: App } }, required: ['apps'] });

export const Owner = component('Owner', {
  description: 'A team that administers items and reviews requests for them.',
  type: 'object',
  properties: {
    owner_id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    description: { type: 'string' },
    access_request_escalation_period: { type: 'integer' },
    reviewer_message_channel_id: { type: ['string', 'null'], format: 'uuid' },
    source_group_id: { type: ['string', 'null'], format: 'uuid' },
  },
  required: ['owner_id'],
});

export const PaginatedOwnersList = component('PaginatedOwnersList', {
  type: 'object',
  properties: {
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: Owner },
  },
  required: ['results'],
});

export const UpdateOwnerInfo = component('UpdateOwnerInfo', {
  type: 'object',
  properties: {
    owner_id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    description: { type: 'string' },
    access_request_escalation_period: { type: 'integer' },
    reviewer_message_channel_id: { type: 'string' },
    source_group_id: { type: 'string', format: 'uuid' },
  },
  required: ['owner_id'],
});

export const UpdateOwnerInfoList = component('UpdateOwnerInfoList', {
  type: 'object',
  properties: { owners: { type: 'array', items: UpdateOwnerInfo } },
  required: ['owners'],
});

export const SyncTask = component('SyncTask', {
  type: 'object',
  properties: { id: { type: 'string', format: 'uuid' }, completed_at: { type: 'string', format: 'date-time' } },
  required: ['id', 'completed_at'],
});

export const Resource = component('Resource', {
  description: 'Something access is granted to: a role, a database, an account.',
  type: 'object',
  properties: {
    access_levels: extensionField({ type: 'array', items: ResourceAccessLevel }, 'The access levels the resource offers; the default level has remote id "".'),
    resource_id: { type: 'string', format: 'uuid' },
    app_id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    description: { type: 'string' },
    admin_owner_id: { type: 'string', format: 'uuid' },
    remote_resource_id: { type: 'string' },
    remote_resource_name: { type: 'string' },
    resource_type: ResourceTypeEnum,
    max_duration: { type: 'integer' },
    recommended_duration: { type: 'integer' },
    extensions_duration_in_minutes: { type: 'integer' },
    require_manager_approval: { type: 'boolean' },
    require_support_ticket: { type: 'boolean' },
    require_mfa_to_approve: { type: 'boolean' },
    require_mfa_to_request: { type: 'boolean' },
    require_mfa_to_connect: { type: 'boolean' },
    auto_approval: { type: 'boolean' },
    request_template_id: { type: 'string', format: 'uuid' },
    is_requestable: { type: 'boolean' },
    parent_resource_id: { type: 'string', format: 'uuid' },
    configuration_template_id: { type: 'string', format: 'uuid' },
    request_configurations: { type: 'array', items: RequestConfiguration },
    request_configuration_list: { type: 'array', items: RequestConfiguration },
    ticket_propagation: TicketPropagationConfiguration,
    custom_request_notification: { type: ['string', 'null'], maxLength: 800 },
    risk_sensitivity: { allOf: [RiskSensitivityEnum] },
    risk_sensitivity_override: { allOf: [RiskSensitivityEnum] },
    metadata: { type: 'string' },
    remote_info: ResourceRemoteInfo,
    ancestor_resource_ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
    descendant_resource_ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
    last_successful_sync: SyncTask,
  },
  required: ['resource_id'],
});

export const PaginatedResourcesList = component('PaginatedResourcesList', {
  type: 'object',
  properties: {
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: Resource },
  },
  required: ['results'],
});

export const Group = component('Group', {
  description: 'A set of users that is given access as one.',
  type: 'object',
  properties: {
    access_levels: extensionField({ type: 'array', items: ResourceAccessLevel }, 'The access levels the group offers; the default level has remote id "".'),
    group_id: { type: 'string', format: 'uuid' },
    app_id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    description: { type: 'string' },
    admin_owner_id: { type: 'string', format: 'uuid' },
    group_leader_user_ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
    remote_id: { type: 'string' },
    remote_name: { type: 'string' },
    group_type: GroupTypeEnum,
    max_duration: { type: 'integer' },
    recommended_duration: { type: 'integer' },
    extensions_duration_in_minutes: { type: 'integer' },
    require_manager_approval: { type: 'boolean' },
    require_support_ticket: { type: 'boolean' },
    require_mfa_to_approve: { type: 'boolean' },
    require_mfa_to_request: { type: 'boolean' },
    auto_approval: { type: 'boolean' },
    request_template_id: { type: 'string', format: 'uuid' },
    configuration_template_id: { type: 'string', format: 'uuid' },
    group_binding_id: { type: 'string', format: 'uuid' },
    is_requestable: { type: 'boolean' },
    request_configurations: { type: 'array', items: RequestConfiguration },
    request_configuration_list: { type: 'array', items: RequestConfiguration },
    metadata: { type: 'string' },
    remote_info: GroupRemoteInfo,
    custom_request_notification: { type: ['string', 'null'], maxLength: 800 },
    risk_sensitivity: { allOf: [RiskSensitivityEnum] },
    risk_sensitivity_override: { allOf: [RiskSensitivityEnum] },
    last_successful_sync: SyncTask,
  },
  required: ['group_id'],
});

export const PaginatedGroupsList = component('PaginatedGroupsList', {
  type: 'object',
  properties: {
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: Group },
  },
  required: ['results'],
});

export const Bundle = component('Bundle', {
  description: 'A named set of resources and groups, each at an access level.',
  properties: {
    id: extensionField({ type: 'string', format: 'uuid' }, 'The same as bundle_id.'),
    bundle_id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    description: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    admin_owner_id: { type: 'string', format: 'uuid' },
    total_num_items: { type: 'integer' },
    total_num_resources: { type: 'integer' },
    total_num_groups: { type: 'integer' },
  },
});

export const BundleGroup = component('BundleGroup', {
  description: 'A group in a bundle, at one access level.',
  properties: {
    bundle_id: { type: 'string', format: 'uuid' },
    group_id: { type: 'string', format: 'uuid' },
    access_level_name: { type: 'string' },
    access_level_remote_id: { type: 'string' },
  },
});

export const BundleResource = component('BundleResource', {
  description: 'A resource in a bundle, at one access level.',
  properties: {
    bundle_id: { type: 'string', format: 'uuid' },
    resource_id: { type: 'string', format: 'uuid' },
    access_level_name: { type: 'string' },
    access_level_remote_id: { type: 'string' },
  },
});

export const PaginatedBundleList = component('PaginatedBundleList', {
  type: 'object',
  properties: {
    previous: { type: ['string', 'null'] },
    next: { type: ['string', 'null'] },
    total_count: { type: 'integer' },
    bundles: { type: 'array', items: Bundle },
  },
  required: ['bundles'],
});

export const PaginatedBundleResourceList = component('PaginatedBundleResourceList', {
  type: 'object',
  properties: {
    previous: { type: ['string', 'null'] },
    next: { type: ['string', 'null'] },
    total_count: { type: 'integer' },
    bundle_resources: { type: 'array', items: BundleResource },
  },
  required: ['bundle_resources'],
});

export const PaginatedBundleGroupList = component('PaginatedBundleGroupList', {
  type: 'object',
  properties: {
    previous: { type: ['string', 'null'] },
    next: { type: ['string', 'null'] },
    total_count: { type: 'integer' },
    bundle_groups: { type: 'array', items: BundleGroup },
  },
  required: ['bundle_groups'],
});

export const Tag = component('Tag', {
  description: 'A key and value attached to users, groups and resources.',
  type: 'object',
  properties: {
    admin_owner_id: extensionField({ type: 'string', format: 'uuid' }, 'The owner administering the tag; absent when none does.'),
    tag_id: { type: 'string', format: 'uuid' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    user_creator_id: { type: 'string', format: 'uuid' },
    key: { type: 'string' },
    value: { type: 'string' },
  },
  required: ['tag_id'],
});

export const PaginatedTagsList = component('PaginatedTagsList', {
  type: 'object',
  properties: {
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: Tag },
  },
  required: ['results'],
});

export const TagsList = component('TagsList', { type: 'object', properties: { tags: { type: 'array', items: Tag } }, required: ['tags'] });
