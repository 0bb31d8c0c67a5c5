// The access area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { GroupContainingGroup, GroupContainingGroupList, GroupResource, GroupResourceList, GroupUser, GroupUserList, ResourceAccessUserList, ResourceUser, ResourceUserAccess, ResourceUserAccessStatus } from './responses.ts';
import { PageQuery } from './handlers.ts';
import {
  AccessStatusQuery, AddContainingGroupBody, AddEdgeBody, AddEdgeQuery, ContainingGroupsQuery, ListEdgesQuery, RemoveEdgeQuery,
  SetGroupResourcesBody, UpdateEdgeBody,
} from './schemas.ts';

const ADD_EDGE_NOTE =
  '`duration_minutes` (0 for indefinite) and `access_level_remote_id` may come in the body or, as the ' +
  'reference\'s deprecated form, in the query string; the body wins. Holding that level already is a `conflict`.';

export const accessRoutes = defineRoutes('access', {
  // What one user holds.
  'GET /v1/resources/users/{user_id}': {
    role: 'read', items: { user_id: null },
    summary: 'List the resources a user holds',
    description: 'Direct and through groups, one row per resource and level, with the number of paths to each.',
    query: ListEdgesQuery,
    responses: { 200: ResourceAccessUserList },
  },
  'GET /v1/groups/users/{user_id}': {
    role: 'read', items: { user_id: null },
    summary: 'List the groups a user is in',
    description: 'Direct, through nested groups and by access rule, one row per group and level.',
    query: PageQuery,
    responses: { 200: GroupUserList },
  },

  // Users of a resource.
  'GET /v1/resources/{resource_id}/users': {
    role: 'read', items: { resource_id: 'resource' },
    summary: 'List the users who hold a resource',
    description: 'Direct and through groups, one row per user and level, unexpired.',
    query: ListEdgesQuery,
    responses: { 200: ResourceAccessUserList },
  },
  'GET /v1/resources/{resource_id}/users/{user_id}': {
    role: 'read', items: { resource_id: 'resource', user_id: null },
    summary: 'Get a user\'s access to a resource',
    description: 'Every level the user holds, directly or through groups; a handful at most, so never paged.',
    responses: { 200: ResourceUserAccess },
  },
  'POST /v1/resources/{resource_id}/users/{user_id}': {
    role: 'admin', items: { resource_id: 'resource', user_id: null },
    summary: 'Give a user access to a resource',
    description: ADD_EDGE_NOTE,
    query: AddEdgeQuery,
    body: AddEdgeBody,
    responses: { 200: ResourceUser },
  },
  'PUT /v1/resources/{resource_id}/users/{user_id}': {
    role: 'admin', items: { resource_id: 'resource', user_id: null },
    summary: 'Change a user\'s direct access to a resource',
    description: 'Sets how long the direct access lasts and, with `access_level_remote_id`, moves it to that level.',
    body: UpdateEdgeBody,
    responses: { 200: ResourceUser },
  },
  'DELETE /v1/resources/{resource_id}/users/{user_id}': {
    role: 'admin', items: { resource_id: 'resource', user_id: null },
    summary: 'Take a user\'s direct access to a resource away',
    description: 'Removing access the user does not hold directly is an empty success.',
    query: RemoveEdgeQuery,
    responses: { 200: EmptyObject },
  },
  'GET /v1/resource-user-access-status/{resource_id}/{user_id}': {
    role: 'read', items: { resource_id: 'resource', user_id: null },
    summary: 'Check whether a user holds a resource at a level',
    description: 'Counts access through groups too. `cursor` and `page_size` are accepted and ignored.',
    query: AccessStatusQuery,
    responses: { 200: ResourceUserAccessStatus },
  },
  'GET /v1/resources/{resource_id}/groups': {
    role: 'read', items: { resource_id: 'resource' },
    summary: 'List the groups that give access to a resource',
    responses: { 200: GroupResourceList },
  },

  // Members of a group.
  'GET /v1/groups/{group_id}/users': {
    role: 'read', items: { group_id: 'group' },
    summary: 'List a group\'s members',
    description: 'Direct, through nested groups and by access rule, one row per user and level, unexpired.',
    query: PageQuery,
    responses: { 200: GroupUserList },
  },
  'POST /v1/groups/{group_id}/users/{user_id}': {
    role: 'admin', items: { group_id: 'group', user_id: null },
    summary: 'Add a user to a group',
    description: ADD_EDGE_NOTE,
    query: AddEdgeQuery,
    body: AddEdgeBody,
    responses: { 200: GroupUser },
  },
  'PUT /v1/groups/{group_id}/users/{user_id}': {
    role: 'admin', items: { group_id: 'group', user_id: null },
    summary: 'Change a user\'s direct membership of a group',
    description: 'Sets how long the membership lasts and, with `access_level_remote_id`, moves it to that level.',
    body: UpdateEdgeBody,
    responses: { 200: GroupUser },
  },
  'DELETE /v1/groups/{group_id}/users/{user_id}': {
    role: 'admin', items: { group_id: 'group', user_id: null },
    summary: 'Remove a user from a group',
    description: 'Removing a membership the user does not hold directly is an empty success.',
    query: RemoveEdgeQuery,
    responses: { 200: EmptyObject },
  },

  // A group's access to resources.
  'GET /v1/groups/{group_id}/resources': {
    role: 'read', items: { group_id: 'group' },
    summary: 'List the resources a group gives access to',
    responses: { 200: GroupResourceList },
  },
  'PUT /v1/groups/{group_id}/resources': {
    role: 'admin', items: { group_id: 'group' },
    summary: 'Replace the resources a group gives access to',
    description: 'All or nothing: when one item is refused, nothing changes, and the error names `resources.N.field`.',
    body: SetGroupResourcesBody,
    responses: { 200: EmptyObject },
  },
  'POST /v1/groups/{group_id}/resources/{resource_id}': {
    role: 'admin', items: { group_id: 'group', resource_id: 'resource' },
    summary: 'Give a group access to a resource',
    description: '`duration_minutes` (0 or absent for indefinite) and `access_level_remote_id` may come in the body or in the query string; the body wins.',
    query: AddEdgeQuery,
    body: AddEdgeBody,
    responses: { 200: GroupResource },
  },
  'DELETE /v1/groups/{group_id}/resources/{resource_id}': {
    role: 'admin', items: { group_id: 'group', resource_id: 'resource' },
    summary: 'Take a group\'s access to a resource away',
    description: 'The reference removes one resource only by replacing the whole set (PUT); this removes one level of one. Removing access the group does not hold is an empty success.',
    extension: true,
    query: RemoveEdgeQuery,
    responses: { 200: EmptyObject },
  },

  // Nesting.
  'GET /v1/groups/{group_id}/containing-groups': {
    role: 'read', items: { group_id: 'group' },
    summary: 'List the groups a group sits in',
    query: ContainingGroupsQuery,
    responses: { 200: GroupContainingGroupList },
  },
  'POST /v1/groups/{group_id}/containing-groups': {
    role: 'admin', items: { group_id: 'group' },
    summary: 'Put a group inside another',
    description: 'A nesting that would make a cycle is refused, naming `containing_group_id`.',
    body: AddContainingGroupBody,
    responses: { 200: GroupContainingGroup },
  },
  'GET /v1/groups/{group_id}/containing-groups/{containing_group_id}': {
    role: 'read', items: { group_id: 'group', containing_group_id: 'group' },
    summary: 'Get one nesting of a group',
    responses: { 200: GroupContainingGroup },
  },
  'DELETE /v1/groups/{group_id}/containing-groups/{containing_group_id}': {
    role: 'admin', items: { group_id: 'group', containing_group_id: 'group' },
    summary: 'Take a group out of another',
    query: RemoveEdgeQuery,
    responses: { 204: undefined },
  },
});
