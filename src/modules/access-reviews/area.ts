// The access-reviews area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts), its job, its read task.
import { defineArea } from '../../area.ts';
import { createAccessReviewStore } from './store.ts';
import { dropAbandonedSnapshots, readSnapshot } from './service.ts';
import type { ReadTask } from '../../reads/tasks.ts';
import type { UarScopeInput } from './schemas.ts';

/** The snapshot a review starts from, read on a read worker (service.ts's createAccessReview). */
const snapshotTask = ((ctx, args: { scope: UarScopeInput | undefined }, now, budget) =>
  readSnapshot(ctx, args.scope, now, budget)) satisfies ReadTask<never, unknown>;

declare module '../../context.ts' {
  interface Stores {
    accessReviews: ReturnType<typeof createAccessReviewStore>;
  }
}

declare module '../../reads/tasks.ts' {
  interface ReadTasks {
    'uar.snapshot': typeof snapshotTask;
  }
}

export const accessReviewsArea = defineArea({
  name: 'access-reviews',
  stores: { accessReviews: createAccessReviewStore },
  sharedReads: { accessReviews: ['get', 'ownerOf', 'snapshotTakenAt'] },
  readTasks: { 'uar.snapshot': snapshotTask },
  jobs: [{ name: 'access-review-abandoned-snapshots', everyMs: () => 60_000, tick: dropAbandonedSnapshots }],
});
