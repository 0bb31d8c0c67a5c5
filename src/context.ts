// AppContext: everything a request needs, built once and passed down. No module-level singletons.
import type { Config } from './config.ts';
import { cursorSecret } from './db/meta.ts';
import type { Db } from './db/open.ts';
import { Pager } from './http/paging.ts';
import type { Clock } from './lib/clock.ts';
import { BackgroundJobs } from './lib/jobs.ts';
import type { Logger } from './lib/log.ts';

/**
 * Every area's stores by name. Each area adds its own where it declares its stores (its area.ts), as
 * `declare module '../../context.ts' { interface Stores { tags: TagStore } }`, so this file names none.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Stores {}

/** What createStores needs of an area (src/area.ts's Area, which this file does not import: it imports us). */
interface StoreDeclarations {
  name: string;
  stores?: Partial<Record<string, (db: Db, clock: Clock) => unknown>>;
}

/** Every area's stores, built once: each prepares its statements when built. */
function createStores(db: Db, clock: Clock, areas: readonly StoreDeclarations[]): Stores {
  const stores: Record<string, unknown> = {};
  for (const area of areas) {
    for (const [name, create] of Object.entries(area.stores ?? {})) {
      if (name in stores) throw new Error(`area ${area.name}: store ${name} is built by another area too`);
      stores[name] = create!(db, clock);
    }
  }
  return stores as unknown as Stores;
}

export interface AppContext {
  db: Db;
  clock: Clock;
  config: Config;
  log: Logger;
  pager: Pager;
  stores: Stores;
  /** Background jobs (src/jobs.ts) register their stop function here; shutdown stops them before closing db. */
  jobs: BackgroundJobs;
}

/** Builds the context over a migrated database, with the stores of `areas` (AREAS in src/app.ts). */
export function createContext(parts: { db: Db; clock: Clock; config: Config; log: Logger }, areas: readonly StoreDeclarations[]): AppContext {
  return {
    ...parts,
    pager: new Pager(cursorSecret(parts.db)),
    stores: createStores(parts.db, parts.clock, areas),
    jobs: new BackgroundJobs(),
  };
}
