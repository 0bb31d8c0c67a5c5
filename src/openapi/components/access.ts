// Response components — who holds what: access edges on resources, their levels and propagation.
// Wire facts (field names, types, formats, enums, required) agree with the reference; see docs/openapi.md.
import { component, extensionField } from '../schema.ts';
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
