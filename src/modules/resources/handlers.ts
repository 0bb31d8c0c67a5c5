// Resources: create, list with the reference's filters, read, bulk update, delete.
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { createResource, deleteResource, updateResources } from './service.ts';
import { viewerOf } from '../visibility/service.ts';
import { resourcePage } from './pages.ts';
import type { resourceRoutes } from './routes.ts';

export function registerResourceRoutes(router: ApiRouter<typeof resourceRoutes>, ctx: AppContext): void {
  const { resources } = ctx.stores;

  router.on('POST /v1/resources', async (req) => ok(createResource(ctx, req.caller, await req.body())));

  router.on('GET /v1/resources', async (req) => {
    const query = req.query();
    // Kept between reads; else a big page is built on a read worker (docs/read-workers.md), a small one
    // here (it costs less than the trip).
    return ok(await resourcePage(ctx, query, viewerOf(ctx, req.caller), req.caller.userId, () => req.http.socket.destroyed));
  });

  router.on('PUT /v1/resources', async (req) => {
    const body = await req.body();
    return ok({ resources: updateResources(ctx, req.caller, body.resources) });
  });

  router.on('GET /v1/resources/{resource_id}', (req) => {
    const id = req.uuidParam('resource_id');
    // Whether the caller sees it was decided before the handler, for every route naming a resource
    // (visibility/guard.ts: an unseen one is already a 404); admins see every resource.
    const resource = resources.answer(id);
    if (!resource) throw notFound('resource', id);
    return ok(resource);
  });

  router.on('DELETE /v1/resources/{resource_id}', (req) => {
    deleteResource(ctx, req.caller, req.uuidParam('resource_id'));
    return done();
  });
}
