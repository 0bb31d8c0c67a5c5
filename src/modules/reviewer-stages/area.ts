// The reviewer-stages area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';

export const reviewerStagesArea = defineArea({
  name: 'reviewer-stages',
});
