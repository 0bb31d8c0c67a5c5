// The background jobs, in one list: each is a plain tick(ctx, now) owned by its module. Only `serve`
// starts them (after the server listens); tests call the ticks themselves with a moved clock.
import type { AppContext } from './context.ts';
import { tick as sweepExpiredAccess } from './modules/access/sweep.ts';
import { tick as cancelTimedOutRequests } from './modules/requests/timeout.ts';

export interface Job {
  name: string;
  everyMs: number;
  tick: (ctx: AppContext, now: Date) => unknown;
}

export const JOBS: readonly Job[] = [
  // Reads already ignore expired edges; the sweep makes the end visible (events, sessions) within seconds.
  { name: 'access-expiry-sweep', everyMs: 5_000, tick: sweepExpiredAccess },
  // Timeouts count in minutes; checking every 30 s cancels within half a minute of the deadline.
  { name: 'request-timeout', everyMs: 30_000, tick: cancelTimedOutRequests },
];

/**
 * Starts every job on a timer and registers its stop on ctx.jobs. A tick that throws is logged and
 * the job keeps its schedule; ticks never overlap (the next is scheduled when one finishes).
 */
export function startJobs(ctx: AppContext): void {
  for (const job of JOBS) {
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const run = () => {
      try {
        job.tick(ctx, ctx.clock.now());
      } catch (err) {
        ctx.log.error('background job failed', { job: job.name, error: err instanceof Error ? err.message : String(err) });
      }
      if (!stopped) timer = setTimeout(run, job.everyMs);
    };
    timer = setTimeout(run, job.everyMs);
    ctx.jobs.add(job.name, () => {
      stopped = true;
      clearTimeout(timer);
    });
  }
}
