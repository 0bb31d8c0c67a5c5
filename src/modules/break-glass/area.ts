// The break-glass area as app.ts serves it: its store, its routes, its schedule (ends and review chasing),
// and the signals it announces (notifications tells people).
import { defineArea } from '../../area.ts';
import { createBreakGlassStore } from './store.ts';
import { tick as breakGlassSchedule } from './schedule.ts';

declare module '../../context.ts' {
  interface Stores {
    breakGlass: ReturnType<typeof createBreakGlassStore>;
  }
}

// What the break-glass area announces, each inside the transaction of its change.
declare module '../../signals.ts' {
  interface Signals {
    /** Someone broke glass: the item's owners, the admins and the owner's reviewer channel are told. */
    'break-glass.used': { breakGlassId: string };
    /** Its time is over: the person is told. */
    'break-glass.ended': { breakGlassId: string };
    /** An owner or admin reviewed it; endedAccess when NOT_JUSTIFIED ended access that still lasted. */
    'break-glass.reviewed': { breakGlassId: string; decision: 'JUSTIFIED' | 'NOT_JUSTIFIED'; reviewerId: string; endedAccess: boolean };
    /** Its review waited past GATEHOUSE_BREAK_GLASS_REVIEW_MINUTES (REMINDER, to the owners) or twice that (ESCALATION, to the admins). */
    'break-glass.review-overdue': { breakGlassId: string; step: 'REMINDER' | 'ESCALATION' };
  }
}

export const breakGlassArea = defineArea({
  name: 'break-glass',
  stores: { breakGlass: createBreakGlassStore },
  sharedReads: { breakGlass: ['get', 'count'] },
  jobs: [
    // Ends count in minutes; every 30 s tells the person within half a minute, and chases reviews in time.
    { name: 'break-glass-schedule', everyMs: () => 30_000, tick: breakGlassSchedule },
  ],
});
