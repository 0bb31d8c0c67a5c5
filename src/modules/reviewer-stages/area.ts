// The reviewer-stages area as app.ts serves it: its stores, its routes (declared in openapi.ts, handled in routes.ts).
import { defineArea } from '../../area.ts';
import { reviewerStageRoutes } from './openapi.ts';
import { registerReviewerStageRoutes } from './routes.ts';

export const reviewerStagesArea = defineArea({
  name: 'reviewer-stages',
  routes: reviewerStageRoutes,
  handlers: registerReviewerStageRoutes,
});
