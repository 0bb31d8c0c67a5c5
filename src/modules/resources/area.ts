// The resources area as app.ts serves it: its stores, its routes (declared in openapi.ts, handled in routes.ts).
import { defineArea } from '../../area.ts';
import { resourceRoutes } from './openapi.ts';
import { registerResourceRoutes } from './routes.ts';
import { createResourceStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    resources: ReturnType<typeof createResourceStore>;
  }
}

export const resourcesArea = defineArea({
  name: 'resources',
  stores: { resources: createResourceStore },
  sharedReads: {
    resources: ['accessLevel', 'accessLevels', 'countConfigurationsNaming', 'exists', 'getRow', 'listByTypes', 'resourceType', 'toApi'],
  },
  routes: resourceRoutes,
  handlers: registerResourceRoutes,
});
