// Access reviews that act (Gatehouse's extension; the reference has only create, list and get):
// GET /v1/uar/{uar_id}/items, POST /v1/uar/{uar_id}/decisions, POST /v1/uar/{uar_id}/assignments,
// PUT /v1/uar/{uar_id}/policy, POST /v1/uar/{uar_id}/close, and a reviewer's own list, GET /v1/uar-assignments.
import type { AppContext } from '../../context.ts';
import { ok, type ApiRouter } from '../../http/router.ts';
import { assignItems, closeReviewEarly, decide, requireVisibleReview, setUnansweredPolicy } from './service.ts';
import { toApiAssignment, toApiReviewItem } from './mappers.ts';
import type { uarDecisionRoutes } from './routes.ts';

export function registerUarDecisionRoutes(router: ApiRouter<typeof uarDecisionRoutes>, ctx: AppContext): void {
  const { uarDecisions } = ctx.stores;

  router.on('GET /v1/uar/{uar_id}/items', (req) => {
    const uarId = req.uuidParam('uar_id');
    const query = req.query();
    requireVisibleReview(ctx, req.caller, uarId);
    // A member's list is always their own rows; an admin's is every row unless they ask for theirs.
    const mine = req.caller.role !== 'ADMIN' || query.assigned_to_me === true;
    const list = `uar_items_${uarId}${mine ? '_mine' : ''}`;
    const after = ctx.pager.afterSeq(list, query);
    const rows = mine
      ? uarDecisions.itemsOfReviewer(uarId, req.caller.userId, after, query.page_size + 1)
      : uarDecisions.items(uarId, after, query.page_size + 1);
    return ok({ ...ctx.pager.page(list, query, rows, (row) => row.seq, toApiReviewItem), ...uarDecisions.policy(uarId) });
  });

  router.on('GET /v1/uar-assignments', (req) => {
    const query = req.query();
    const list = `uar_assignments${query.open_only ? '_open' : ''}`;
    const rows = uarDecisions.assignments(req.caller.userId, ctx.pager.afterSeq(list, query), query.page_size + 1, query.open_only === true);
    return ok(ctx.pager.page(list, query, rows, (row) => row.seq, toApiAssignment));
  });

  router.on('POST /v1/uar/{uar_id}/decisions', async (req) => {
    const uarId = req.uuidParam('uar_id');
    const rows = decide(ctx, req.caller, uarId, await req.body());
    return ok({ results: rows.map(toApiReviewItem) });
  });

  router.on('POST /v1/uar/{uar_id}/assignments', async (req) => {
    const uarId = req.uuidParam('uar_id');
    const rows = assignItems(ctx, req.caller, uarId, await req.body());
    return ok({ results: rows.map(toApiReviewItem) });
  });

  router.on('POST /v1/uar/{uar_id}/close', (req) => ok(closeReviewEarly(ctx, req.caller, req.uuidParam('uar_id'))));

  router.on('PUT /v1/uar/{uar_id}/policy', async (req) => {
    const uarId = req.uuidParam('uar_id');
    return ok(setUnansweredPolicy(ctx, req.caller, uarId, (await req.body()).unanswered_decision));
  });
}
