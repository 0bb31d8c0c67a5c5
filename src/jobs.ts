// The background jobs, read from the areas: each is a plain tick(ctx, now) owned by its module. Only `serve`
// starts them (after the server listens); tests call the ticks themselves with a moved clock.
import type { Job } from './area.ts';
import { AREAS } from './areas.ts';
import type { AppContext } from './context.ts';

export type { Job };

/** Every area's jobs (src/modules/<area>/area.ts), in the order of AREAS. */
export const JOBS: readonly Job[] = AREAS.flatMap((area) => area.jobs ?? []);

/**
 * Starts every job on a timer and registers its stop on ctx.jobs. A tick that throws or rejects is
 * logged and the job keeps its schedule; ticks never overlap (the next is scheduled when one has
 * settled). Stopping aborts the tick in progress and waits for it to settle.
 */
export function startJobs(ctx: AppContext, jobs: readonly Job[] = JOBS): void {
  for (const job of jobs) {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> | undefined;
    const stop = new AbortController();
    // Read at each scheduling, so an interval changed on the Settings page applies from the next pause.
    const everyMs = () => job.everyMs(ctx.config);
    const fail = (err: unknown) =>
      ctx.log.error('background job failed', { job: job.name, error: err instanceof Error ? err.message : String(err) });
    const run = async () => {
      try {
        await job.tick(ctx, ctx.clock.now(), stop.signal);
      } catch (err) {
        fail(err);
      }
      if (!stop.signal.aborted) timer = setTimeout(() => (running = run()), everyMs());
    };
    timer = setTimeout(() => (running = run()), everyMs());
    ctx.jobs.add(job.name, async () => {
      stop.abort();
      clearTimeout(timer);
      await running;
    });
  }
}
