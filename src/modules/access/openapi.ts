// The access module's operations in Gatehouse's API document (format: src/openapi/operations.ts).
import { defineOperations } from '../../openapi/operations.ts';
import { EmptyObject } from '../../openapi/schema.ts';
import { ResourceAccessUserList, ResourceUser } from '../../openapi/components/access.ts';
import { AddEdgeBody as AddResourceUserBody, AddEdgeQuery as AddResourceUserQuery, ListEdgesQuery, RemoveEdgeQuery, UpdateEdgeBody as UpdateResourceUserBody } from './schemas.ts';

export const accessOperations = defineOperations('access', {
  'GET /v1/resources/{resource_id}/users': {
    summary: 'List the users with access to a resource',
    description: 'Unexpired direct access only.',
    query: ListEdgesQuery,
    responses: { 200: ResourceAccessUserList },
  },
  'GET /v1/resources/{resource_id}/users/{user_id}': {
    summary: 'Get a user\'s access to a resource',
    description: 'Every level the user holds directly, unexpired; a handful at most, so never paged.',
    responses: {
      200: {
        type: 'object',
        properties: { data: { type: 'array', items: ResourceUser }, total_count: { type: 'integer' } },
        required: ['data'],
      },
    },
  },
  'POST /v1/resources/{resource_id}/users/{user_id}': {
    summary: 'Give a user access to a resource',
    description:
      '`duration_minutes` (0 for indefinite) and `access_level_remote_id` may come in the body or, as the ' +
      'reference\'s deprecated form, in the query string; the body wins. Holding that level already is a `conflict`.',
    query: AddResourceUserQuery,
    body: AddResourceUserBody,
    responses: { 200: ResourceUser },
  },
  'PUT /v1/resources/{resource_id}/users/{user_id}': {
    summary: 'Change how long a user keeps access to a resource',
    body: UpdateResourceUserBody,
    responses: { 200: ResourceUser },
  },
  'DELETE /v1/resources/{resource_id}/users/{user_id}': {
    summary: 'Take a user\'s access to a resource away',
    query: RemoveEdgeQuery,
    responses: { 200: EmptyObject },
  },
});
