// What time brings to break-glasses, checked by a background job: marking those whose time is over as
// ended (the person is told), and chasing reviews left OPEN — the item's owners reminded after
// GATEHOUSE_BREAK_GLASS_REVIEW_MINUTES, the administrators told after twice that. Each is done once:
// the row records it in the same transaction as the signal notifications hears.
import type { AppContext } from '../../context.ts';
import { addMinutes } from '../../lib/durations.ts';
import { announce } from '../../signals.ts';

/** Rows handled per transaction, with a yield to the event loop between two. */
const BATCH = 100;

async function inBatches<T>(ctx: AppContext, read: () => T[], handle: (row: T) => boolean): Promise<number> {
  let done = 0;
  for (;;) {
    let rows: T[] = [];
    ctx.db.transaction(() => {
      rows = read();
      for (const row of rows) if (handle(row)) done += 1;
    }).immediate();
    if (rows.length < BATCH) return done;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** One pass at `now` (src/jobs.ts; tests call it with a moved clock). Resolves to what it did. */
export async function tick(ctx: AppContext, now: Date): Promise<{ ended: number; reminded: number; escalated: number }> {
  const { breakGlass: store } = ctx.stores;
  const period = ctx.config.breakGlassReviewMinutes;
  const ended = await inBatches(ctx, () => store.overdueEnd(now, BATCH), (row) => {
    if (!store.end(row.id, new Date(row.ends_at))) return false;
    announce(ctx, 'break-glass.ended', { breakGlassId: row.id }, now);
    return true;
  });
  const escalated = await inBatches(ctx, () => store.toEscalate(addMinutes(now, -2 * period), BATCH), (row) => {
    // Escalated without a reminder first (the service was down a whole period): the owners are reminded too.
    if (store.markReminded(row.id, now)) announce(ctx, 'break-glass.review-overdue', { breakGlassId: row.id, step: 'REMINDER' }, now);
    if (!store.markEscalated(row.id, now)) return false;
    announce(ctx, 'break-glass.review-overdue', { breakGlassId: row.id, step: 'ESCALATION' }, now);
    return true;
  });
  const reminded = await inBatches(ctx, () => store.toRemind(addMinutes(now, -period), BATCH), (row) => {
    if (!store.markReminded(row.id, now)) return false;
    announce(ctx, 'break-glass.review-overdue', { breakGlassId: row.id, step: 'REMINDER' }, now);
    return true;
  });
  return { ended, reminded, escalated };
}
