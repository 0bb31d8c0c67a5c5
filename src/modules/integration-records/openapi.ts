// The integration-records area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { component } from '../../openapi/schema.ts';
import { RECORD_KINDS, ROLE_PERMISSION_NAMES, ROLE_PERMISSION_TARGET_TYPES } from './kinds.ts';
import { CREATE_RECORD_BODIES, ScopedRolePermissionsBody, setLinkedBody, SyncErrorsQuery } from './schemas.ts';

export const MessageChannelProviderEnum = component('MessageChannelProviderEnum', {
  type: 'string',
  enum: [...RECORD_KINDS.message_channel.providers],
});

export const OnCallScheduleProviderEnum = component('OnCallScheduleProviderEnum', {
  type: 'string',
  enum: [...RECORD_KINDS.on_call_schedule.providers],
});

/** A chat channel on record (Gatehouse posts nothing to it). */
export const MessageChannel = component('MessageChannel', {
  type: 'object',
  properties: {
    message_channel_id: { type: 'string', format: 'uuid' },
    third_party_provider: MessageChannelProviderEnum,
    remote_id: { type: 'string' },
    name: { type: 'string' },
    is_private: { type: 'boolean' },
  },
  required: ['message_channel_id'],
});

export const MessageChannelList = component('MessageChannelList', {
  type: 'object',
  properties: { channels: { type: 'array', items: MessageChannel } },
  required: ['channels'],
});

/** An on-call schedule on record (Gatehouse reads nothing from it). */
export const OnCallSchedule = component('OnCallSchedule', {
  type: 'object',
  // The reference requires `message_channel_id` here, a slip copied from MessageChannel: a schedule
  // has no such field. Its own id is what is always there.
  description: 'An on-call schedule on record. Always has `on_call_schedule_id`; `name` only when one was given.',
  properties: {
    on_call_schedule_id: { type: 'string', format: 'uuid' },
    third_party_provider: OnCallScheduleProviderEnum,
    remote_id: { type: 'string' },
    name: { type: 'string' },
  },
  required: ['on_call_schedule_id'],
});

export const OnCallScheduleList = component('OnCallScheduleList', {
  type: 'object',
  properties: { on_call_schedules: { type: 'array', items: OnCallSchedule } },
  required: ['on_call_schedules'],
});

export const RolePermissionTargetTypeEnum = component('RolePermissionTargetTypeEnum', { type: 'string', enum: [...ROLE_PERMISSION_TARGET_TYPES] });
export const RolePermissionNameEnum = component('RolePermissionNameEnum', { type: 'string', enum: [...ROLE_PERMISSION_NAMES] });

export const ScopedRolePermission = component('ScopedRolePermission', {
  type: 'object',
  properties: {
    target_ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
    target_type: RolePermissionTargetTypeEnum,
    permission_name: RolePermissionNameEnum,
    allow_all: { type: 'boolean' },
  },
  required: ['target_type', 'permission_name', 'allow_all'],
});

export const ScopedRolePermissionList = component('ScopedRolePermissionList', {
  type: 'object',
  properties: { permissions: { type: 'array', items: ScopedRolePermission } },
  required: ['permissions'],
});

export const SyncError = component('SyncError', {
  type: 'object',
  properties: {
    first_seen: { type: 'string', format: 'date-time' },
    last_seen: { type: 'string', format: 'date-time' },
    error_message: { type: 'string' },
    app_id: { type: 'string', format: 'uuid' },
  },
  required: ['first_seen', 'last_seen', 'error_message'],
});

export const SyncErrorList = component('SyncErrorList', {
  type: 'object',
  properties: { sync_errors: { type: 'array', items: SyncError } },
  required: ['sync_errors'],
});

const uuidArray = { type: 'array', items: { type: 'string', format: 'uuid' } };
const NAME_NOTE = 'Gatehouse cannot look a channel or schedule up, so POST may give its name; it is answered as given.';

export const integrationRecordRoutes = defineRoutes('integration-records', {
  'GET /v1/message-channels': { role: 'read', summary: 'List message channels', responses: { 200: MessageChannelList } },
  'POST /v1/message-channels': {
    role: 'admin',
    summary: 'Record a message channel',
    description: `A provider and remote id may be recorded once (\`conflict\`). ${NAME_NOTE}`,
    body: CREATE_RECORD_BODIES.message_channel,
    responses: { 200: MessageChannel },
  },
  'GET /v1/message-channels/{message_channel_id}': { role: 'read', items: { message_channel_id: null }, summary: 'Get a message channel', responses: { 200: MessageChannel } },
  'GET /v1/on-call-schedules': { role: 'read', summary: 'List on-call schedules', responses: { 200: OnCallScheduleList } },
  'POST /v1/on-call-schedules': {
    role: 'admin',
    summary: 'Record an on-call schedule',
    description: `A provider and remote id may be recorded once (\`conflict\`). ${NAME_NOTE}`,
    body: CREATE_RECORD_BODIES.on_call_schedule,
    responses: { 200: OnCallSchedule },
  },
  'GET /v1/on-call-schedules/{on_call_schedule_id}': { role: 'read', items: { on_call_schedule_id: null }, summary: 'Get an on-call schedule', responses: { 200: OnCallSchedule } },
  'GET /v1/resources/{resource_id}/message-channels': {
    role: 'read', items: { resource_id: 'resource' },
    summary: 'List a resource\'s message channels',
    responses: { 200: MessageChannelList },
  },
  'PUT /v1/resources/{resource_id}/message-channels': {
    role: 'admin', items: { resource_id: 'resource' },
    summary: 'Set a resource\'s message channels',
    description: 'The ids given, each once, replace the list. Answers the ids now set.',
    body: setLinkedBody('message_channel_ids'),
    responses: { 200: uuidArray },
  },
  'GET /v1/groups/{group_id}/message-channels': { role: 'read', items: { group_id: 'group' }, summary: 'List a group\'s message channels', responses: { 200: MessageChannelList } },
  'PUT /v1/groups/{group_id}/message-channels': {
    role: 'admin', items: { group_id: 'group' },
    summary: 'Set a group\'s message channels',
    description: 'The ids given, each once, replace the list. Answers the ids now set.',
    body: setLinkedBody('message_channel_ids'),
    responses: { 200: uuidArray },
  },
  'GET /v1/groups/{group_id}/on-call-schedules': { role: 'read', items: { group_id: 'group' }, summary: 'List a group\'s on-call schedules', responses: { 200: OnCallScheduleList } },
  'PUT /v1/groups/{group_id}/on-call-schedules': {
    role: 'admin', items: { group_id: 'group' },
    summary: 'Set a group\'s on-call schedules',
    description: 'The ids given, each once, replace the list. Answers the ids now set.',
    body: setLinkedBody('on_call_schedule_ids'),
    responses: { 200: uuidArray },
  },
  'GET /v1/resources/{resource_id}/scoped-role-permissions': {
    role: 'read', items: { resource_id: 'resource' },
    summary: 'List a scoped role\'s permissions',
    description: 'Only for resources of type OPAL_SCOPED_ROLE; any other is refused (`validation_failed`).',
    responses: { 200: ScopedRolePermissionList },
  },
  'PUT /v1/resources/{resource_id}/scoped-role-permissions': {
    role: 'admin', items: { resource_id: 'resource' },
    summary: 'Replace a scoped role\'s permissions',
    description: 'The list given becomes the whole set. `allow_all` grants on every target of the type, so `target_ids` must then be empty.',
    body: ScopedRolePermissionsBody,
    responses: { 200: ScopedRolePermissionList },
  },
  'GET /v1/sync_errors': {
    role: 'read',
    summary: 'List sync errors',
    description: 'Gatehouse syncs nothing, so the list is always empty; an unknown app, resource or group is still refused (`not_found`).',
    query: SyncErrorsQuery,
    responses: { 200: { type: 'array', items: SyncErrorList } },
    errors: ['not_found'],
  },
});
