// The integration-records area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import * as v from 'valibot';
import { defineRoutes } from '../../http/route.ts';
import { uuidList } from '../../openapi/responses.ts';
import { CREATE_RECORD_BODIES, ScopedRolePermissionsBody, setLinkedBody, SyncErrorsQuery } from './schemas.ts';
import { MessageChannel, MessageChannelList, ScopedRolePermissionList, SyncErrorList } from './responses.ts';

const NAME_NOTE = 'Gatehouse cannot look a channel up, so POST may give its name; it is answered as given.';

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
    responses: { 200: uuidList },
  },
  'GET /v1/groups/{group_id}/message-channels': { role: 'read', items: { group_id: 'group' }, summary: 'List a group\'s message channels', responses: { 200: MessageChannelList } },
  'PUT /v1/groups/{group_id}/message-channels': {
    role: 'admin', items: { group_id: 'group' },
    summary: 'Set a group\'s message channels',
    description: 'The ids given, each once, replace the list. Answers the ids now set.',
    body: setLinkedBody('message_channel_ids'),
    responses: { 200: uuidList },
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
    description: 'What connectors\' syncs found wrong (docs/connectors.md), newest first, as one SyncErrorList (none: an empty array); an unknown app, resource or group is refused (`not_found`).',
    query: SyncErrorsQuery,
    responses: { 200: v.array(SyncErrorList) },
    errors: ['not_found'],
  },
});
