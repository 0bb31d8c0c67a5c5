// Response components — who holds what: access edges on resources, their levels and propagation.
// Wire facts (field names, types, formats, enums, required) agree with the reference; see docs/openapi.md.
import { MAX_MINUTES } from '../../lib/durations.ts';
import { component, extensionField, orNull } from '../schema.ts';
import { EntityTypeEnum, PropagationStatusEnum } from './enums.ts';

export const ResourceAccessLevel = component('ResourceAccessLevel', {
  description: 'A level of access a resource offers.',
  type: 'object',
  properties: { access_level_name: { type: 'string' }, access_level_remote_id: { type: 'string' } },
  required: ['access_level_name', 'access_level_remote_id'],
});

export const Access = component('Access', {
  description: 'Who holds access to what, at which level, until when.',
  type: 'object',
  properties: {
    principal_id: { type: 'string', format: 'uuid' },
    principal_type: EntityTypeEnum,
    entity_id: { type: 'string', format: 'uuid' },
    entity_type: EntityTypeEnum,
    access_level: ResourceAccessLevel,
    expiration_date: { type: ['string', 'null'], format: 'date-time' },
    has_direct_access: { type: 'boolean' },
    num_access_paths: { type: 'integer', format: 'int32' },
  },
  required: [
    'principal_id', 'principal_type', 'entity_id', 'entity_type', 'has_direct_access',
    'num_access_paths',
  ],
});

export const AccessList = component('AccessList', {
  type: 'object',
  properties: {
    results: { type: 'array', items: Access },
    next: extensionField({ type: ['string', 'null'] }, 'The cursor of the next page, or null on the last: `limit` never cuts the list short unsaid.'),
    previous: extensionField({ type: ['string', 'null'] }, 'The cursor this page was asked with, or null on the first.'),
  },
});

export const PropagationStatus = component('PropagationStatus', { properties: { status: PropagationStatusEnum }, required: ['status'] });

export const ResourceAccessUser = component('ResourceAccessUser', {
  description: 'A user with direct access to a resource, as a list shows it.',
  type: 'object',
  properties: {
    resource_id: { type: 'string', format: 'uuid' },
    resource_name: { type: 'string' },
    description: { type: 'string' },
    user_id: { type: 'string', format: 'uuid' },
    access_level: ResourceAccessLevel,
    full_name: { type: 'string' },
    email: { type: 'string' },
    expiration_date: { type: ['string', 'null'], format: 'date-time' },
    has_direct_access: { type: 'boolean' },
    num_access_paths: { type: 'integer', format: 'int32' },
    propagation_status: PropagationStatus,
  },
  required: [
    'email', 'full_name', 'resource_id', 'user_id', 'access_level', 'has_direct_access',
    'num_access_paths',
  ],
});

export const ResourceAccessUserList = component('ResourceAccessUserList', {
  type: 'object',
  properties: {
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: ResourceAccessUser },
  },
});

export const ResourceNHI = component('ResourceNHI', {
  description: 'A non-human identity\'s direct access to a resource.',
  type: 'object',
  properties: {
    resource_id: { type: 'string', format: 'uuid' },
    non_human_identity_id: { type: 'string', format: 'uuid' },
    access_level: ResourceAccessLevel,
    expiration_date: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['resource_id', 'non_human_identity_id'],
});

export const ResourceUser = component('ResourceUser', {
  description: 'A user\'s direct access to a resource at one level.',
  type: 'object',
  properties: {
    resource_id: { type: 'string', format: 'uuid' },
    user_id: { type: 'string', format: 'uuid' },
    access_level: ResourceAccessLevel,
    full_name: { type: 'string' },
    email: { type: 'string' },
    expiration_date: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['email', 'full_name', 'resource_id', 'user_id', 'access_level'],
});

export const GroupAccessLevel = component('GroupAccessLevel', {
  description: 'A level of membership a group offers.',
  type: 'object',
  properties: { access_level_name: { type: 'string' }, access_level_remote_id: { type: 'string' } },
  required: ['access_level_name', 'access_level_remote_id'],
});

export const GroupUser = component('GroupUser', {
  description: 'A user\'s membership of a group at one level, direct or through nesting and rules.',
  type: 'object',
  properties: {
    group_id: { type: 'string', format: 'uuid' },
    group_name: { type: 'string' },
    description: { type: 'string' },
    user_id: { type: 'string', format: 'uuid' },
    access_level: orNull(GroupAccessLevel),
    full_name: { type: 'string' },
    email: { type: 'string' },
    expiration_date: { type: ['string', 'null'], format: 'date-time' },
    propagation_status: PropagationStatus,
  },
  required: ['email', 'full_name', 'group_id', 'user_id', 'group_name', 'description'],
});

export const GroupUserList = component('GroupUserList', {
  type: 'object',
  properties: {
    results: { type: 'array', items: GroupUser },
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
  },
});

export const GroupResource = component('GroupResource', {
  description: 'A group\'s access to a resource at one level: its members hold it too.',
  type: 'object',
  properties: {
    group_id: { type: 'string', format: 'uuid' },
    resource_id: { type: 'string', format: 'uuid' },
    group_name: { type: 'string' },
    resource_name: { type: 'string' },
    expiration_date: { type: ['string', 'null'], format: 'date-time' },
    access_level: ResourceAccessLevel,
  },
  required: ['group_id', 'resource_id', 'access_level'],
});

export const GroupResourceList = component('GroupResourceList', {
  type: 'object',
  properties: { group_resources: { type: 'array', items: GroupResource } },
  required: ['group_resources'],
});

export const GroupContainingGroup = component('GroupContainingGroup', {
  description: 'A group sitting inside another: its members are members of the containing group too.',
  type: 'object',
  properties: {
    group_id: extensionField({ type: 'string', format: 'uuid' }, 'The group that sits inside the containing group.'),
    containing_group_id: { type: 'string', format: 'uuid' },
    duration_minutes: { type: 'integer', maximum: MAX_MINUTES },
    access_level_remote_id: { type: 'string' },
    access_level: extensionField({ allOf: [GroupAccessLevel] }, 'The level of the containing group this nesting gives, with its name.'),
    expiration_date: extensionField({ type: ['string', 'null'], format: 'date-time' }, 'When the nesting ends; null for never.'),
  },
  required: ['containing_group_id'],
});

export const GroupContainingGroupList = component('GroupContainingGroupList', {
  type: 'object',
  properties: { containing_groups: { type: 'array', items: GroupContainingGroup } },
  required: ['containing_groups'],
});

export const ResourceUserAccessStatusEnum = component('ResourceUserAccessStatusEnum', {
  description: 'Whether a user holds a resource at a level, or has a pending request for it (REQUESTED).',
  type: 'string',
  enum: ['AUTHORIZED', 'REQUESTED', 'UNAUTHORIZED'],
});

export const ResourceUserAccessStatus = component('ResourceUserAccessStatus', {
  description: 'A user\'s standing on one level of a resource.',
  type: 'object',
  properties: {
    resource_id: { type: 'string', format: 'uuid' },
    user_id: { type: 'string', format: 'uuid' },
    access_level: ResourceAccessLevel,
    status: ResourceUserAccessStatusEnum,
    expiration_date: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['resource_id', 'status', 'user_id'],
});

const TagSelector = component('TagSelector', {
  type: 'object',
  properties: { key: { type: 'string' }, value: { type: 'string' }, connection_id: { type: 'string', format: 'uuid' } },
  required: ['key', 'value', 'connection_id'],
});

const RuleDisjunction = component('RuleDisjunction', {
  description: 'Matches a user carrying any one of its selectors\' tags.',
  type: 'object',
  properties: { selectors: { type: 'array', items: TagSelector } },
  required: ['selectors'],
});

const RuleConjunction = component('RuleConjunction', {
  description: 'Matches a user that every one of its clauses matches.',
  type: 'object',
  properties: { clauses: { type: 'array', minItems: 1, items: RuleDisjunction } },
  required: ['clauses'],
});

export const RuleClauses = component('RuleClauses', {
  type: 'object',
  properties: { when: RuleConjunction, unless: RuleConjunction },
  required: ['when'],
});

export const AccessRule = component('AccessRule', {
  description: 'A rule that makes users members of its group while their tags match.',
  type: 'object',
  properties: {
    access_rule_id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    description: { type: 'string' },
    admin_owner_id: { type: 'string', format: 'uuid' },
    status: { type: 'string', enum: ['ACTIVE', 'PAUSED'] },
    ruleClauses: RuleClauses,
  },
  required: ['status', 'ruleClauses', 'name', 'admin_owner_id', 'access_rule_id', 'description'],
});

export const PaginatedAccessRulesList = component('PaginatedAccessRulesList', {
  type: 'object',
  properties: {
    next: { type: 'string' },
    previous: { type: 'string' },
    results: { type: 'array', items: AccessRule },
  },
  required: ['results'],
});
