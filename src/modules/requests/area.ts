// The requests area as app.ts serves it: its stores, its routes (declared in openapi.ts, handled in routes.ts), its background job.
import { defineArea } from '../../area.ts';
import { requestRoutes } from './openapi.ts';
import { registerRequestRoutes } from './routes.ts';
import { createRequestStore } from './store.ts';
import { tick as cancelTimedOutRequests } from './timeout.ts';

declare module '../../context.ts' {
  interface Stores {
    requests: ReturnType<typeof createRequestStore>;
  }
}

export const requestsArea = defineArea({
  name: 'requests',
  stores: { requests: createRequestStore },
  sharedReads: { requests: ['adminUserIds', 'comments', 'get', 'hasPending', 'items', 'pendingSince', 'reviewers'] },
  routes: requestRoutes,
  handlers: registerRequestRoutes,
  jobs: [
    // Timeouts count in minutes; checking every 30 s cancels within half a minute of the deadline.
    { name: 'request-timeout', everyMs: () => 30_000, tick: cancelTimedOutRequests },
  ],
});
