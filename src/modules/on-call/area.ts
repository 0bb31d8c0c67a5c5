// The on-call area as app.ts serves it: on-call schedules that live (docs/on-call.md) — its store, its routes,
// the sync job, the signal it announces when a schedule keeps failing, and the check that every provider has an adapter.
import { defineArea } from '../../area.ts';
import { createOnCallStore } from './store.ts';
import { checkOnCallAdapters } from './providers.ts';
import { onCallSyncJob } from './sync.ts';

declare module '../../context.ts' {
  interface Stores {
    onCall: ReturnType<typeof createOnCallStore>;
  }
}
declare module '../../signals.ts' {
  interface Signals {
    /** A schedule failed FAILURES_BEFORE_NOTICE syncs in a row (announced once per run of failures): admins are told. */
    'on-call.sync-failing': { scheduleId: string; scheduleName: string; provider: string; error: string; failures: number };
  }
}

export const onCallArea = defineArea({
  name: 'on-call',
  stores: { onCall: createOnCallStore },
  sharedReads: { onCall: ['exists', 'get', 'linked'] },
  jobs: [onCallSyncJob],
  checks: [() => checkOnCallAdapters()],
});
