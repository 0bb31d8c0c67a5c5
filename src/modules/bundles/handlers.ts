// Bundles as the reference has them: CRUD on /bundles, and the resources and groups each holds.
import type { AppContext } from '../../context.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { created, done, ok, type ApiRouter } from '../../http/router.ts';
import { addBundleItem, createBundle, deleteBundle, removeBundleItem, updateBundle } from './service.ts';
import { toApiBundle, toApiBundleItem, type BundleItemKind } from './mappers.ts';
import { canSee, viewerOf } from '../visibility/service.ts';
import type { bundleRoutes } from './routes.ts';

export function registerBundleRoutes(router: ApiRouter<typeof bundleRoutes>, ctx: AppContext): void {
  const { bundles } = ctx.stores;

  router.on('GET /v1/bundles', (req) => {
    const query = req.query();
    const { rows, total } = bundles.list(query.contains ?? null, ctx.pager.afterSeq('bundles', query), query.page_size + 1, viewerOf(ctx, req.caller));
    const page = ctx.pager.page('bundles', query, rows, (row) => row.seq, toApiBundle);
    return ok({ bundles: page.results, next: page.next, previous: page.previous, total_count: total });
  });

  router.on('POST /v1/bundles', async (req) => {
    const body = await req.body();
    return created(createBundle(ctx, req.caller, { ...body, admin_owner_id: body.admin_owner_id.toLowerCase() }));
  });

  router.on('GET /v1/bundles/{bundle_id}', (req) => {
    const id = req.uuidParam('bundle_id');
    const bundle = bundles.get(id);
    // A bundle the caller does not see answers as one that does not exist.
    if (!bundle || !canSee(ctx, req.caller, 'bundle', id)) throw notFound('bundle', id, 'bundle_id');
    return ok(bundle);
  });

  router.on('PUT /v1/bundles/{bundle_id}', async (req) => {
    const id = req.uuidParam('bundle_id');
    const body = await req.body();
    for (const field of ['bundle_id', 'id'] as const) {
      if (body[field] !== undefined && body[field].toLowerCase() !== id) throw invalidField(field, 'does not match the bundle_id in the path');
    }
    return ok(updateBundle(ctx, req.caller, id, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.description !== undefined && { description: body.description }),
      ...(body.admin_owner_id !== undefined && { admin_owner_id: body.admin_owner_id.toLowerCase() }),
    }));
  });

  router.on('DELETE /v1/bundles/{bundle_id}', (req) => {
    deleteBundle(ctx, req.caller, req.uuidParam('bundle_id'));
    return done();
  });

  const itemRoutes = (kind: BundleItemKind, plural: 'resources' | 'groups', column: 'resource_id' | 'group_id') => {
    router.on(`GET /v1/bundles/{bundle_id}/${plural}`, (req) => {
      const id = req.uuidParam('bundle_id');
      const query = req.query();
      if (!canSee(ctx, req.caller, 'bundle', id)) throw notFound('bundle', id, 'bundle_id');
      const list = `bundle_${plural}` as const;
      const { rows, total } = bundles.listItems(kind, id, ctx.pager.afterSeq(list, query), query.page_size + 1);
      const page = ctx.pager.page(list, query, rows, (row) => row.seq, toApiBundleItem(kind));
      // The list's name is the key: { bundle_resources: [...] } or { bundle_groups: [...] }.
      const items = { [list]: page.results } as { [L in typeof list]: Record<L, typeof page.results> }[typeof list];
      return ok({ ...items, next: page.next, previous: page.previous, total_count: total });
    });

    router.on(`DELETE /v1/bundles/{bundle_id}/${plural}/{${column}}`, (req) => {
      const query = req.query();
      removeBundleItem(ctx, req.caller, req.uuidParam('bundle_id'), kind, req.uuidParam(column), query.access_level_remote_id);
      return done();
    });
  };
  itemRoutes('resource', 'resources', 'resource_id');
  itemRoutes('group', 'groups', 'group_id');

  router.on('POST /v1/bundles/{bundle_id}/resources', async (req) => {
    const id = req.uuidParam('bundle_id');
    const body = await req.body();
    const input = { itemId: body.resource_id.toLowerCase(), remoteId: body.access_level_remote_id, name: body.access_level_name };
    return created(addBundleItem(ctx, req.caller, id, 'resource', input));
  });

  router.on('POST /v1/bundles/{bundle_id}/groups', async (req) => {
    const id = req.uuidParam('bundle_id');
    const body = await req.body();
    const input = { itemId: body.group_id.toLowerCase(), remoteId: body.access_level_remote_id, name: body.access_level_name };
    return created(addBundleItem(ctx, req.caller, id, 'group', input));
  });
}
