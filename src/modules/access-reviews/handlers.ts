// User access reviews: start one (POST /uar, taking the snapshot), list and read them, and read a
// review's snapshot (an extension).
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { ok, type ApiRouter } from '../../http/router.ts';
import { createUar, snapshotPage } from './service.ts';
import { toApiAccessReview } from './mappers.ts';
import type { accessReviewRoutes } from './routes.ts';

export function registerAccessReviewRoutes(router: ApiRouter<typeof accessReviewRoutes>, ctx: AppContext): void {
  const { accessReviews, uarDecisions } = ctx.stores;

  router.on('POST /v1/uar', async (req) => ok(await createUar(ctx, req.caller, await req.body())));

  router.on('GET /v1/uars', (req) => {
    const query = req.query();
    const rows = accessReviews.list(ctx.pager.afterSeq('uars', query), query.page_size + 1);
    return ok(ctx.pager.page('uars', query, rows, (row) => row.seq, toApiAccessReview));
  });

  router.on('GET /v1/uar/{uar_id}', (req) => {
    const id = req.uuidParam('uar_id');
    const uar = accessReviews.get(id);
    // A member sees a review only when some of its rows are theirs to review (uar-decisions), else 404 as for none.
    if (!uar || (req.caller.role !== 'ADMIN' && !uarDecisions.reviewsIn(id, req.caller.userId))) throw notFound('UAR', id, 'uar_id');
    return ok(uar);
  });

  router.on('GET /v1/uar/{uar_id}/snapshot', (req) => ok(snapshotPage(ctx, req.uuidParam('uar_id'), req.query())));
}
