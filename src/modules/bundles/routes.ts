// The bundles area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { Bundle, BundleGroup, BundleResource, PaginatedBundleGroupList, PaginatedBundleList, PaginatedBundleResourceList } from './responses.ts';
import {
  AddBundleGroupBody, AddBundleResourceBody, CreateBundleBody, ListBundleItemsQuery, ListBundlesQuery, RemoveBundleItemQuery, UpdateBundleBody,
} from './schemas.ts';

export const bundleRoutes = defineRoutes('bundles', {
  'GET /v1/bundles': {
    role: 'read',
    summary: 'List bundles',
    description: '`contains` keeps the bundles whose name contains it, ignoring case.',
    query: ListBundlesQuery,
    responses: { 200: PaginatedBundleList },
  },
  'POST /v1/bundles': { role: 'admin', summary: 'Create a bundle', body: CreateBundleBody, responses: { 201: Bundle } },
  'GET /v1/bundles/{bundle_id}': { role: 'read', items: { bundle_id: 'bundle' }, summary: 'Get a bundle', responses: { 200: Bundle } },
  'PUT /v1/bundles/{bundle_id}': {
    role: 'admin', items: { bundle_id: 'bundle' },
    summary: 'Update a bundle',
    description: 'Only the fields given change. A `bundle_id` in the body must match the path.',
    body: UpdateBundleBody,
    responses: { 200: Bundle },
  },
  'DELETE /v1/bundles/{bundle_id}': { role: 'admin', items: { bundle_id: 'bundle' }, summary: 'Delete a bundle', responses: { 200: EmptyObject } },
  'GET /v1/bundles/{bundle_id}/resources': {
    role: 'read', items: { bundle_id: 'bundle' },
    summary: 'List a bundle\'s resources',
    query: ListBundleItemsQuery,
    responses: { 200: PaginatedBundleResourceList },
  },
  'POST /v1/bundles/{bundle_id}/resources': {
    role: 'admin', items: { bundle_id: 'bundle' },
    summary: 'Add a resource to a bundle',
    description: 'At one access level; the same resource and level twice is refused (`conflict`).',
    body: AddBundleResourceBody,
    responses: { 201: BundleResource },
  },
  'DELETE /v1/bundles/{bundle_id}/resources/{resource_id}': {
    role: 'admin', items: { bundle_id: 'bundle', resource_id: 'resource' },
    summary: 'Remove a resource from a bundle',
    query: RemoveBundleItemQuery,
    responses: { 200: EmptyObject },
  },
  'GET /v1/bundles/{bundle_id}/groups': {
    role: 'read', items: { bundle_id: 'bundle' },
    summary: 'List a bundle\'s groups',
    query: ListBundleItemsQuery,
    responses: { 200: PaginatedBundleGroupList },
  },
  'POST /v1/bundles/{bundle_id}/groups': {
    role: 'admin', items: { bundle_id: 'bundle' },
    summary: 'Add a group to a bundle',
    description: 'At one access level; the same group and level twice is refused (`conflict`).',
    body: AddBundleGroupBody,
    responses: { 201: BundleGroup },
  },
  'DELETE /v1/bundles/{bundle_id}/groups/{group_id}': {
    role: 'admin', items: { bundle_id: 'bundle', group_id: 'group' },
    summary: 'Remove a group from a bundle',
    query: RemoveBundleItemQuery,
    responses: { 200: EmptyObject },
  },
});
