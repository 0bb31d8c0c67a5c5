// The queries area as app.ts serves it: its stores, its routes (declared in openapi.ts, handled in routes.ts).
import { defineArea } from '../../area.ts';
import { queryRoutes } from './openapi.ts';
import { registerQueryRoutes } from './routes.ts';
import { createQueryStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    queries: ReturnType<typeof createQueryStore>;
  }
}

export const queriesArea = defineArea({
  name: 'queries',
  stores: { queries: createQueryStore },
  routes: queryRoutes,
  handlers: registerQueryRoutes,
});
