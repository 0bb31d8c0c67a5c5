// Access rules over HTTP: list, create (201), get, replace.
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { created, ok, type ApiRouter } from '../../http/router.ts';
import { createAccessRule, updateAccessRule } from './service.ts';
import { toApiAccessRule } from './mappers.ts';
import { viewerOf } from '../visibility/service.ts';
import type { accessRuleRoutes } from './routes.ts';

export function registerAccessRuleRoutes(router: ApiRouter<typeof accessRuleRoutes>, ctx: AppContext): void {
  const { accessRules } = ctx.stores;

  router.on('GET /v1/access-rules', (req) => {
    const query = req.query();
    const rows = accessRules.list(ctx.pager.afterSeq('access_rules', query), query.page_size + 1, viewerOf(ctx, req.caller));
    const { results, next, previous } = ctx.pager.page('access_rules', query, rows, (row) => row.seq, toApiAccessRule);
    // The reference's PaginatedAccessRulesList has non-nullable next/previous: absent rather than null.
    return ok({ results, ...(next !== null && { next }), ...(previous !== null && { previous }) });
  });
  router.on('POST /v1/access-rules', async (req) => created(createAccessRule(ctx, req.caller, await req.body())));
  router.on('GET /v1/access-rules/{access_rule_id}', (req) => {
    const id = req.uuidParam('access_rule_id');
    const rule = accessRules.get(id);
    if (!rule) throw notFound('access rule', id, 'access_rule_id');
    return ok(toApiAccessRule(rule));
  });
  router.on('PUT /v1/access-rules/{access_rule_id}', async (req) => {
    const id = req.uuidParam('access_rule_id');
    return ok(updateAccessRule(ctx, req.caller, id, await req.body()));
  });
}
