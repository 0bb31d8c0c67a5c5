// The visibility area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createVisibilityStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    visibility: ReturnType<typeof createVisibilityStore>;
  }
}

export const visibilityArea = defineArea({
  name: 'visibility',
  stores: { visibility: createVisibilityStore },
  sharedReads: { visibility: ['get'] },
});
