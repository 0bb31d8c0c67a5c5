// The expiry sweep: deletes edges whose expiration_date has passed, in short transactions, ending
// the sessions they carried and recording one event per expired edge. Reads never wait for it:
// an expired edge stops counting at its instant whether or not it has been swept.
import type { AppContext } from '../../context.ts';
import { systemActor } from '../events/actors.ts';
import type { Actor } from '../events/store.ts';
import { EDGE_KIND_NAMES, EDGE_KINDS } from './edges.ts';
import { afterEdgeChange, edgeSubEvent, inWriteTransaction } from './service.ts';

/** Edges deleted per transaction: short enough that API writes never wait long behind the sweep. */
export const SWEEP_BATCH = 200;

/** The actor of events Gatehouse records on its own (no caller, no token). */
export const SYSTEM_ACTOR: Actor = systemActor('Gatehouse (expiry sweep)');

/**
 * One pass of the sweep at `now`: every edge dead at `now` is deleted and recorded as
 * `…_EXPIRED` (with a SESSIONS_ENDED sub-event per session it ended). Returns how many were swept.
 */
export function tick(ctx: AppContext, now: Date): number {
  const { access, events } = ctx.stores;
  let swept = 0;
  for (const kind of EDGE_KIND_NAMES) {
    const type = EDGE_KINDS[kind].events.expired;
    for (;;) {
      const found = inWriteTransaction(ctx, () => {
        const rows = access.expired(kind, now, SWEEP_BATCH);
        for (const row of rows) {
          if (!access.deleteExpired(kind, row.seq, now)) continue;
          const ended = afterEdgeChange(ctx, kind, row, now);
          events.record(SYSTEM_ACTOR, type, [edgeSubEvent(ctx, kind, type, row), ...ended]);
          swept += 1;
        }
        return rows.length;
      });
      if (found < SWEEP_BATCH) break;
    }
  }
  return swept;
}
