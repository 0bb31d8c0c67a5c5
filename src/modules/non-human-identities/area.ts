// The non-human-identities area as app.ts serves it: its stores, its routes (declared in openapi.ts, handled in routes.ts).
import { defineArea } from '../../area.ts';
import { nonHumanIdentityRoutes } from './openapi.ts';
import { registerNonHumanIdentityRoutes } from './routes.ts';
import { createNonHumanIdentityStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    nonHumanIdentities: ReturnType<typeof createNonHumanIdentityStore>;
  }
}

export const nonHumanIdentitiesArea = defineArea({
  name: 'non-human-identities',
  stores: { nonHumanIdentities: createNonHumanIdentityStore },
  routes: nonHumanIdentityRoutes,
  handlers: registerNonHumanIdentityRoutes,
});
