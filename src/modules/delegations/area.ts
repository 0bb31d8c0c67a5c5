// The delegations area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createDelegationStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    delegations: ReturnType<typeof createDelegationStore>;
  }
}

export const delegationsArea = defineArea({
  name: 'delegations',
  stores: { delegations: createDelegationStore },
  sharedReads: { delegations: ['inForce'] },
});
