// Break-glass over HTTP: break glass, list, get, review.
import type { AppContext } from '../../context.ts';
import { ok, type ApiRouter } from '../../http/router.ts';
import { breakGlass, readableBreakGlass, reviewBreakGlass } from './service.ts';
import { listBreakGlass } from './list.ts';
import { setBreakGlassSettings } from './settings.ts';
import { toApiBreakGlass } from './mappers.ts';
import type { breakGlassRoutes } from './routes.ts';

export function registerBreakGlassRoutes(router: ApiRouter<typeof breakGlassRoutes>, ctx: AppContext): void {
  // The body is read by the service, so a body refused by its schema is recorded as a refusal too.
  router.on('POST /v1/break-glass', async (req) => ok(await breakGlass(ctx, req.caller, () => req.body())));
  router.on('GET /v1/break-glass', (req) => ok(listBreakGlass(ctx, req.query(), req.caller, ctx.clock.now())));
  router.on('GET /v1/break-glass/{id}', (req) => ok(toApiBreakGlass(readableBreakGlass(ctx, req.caller, req.uuidParam('id')), ctx.clock.now())));
  router.on('PUT /v1/resources/{resource_id}/break-glass', async (req) =>
    ok(setBreakGlassSettings(ctx, req.caller, 'resource', req.uuidParam('resource_id'), await req.body())));
  router.on('PUT /v1/groups/{group_id}/break-glass', async (req) =>
    ok(setBreakGlassSettings(ctx, req.caller, 'group', req.uuidParam('group_id'), await req.body())));
  router.on('POST /v1/break-glass/{id}/review', async (req) => ok(await reviewBreakGlass(ctx, req.caller, req.uuidParam('id'), () => req.body())));
}
