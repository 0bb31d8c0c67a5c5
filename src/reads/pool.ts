// Heavy reads off the event loop: a small pool of worker threads, each with its own read-only
// connection to the database file (WAL lets readers run beside the writer), running the named read
// tasks of tasks.ts. The design and its measured cost: docs/read-workers.md.
import { Worker } from 'node:worker_threads';
import * as sea from 'node:sea';
import type { AppContext } from '../context.ts';
import { AppError, type FieldProblem } from '../http/errors.ts';
import type { BudgetLimits } from './budget.ts';
import { JsonText } from '../http/json-text.ts';
import { runTask, type TaskAnswer, type TaskArgs, type TaskName, type TaskResult } from './tasks.ts';

/** What a read worker is started with (workerData); main.ts recognises a worker by `role`. */
export interface ReadWorkerData {
  role: 'gatehouse-read-worker';
  dbFile: string;
  cursorSecret: string;
  config: AppContext['config'];
}

/** A task sent to a worker. */
export interface TaskMessage {
  id: number;
  task: TaskName;
  args: unknown;
  nowIso: string;
  budget: BudgetLimits;
  /** Answer the value as JSON text: the worker serialises it, and the main thread copies one string instead of rebuilding an object graph. */
  json: boolean;
}



/** A worker's answer: the value, or the AppError it threw (anything else is a fault: `internal`). */
export type ResultMessage =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { code: AppError['code']; message: string; details: FieldProblem[] } | null; text: string };

/**
 * Old-generation heap of each read worker: bounds what one read can hold (the service's RSS stays under
 * 300 MB). 64, not 48: since the areas plug in, a worker loads every area's module to build its registry
 * (~3 MB more heap), and the bench's node query over a resource held by 50,000 users, which fitted in 48
 * with little to spare, was refused (npm run bench, 2026-11-27: 400 at 48 MB; 200 in 505 ms at 64).
 */
export const WORKER_HEAP_MB = 64;
/** Young generation of each read worker (V8's semi-spaces); see docs/read-workers.md for the measurement. */
export const WORKER_YOUNG_MB = 16;
/** SQLite page cache of each read worker's connection, in KiB. */
export const WORKER_CACHE_KIB = 4096;
/**
 * A worker with nothing to run for this long is stopped (the next heavy read starts one again): an idle
 * worker holds 30–60 MB of RSS (its V8 heap, grown by the last big page, and its SQLite cache), which a
 * service answering only light reads and writes should not carry (docs/performance.md, "Memory").
 */
export const WORKER_IDLE_MS = 30_000;

/**
 * Heavy reads one caller may have running or queued at once; more answer 429 (Retry-After). Within
 * that, the queue is fair: each caller has a queue of their own, and a free worker serves the callers
 * in turn, the one served longest ago first (a caller new to the queue before all), so one caller's
 * backlog never holds back another's read by more than the reads already running.
 */
export const MAX_READS_PER_CALLER = 8;
/** Answered pages (of GATEHOUSE_MAX_PAGE_BYTES) that may wait for their clients at once, all callers together; beyond, 503. */
export const PAGES_IN_FLIGHT = 16;
/**
 * Tasks waiting for a worker, beyond which reads of callers who already have one waiting answer 503 (the
 * pool is saturated, not one caller). A caller with none waiting is always queued: a few heavy callers
 * filling the queue must not refuse everyone else's first read (the number of callers is bounded by the
 * connections the service accepts).
 */
const QUEUE_PER_WORKER = 16;

interface Pending {
  message: TaskMessage;
  owner: string;
  /** Whether the client who asked has gone (its connection closed): a read still waiting then is dropped, not run. */
  gone: (() => boolean) | undefined;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

interface Slot {
  worker: Worker;
  current: Pending | null;
  /** When it last finished a task (or started), for idle retirement (performance.now()). */
  idleSince: number;
}

/** Where a worker's code comes from: the executable's embedded bundle, or the sources under tsx. */
function workerSource(): { source: string; eval: boolean; execArgv?: string[] } | null {
  if (sea.isSea()) {
    // build.mjs embeds the workers' own bundle (src/reads/worker-main.ts: the read tasks and what they
    // need, not the routes, console or API viewer) as this asset.
    // Wrapped in a function: an eval'd script's top-level `var`s would land on the global object, where
    // some names (crypto) are read-only.
    return { source: `(function () {\n${sea.getAsset('read-worker.cjs', 'utf8')}\n})();`, eval: true };
  }
  // Under tsx, src/dev/register-sql.mjs says where the hooks and sources are.
  const dev = (globalThis as { __gatehouseDevWorker?: { tsxApi: string; registerSql: string; main: string } }).__gatehouseDevWorker;
  if (dev === undefined) return null;
  const [tsx, sql, main] = [dev.tsxApi, dev.registerSql, dev.main].map((url) => JSON.stringify(url));
  return { source: `import(${tsx}).then(async (tsx) => { tsx.register(); await import(${sql}); await import(${main}); })`, eval: true, execArgv: [] };
}

/**
 * Runs read tasks: on `size` worker threads when the database is a file and the worker code can be
 * found, else on the calling thread (same tasks, same budget). Workers start on first use.
 */
export class ReadPool {
  readonly #ctx: AppContext;
  readonly #size: number;
  readonly #slots: Slot[] = [];
  /** Reads waiting for a worker, per caller, oldest first; a caller with none waiting has no entry. */
  readonly #queues = new Map<string, Pending[]>();
  #queued = 0;
  /** When each caller with reads waiting or running was last served (a dispatch serial); none: never, so first. */
  readonly #servedAt = new Map<string, number>();
  #dispatches = 0;
  readonly #perOwner = new Map<string, number>();
  #nextId = 1;
  #stopped = false;
  #unsentBytes = 0;
  readonly #source: ReturnType<typeof workerSource>;
  #idleTimer: NodeJS.Timeout | null = null;
  #retired = 0;

  constructor(ctx: AppContext) {
    this.#ctx = ctx;
    const { readWorkers, dbFile } = ctx.config;
    this.#source = readWorkers > 0 && dbFile !== ':memory:' ? workerSource() : null;
    this.#size = this.#source ? readWorkers : 0;
  }

  /** Workers this pool runs (0: tasks run on the calling thread). */
  get workers(): number {
    return this.#size;
  }

  /** The budget of one request, from the settings, starting now. */
  budget(): BudgetLimits {
    const { readBudgetRows, readBudgetMs } = this.#ctx.config;
    return { maxRows: readBudgetRows, deadlineMs: Date.now() + readBudgetMs };
  }

  /**
   * Runs `task` with `args` at `now` for `owner` (a caller's user id). Throws too_many_requests when
   * the owner already has MAX_READS_PER_CALLER reads running or queued, unavailable when the queue is
   * full, and whatever the task throws (AppError as is; a fault as `internal`).
   */
  run<K extends TaskName>(task: K, args: TaskArgs<K>, owner: string, now: Date, gone?: () => boolean): Promise<TaskResult<K>> {
    return this.#run(task, args, owner, now, false, gone) as Promise<TaskResult<K>>;
  }

  /**
   * Like `run`, for a value that is only sent to the client: answers its JSON text, made where the task
   * ran. Throws unavailable (503, Retry-After) while the pages already answered but not yet sent to
   * their clients hold more than PAGES_IN_FLIGHT pages' worth of bytes: clients that ask for big pages
   * and do not read them cannot make the service hold more, however many connections they open.
   */
  async answer<K extends TaskName>(task: K, args: TaskArgs<K>, owner: string, now: Date, gone?: () => boolean): Promise<JsonText<TaskAnswer<K>>> {
    const bound = PAGES_IN_FLIGHT * this.#ctx.config.maxPageBytes;
    if (this.#unsentBytes > bound) {
      throw new AppError('unavailable', 'the service holds as many answered pages as it may until their clients read them; retry shortly', [], { 'Retry-After': '1' });
    }
    const text = (await this.#run(task, args, owner, now, true, gone)) as string | Uint8Array;
    const bytes = typeof text === 'string' ? text.length : text.byteLength;
    this.#unsentBytes += bytes;
    return new JsonText(text, () => {
      this.#unsentBytes -= bytes;
    });
  }

  /** Bytes of answered pages not yet sent to (or dropped by) their clients. */
  get unsentBytes(): number {
    return this.#unsentBytes;
  }

  async #run<K extends TaskName>(task: K, args: TaskArgs<K>, owner: string, now: Date, json: boolean, gone?: () => boolean): Promise<unknown> {
    const budget = this.budget();
    if (this.#size === 0) {
      const value = runTask(this.#ctx, task, args, now, budget);
      if (!json) return value;
      return value instanceof JsonText ? value.text : JSON.stringify(value);
    }
    const held = this.#perOwner.get(owner) ?? 0;
    if (held >= MAX_READS_PER_CALLER) {
      throw new AppError('too_many_requests', `at most ${MAX_READS_PER_CALLER} heavy reads per caller run at once; retry when one has answered`, [], { 'Retry-After': '1' });
    }
    // Reads whose clients have left make room first: a full queue of those is not a busy service.
    if (this.#queued >= QUEUE_PER_WORKER * this.#size) this.#dropGone();
    if (this.#queued >= QUEUE_PER_WORKER * this.#size && this.#queues.has(owner)) {
      throw new AppError('unavailable', 'the service is busy with heavy reads; retry shortly', [], { 'Retry-After': '1' });
    }
    this.#perOwner.set(owner, held + 1);
    try {
      return await new Promise((resolve, reject) => {
        const pending: Pending = { message: { id: this.#nextId++, task, args, nowIso: now.toISOString(), budget, json }, owner, gone, resolve, reject };
        const queue = this.#queues.get(owner);
        if (queue) queue.push(pending);
        else this.#queues.set(owner, [pending]);
        this.#queued += 1;
        this.#dispatch();
      });
    } finally {
      const left = (this.#perOwner.get(owner) ?? 1) - 1;
      if (left === 0) {
        this.#perOwner.delete(owner);
        // Nothing waiting or running: the caller's turn is forgotten (the state stays bounded by the callers in the pool).
        this.#servedAt.delete(owner);
      } else this.#perOwner.set(owner, left);
    }
  }

  /** Reads waiting for a worker, all callers together. */
  get queued(): number {
    return this.#queued;
  }

  /** Starts the workers now rather than on the first heavy read (each takes ~1 s to load the bundle). */
  warm(): void {
    // Asked after stop (a start that was shut down at once): no worker may start for a closed service.
    if (this.#stopped) return;
    while (this.#slots.length < this.#size) this.#spawn();
  }

  /** Workers running now (started on demand; stopped again when idle). */
  get running(): number {
    return this.#slots.length;
  }

  /** Workers stopped for being idle, since the pool was made. */
  get retired(): number {
    return this.#retired;
  }

  /**
   * Stops every worker that has had nothing to run for at least `idleMs` (the timer calls it with
   * WORKER_IDLE_MS; tests with 0). A busy worker is never touched; the next heavy read starts a new one.
   */
  retireIdle(idleMs = WORKER_IDLE_MS): void {
    const now = performance.now();
    for (const slot of [...this.#slots]) {
      if (slot.current !== null || now - slot.idleSince < idleMs) continue;
      this.#slots.splice(this.#slots.indexOf(slot), 1);
      this.#retired += 1;
      // Its exit is not a loss: the slot is gone already, and it had nothing to answer.
      void slot.worker.terminate();
    }
    this.#scheduleRetirement();
  }

  /** Looks again for idle workers once the first running one could have been idle for WORKER_IDLE_MS. */
  #scheduleRetirement(): void {
    if (this.#idleTimer !== null || this.#stopped || this.#slots.length === 0) return;
    const oldest = Math.min(...this.#slots.map((slot) => (slot.current === null ? slot.idleSince : Infinity)));
    const wait = Number.isFinite(oldest) ? Math.max(0, oldest + WORKER_IDLE_MS - performance.now()) : WORKER_IDLE_MS;
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = null;
      this.retireIdle();
    }, wait + 10);
    this.#idleTimer.unref();
  }

  /** Stops the workers (each closes its connection); tasks still queued fail with unavailable. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#idleTimer !== null) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    for (const queue of this.#queues.values()) for (const pending of queue) pending.reject(new AppError('unavailable', 'the service is shutting down'));
    this.#queues.clear();
    this.#queued = 0;
    await Promise.all(this.#slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  /**
   * Drops the reads still waiting whose clients have gone (issue 42: a load generator's run ends with its
   * connections' reads queued; the next run's callers were refused 503 while nobody's reads ran), each
   * settled as unavailable (no one is there to be answered).
   */
  #dropGone(): void {
    for (const [owner, queue] of this.#queues) {
      const waiting = queue.filter((pending) => {
        if (!pending.gone?.()) return true;
        this.#queued -= 1;
        pending.reject(new AppError('unavailable', 'the client went away before its read ran'));
        return false;
      });
      if (waiting.length === 0) this.#queues.delete(owner);
      else if (waiting.length < queue.length) this.#queues.set(owner, waiting);
    }
  }

  #dispatch(): void {
    if (this.#stopped) return;
    this.#dropGone();
    while (this.#queued > 0) {
      let slot = this.#slots.find((s) => s.current === null);
      if (!slot && this.#slots.length < this.#size) slot = this.#spawn();
      if (!slot) return;
      const pending = this.#nextInTurn();
      slot.current = pending;
      // The time budget bounds the read's own work: its clock starts when a worker takes it, not while
      // it waited its turn behind others (under load a small read would otherwise be told to narrow).
      pending.message.budget = this.budget();
      slot.worker.postMessage(pending.message);
    }
  }

  /**
   * Takes the oldest read of the caller whose turn it is: among callers with reads waiting, the one
   * served longest ago (one never served, or served nothing since their last read finished, first).
   */
  #nextInTurn(): Pending {
    let turn: string | undefined;
    let turnServedAt = Infinity;
    for (const owner of this.#queues.keys()) {
      const servedAt = this.#servedAt.get(owner) ?? -1;
      if (servedAt < turnServedAt) [turn, turnServedAt] = [owner, servedAt];
    }
    const queue = this.#queues.get(turn!)!;
    const pending = queue.shift()!;
    if (queue.length === 0) this.#queues.delete(turn!);
    this.#queued -= 1;
    this.#servedAt.set(turn!, ++this.#dispatches);
    return pending;
  }

  #spawn(): Slot {
    const source = this.#source!;
    const data: ReadWorkerData = {
      role: 'gatehouse-read-worker',
      dbFile: this.#ctx.config.dbFile,
      cursorSecret: this.#ctx.pager.secret,
      // A worker runs tasks itself: it never starts workers of its own.
      config: { ...this.#ctx.config, readWorkers: 0 },
    };
    const worker = new Worker(source.source, {
      eval: source.eval,
      workerData: data,
      ...(source.execArgv ? { execArgv: source.execArgv } : {}),
      // A worker's output is the service's: its log lines go where the main thread's go.
      stdout: false,
      stderr: false,
      // A read that would need more memory than this ends its worker (answered 400, narrow it), not the service.
      // The young generation is capped too: left alone, V8 grows it to 128 MB under a stream of big pages.
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
    // An idle worker must not keep a finished process (a test, a CLI verb) alive.
    worker.unref();
    const slot: Slot = { worker, current: null, idleSince: performance.now() };
    worker.on('message', (message: ResultMessage) => {
      const pending = slot.current;
      if (!pending || pending.message.id !== message.id) return;
      slot.current = null;
      slot.idleSince = performance.now();
      if (message.ok) pending.resolve(message.value);
      else if (message.error) pending.reject(new AppError(message.error.code, message.error.message, message.error.details));
      else pending.reject(new Error(`read worker: ${message.text}`));
      this.#dispatch();
    });
    const lost = (why: string, outOfMemory = false) => {
      const index = this.#slots.indexOf(slot);
      if (index >= 0) this.#slots.splice(index, 1);
      slot.current?.reject(outOfMemory
        ? new AppError('validation_failed', `the read needs more than the ${WORKER_HEAP_MB} MB one request may use; narrow it`)
        : new Error(`read worker stopped: ${why}`));
      slot.current = null;
      this.#dispatch();
    };
    worker.on('error', (err: Error & { code?: string }) => {
      const outOfMemory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      // Running out of memory is the read's doing (a log line, not an error); anything else is a fault of ours.
      if (outOfMemory) this.#ctx.log.info('read worker out of memory', { task: slot.current?.message.task });
      else this.#ctx.log.error('read worker failed', { error: err.stack ?? err.message });
      lost(err.message, outOfMemory);
    });
    worker.on('exit', (code) => lost(`exit ${code}`));
    this.#slots.push(slot);
    this.#scheduleRetirement();
    return slot;
  }
}
