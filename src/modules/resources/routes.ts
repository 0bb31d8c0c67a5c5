// Resources: create, list with the reference's filters, read, bulk update, delete.
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { CreateResourceBody, ListResourcesQuery, UpdateResourcesBody } from './schemas.ts';
import { createResource, deleteResource, updateResources } from './service.ts';
import { viewerOf } from '../visibility/service.ts';

export function registerResourceRoutes(router: ApiRouter, ctx: AppContext): void {
  const { resources } = ctx.stores;

  router.on('POST /v1/resources', async (req) => ok(createResource(ctx, req.caller, await req.body(CreateResourceBody))));

  router.on('GET /v1/resources', (req) => {
    const query = req.query(ListResourcesQuery);
    const filter = {
      resourceType: query.resource_type_filter,
      resourceIds: query.resource_ids?.map((id) => id.toLowerCase()),
      name: query.resource_name,
      parentId: query.parent_resource_id?.toLowerCase(),
      ancestorId: query.ancestor_resource_id?.toLowerCase(),
      remoteId: query.remote_id,
      tagIds: query.tag_ids?.map((id) => id.toLowerCase()),
    };
    const rows = resources.list(filter, ctx.pager.afterSeq('resources', query), query.page_size + 1, viewerOf(ctx, req.caller));
    return ok(ctx.pager.page('resources', query, rows, (row) => row.seq, resources.toApi));
  });

  router.on('PUT /v1/resources', async (req) => {
    const body = await req.body(UpdateResourcesBody);
    return ok({ resources: updateResources(ctx, req.caller, body.resources) });
  });

  router.on('GET /v1/resources/{resource_id}', (req) => {
    const id = req.uuidParam('resource_id');
    // Whether the caller sees it was decided before the handler, for every route naming a resource
    // (visibility/guard.ts: an unseen one is already a 404); admins see every resource.
    const resource = resources.get(id);
    if (!resource) throw notFound('resource', id);
    return ok(resource);
  });

  router.on('DELETE /v1/resources/{resource_id}', (req) => {
    deleteResource(ctx, req.caller, req.uuidParam('resource_id'));
    return done();
  });
}
