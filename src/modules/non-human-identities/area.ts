// The non-human-identities area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createNonHumanIdentityStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    nonHumanIdentities: ReturnType<typeof createNonHumanIdentityStore>;
  }
}

export const nonHumanIdentitiesArea = defineArea({
  name: 'non-human-identities',
  stores: { nonHumanIdentities: createNonHumanIdentityStore },
});
