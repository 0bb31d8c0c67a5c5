// The apps area as app.ts serves it: its stores, its routes (declared in openapi.ts, handled in routes.ts).
import { defineArea } from '../../area.ts';
import { appRoutes } from './openapi.ts';
import { registerAppRoutes } from './routes.ts';
import { createAppStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    apps: ReturnType<typeof createAppStore>;
  }
}

export const appsArea = defineArea({
  name: 'apps',
  stores: { apps: createAppStore },
  sharedReads: { apps: ['exists', 'get'] },
  routes: appRoutes,
  handlers: registerAppRoutes,
});
