// The bundles module's operations in Gatehouse's API document (format: src/openapi/operations.ts).
import { defineOperations } from '../../openapi/operations.ts';
import { EmptyObject } from '../../openapi/schema.ts';
import {
  Bundle, BundleGroup, BundleResource, PaginatedBundleGroupList, PaginatedBundleList, PaginatedBundleResourceList,
} from '../../openapi/components/catalogue.ts';
import {
  AddBundleGroupBody, AddBundleResourceBody, CreateBundleBody, ListBundleItemsQuery, ListBundlesQuery, RemoveBundleItemQuery, UpdateBundleBody,
} from './schemas.ts';

export const bundleOperations = defineOperations('bundles', {
  'GET /v1/bundles': {
    summary: 'List bundles',
    description: '`contains` keeps the bundles whose name contains it, ignoring case.',
    query: ListBundlesQuery,
    responses: { 200: PaginatedBundleList },
  },
  'POST /v1/bundles': { summary: 'Create a bundle', body: CreateBundleBody, responses: { 201: Bundle } },
  'GET /v1/bundles/{bundle_id}': { summary: 'Get a bundle', responses: { 200: Bundle } },
  'PUT /v1/bundles/{bundle_id}': {
    summary: 'Update a bundle',
    description: 'Only the fields given change. A `bundle_id` in the body must match the path.',
    body: UpdateBundleBody,
    responses: { 200: Bundle },
  },
  'DELETE /v1/bundles/{bundle_id}': { summary: 'Delete a bundle', responses: { 200: EmptyObject } },
  'GET /v1/bundles/{bundle_id}/resources': {
    summary: 'List a bundle\'s resources',
    query: ListBundleItemsQuery,
    responses: { 200: PaginatedBundleResourceList },
  },
  'POST /v1/bundles/{bundle_id}/resources': {
    summary: 'Add a resource to a bundle',
    description: 'At one access level; the same resource and level twice is refused (`conflict`).',
    body: AddBundleResourceBody,
    responses: { 201: BundleResource },
  },
  'DELETE /v1/bundles/{bundle_id}/resources/{resource_id}': {
    summary: 'Remove a resource from a bundle',
    query: RemoveBundleItemQuery,
    responses: { 200: EmptyObject },
  },
  'GET /v1/bundles/{bundle_id}/groups': {
    summary: 'List a bundle\'s groups',
    query: ListBundleItemsQuery,
    responses: { 200: PaginatedBundleGroupList },
  },
  'POST /v1/bundles/{bundle_id}/groups': {
    summary: 'Add a group to a bundle',
    description: 'At one access level; the same group and level twice is refused (`conflict`).',
    body: AddBundleGroupBody,
    responses: { 201: BundleGroup },
  },
  'DELETE /v1/bundles/{bundle_id}/groups/{group_id}': {
    summary: 'Remove a group from a bundle',
    query: RemoveBundleItemQuery,
    responses: { 200: EmptyObject },
  },
});
