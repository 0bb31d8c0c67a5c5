// The uar-decisions area as app.ts serves it: access reviews that act — decisions, the unanswered-items
// policy, and the job that applies it at each review's deadline.
import { defineArea } from '../../area.ts';
import { closeDueReviews } from './service.ts';
import { createUarDecisionStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    uarDecisions: ReturnType<typeof createUarDecisionStore>;
  }
}

// What the uar-decisions area announces, inside the transaction of its change (notifications tells the reviewers).
declare module '../../signals.ts' {
  interface Signals {
    /** Reviewers were given rows of a review, by the person who started it or assigned them. */
    'uar-decisions.reviewers-assigned': { uarId: string; reviewerIds: string[]; actorId: string };
  }
}

export const uarDecisionsArea = defineArea({
  name: 'uar-decisions',
  stores: { uarDecisions: createUarDecisionStore },
  sharedReads: { uarDecisions: ['countsFor', 'openReviewsAhead', 'policy', 'reviewsIn', 'waitingReviewers'] },
  jobs: [{ name: 'access-review-deadline', everyMs: () => 30_000, tick: closeDueReviews }],
});
