// Apps: the systems resources and groups live in. Registered through the API, since nothing syncs them here.
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { createApp, deleteApp, updateApp } from './service.ts';
import type { appRoutes } from './routes.ts';

export function registerAppRoutes(router: ApiRouter<typeof appRoutes>, ctx: AppContext): void {
  const { apps } = ctx.stores;

  router.on('POST /v1/apps', async (req) => ok(createApp(ctx, req.caller, await req.body())));

  router.on('GET /v1/apps', (req) => {
    const query = req.query();
    return ok({ apps: apps.list({ appTypes: query.app_type_filter, ownerId: query.owner_filter?.toLowerCase() }) });
  });

  router.on('GET /v1/apps/{app_id}', (req) => {
    const id = req.uuidParam('app_id');
    const app = apps.get(id);
    if (!app) throw notFound('app', id);
    return ok(app);
  });

  router.on('PUT /v1/apps/{app_id}', async (req) => {
    const id = req.uuidParam('app_id');
    return ok(updateApp(ctx, req.caller, id, await req.body()));
  });

  router.on('DELETE /v1/apps/{app_id}', (req) => {
    deleteApp(ctx, req.caller, req.uuidParam('app_id'));
    return done();
  });
}
