// The groups area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { Group, PaginatedGroupsList } from './responses.ts';
import { CreateGroupBody, ListGroupsQuery, UpdateGroupsBody } from './schemas.ts';
import { UpdatedGroupList } from './responses.ts';

export const groupRoutes = defineRoutes('groups', {
  'POST /v1/groups': {
    role: 'admin',
    summary: 'Create a group',
    body: CreateGroupBody,
    responses: { 200: Group },
  },
  'GET /v1/groups': {
    role: 'read',
    summary: 'List groups',
    description: 'Filters combine. Extension: `owner_filter` (as `GET /v1/apps` has it) keeps what that owner administers.',
    query: ListGroupsQuery,
    responses: { 200: PaginatedGroupsList },
  },
  'PUT /v1/groups': {
    role: 'admin',
    summary: 'Update several groups',
    description: 'All or nothing: when one item is refused, none is changed, and the error names `groups.N.field`.',
    body: UpdateGroupsBody,
    responses: { 200: UpdatedGroupList },
  },
  'GET /v1/groups/{group_id}': {
    role: 'read', items: { group_id: 'group' },
    summary: 'Get a group',
    responses: { 200: Group },
  },
  'DELETE /v1/groups/{group_id}': {
    role: 'admin', items: { group_id: 'group' },
    summary: 'Delete a group',
    description: 'Refused (`conflict`) while an owner takes its users from it or a request configuration names it.',
    responses: { 200: EmptyObject },
  },
});
