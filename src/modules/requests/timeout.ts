// The pending-request timeout: a PENDING request nobody decided within GATEHOUSE_REQUEST_TIMEOUT_MINUTES
// of its creation is canceled, with a REQUESTS_CANCELED event, in short transactions.
import type { AppContext } from '../../context.ts';
import { requestSubEvents, timeoutCutoff, TIMEOUT_ACTOR } from './decide.ts';
import { announce } from '../../signals.ts';

/** Requests canceled per transaction. */
const BATCH = 100;

/** One pass at `now`; returns how many requests were canceled. A setting of 0 turns the timeout off. */
export function tick(ctx: AppContext, now: Date): number {
  const cutoff = timeoutCutoff(ctx, now);
  if (cutoff === null) return 0;
  const minutes = ctx.config.requestTimeoutMinutes;
  const { requests, events } = ctx.stores;
  let canceled = 0;
  for (;;) {
    const found = ctx.db.transaction(() => {
      const ids = requests.pendingSince(cutoff, BATCH);
      for (const id of ids) {
        if (!requests.decide(id, 'CANCELED', now)) continue;
        events.record(TIMEOUT_ACTOR, 'REQUESTS_CANCELED', requestSubEvents(ctx, 'REQUESTS_CANCELED', requests.get(id)!, {
          cause: 'timeout', timeout_minutes: minutes,
        }));
        announce(ctx, 'requests.decided', { requestId: id, decision: 'TIMED_OUT', actorId: null }, now);
        canceled += 1;
      }
      return ids.length;
    }).immediate();
    if (found < BATCH) break;
  }
  return canceled;
}
