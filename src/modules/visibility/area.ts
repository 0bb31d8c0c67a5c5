// The visibility area as app.ts serves it: its stores, its routes (declared in openapi.ts, handled in routes.ts).
import { defineArea } from '../../area.ts';
import { visibilityRoutes } from './openapi.ts';
import { registerVisibilityRoutes } from './routes.ts';
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
  routes: visibilityRoutes,
  handlers: registerVisibilityRoutes,
});
