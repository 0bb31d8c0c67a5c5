// The requests area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts), its background job, its read task.
import { defineArea } from '../../area.ts';
import { createRequestStore } from './store.ts';
import { tick as cancelTimedOutRequests } from './timeout.ts';
import type { Caller } from '../../http/types.ts';
import type { ReadTask } from '../../reads/tasks.ts';
import { listRequests } from './list.ts';
import { capRotationGrants } from './on-call-caps.ts';
import type { ListRequestsInput } from './schemas.ts';

/** GET /v1/requests' page, on a read worker (handlers.ts). */
const listRequestsTask = ((ctx, args: { query: ListRequestsInput; caller: Pick<Caller, 'userId' | 'role'> }, now) =>
  listRequests(ctx, args.query, args.caller, now)) satisfies ReadTask<never, unknown>;

declare module '../../context.ts' {
  interface Stores {
    requests: ReturnType<typeof createRequestStore>;
  }
}

/** How a request was decided, as its notice says. */
export type RequestDecision = 'APPROVED' | 'DENIED' | 'CANCELED' | 'TIMED_OUT';

// What the requests area announces, each inside the transaction of its change (notifications tells people).
declare module '../../signals.ts' {
  interface Signals {
    /** A request was made and is PENDING. */
    'requests.created': { requestId: string };
    /** Reviews were added and the request stays PENDING (a stage may have become current). */
    'requests.reviewed': { requestId: string };
    /** A request was decided; actorId null when nobody did (a timeout). */
    'requests.decided': { requestId: string; decision: RequestDecision; actorId: string | null };
    /** A comment was added. */
    'requests.commented': { requestId: string; commentId: string; authorId: string };
  }
}

declare module '../../reads/tasks.ts' {
  interface ReadTasks {
    'requests.list': typeof listRequestsTask;
  }
}

export const requestsArea = defineArea({
  name: 'requests',
  stores: { requests: createRequestStore },
  sharedReads: { requests: ['adminUserIds', 'comments', 'get', 'hasPending', 'items', 'pendingSince', 'reviewers'] },
  readTasks: { 'requests.list': listRequestsTask },
  // A handover or an override cuts back what the rotation approved (docs/on-call.md).
  signals: { 'on-call.cover-shortened': capRotationGrants },
  jobs: [
    // Timeouts count in minutes; checking every 30 s cancels within half a minute of the deadline.
    { name: 'request-timeout', everyMs: () => 30_000, tick: cancelTimedOutRequests },
  ],
});
