// AppContext: everything a request needs, built once and passed down. No module-level singletons.
import type { Config } from './config.ts';
import { cursorSecret } from './db/meta.ts';
import type { Db } from './db/open.ts';
import { Pager } from './http/paging.ts';
import type { Clock } from './lib/clock.ts';
import type { Logger } from './lib/log.ts';
import { createEventStore } from './modules/events/store.ts';
import { createTokenStore } from './modules/tokens/store.ts';
import { createUserStore } from './modules/users/store.ts';

/** Every module's store, built once: each prepares its statements when built. */
function createStores(db: Db, clock: Clock) {
  return {
    events: createEventStore(db, clock),
    users: createUserStore(db),
    tokens: createTokenStore(db),
  };
}

export type Stores = ReturnType<typeof createStores>;

export interface AppContext {
  db: Db;
  clock: Clock;
  config: Config;
  log: Logger;
  pager: Pager;
  stores: Stores;
}

/** Builds the context over a migrated database. */
export function createContext(parts: { db: Db; clock: Clock; config: Config; log: Logger }): AppContext {
  return {
    ...parts,
    pager: new Pager(cursorSecret(parts.db)),
    stores: createStores(parts.db, parts.clock),
  };
}
