// The expiry sweep: deletes edges whose expiration_date has passed, in short transactions, ending
// the sessions they carried and recording one event per expired edge. Reads never wait for it:
// an expired edge stops counting at its instant whether or not it has been swept.
import type { AppContext } from '../../context.ts';
import { SYSTEM_ACTOR } from '../events/system-actor.ts';
import { EDGE_KIND_NAMES } from './edges.ts';
import { changeAccess } from './changes.ts';
import { inWriteTransaction } from './service.ts';

/** Edges deleted per transaction: short enough that API writes never wait long behind the sweep. */
export const SWEEP_BATCH = 200;


/**
 * One pass of the sweep at `now`: every edge dead at `now` is deleted and recorded as
 * `…_EXPIRED` (with a SESSIONS_ENDED sub-event per session it ended). Returns how many were swept.
 */
export function tick(ctx: AppContext, now: Date): number {
  const { access } = ctx.stores;
  let swept = 0;
  for (const kind of EDGE_KIND_NAMES) {
    for (;;) {
      const found = inWriteTransaction(ctx, () => {
        const rows = access.expired(kind, now, SWEEP_BATCH);
        swept += changeAccess(ctx, SYSTEM_ACTOR, rows.map((row) => ({ op: 'sweep' as const, kind, row })), { at: now }).length;
        return rows.length;
      });
      if (found < SWEEP_BATCH) break;
    }
  }
  return swept;
}
