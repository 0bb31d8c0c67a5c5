// The delegations area as app.ts serves it: its stores, its routes (declared in openapi.ts, handled in routes.ts).
import { defineArea } from '../../area.ts';
import { delegationRoutes } from './openapi.ts';
import { registerDelegationRoutes } from './routes.ts';
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
  routes: delegationRoutes,
  handlers: registerDelegationRoutes,
});
