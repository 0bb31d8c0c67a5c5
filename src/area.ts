// What an API area declares about itself, once: its stores, its routes (with who may call each and what
// its path parameters name), its background jobs, and how it plugs into the rest: the outbox kinds it
// runs, what it does when access changes or another area announces a notice, the reads it lets run on
// read workers. src/app.ts lists the areas; createContext gathers their plug-ins into ctx.registry, so
// the outbox, the read workers and the one owner of access changes never import an area.
import type { Config } from './config.ts';
import type { AppContext, Stores } from './context.ts';
import type { Db } from './db/open.ts';
import type { ApiRouter } from './http/router.ts';
import type { Clock } from './lib/clock.ts';
import type { Actor } from './modules/events/store.ts';
import type { AccessChange } from './modules/access/changes.ts';
import type { SignalListeners } from './signals.ts';
import type { OutboxHandler } from './outbox/index.ts';
import type { ReadTasks } from './reads/tasks.ts';
import { checkRoute, type RouteGroup } from './http/route.ts';

/** A background job: a plain tick(ctx, now) owned by its module, started only by `serve`. */
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

/**
 * Hears every access change the one owner makes (src/modules/access/changes.ts), once per edge changed,
 * inside the change's transaction: it may write its own rows and queue outbox work, never do network work.
 */
export type AccessChangeListener = (ctx: AppContext, actor: Actor, change: AccessChange, now: Date) => void;

/** Store factories by their name on ctx.stores; each prepares its statements when built. */
export type StoreFactories = { [K in keyof Stores]?: (db: Db, clock: Clock) => Stores[K] };

/** Per store of the area, the names of the read methods other areas may call. */
export type SharedReads = { [K in keyof Stores]?: readonly (keyof Stores[K] & string)[] };

export interface Area<Routes extends RouteGroup = RouteGroup> {
  /** The folder's name, e.g. `tags`. */
  name: string;
  /** Its stores on ctx.stores (each name's type is declared beside the factory, in the area's store.ts). */
  stores?: StoreFactories;
  /**
   * The methods of its stores other areas may call through ctx.stores: reads only. Everything else of
   * its stores is its own; other areas change its data through its service.ts, which records its events
   * (docs/contributing.md, "An area's store is its own"; test/structure/stores.test.ts checks every call).
   */
  sharedReads?: SharedReads;
  /** Its routes: what app.ts serves, the policy and the guard enforce, and /openapi.json documents. */
  routes?: Routes;
  /**
   * Binds a handler to each declared route (`router.on('GET /v1/tags', …)`), typed by the declarations;
   * start-up fails for one left out.
   */
  handlers?: (router: ApiRouter<Routes>, ctx: AppContext) => void;
  jobs?: readonly Job[];
  /**
   * The outbox kinds whose rows this area's handlers run, by kind (src/outbox/index.ts says what a handler
   * does). A row of a kind no area declares waits in the queue untouched (a newer binary may know it).
   */
  outbox?: Readonly<Record<string, OutboxHandler>>;
  /** Hears every access change (connector propagation queues its pushes here). */
  onAccessChange?: AccessChangeListener;
  /** What this area does when another announces a signal (src/signals.ts): notifications queues its messages. */
  signals?: SignalListeners;
  /** The reads that may run on a read worker, by name (src/reads/tasks.ts); each area types its own names there. */
  readTasks?: Partial<ReadTasks>;
  /**
   * The values stored for the settings SETTINGS opts in with `editable` (the settings area's, set on the
   * console's Settings page), parsed; src/live-config.ts lays them under the environment. One area at most.
   */
  storedSettings?: (ctx: AppContext) => Partial<Config>;
  /** Start-up checks of what the area declares beyond routes, given the context (its stores); a throw stops the app before it serves (a stored connector whose type has no adapter). */
  checks?: readonly ((ctx: AppContext) => void)[];
}

/** An area's HTTP side: its route table and the handlers bound to it (src/routes.ts lists each area's). */
export interface AreaHttp {
  routes: RouteGroup;
  handlers: (router: ApiRouter<RouteGroup>, ctx: AppContext) => void;
}

/**
 * An area's routes with their handlers, typed by those routes (`router.on` accepts only their keys, and
 * each handler's input and reply are typed by its declaration).
 */
export const served = <Routes extends RouteGroup>(routes: Routes, handlers: (router: ApiRouter<Routes>, ctx: AppContext) => void): AreaHttp =>
  ({ routes, handlers: handlers as unknown as AreaHttp['handlers'] });

/**
 * An area's module object (src/modules/<area>/area.ts); checked when the app is built (checkAreas).
 * Its handlers are typed by its own routes; in the list of areas they take any area's router, which is
 * sound because app.ts builds each area's router from that area's routes.
 */
export const defineArea = <Routes extends RouteGroup>(area: Area<Routes>): Area => area as unknown as Area;

/** Throws for two areas with one name, a store name built twice, a route declared badly or twice, or an area's own check failing. */
export function checkAreas(areas: readonly Area[], ctx: AppContext): void {
  const seen = new Set<string>();
  const stores = new Set<string>();
  const routes = new Set<string>();
  for (const area of areas) {
    if (seen.has(area.name)) throw new Error(`two areas are named ${area.name}`);
    seen.add(area.name);
    for (const name of Object.keys(area.stores ?? {})) {
      if (stores.has(name)) throw new Error(`area ${area.name}: store ${name} is built by another area too`);
      stores.add(name);
    }
    for (const [key, route] of Object.entries(area.routes?.operations ?? {})) {
      if (routes.has(key)) throw new Error(`route ${key} is declared by two areas`);
      routes.add(key);
      checkRoute(key, route!, route!.protocol ?? area.routes!.protocol);
    }
    for (const check of area.checks ?? []) check(ctx);
  }
}
