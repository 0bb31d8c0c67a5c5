// GET /tokens and DELETE /tokens/{token_id} as the reference has them; POST /tokens is Gatehouse's own.
import type { AppContext } from '../../context.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { toApiToken } from './mappers.ts';
import { issueToken, revokeToken } from './service.ts';
import type { tokenRoutes } from './routes.ts';

export function registerTokenRoutes(router: ApiRouter<typeof tokenRoutes>, ctx: AppContext): void {
  const { tokens } = ctx.stores;

  router.on('GET /v1/tokens', (req) => {
    const query = req.query();
    const asked = query.user_id?.toLowerCase();
    // A member lists only their own tokens (another user's user_id filter selects nothing); admins list all.
    const own = req.caller.role === 'ADMIN' ? undefined : req.caller.userId;
    const filter = { tokenIds: query.token_ids?.map((id) => id.toLowerCase()), userId: own ?? asked };
    const rows = own !== undefined && asked !== undefined && asked !== own ? [] : tokens.list(filter, ctx.pager.afterSeq('tokens', query), query.page_size + 1);
    return ok(ctx.pager.page('tokens', query, rows, (row) => row.seq, toApiToken));
  });

  // The secret is in this response and nowhere else, ever.
  router.on('POST /v1/tokens', async (req) => {
    const body = await req.body();
    const issued = issueToken(ctx, req.caller, {
      userId: body.user_id?.toLowerCase() ?? req.caller.userId,
      label: body.token_label,
      accessLevel: body.access_level,
      scope: body.scope,
    });
    return ok({ ...issued.token, token: issued.secret });
  });

  router.on('DELETE /v1/tokens/{token_id}', (req) => {
    revokeToken(ctx, req.caller, req.uuidParam('token_id'));
    return done();
  });
}
