// The settings area over HTTP: what this Gatehouse runs with, setting what the Settings page may set, its
// test buttons, and the database check (admins).
import type { AppContext } from '../../context.ts';
import { ok, type ApiRouter } from '../../http/router.ts';
import { checkOnCallProviders, checkSingleSignOn, sendTestEmail, sendTestSlackMessage } from './checks.ts';
import { checkGatehouse, describeSettings, updateSettings } from './service.ts';
import type { settingsRoutes } from './routes.ts';

export function registerSettingsRoutes(router: ApiRouter<typeof settingsRoutes>, ctx: AppContext): void {
  router.on('GET /v1/settings', () => ok(describeSettings(ctx)));
  router.on('PATCH /v1/settings', async (req) => ok(updateSettings(ctx, req.caller, (await req.body()).settings)));
  router.on('POST /v1/settings/email/test', async (req) => ok(await sendTestEmail(ctx, req.caller)));
  router.on('POST /v1/settings/slack/test', async (req) => ok(await sendTestSlackMessage(ctx, req.caller, (await req.body()).channel)));
  router.on('POST /v1/settings/single-sign-on/check', async (req) => ok(await checkSingleSignOn(ctx, req.caller)));
  router.on('POST /v1/settings/on-call/check', async (req) => ok(await checkOnCallProviders(ctx, req.caller)));
  router.on('GET /v1/settings/check', async (req) => ok(await checkGatehouse(ctx, req.caller.userId, ctx.clock.now())));
}
