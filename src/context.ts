// AppContext: everything a request needs, built once and passed down. No module-level singletons.
import type { AccessChangeListener, Area } from './area.ts';
import type { Config } from './config.ts';
import { cursorSecret } from './db/meta.ts';
import type { Db } from './db/open.ts';
import { Pager } from './http/paging.ts';
import type { Clock } from './lib/clock.ts';
import { BackgroundJobs } from './lib/jobs.ts';
import { ReadPool } from './reads/pool.ts';
import type { ReadTasks } from './reads/tasks.ts';
import { LiveConfig } from './live-config.ts';
import type { Logger } from './lib/log.ts';
import type { SignalListeners, SignalName } from './signals.ts';
import type { OutboxHandler } from './outbox/index.ts';

/**
 * Every area's stores by name. Each area adds its own where it declares its stores (its area.ts), as
 * `declare module '../../context.ts' { interface Stores { tags: TagStore } }`, so this file names none.
 */
export interface Stores {}

/** Every area's stores, built once: each prepares its statements when built. */
function createStores(db: Db, clock: Clock, areas: readonly Area[]): Stores {
  const stores: Record<string, unknown> = {};
  for (const area of areas) {
    for (const [name, create] of Object.entries(area.stores ?? {})) {
      if (name in stores) throw new Error(`area ${area.name}: store ${name} is built by another area too`);
      stores[name] = create!(db, clock);
    }
  }
  return stores as unknown as Stores;
}

/** What the areas plug in beyond stores and routes (src/area.ts), gathered once, in AREAS order. */
export interface Registry {
  /** The handler of each outbox kind. */
  outbox: Readonly<Record<string, OutboxHandler>>;
  /** Everyone who hears each access change. */
  accessListeners: readonly AccessChangeListener[];
  /** Who acts on each signal. */
  signals: { readonly [K in SignalName]?: readonly NonNullable<SignalListeners[K]>[] };
  /** The reads a read worker may run, by name. */
  readTasks: Partial<ReadTasks>;
}

/** Gathers the areas' plug-ins; throws for an outbox kind or read task two areas declare. */
function createRegistry(areas: readonly Area[]): Registry {
  const outbox: Record<string, OutboxHandler> = {};
  const readTasks: Record<string, unknown> = {};
  const signals: Record<string, unknown[]> = {};
  const accessListeners: AccessChangeListener[] = [];
  for (const area of areas) {
    for (const [kind, handler] of Object.entries(area.outbox ?? {})) {
      if (kind in outbox) throw new Error(`area ${area.name}: outbox kind ${kind} is run by another area too`);
      outbox[kind] = handler;
    }
    for (const [name, task] of Object.entries(area.readTasks ?? {})) {
      if (name in readTasks) throw new Error(`area ${area.name}: read task ${name} is declared by another area too`);
      readTasks[name] = task;
    }
    for (const [name, listener] of Object.entries(area.signals ?? {})) (signals[name] ??= []).push(listener);
    if (area.onAccessChange) accessListeners.push(area.onAccessChange);
  }
  return { outbox, accessListeners, signals: signals as Registry['signals'], readTasks: readTasks as Partial<ReadTasks> };
}

export interface AppContext {
  db: Db;
  clock: Clock;
  /**
   * The settings in effect now (src/live-config.ts): the environment, else what an admin stored on the
   * Settings page, else the defaults. Read it when a value is needed rather than keeping it: it is a new
   * object after each change, and what was built from an old one must be built again.
   */
  readonly config: Config;
  /** Where ctx.config comes from, and its reload after a stored setting changed. */
  settings: LiveConfig;
  log: Logger;
  pager: Pager;
  stores: Stores;
  /** The areas' outbox handlers, access-change and notice listeners, and read tasks (src/area.ts). */
  registry: Registry;
  /** Background jobs (src/jobs.ts) register their stop function here; shutdown stops them before closing db. */
  jobs: BackgroundJobs;
  /** Heavy reads run here, on read workers (src/reads/pool.ts); the server stops it on close. */
  reads: ReadPool;
}

/**
 * Builds the context over a migrated database, with the stores and plug-ins of `areas` (AREAS in src/app.ts). A read
 * worker's connection is read-only: it passes the cursor secret it was given instead of reading (and
 * possibly making) it.
 */
export function createContext(parts: { db: Db; clock: Clock; config: Config; log: Logger }, areas: readonly Area[], secret?: string): AppContext {
  const { config, ...rest } = parts;
  const ctx = {
    ...rest,
    pager: new Pager(secret ?? cursorSecret(parts.db), config.maxPageBytes),
    stores: createStores(parts.db, parts.clock, areas),
    registry: createRegistry(areas),
    jobs: new BackgroundJobs(),
  } as Omit<AppContext, 'config'> as AppContext;
  const readers = areas.filter((area) => area.storedSettings);
  if (readers.length > 1) throw new Error(`areas ${readers.map((a) => a.name).join(', ')} all store settings; one may`);
  // A read worker's context takes the settings in effect it was given as they are (its `secret` says it is one).
  const reader = secret === undefined ? readers[0]?.storedSettings : undefined;
  ctx.settings = new LiveConfig(config, reader && (() => reader(ctx)));
  Object.defineProperty(ctx, 'config', { get: () => ctx.settings.current(), enumerable: true });
  ctx.reads = new ReadPool(ctx);
  return ctx;
}
