// The idp-group-mappings area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { ReplaceMappingsBody, UpsertMappingBody } from './schemas.ts';
import { IdpGroupMapping, IdpGroupMappingList } from './responses.ts';

export const idpGroupMappingRoutes = defineRoutes('idp-group-mappings', {
  'GET /v1/idp-group-mappings/{app_resource_id}': {
    role: 'read', items: { app_resource_id: 'resource' },
    summary: 'List an app\'s group mappings',
    description: 'In the order they were made.',
    responses: { 200: IdpGroupMappingList },
  },
  'PUT /v1/idp-group-mappings/{app_resource_id}': {
    role: 'admin', items: { app_resource_id: 'resource' },
    summary: 'Replace an app\'s group mappings',
    description: 'The list given becomes the whole set; mappings not listed are removed. Answers the new set.',
    body: ReplaceMappingsBody,
    responses: { 200: IdpGroupMappingList },
  },
  'GET /v1/idp-group-mappings/{app_resource_id}/groups/{group_id}': {
    role: 'read', items: { app_resource_id: 'resource', group_id: 'group' },
    summary: 'Get one group mapping',
    responses: { 200: IdpGroupMapping },
  },
  'POST /v1/idp-group-mappings/{app_resource_id}/groups/{group_id}': {
    role: 'admin', items: { app_resource_id: 'resource', group_id: 'group' },
    summary: 'Map a group to an app, or change its mapping',
    description: 'A field left out keeps its current value (or its default on a new mapping); an `alias` of null or "" removes the alias.',
    body: UpsertMappingBody,
    responses: { 200: IdpGroupMapping },
  },
  'DELETE /v1/idp-group-mappings/{app_resource_id}/groups/{group_id}': {
    role: 'admin', items: { app_resource_id: 'resource', group_id: 'group' },
    summary: 'Remove a group mapping',
    responses: { 200: EmptyObject },
  },
  'DELETE /v1/idp-group-mappings/{app_resource_id}/{group_id}/': {
    role: 'admin', items: { app_resource_id: 'resource', group_id: 'group' },
    summary: 'Remove a group mapping (older path)',
    description:
      'The path older versions of the reference gave this operation, kept for clients generated from them: ' +
      'the same as DELETE /v1/idp-group-mappings/{app_resource_id}/groups/{group_id}.',
    extension: true,
    deprecated: true,
    responses: { 200: EmptyObject },
  },
});
