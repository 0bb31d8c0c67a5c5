// The resources area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { PaginatedResourcesList, Resource } from './responses.ts';
import { CreateResourceBody, ListResourcesQuery, UpdateResourcesBody } from './schemas.ts';
import { UpdatedResourceList } from './responses.ts';

export const resourceRoutes = defineRoutes('resources', {
  'POST /v1/resources': {
    role: 'admin',
    summary: 'Create a resource',
    body: CreateResourceBody,
    responses: { 200: Resource },
  },
  'GET /v1/resources': {
    role: 'read',
    summary: 'List resources',
    description: 'Filters combine; `remote_id` needs `resource_type_filter`. Extension: `owner_filter` (as `GET /v1/apps` has it) keeps what that owner administers.',
    query: ListResourcesQuery,
    responses: { 200: PaginatedResourcesList },
  },
  'PUT /v1/resources': {
    role: 'admin',
    summary: 'Update several resources',
    description: 'All or nothing: when one item is refused, none is changed, and the error names `resources.N.field`.',
    body: UpdateResourcesBody,
    responses: { 200: UpdatedResourceList },
  },
  'GET /v1/resources/{resource_id}': {
    role: 'read', items: { resource_id: 'resource' },
    summary: 'Get a resource',
    responses: { 200: Resource },
  },
  'DELETE /v1/resources/{resource_id}': {
    role: 'admin', items: { resource_id: 'resource' },
    summary: 'Delete a resource',
    description: 'Refused (`conflict`) while it has child resources or a request configuration names it.',
    responses: { 200: EmptyObject },
  },
});
