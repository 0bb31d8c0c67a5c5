// Access reviews that act (Gatehouse's extension; the reference has only create, list and get):
// GET /v1/uar/{uar_id}/items, POST /v1/uar/{uar_id}/decisions, PUT /v1/uar/{uar_id}/policy.
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { ok, type ApiRouter } from '../../http/router.ts';
import { DecideBody, ListReviewItemsQuery, PolicyBody } from './schemas.ts';
import { decide, setUnansweredPolicy } from './service.ts';
import { toApiReviewItem } from './store.ts';

export function registerUarDecisionRoutes(router: ApiRouter, ctx: AppContext): void {
  const { uarDecisions, accessReviews } = ctx.stores;

  router.on('GET /v1/uar/{uar_id}/items', (req) => {
    const uarId = req.uuidParam('uar_id');
    const query = req.query(ListReviewItemsQuery);
    if (!accessReviews.get(uarId)) throw notFound('UAR', uarId, 'uar_id');
    const list = `uar_items_${uarId}`;
    const rows = uarDecisions.items(uarId, ctx.pager.afterSeq(list, query), query.page_size + 1);
    return ok({ ...ctx.pager.page(list, query, rows, (row) => row.seq, toApiReviewItem), ...uarDecisions.policy(uarId) });
  });

  router.on('POST /v1/uar/{uar_id}/decisions', async (req) => {
    const uarId = req.uuidParam('uar_id');
    const rows = decide(ctx, req.caller, uarId, await req.body(DecideBody));
    return ok({ results: rows.map(toApiReviewItem) });
  });

  router.on('PUT /v1/uar/{uar_id}/policy', async (req) => {
    const uarId = req.uuidParam('uar_id');
    return ok(setUnansweredPolicy(ctx, req.caller, uarId, (await req.body(PolicyBody)).unanswered_decision));
  });
}
