// POST /queries/run: the reference's ad-hoc node queries over users, groups and resources. A read that writes nothing.
import type { AppContext } from '../../context.ts';
import { ok, type ApiRouter } from '../../http/router.ts';
import { viewerOf } from '../visibility/service.ts';
import type { queryRoutes } from './routes.ts';

export function registerQueryRoutes(router: ApiRouter<typeof queryRoutes>, ctx: AppContext): void {
  router.on('POST /v1/queries/run', async (req) => {
    const input = await req.body();
    const viewer = viewerOf(ctx, req.caller);
    // Access filters walk the graph: the query runs on a read worker, within the request budget (docs/read-workers.md).
    return ok(await ctx.reads.answer('queries.run', { input, viewer }, req.caller.userId, viewer?.now ?? ctx.clock.now(), () => req.http.socket.destroyed));
  });
}
