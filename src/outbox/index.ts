// The outbox: the service's one durable work queue. Its interface, for every area that queues work:
//
//   enqueue(ctx, { kind, key, payload, giveUpAfterMs?, notBefore? }) → seq
//       Call INSIDE the write transaction of the change that needs the work (it throws otherwise), so
//       the change, its audit event and its follow-up commit or roll back together.
//   OutboxHandler { run(ctx, item, signal) → Attempt; settled?(ctx, item, outcome); giveUpAfterMs?; maxDelayMs? }
//       Declared by its area, once per kind (`outbox: { [KIND]: handler }` in its area.ts; ctx.registry.outbox). `run` does the network work
//       OUTSIDE any transaction and answers { ok: true } or { ok: false, error, code?, retryAfterMs?,
//       permanent? }; a throw counts as { ok: false, error: message }. `settled` runs INSIDE the short
//       transaction that records the attempt's outcome (state 'DONE' | 'RETRYING' | 'FAILED'): update
//       your own status rows and record your audit events there.
//   tick(ctx, now, stop?) → summary
//       The background job (src/jobs.ts): claims due rows, runs them, records outcomes, until none is due.
//   retryFailed(ctx, kind, keyPrefix) → rows re-queued
//       Puts FAILED rows of a kind (whose key starts with keyPrefix) back in the queue, due now.
//
// Guarantees: at least once (a handler must be idempotent: a crash after the remote side acted and
// before the outcome was recorded runs the row again); per key in order (a row never starts while an
// earlier row with the same key is PENDING — finished rows, DONE or FAILED, do not block); retries
// with exponential back-off and jitter, durable across restarts (the next attempt time is a column);
// bounded: a failure after the row's deadline (giveUpAfterMs after it was queued) marks it FAILED,
// records OUTBOX_ITEMS_FAILED, and it stays visible until retried by hand. Time comes from ctx.clock.
// See docs/outbox.md.
import type { AppContext } from '../context.ts';
import { commitPendingWrites, insideTransaction } from '../db/group-commit.ts';
import { systemActor } from '../lib/system-actor.ts';
import type { OutboxRow } from './store.ts';

/** What a handler's `run` sees: the row, its payload parsed. */
export interface OutboxItem<P = unknown> {
  seq: number;
  kind: string;
  key: string;
  payload: P;
  /** This attempt's number, from 1. */
  attempt: number;
  created_at: string;
  deadline_at: string;
}

/** One attempt's answer. `permanent` fails the row at once; `retryAfterMs` is a floor for the next delay (429's Retry-After). */
export type Attempt =
  | { ok: true }
  | { ok: false; error: string; code?: string; retryAfterMs?: number; permanent?: boolean };

/** How an attempt ended for the row: finished, to be tried again at nextAttemptAt, or given up. */
export interface Outcome {
  state: 'DONE' | 'RETRYING' | 'FAILED';
  attempt: Attempt;
  /** ISO time of the next attempt when RETRYING, else null. */
  nextAttemptAt: string | null;
  /** ISO time the outcome was recorded. */
  at: string;
}

export interface OutboxHandler<P = any> {
  run(ctx: AppContext, item: OutboxItem<P>, signal: AbortSignal): Promise<Attempt>;
  /** Inside the outcome's transaction: your status rows and audit events. Must not do network work. */
  settled?(ctx: AppContext, item: OutboxItem<P>, outcome: Outcome): void;
  /** How long after queueing a failure marks the row FAILED (default DEFAULT_GIVE_UP_AFTER_MS). */
  giveUpAfterMs?: number;
  /** The cap on the back-off delay (default MAX_DELAY_MS). */
  maxDelayMs?: number;
  /**
   * The lane of a row, as a prefix of its key (default '': the kind is one lane): rows of one lane hold at
   * most LANE_SHARE of the rows a tick runs at once (connector pushes: one lane per app).
   */
  lane?(key: string): string;
}

export interface EnqueueInput {
  kind: string;
  key: string;
  payload: unknown;
  /** Overrides the handler's giveUpAfterMs for this row. */
  giveUpAfterMs?: number;
  /** Not due before this instant (default: now). */
  notBefore?: Date;
}

/** The actor of the events the outbox records, and of the connector pushes it drives. */
export const OUTBOX_ACTOR = systemActor('Gatehouse (outbox)');

/** A day: long enough to ride out a weekend-night outage of a remote system's API, short enough to be seen. */
export const DEFAULT_GIVE_UP_AFTER_MS = 24 * 3_600_000;
export const FIRST_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 5 * 60_000;
/** Rows run at once by a tick (different keys only). */
export const MAX_IN_FLIGHT = 64;
/**
 * Rows of one lane (one connector's pushes, or one kind of work) run at once: a slow or hung remote system
 * holds at most this share of the tick, and the rest goes on beside it.
 */
export const LANE_SHARE = 16;
/** A tick stops claiming after this many rows, so other jobs get their turn; the next tick goes on. */
export const MAX_PER_TICK = 20_000;
/** How long a claim holds: a row whose run outlives this (a hung handler) may be claimed again. */
export const CLAIM_MS = 10 * 60_000;
/** DONE rows are kept this long for inspection, then deleted. */
export const KEEP_DONE_MS = 24 * 3_600_000;

/**
 * Queues one row. Must run inside the caller's write transaction (throws otherwise: work queued
 * outside it could survive a rolled-back change or be lost with a committed one). Returns its seq.
 */
export function enqueue(ctx: AppContext, input: EnqueueInput): number {
  if (!insideTransaction(ctx.db)) throw new Error('outbox enqueue must run inside the write transaction of its change');
  const now = ctx.clock.now();
  const handler = ctx.registry.outbox[input.kind];
  const giveUp = input.giveUpAfterMs ?? handler?.giveUpAfterMs ?? DEFAULT_GIVE_UP_AFTER_MS;
  return ctx.stores.outbox.insert({
    kind: input.kind,
    key: input.key,
    payload: JSON.stringify(input.payload ?? null),
    due: (input.notBefore ?? now).toISOString(),
    deadline: new Date(now.getTime() + giveUp).toISOString(),
    now: now.toISOString(),
  });
}

/**
 * The delay before attempt `attempts + 1` after `attempts` failures: FIRST_DELAY_MS doubling up to
 * `maxMs`, with "equal jitter" (half fixed, half random) so a burst of failures does not retry in step.
 */
export function backoffMs(attempts: number, maxMs = MAX_DELAY_MS, random: () => number = Math.random): number {
  const base = Math.min(FIRST_DELAY_MS * 2 ** Math.min(Math.max(attempts - 1, 0), 30), maxMs);
  return Math.round(base / 2 + (base / 2) * random());
}

export interface TickSummary {
  ran: number;
  done: number;
  retrying: number;
  failed: number;
}

const released = new WeakSet<AppContext>();

function toItem(row: OutboxRow): OutboxItem {
  return { seq: row.seq, kind: row.kind, key: row.key, payload: JSON.parse(row.payload), attempt: row.attempts, created_at: row.created_at, deadline_at: row.deadline_at };
}

async function runOne(ctx: AppContext, handler: OutboxHandler, item: OutboxItem, signal: AbortSignal): Promise<Attempt> {
  try {
    return await handler.run(ctx, item, signal);
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err), code: 'HANDLER_ERROR' };
  }
}

/** Decides what an attempt means for its row and records it with the handler's settled hook; call inside the batch's transaction. */
function record(ctx: AppContext, handler: OutboxHandler, item: OutboxItem, attempt: Attempt): Outcome['state'] {
  const { outbox, events } = ctx.stores;
  const at = ctx.clock.now();
  const iso = at.toISOString();
  let outcome: Outcome;
  if (attempt.ok) {
    outbox.done(item.seq, iso);
    outcome = { state: 'DONE', attempt, nextAttemptAt: null, at: iso };
  } else {
    const delay = Math.max(backoffMs(item.attempt, handler.maxDelayMs), attempt.retryAfterMs ?? 0);
    const next = new Date(at.getTime() + delay).toISOString();
    if (attempt.permanent || next > item.deadline_at) {
      outbox.fail(item.seq, iso, attempt.error, attempt.code ?? null);
      events.record(OUTBOX_ACTOR, 'OUTBOX_ITEMS_FAILED', [{
        sub_event_type: 'OUTBOX_ITEMS_FAILED', outbox_seq: item.seq, kind: item.kind, key: item.key,
        attempts: item.attempt, error: attempt.error, code: attempt.code ?? null,
      }]);
      outcome = { state: 'FAILED', attempt, nextAttemptAt: null, at: iso };
    } else {
      outbox.retryAt(item.seq, iso, next, attempt.error, attempt.code ?? null);
      outcome = { state: 'RETRYING', attempt, nextAttemptAt: next, at: iso };
    }
  }
  handler.settled?.(ctx, item, outcome);
  return outcome.state;
}

/** A row running outside any transaction, and what it answered once it has. */
interface Running {
  handler: OutboxHandler;
  item: OutboxItem;
  attempt?: Attempt;
}

/** The lane of a row, as `kind\nkey prefix` (the prefix its handler's `lane` names): the rows that share one share of the tick. */
function laneOf(handlers: Readonly<Record<string, OutboxHandler>>, row: Pick<OutboxRow, 'kind' | 'key'>): string {
  const prefix = handlers[row.kind]!.lane?.(row.key) ?? '';
  // A prefix that is not the key's own would put rows in a lane the query for due rows cannot leave out.
  return `${row.kind}\n${row.key.startsWith(prefix) ? prefix : ''}`;
}

/**
 * One pass: claims due rows (per key in order) and runs each outside any transaction as soon as there is
 * room, recording each outcome (with whatever else finished meanwhile) in a short transaction as soon as
 * it arrives, so no row waits for another: a slow connector holds only its own rows. At most MAX_IN_FLIGHT
 * rows run at once, at most LANE_SHARE of them of one lane (one connector's pushes, or one kind); while
 * rows run, rows that became due meanwhile are claimed every `GATEHOUSE_OUTBOX_INTERVAL_MS`. Goes on until
 * nothing is due and nothing runs, MAX_PER_TICK rows were started, or `stop` aborts (then waits for the rows
 * running). Rows whose kind has no handler wait. The first tick of a context releases claims a dead
 * process left behind.
 */
export async function tick(ctx: AppContext, now: Date, stop?: AbortSignal, handlers: Readonly<Record<string, OutboxHandler>> = ctx.registry.outbox): Promise<TickSummary> {
  const { outbox } = ctx.stores;
  if (!released.has(ctx)) {
    released.add(ctx);
    ctx.db.transaction(() => outbox.releaseAll()).immediate();
  }
  ctx.db.transaction(() => outbox.purgeDone(new Date(now.getTime() - KEEP_DONE_MS).toISOString(), 1_000)).immediate();
  const kinds = Object.keys(handlers);
  const summary: TickSummary = { ran: 0, done: 0, retrying: 0, failed: 0 };
  const signal = stop ?? new AbortController().signal;
  const running = new Set<Running>();
  const laneLoad = new Map<string, number>();
  const finished: Running[] = [];
  let started = 0;
  let wake: (() => void) | undefined;

  const start = (row: OutboxRow, lane: string) => {
    const handler = handlers[row.kind]!;
    const run: Running = { handler, item: toItem(row) };
    running.add(run);
    laneLoad.set(lane, (laneLoad.get(lane) ?? 0) + 1);
    void runOne(ctx, handler, run.item, signal).then((attempt) => {
      run.attempt = attempt;
      running.delete(run);
      const load = laneLoad.get(lane)! - 1;
      if (load === 0) laneLoad.delete(lane);
      else laneLoad.set(lane, load);
      finished.push(run);
      wake?.();
    });
  };

  /** Claims and starts due rows while there is room; lanes at their share are left out of the query. */
  const claimDue = () => {
    while (running.size < MAX_IN_FLIGHT && started < MAX_PER_TICK && !signal.aborted) {
      const at = new Date(Math.max(now.getTime(), ctx.clock.now().getTime()));
      const until = new Date(at.getTime() + CLAIM_MS).toISOString();
      const full = [...laneLoad].filter(([, load]) => load >= LANE_SHARE).map(([id]) => id.split('\n') as [string, string]);
      const claimed = ctx.db.transaction(() => {
        const taken: { row: OutboxRow; lane: string }[] = [];
        const load = new Map(laneLoad);
        for (const row of outbox.due(at.toISOString(), kinds, MAX_IN_FLIGHT - running.size, full)) {
          const lane = laneOf(handlers, row);
          if ((load.get(lane) ?? 0) >= LANE_SHARE || !outbox.claim(row.seq, until)) continue;
          load.set(lane, (load.get(lane) ?? 0) + 1);
          taken.push({ row: { ...row, attempts: row.attempts + 1 }, lane });
        }
        return taken;
      }).immediate();
      if (claimed.length === 0) return;
      // The rows (and the changes that queued them) may sit in an open group-commit batch: they go out
      // to the world only once they are on disk (db/group-commit.ts).
      commitPendingWrites(ctx.db);
      for (const { row, lane } of claimed) start(row, lane);
      started += claimed.length;
    }
  };

  for (;;) {
    claimDue();
    if (running.size === 0 && finished.length === 0) break;
    if (finished.length === 0) {
      // Wait for a row to finish, or for the next look at rows that became due while these run.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ctx.config.outboxIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
    const outcomes = finished.splice(0);
    if (outcomes.length === 0) continue;
    // One short transaction records what finished together (one commit, not one per row).
    ctx.db.transaction(() => {
      for (const { handler, item, attempt } of outcomes) {
        // Shutting down: a row that failed because of it stays claimed; the next start runs it again.
        if (signal.aborted && !attempt!.ok) continue;
        const state = record(ctx, handler, item, attempt!);
        summary.ran += 1;
        if (state === 'DONE') summary.done += 1;
        else if (state === 'RETRYING') summary.retrying += 1;
        else summary.failed += 1;
      }
    }).immediate();
  }
  return summary;
}

/**
 * Makes the PENDING rows of `kind` whose key starts with one of `keyPrefixes` due now, when they wait for a
 * later attempt: what they waited for has changed (an admin linked the account a push needed, say), so the
 * next tick runs them instead of their back-off. Call inside the caller's write transaction, so the change
 * and its consequence commit together. Returns the rows brought forward.
 */
export function dueNow(ctx: AppContext, kind: string, keyPrefixes: readonly string[]): OutboxRow[] {
  if (!insideTransaction(ctx.db)) throw new Error('outbox dueNow must run inside a write transaction');
  const now = ctx.clock.now().toISOString();
  return keyPrefixes.flatMap((prefix) => ctx.stores.outbox.pendingOf(kind, prefix)).filter((row) => ctx.stores.outbox.dueAt(row.seq, now));
}

/**
 * Re-queues the FAILED rows of `kind` whose key starts with `keyPrefix`, due now with a fresh deadline,
 * and records OUTBOX_ITEMS_RETRIED. Call inside the caller's write transaction. Returns the rows re-queued.
 */
export function retryFailed(ctx: AppContext, actor: Parameters<AppContext['stores']['events']['record']>[0], kind: string, keyPrefix = ''): OutboxRow[] {
  if (!insideTransaction(ctx.db)) throw new Error('outbox retryFailed must run inside a write transaction');
  const { outbox, events } = ctx.stores;
  const now = ctx.clock.now();
  const giveUp = ctx.registry.outbox[kind]?.giveUpAfterMs ?? DEFAULT_GIVE_UP_AFTER_MS;
  const rows = outbox.failedOf(kind, keyPrefix)
    .filter((row) => outbox.requeue(row.seq, now.toISOString(), new Date(now.getTime() + giveUp).toISOString()));
  if (rows.length > 0) {
    events.record(actor, 'OUTBOX_ITEMS_RETRIED', rows.map((row) => ({
      sub_event_type: 'OUTBOX_ITEMS_RETRIED', outbox_seq: row.seq, kind: row.kind, key: row.key, error: row.last_error,
    })));
  }
  return rows;
}
