// POST /queries/run: the reference's ad-hoc node queries over users, groups and resources. A read that writes nothing.
import type { AppContext } from '../../context.ts';
import { ok, type ApiRouter } from '../../http/router.ts';
import { RunQueryBody } from './schemas.ts';
import { viewerOf } from '../visibility/service.ts';
import { runNodeQuery } from './service.ts';

export function registerQueryRoutes(router: ApiRouter, ctx: AppContext): void {
  router.on('POST /v1/queries/run', async (req) => {
    const input = await req.body(RunQueryBody);
    const viewer = viewerOf(ctx, req.caller);
    return ok(runNodeQuery(ctx, input, viewer?.now ?? ctx.clock.now(), viewer));
  });
}
