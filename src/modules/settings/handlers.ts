// The settings area over HTTP: GET /v1/settings and GET /v1/settings/check (admins).
import type { AppContext } from '../../context.ts';
import { ok, type ApiRouter } from '../../http/router.ts';
import { checkGatehouse, describeSettings } from './service.ts';
import type { settingsRoutes } from './routes.ts';

export function registerSettingsRoutes(router: ApiRouter<typeof settingsRoutes>, ctx: AppContext): void {
  router.on('GET /v1/settings', () => ok(describeSettings(ctx)));
  router.on('GET /v1/settings/check', async (req) => ok(await checkGatehouse(ctx, req.caller.userId, ctx.clock.now())));
}
