// The background jobs, in one list: each is a plain tick(ctx, now) owned by its module. Only `serve`
// starts them (after the server listens); tests call the ticks themselves with a moved clock.
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { tick as sweepExpiredAccess } from './modules/access/sweep.ts';
import { tick as deliverEventStreams } from './modules/event-streams/delivery.ts';
import { tick as cancelTimedOutRequests } from './modules/requests/timeout.ts';
import { tick as runOutbox } from './outbox/index.ts';
import { tick as syncConnectors } from './modules/connectors/service.ts';

export interface Job {
  name: string;
  /** The pause between the end of one tick and the start of the next, in ms. */
  everyMs: (config: Config) => number;
  /**
   * One pass. It may return a promise: the next tick waits for it. `stop` aborts when the service
   * shuts down, so network work can give up; the database stays open until the tick has settled.
   */
  tick: (ctx: AppContext, now: Date, stop: AbortSignal) => unknown;
}

export const JOBS: readonly Job[] = [
  // Reads already ignore expired edges; the sweep makes the end visible (events, sessions) within seconds.
  { name: 'access-expiry-sweep', everyMs: () => 5_000, tick: sweepExpiredAccess },
  { name: 'event-stream-delivery', everyMs: (config) => config.eventStreamIntervalMs, tick: deliverEventStreams },
  // Timeouts count in minutes; checking every 30 s cancels within half a minute of the deadline.
  // The one work queue (connector pushes, notices): due rows run within a second of being due.
  { name: 'outbox', everyMs: (config) => config.outboxIntervalMs, tick: runOutbox },
  // Checks each minute which connectors are due a sync (GATEHOUSE_CONNECTOR_SYNC_INTERVAL_MS).
  { name: 'connector-sync', everyMs: () => 60_000, tick: syncConnectors },
  { name: 'request-timeout', everyMs: () => 30_000, tick: cancelTimedOutRequests },
];

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
    const everyMs = job.everyMs(ctx.config);
    const fail = (err: unknown) =>
      ctx.log.error('background job failed', { job: job.name, error: err instanceof Error ? err.message : String(err) });
    const run = async () => {
      try {
        await job.tick(ctx, ctx.clock.now(), stop.signal);
      } catch (err) {
        fail(err);
      }
      if (!stop.signal.aborted) timer = setTimeout(() => (running = run()), everyMs);
    };
    timer = setTimeout(() => (running = run()), everyMs);
    ctx.jobs.add(job.name, async () => {
      stop.abort();
      clearTimeout(timer);
      await running;
    });
  }
}
