// The access area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts), its background job.
import { defineArea } from '../../area.ts';
import { createHoldingsStore } from './holdings-store.ts';
import { createAccessStore } from './store.ts';
import { tick as sweepExpiredAccess } from './sweep.ts';

declare module '../../context.ts' {
  interface Stores {
    access: ReturnType<typeof createAccessStore>;
    holdings: ReturnType<typeof createHoldingsStore>;
  }
}

export const accessArea = defineArea({
  name: 'access',
  stores: { access: createAccessStore, holdings: createHoldingsStore },
  sharedReads: {
    access: ['describe', 'groupLevelName', 'groupLevels', 'live', 'liveOfItem', 'livePair', 'wouldCycle'],
    holdings: ['everyHolder', 'groupsHolding', 'groupsOfUser', 'holdersOf', 'identitiesHolding', 'reachOfGroup', 'reachOfIdentity', 'resourcesOfUser'],
  },
  jobs: [
    // Reads already ignore expired edges; the sweep makes the end visible (events, sessions) within seconds.
    { name: 'access-expiry-sweep', everyMs: () => 5_000, tick: sweepExpiredAccess },
  ],
});
