// The access-reviews area as app.ts serves it: its stores, its routes (declared in openapi.ts, handled in routes.ts).
import { defineArea } from '../../area.ts';
import { accessReviewRoutes } from './openapi.ts';
import { registerAccessReviewRoutes } from './routes.ts';
import { createAccessReviewStore } from './store.ts';
import { dropAbandonedSnapshots } from './service.ts';

declare module '../../context.ts' {
  interface Stores {
    accessReviews: ReturnType<typeof createAccessReviewStore>;
  }
}

export const accessReviewsArea = defineArea({
  name: 'access-reviews',
  stores: { accessReviews: createAccessReviewStore },
  sharedReads: { accessReviews: ['get'] },
  routes: accessReviewRoutes,
  handlers: registerAccessReviewRoutes,
  jobs: [{ name: 'access-review-abandoned-snapshots', everyMs: () => 60_000, tick: dropAbandonedSnapshots }],
});
