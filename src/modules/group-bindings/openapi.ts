// The group-bindings area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { component, EmptyObject } from '../../openapi/schema.ts';
import { GroupTypeEnum } from '../../openapi/components/enums.ts';
import { CreateGroupBindingBody, ListGroupBindingsQuery, UpdateGroupBindingsBody } from './schemas.ts';

/** One group in a binding, with its type. */
export const GroupBindingGroup = component('GroupBindingGroup', {
  type: 'object',
  properties: {
    group_id: { type: 'string', format: 'uuid' },
    group_type: GroupTypeEnum,
  },
  required: ['group_id', 'group_type'],
});

/** Groups joined together, one of them the source. */
export const GroupBinding = component('GroupBinding', {
  type: 'object',
  properties: {
    group_binding_id: { type: 'string', format: 'uuid' },
    created_by_id: { type: 'string', format: 'uuid' },
    created_at: { type: 'string', format: 'date-time' },
    source_group_id: { type: 'string', format: 'uuid' },
    groups: { type: 'array', items: GroupBindingGroup },
  },
  required: ['group_binding_id', 'created_by_id', 'created_at', 'source_group_id', 'groups'],
});

export const PaginatedGroupBindingsList = component('PaginatedGroupBindingsList', {
  type: 'object',
  properties: {
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: GroupBinding },
  },
  required: ['results'],
});

/** What a bulk update answers: every binding it updated, as it now stands. */
export const GroupBindingList = component('GroupBindingList', {
  type: 'object',
  properties: { group_bindings: { type: 'array', items: GroupBinding } },
  required: ['group_bindings'],
});

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
