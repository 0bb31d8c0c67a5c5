// The bundles area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { Bundle } from './responses.ts';

/** What a bundle holds: resources and groups, each at an access level. */
export type BundleItemKind = 'resource' | 'group';

export interface BundleRow {
  seq: number;
  id: string;
  name: string;
  description: string;
  admin_owner_id: string;
  created_at: string;
  updated_at: string;
  total_num_resources: number;
  total_num_groups: number;
}

export interface ItemRow {
  seq: number;
  bundle_id: string;
  item_id: string;
  access_level_remote_id: string;
  access_level_name: string;
}

/** A bundle as the API answers it (the Bundle response schema). */
export type ApiBundle = Bundle;

/** The spec names the id `id`, the reference `bundle_id`; both are sent, with the same value. */
export function toApiBundle(row: BundleRow): ApiBundle {
  return {
    id: row.id,
    bundle_id: row.id,
    name: row.name,
    description: row.description,
    admin_owner_id: row.admin_owner_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    total_num_items: row.total_num_resources + row.total_num_groups,
    total_num_resources: row.total_num_resources,
    total_num_groups: row.total_num_groups,
  };
}

/** One item as the reference's BundleResource / BundleGroup: `resource_id` or `group_id` beside the bundle. */
export type ApiBundleItem = { bundle_id: string; access_level_name: string; access_level_remote_id: string } & Record<string, string>;

/** The field naming the item in an answer, by kind (the reference's BundleResource and BundleGroup). */
const ITEM_ID_FIELD: Record<BundleItemKind, string> = { resource: 'resource_id', group: 'group_id' };

export const toApiBundleItem = (kind: BundleItemKind) => (row: ItemRow): ApiBundleItem => ({
  bundle_id: row.bundle_id,
  [ITEM_ID_FIELD[kind]]: row.item_id,
  access_level_name: row.access_level_name,
  access_level_remote_id: row.access_level_remote_id,
});
