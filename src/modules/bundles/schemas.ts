// Valibot schemas for bundles and the resources and groups they hold.
import * as v from 'valibot';
import { Name, PageQueryEntries, Text, Uuid } from '../../http/common-schemas.ts';

const BundleName = Name(200);
const BundleDescription = Text(2000);
const AccessLevelText = Text(1000);

export const CreateBundleBody = v.object({
  name: BundleName,
  description: v.optional(BundleDescription, ''),
  admin_owner_id: Uuid,
});

/**
 * PUT takes a Bundle: the fields given change, the ones left out stay. Read-only fields (created_at,
 * counts) are ignored; an id that disagrees with the path is refused by the route.
 */
export const UpdateBundleBody = v.object({
  bundle_id: v.optional(Uuid),
  id: v.optional(Uuid),
  name: v.optional(BundleName),
  description: v.optional(BundleDescription),
  admin_owner_id: v.optional(Uuid),
});

export const ListBundlesQuery = v.object({
  ...PageQueryEntries,
  contains: v.optional(v.pipe(v.string('must be given once'), v.maxLength(200, 'must be at most 200 characters'))),
});

export const ListBundleItemsQuery = v.object({ ...PageQueryEntries });

export const AddBundleResourceBody = v.object({
  resource_id: Uuid,
  access_level_remote_id: v.optional(AccessLevelText, ''),
  access_level_name: v.optional(AccessLevelText),
});

export const AddBundleGroupBody = v.object({
  group_id: Uuid,
  access_level_remote_id: v.optional(AccessLevelText, ''),
  access_level_name: v.optional(AccessLevelText),
});

/** The access level of the item to remove; the default level ('') when not given. */
export const RemoveBundleItemQuery = v.object({
  access_level_remote_id: v.optional(v.pipe(v.string('must be given once'), v.maxLength(1000, 'must be at most 1000 characters')), ''),
});
