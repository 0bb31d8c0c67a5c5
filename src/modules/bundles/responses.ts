// The bundles area's response shapes (Valibot): bundles and their items, the types its mappers return and its answers in the API document.
// Valibot schemas; wire facts (field names, types, formats, enums) agree with the reference, and a field Gatehouse always sends is required. See docs/openapi.md.
import * as v from 'valibot';
import { component, uuid, dateTime, integer, extension, described, cursor } from '../../openapi/responses.ts';

export const Bundle = component('Bundle', described(v.object({
  id: extension(uuid, 'The same as bundle_id.'),
  bundle_id: uuid,
  name: v.string(),
  description: v.string(),
  created_at: dateTime,
  updated_at: dateTime,
  admin_owner_id: uuid,
  total_num_items: integer,
  total_num_resources: integer,
  total_num_groups: integer,
}), 'A named set of resources and groups, each at an access level.'));
export type Bundle = v.InferOutput<typeof Bundle>;

export const BundleGroup = component('BundleGroup', described(v.object({
  bundle_id: v.optional(uuid),
  group_id: v.optional(uuid),
  access_level_name: v.optional(v.string()),
  access_level_remote_id: v.optional(v.string()),
}), 'A group in a bundle, at one access level.'));
export type BundleGroup = v.InferOutput<typeof BundleGroup>;

export const BundleResource = component('BundleResource', described(v.object({
  bundle_id: v.optional(uuid),
  resource_id: v.optional(uuid),
  access_level_name: v.optional(v.string()),
  access_level_remote_id: v.optional(v.string()),
}), 'A resource in a bundle, at one access level.'));
export type BundleResource = v.InferOutput<typeof BundleResource>;

export const PaginatedBundleList = component('PaginatedBundleList', v.object({
  previous: cursor,
  next: cursor,
  total_count: v.optional(integer),
  bundles: v.array(Bundle),
}));

export const PaginatedBundleResourceList = component('PaginatedBundleResourceList', v.object({
  previous: cursor,
  next: cursor,
  total_count: v.optional(integer),
  bundle_resources: v.array(BundleResource),
}));

export const PaginatedBundleGroupList = component('PaginatedBundleGroupList', v.object({
  previous: cursor,
  next: cursor,
  total_count: v.optional(integer),
  bundle_groups: v.array(BundleGroup),
}));
