// GET /v1/web-sessions and DELETE /v1/web-sessions/{web_session_id}: a person's console sign-in
// sessions, to see and end (Gatehouse's extension; /v1/sessions are connections to resources); and
// POST /v1/users/{user_id}/sign-in-link: an admin sends someone a sign-in link or an invitation.
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { sendLinkAsAdmin } from './emailed-links.ts';
import { endWebSession } from './service.ts';
import { toApiWebSession } from './mappers.ts';
import type { webSessionRoutes } from './routes.ts';

export function registerWebSessionRoutes(router: ApiRouter<typeof webSessionRoutes>, ctx: AppContext): void {
  const { webSessions } = ctx.stores;

  router.on('GET /v1/web-sessions', (req) => {
    const query = req.query();
    const asked = query.user_id?.toLowerCase();
    // A member lists only their own (another user's user_id selects nothing); admins list anyone's.
    const own = req.caller.role === 'ADMIN' ? undefined : req.caller.userId;
    const now = ctx.clock.now();
    const filter = {
      userId: own ?? asked ?? null,
      now: now.toISOString(),
      idleSince: new Date(now.getTime() - ctx.config.webSessionIdleMinutes * 60_000).toISOString(),
    };
    const rows = own !== undefined && asked !== undefined && asked !== own ? [] : webSessions.listLive(filter, ctx.pager.afterSeq('web-sessions', query), query.page_size + 1);
    return ok(ctx.pager.page('web-sessions', query, rows, (row) => row.seq, toApiWebSession));
  });

  router.on('POST /v1/users/{user_id}/sign-in-link', async (req) => {
    const id = req.uuidParam('user_id');
    const body = await req.body();
    const user = ctx.stores.users.get(id);
    if (!user) throw notFound('user', id, 'user_id');
    return ok(await sendLinkAsAdmin(ctx, req.caller, user, body.kind, body.send_email));
  });

  router.on('DELETE /v1/web-sessions/{web_session_id}', (req) => {
    endWebSession(ctx, req.caller, req.uuidParam('web_session_id'), 'REVOKED');
    return done();
  });
}
