// Sessions: GET /sessions as the reference has it; POST /sessions and DELETE /sessions/{connection_id}
// are Gatehouse's own, to open and end one.
import type { AppContext } from '../../context.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { endSession, openSession } from './service.ts';
import { toApiSession } from './mappers.ts';
import { assertVisible } from '../visibility/service.ts';
import type { sessionRoutes } from './routes.ts';

export function registerSessionRoutes(router: ApiRouter<typeof sessionRoutes>, ctx: AppContext): void {
  const { sessions } = ctx.stores;

  router.on('GET /v1/sessions', (req) => {
    const query = req.query();
    const resourceId = query.resource_id.toLowerCase();
    // An item the caller does not see answers as a missing one (docs/visibility.md).
    assertVisible(ctx, req.caller, 'resource', resourceId, 'resource_id');
    const filter = { resourceId, userId: query.user_id?.toLowerCase() };
    const rows = sessions.list(filter, ctx.clock.now(), ctx.pager.afterSeq('sessions', query), query.page_size + 1);
    return ok(ctx.pager.page('sessions', query, rows, (row) => row.seq, toApiSession));
  });

  router.on('POST /v1/sessions', async (req) => {
    const body = await req.body();
    return ok(openSession(ctx, req.caller, {
      resourceId: body.resource_id.toLowerCase(),
      userId: body.user_id?.toLowerCase() ?? req.caller.userId,
      level: body.access_level_remote_id,
      durationMinutes: body.duration_minutes,
    }));
  });

  router.on('DELETE /v1/sessions/{connection_id}', (req) => {
    endSession(ctx, req.caller, req.uuidParam('connection_id'));
    return done();
  });
}
