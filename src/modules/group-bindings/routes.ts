// The group-bindings area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { CreateGroupBindingBody, ListGroupBindingsQuery, UpdateGroupBindingsBody } from './schemas.ts';
import { GroupBinding, PaginatedGroupBindingsList, GroupBindingList } from './responses.ts';

export const groupBindingRoutes = defineRoutes('group-bindings', {
  'GET /v1/group-bindings': {
    role: 'read',
    summary: 'List group bindings',
    description: 'Oldest first.',
    query: ListGroupBindingsQuery,
    responses: { 200: PaginatedGroupBindingsList },
  },
  'POST /v1/group-bindings': {
    role: 'admin',
    summary: 'Bind groups together',
    description: 'The source group must be one of `groups`, which lists two or more groups, none of them already bound.',
    body: CreateGroupBindingBody,
    responses: { 200: GroupBinding },
  },
  'PUT /v1/group-bindings': {
    role: 'admin',
    summary: 'Update group bindings',
    description: 'Replaces the source and groups of each binding listed, all or none. Answers the updated bindings.',
    body: UpdateGroupBindingsBody,
    responses: { 200: GroupBindingList },
  },
  'GET /v1/group-bindings/{group_binding_id}': { role: 'read', items: { group_binding_id: null }, summary: 'Get a group binding', responses: { 200: GroupBinding } },
  'DELETE /v1/group-bindings/{group_binding_id}': {
    role: 'admin', items: { group_binding_id: null },
    summary: 'Delete a group binding',
    description: 'The groups stay; they are just no longer bound.',
    responses: { 200: EmptyObject },
  },
});
