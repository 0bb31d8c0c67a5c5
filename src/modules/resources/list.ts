// GET /resources' page as a plain function of its query and viewer, so a read worker can build it (src/reads/tasks.ts).
import type * as v from 'valibot';
import type { AppContext } from '../../context.ts';
import type { Viewer } from '../visibility/sql.ts';
import type { ListResourcesQuery } from './schemas.ts';
import { toApiResource } from './mappers.ts';

export type ListResourcesInput = v.InferOutput<typeof ListResourcesQuery>;

/** One page of resources `viewer` sees (null: an admin), with the reference's filters, as its JSON text. Throws validation_failed for a foreign cursor. */
export function listResources(ctx: AppContext, query: ListResourcesInput, viewer: Viewer | null) {
  const { resources } = ctx.stores;
  const filter = {
    resourceType: query.resource_type_filter,
    resourceIds: query.resource_ids?.map((id) => id.toLowerCase()),
    name: query.resource_name,
    parentId: query.parent_resource_id?.toLowerCase(),
    ancestorId: query.ancestor_resource_id?.toLowerCase(),
    remoteId: query.remote_id,
    tagIds: query.tag_ids?.map((id) => id.toLowerCase()),
    adminOwnerId: query.owner_filter?.toLowerCase(),
    appId: query.app_id?.toLowerCase(),
  };
  const rows = resources.list(filter, ctx.pager.afterSeq('resources', query), query.page_size + 1, viewer);
  return ctx.pager.pageJson('resources', query, rows, (row) => row.seq, toApiResource);
}
