// The resources module's operations in Gatehouse's API document (format: src/openapi/operations.ts).
import { defineOperations } from '../../openapi/operations.ts';
import { component, EmptyObject } from '../../openapi/schema.ts';
import { PaginatedResourcesList, Resource } from '../../openapi/components/catalogue.ts';
import { CreateResourceBody, ListResourcesQuery, UpdateResourcesBody } from './schemas.ts';

/** PUT /v1/resources answers each updated resource whole (the reference's UpdateResourceInfoList lists only the updatable fields). */
const UpdatedResourceList = component('UpdatedResourceList', {
  type: 'object',
  properties: { resources: { type: 'array', items: Resource } },
  required: ['resources'],
});

export const resourceOperations = defineOperations('resources', {
  'POST /v1/resources': {
    summary: 'Create a resource',
    body: CreateResourceBody,
    responses: { 200: Resource },
  },
  'GET /v1/resources': {
    summary: 'List resources',
    description: 'Filters combine; `remote_id` needs `resource_type_filter`.',
    query: ListResourcesQuery,
    responses: { 200: PaginatedResourcesList },
  },
  'PUT /v1/resources': {
    summary: 'Update several resources',
    description: 'All or nothing: when one item is refused, none is changed, and the error names `resources.N.field`.',
    body: UpdateResourcesBody,
    responses: { 200: UpdatedResourceList },
  },
  'GET /v1/resources/{resource_id}': {
    summary: 'Get a resource',
    responses: { 200: Resource },
  },
  'DELETE /v1/resources/{resource_id}': {
    summary: 'Delete a resource',
    description: 'Refused (`conflict`) while it has child resources or a request configuration names it.',
    responses: { 200: EmptyObject },
  },
});
