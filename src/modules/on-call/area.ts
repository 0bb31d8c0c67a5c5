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
    /**
     * The rotation's cover of a person for a group ends earlier than it said (a handover, an override): at
     * `endsAt`, at once when that is now. Access the rotation approved through that group (requests) ends no later.
     */
    'on-call.cover-shortened': { groupId: string; userId: string; endsAt: string };
  }
}

export const onCallArea = defineArea({
  name: 'on-call',
  stores: { onCall: createOnCallStore },
  sharedReads: { onCall: ['exists', 'get', 'linked'] },
  jobs: [onCallSyncJob],
  checks: [() => checkOnCallAdapters()],
});
