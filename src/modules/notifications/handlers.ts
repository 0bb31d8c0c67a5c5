// Notifications over HTTP (extensions): the admin read of what was sent to whom and why, re-sending
// a failed one, and each person's preferences.
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { ok, type ApiRouter } from '../../http/router.ts';
import { getPreferences, resendNotification, setPreferences } from './service.ts';
import { toApiNotification } from './mappers.ts';
import type { notificationRoutes } from './routes.ts';
import { interact } from './slack-interactivity.ts';
import { signedBody } from './slack-protocol.ts';

export function registerNotificationRoutes(router: ApiRouter<typeof notificationRoutes>, ctx: AppContext): void {
  const { notifications } = ctx.stores;

  router.on('GET /v1/notifications', (req) => {
    const query = req.query();
    const filter = { userId: query.user_id, requestId: query.request_id, status: query.status, type: query.type };
    const rows = notifications.list(filter, ctx.pager.afterSeq('notifications', query), query.page_size + 1);
    return ok(ctx.pager.page('notifications', query, rows, (row) => row.seq, toApiNotification));
  });
  router.on('GET /v1/notifications/{notification_id}', (req) => {
    const id = req.uuidParam('notification_id');
    const row = notifications.get(id);
    if (!row) throw notFound('notification', id, 'notification_id');
    return ok(toApiNotification(row));
  });
  router.on('POST /v1/notifications/{notification_id}/resend', (req) => ok(resendNotification(ctx, req.caller, req.uuidParam('notification_id'))));

  router.on('GET /v1/users/{user_id}/notification-preferences', (req) => ok(getPreferences(ctx, req.caller, req.uuidParam('user_id'))));
  router.on('PUT /v1/users/{user_id}/notification-preferences', async (req) => {
    const userId = req.uuidParam('user_id');
    return ok(setPreferences(ctx, req.caller, userId, await req.body()));
  });

  // Slack's buttons; the signature was checked by Slack's protocol in front of this route.
  router.on('POST /slack/interactivity', (req) => interact(ctx, signedBody(req.http), req.http.clientIp));
}
