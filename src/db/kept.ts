// Answers kept in memory between requests (an item's JSON, a member's visible set), each dropped by the very
// statement that changes what it was built from, whatever code path writes it.
//
// How nothing kept is ever stale (docs/performance.md, "What is kept between requests"):
// - Every table an answer is built from is watched by TEMP triggers (this connection only; nothing is
//   stored in the file) that call back into this process inside the writing statement itself — a
//   service, a cascade of a foreign key, a sweep, SCIM, the CLI's verbs on this connection alike — and
//   drop the answers that row's change makes stale (by key, or all of them).
// - Nothing is kept while a transaction function runs (insideTransaction): what it reads may still be
//   rolled back, alone (its savepoint) or with its batch. Reads between transactions see the open
//   batch's writes; when a batch is lost (group commit), everything kept is dropped (forgetOnLoss).
// - A commit by another connection (a second process, `gatehouse` verbs on the same file) moves
//   PRAGMA data_version, checked on every lookup: everything kept is dropped.
// - A read-only connection (a read worker) keeps nothing: it has no triggers to tell it of changes.
import { forgetOnLoss, insideTransaction } from './group-commit.ts';
import type { Db } from './open.ts';
import { JsonText } from '../http/json-text.ts';

/** A write to watch: on `table`, the keys (SQL over the row's NEW / OLD values; NULL drops everything) whose answers it makes stale. */
export interface Watch {
  table: string;
  on: 'INSERT' | 'UPDATE' | 'DELETE';
  /** For an UPDATE: only a change of these columns matters (all columns when absent). */
  of?: readonly string[];
  /** What each written row drops: SQL expressions over NEW (INSERT, UPDATE) and OLD (UPDATE, DELETE); the SQL `NULL` is everything. */
  keys: readonly string[];
}

/** Any write to `table` drops the answers keyed by the row's `column` (its old and its new value). */
export const keyedBy = (table: string, column: string): Watch[] => [
  { table, on: 'INSERT', keys: [`NEW.${column}`] },
  { table, on: 'UPDATE', keys: [`OLD.${column}`, `NEW.${column}`] },
  { table, on: 'DELETE', keys: [`OLD.${column}`] },
];

/** Any write to `table` drops everything kept. */
export const anyWrite = (table: string): Watch[] => [
  { table, on: 'INSERT', keys: ['NULL'] },
  { table, on: 'UPDATE', keys: ['NULL'] },
  { table, on: 'DELETE', keys: ['NULL'] },
];

/** Who hears each watched name's triggers on each connection (several apps may share one connection in tests). */
const LISTENERS = new WeakMap<Db, Map<string, Set<(key: string | null) => void>>>();

function listen(db: Db, name: string, watches: readonly Watch[], drop: (key: string | null) => void): void {
  let names = LISTENERS.get(db);
  if (!names) LISTENERS.set(db, (names = new Map()));
  let listeners = names.get(name);
  if (!listeners) {
    const registered = new Set<(key: string | null) => void>();
    listeners = registered;
    names.set(name, registered);
    const fn = `gatehouse_kept_${name}`;
    db.function(fn, (key: unknown) => {
      const text = key === null || key === undefined ? null : String(key);
      for (const each of registered) each(text);
      return null;
    });
    db.exec(watches.map((watch, i) => {
      const columns = watch.of ? ` OF ${watch.of.join(', ')}` : '';
      const calls = watch.keys.map((key) => `SELECT ${fn}(${key});`).join(' ');
      return `CREATE TEMP TRIGGER IF NOT EXISTS kept_${name}_${i}_${watch.table}_${watch.on.toLowerCase()} AFTER ${watch.on}${columns} ON main.${watch.table} BEGIN ${calls} END;`;
    }).join('\n'));
  }
  listeners.add(drop);
}

/** Commits by other connections, seen through PRAGMA data_version: who to tell, per connection. */
const EXTERNAL = new WeakMap<Db, { version: () => unknown; seen: unknown; clears: Set<() => void>; looked: boolean }>();

/**
 * Calls `clear` whenever checkExternalCommits finds that another connection committed on `db` since
 * the last look: everything kept from `db` (answers here, the token cache) may be stale then.
 */
export function onExternalCommit(db: Db, clear: () => void): void {
  let external = EXTERNAL.get(db);
  if (!external) {
    const statement = db.prepare('PRAGMA data_version').pluck();
    EXTERNAL.set(db, (external = { version: () => statement.get(), seen: statement.get(), clears: new Set(), looked: false }));
  }
  external.clears.add(clear);
}

/**
 * Tells onExternalCommit's listeners when another connection committed since the last look. Looked
 * once per run of synchronous code (a request's authentication, checks and handler; the next microtask
 * looks again): a commit elsewhere during that run is concurrent with the request, which may answer as
 * of either side of it.
 */
export function checkExternalCommits(db: Db): void {
  const watch = EXTERNAL.get(db);
  if (watch === undefined || watch.looked) return;
  watch.looked = true;
  queueMicrotask(() => (watch.looked = false));
  const version = watch.version();
  if (version === watch.seen) return;
  watch.seen = version;
  for (const clear of watch.clears) clear();
}

export interface KeptLimits {
  /** At most this many answers. */
  entries: number;
  /** At most this many bytes of them (as `keep` counts them). */
  bytes: number;
}

/**
 * Every answer kept on one connection, all kinds together, in bytes as `keep` counts them (each kind has
 * its own bound too; past this total the least recently used answer of any kind goes first). The service
 * holds ~120 MB at rest (its executable's pages, heap, SQLite caches) and up to ~100 MB more under load
 * (a read worker, the young generation, the old one's growth): 32 MB kept keeps it under issue 42's
 * 250 MB (docs/performance.md, "Memory").
 */
export const KEPT_TOTAL_BYTES = 32 * 2 ** 20;

/**
 * What keeping one answer costs beyond the bytes its kind counts: the map entry and its key, the value's
 * objects (a byte array is two objects and a backing store with malloc's header), measured at ~0.8 KB of
 * V8 heap and ~1.2 KB of RSS for a kept Uint8Array (docs/performance.md, "Memory"). Counted for every
 * entry, so many small answers cannot hold several times their stated bound.
 */
export const KEPT_ENTRY_BYTES = 1024;

/** The total shared by the kinds kept on one connection. */
interface Shared {
  total: number;
  bytes: number;
  kinds: Set<Kept<unknown>>;
}
const SHARED = new WeakMap<Db, Shared>();
function sharedOf(db: Db): Shared {
  let shared = SHARED.get(db);
  if (!shared) SHARED.set(db, (shared = { total: KEPT_TOTAL_BYTES, bytes: 0, kinds: new Set() }));
  return shared;
}

/** Bytes kept on `db`, all kinds together, and their bound. */
export function keptTotal(db: Db): { bytes: number; total: number } {
  const { bytes, total } = sharedOf(db);
  return { bytes, total };
}

/** Sets the bound of everything kept on `db` (tests: a small one), dropping the least recently used past it. */
export function setKeptTotal(db: Db, total: number): void {
  const shared = sharedOf(db);
  shared.total = total;
  Kept.fitShared(shared);
}

/** Recency of use across every kind on every connection: the least recently used answer has the smallest. */
let useTick = 0;

/**
 * Answers kept by key, bounded in entries and bytes (the least recently used go first), dropped by the
 * writes `watches` name (see the file's header for why none is ever stale).
 */
export class Kept<V> {
  readonly #db: Db;
  readonly #limits: KeptLimits;
  readonly #entries = new Map<string, { value: V; bytes: number; used: number }>();
  readonly #enabled: boolean;
  readonly #shared: Shared;
  #bytes = 0;
  #version = 0;

  constructor(db: Db, name: string, watches: readonly Watch[], limits: KeptLimits) {
    this.#db = db;
    this.#limits = limits;
    this.#enabled = !db.readonly;
    this.#shared = sharedOf(db);
    if (!this.#enabled) return;
    this.#shared.kinds.add(this as Kept<unknown>);
    listen(db, name, watches, (key) => {
      // Any write it watches moves the version, whatever it drops: an answer built elsewhere meanwhile
      // (a read worker's) may show the state before it (keepSince).
      this.#version += 1;
      if (key === null) this.clear();
      else this.drop(key);
    });
    forgetOnLoss(db, () => this.clear());
    onExternalCommit(db, () => this.clear());
  }

  /** The answer kept for `key`, or undefined. */
  get(key: string): V | undefined {
    if (!this.#enabled) return undefined;
    checkExternalCommits(this.#db);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    // Most recently used last: eviction takes the first.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    entry.used = ++useTick;
    return entry.value;
  }

  /** Whether what is read now may be kept: not inside a transaction function (it may yet roll back), not on a read-only connection. */
  mayKeep(): boolean {
    return this.#enabled && !insideTransaction(this.#db);
  }

  /** Whether an answer counted as `bytes` is within the bounds at all (keep refuses a bigger one). */
  fits(bytes: number): boolean {
    const cost = bytes + KEPT_ENTRY_BYTES;
    return cost <= this.#limits.bytes && cost <= this.#shared.total;
  }

  /** Keeps `value` (counted as `bytes`, plus KEPT_ENTRY_BYTES) for `key` when mayKeep(); returns it. */
  keep(key: string, value: V, bytes: number): V {
    const cost = bytes + KEPT_ENTRY_BYTES;
    if (!this.mayKeep() || !this.fits(bytes)) return value;
    this.drop(key);
    this.#entries.set(key, { value, bytes: cost, used: ++useTick });
    this.#bytes += cost;
    this.#shared.bytes += cost;
    while (this.#entries.size > this.#limits.entries || this.#bytes > this.#limits.bytes) {
      const oldest = this.#entries.keys().next().value!;
      this.drop(oldest);
    }
    Kept.fitShared(this.#shared);
    return value;
  }

  /** Drops the least recently used answers of any kind until the connection's total holds. */
  static fitShared(shared: Shared): void {
    while (shared.bytes > shared.total) {
      let from: Kept<unknown> | undefined;
      let oldest = Infinity;
      for (const kind of shared.kinds) {
        const first = kind.#entries.values().next();
        if (!first.done && first.value.used < oldest) [from, oldest] = [kind, first.value.used];
      }
      if (from === undefined) return;
      from.drop(from.#entries.keys().next().value!);
    }
  }

  /** Forgets the answer for `key`. */
  drop(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    this.#shared.bytes -= entry.bytes;
  }

  /** Forgets every answer. */
  clear(): void {
    this.#shared.bytes -= this.#bytes;
    this.#version += 1;
    this.#entries.clear();
    this.#bytes = 0;
  }

  /**
   * A mark to keep an answer built away from this connection (on a read worker, from committed data)
   * once it arrives: taken before the work is handed over, it holds only when nothing was uncommitted
   * on this connection then (an open batch, which the worker cannot see) — keepSince refuses it otherwise.
   */
  mark(): { version: number; clean: boolean } {
    return { version: this.#version, clean: this.#enabled && !this.#db.inTransaction };
  }

  /**
   * Whether an answer built from the data as of `mark` may still be kept: nothing was uncommitted here
   * then, and no write this keep watches (nor a lost batch, nor another connection's commit seen since)
   * happened in between. What another connection commits later is seen by the next lookup (data_version).
   */
  unchangedSince(mark: { version: number; clean: boolean }): boolean {
    return mark.clean && mark.version === this.#version && this.mayKeep();
  }

  /** How many answers and bytes are kept (the bench and the tests read it). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }
}

/** One kept page: its bytes, and the span of time in which it holds ([at, until); until null: no end). */
interface KeptPage {
  bytes: Uint8Array;
  at: string;
  until: string | null;
}

/** The pages one key (an admin's view, a member, a group, a user) has kept, by query. */
interface PageSet {
  pages: Map<string, KeptPage>;
  bytes: number;
}

/** What a KeptPages holds at most: keys and bytes (as Kept), and pages per key. */
export interface KeptPagesLimits extends KeptLimits {
  pagesPerKey: number;
}

/** Bytes counted for a page beside its own (the entry, its query key). */
const PAGE_OVERHEAD = 200;

/**
 * Whole list pages kept as their JSON bytes, by key (whose view they are: 'admin', a member's id, a
 * group's or user's id; the writes `watches` name drop a key's pages, or everything) and by the page's
 * normalised query. Each page holds from when it was read until the first time at which something it
 * shows expires (`until`, ISO text like the edges' dates; null: nothing it shows expires); the caller's
 * clock decides. Bounded in keys, pages per key and bytes (least recently used key first).
 */
export class KeptPages {
  readonly #kept: Kept<PageSet>;
  readonly #limits: KeptPagesLimits;

  constructor(db: Db, name: string, watches: readonly Watch[], limits: KeptPagesLimits) {
    this.#kept = new Kept<PageSet>(db, name, watches, limits);
    this.#limits = limits;
  }

  /** The page kept for (`key`, `query`) that holds at `now`, or undefined. */
  get(key: string, query: string, now: string): Uint8Array | undefined {
    const page = this.#kept.get(key)?.pages.get(query);
    if (page === undefined || now < page.at || (page.until !== null && now >= page.until)) return undefined;
    return page.bytes;
  }

  /** Whether a page read now may be kept (db/kept.ts: not inside a transaction function). */
  mayKeep(): boolean {
    return this.#kept.mayKeep();
  }

  /** See Kept.mark: taken before a page is handed to a read worker, so its answer may be kept on arrival. */
  mark(): { version: number; clean: boolean } {
    return this.#kept.mark();
  }

  /**
   * Keeps a copy of `text` (its own buffer: never one that is freed once sent) as the page for (`key`,
   * `query`), holding in [at, until), when what it was read from may be kept: now (mayKeep), or since
   * `since` (a read worker's answer). Returns the kept bytes, or undefined when it was not kept: then no
   * copy was made (a page too big to keep, copied anyway, was garbage outside V8's heap that waited for
   * a collection — tens of MB under a stream of big pages; docs/performance.md, "Memory").
   */
  keep(key: string, query: string, text: string | Uint8Array, at: string, until: string | null, since?: { version: number; clean: boolean }): Uint8Array | undefined {
    if (until !== null && until <= at) return undefined;
    // Looked up first: the lookup sees another connection's commit (dropping everything, moving the version).
    const kept = this.#kept.get(key);
    if (since ? !this.#kept.unchangedSince(since) : !this.#kept.mayKeep()) return undefined;
    // A page past a view's share (a quarter of the bytes) is not kept, nor copied: a 1,000-row page kept
    // alone, replaced by the next, left each copy as garbage outside V8's heap until a collection.
    const share = this.#limits.bytes / 4;
    if (typeof text !== 'string' && text.byteLength + PAGE_OVERHEAD + query.length > share) return undefined;
    const bytes = ownBytes(text);
    const cost = bytes.byteLength + PAGE_OVERHEAD + query.length;
    if (cost > share || !this.#kept.fits(cost)) return undefined;
    // A new set each time (a keep that is refused leaves the kept one as it was, its count right).
    const pages = new Map(kept?.pages);
    let total = (kept?.bytes ?? 0) + cost;
    const old = pages.get(query);
    if (old) total -= old.bytes.byteLength + PAGE_OVERHEAD + query.length;
    // A key past its page count or its share of the bytes starts over (its pages are one view: none is worth more than another).
    if ((!old && pages.size >= this.#limits.pagesPerKey) || total > share) {
      pages.clear();
      total = cost;
    }
    pages.set(query, { bytes, at, until });
    const set: PageSet = { pages, bytes: total };
    this.#kept.keep(key, set, set.bytes);
    return bytes;
  }

  /**
   * The page kept for (`key`, `query`) that holds at `now`, else the one `build` makes, kept when it may
   * be (`until` undefined: what it was read through may not be kept, e.g. inside a transaction).
   * `query` is the schema's output: its entries in the schema's order, so equal queries make one key.
   */
  answer<T>(key: string, query: object, now: Date, build: () => { page: JsonText<T>; until: string | null | undefined }): JsonText<T> {
    const at = now.toISOString();
    const asked = JSON.stringify(query);
    const kept = this.get(key, asked, at);
    if (kept !== undefined) return JsonText.shared(kept);
    const { page, until } = build();
    if (until === undefined || !this.mayKeep()) return page;
    const bytes = this.keep(key, asked, page.text, at, until);
    return bytes ? JsonText.shared(bytes) : page;
  }

  /** How many keys and bytes are kept (the tests and the bench read it). */
  get size(): { entries: number; bytes: number } {
    return this.#kept.size;
  }
}

const ENCODER = new TextEncoder();

/** `text` as bytes in a buffer of their own (a copy: never a worker's page, which is freed once sent, nor a slice of Node's shared pool). */
export function ownBytes(text: string | Uint8Array): Uint8Array {
  return typeof text === 'string' ? ENCODER.encode(text) : text.slice();
}

/**
 * An answer kept as JSON bytes in `kept` under `key`, built by `build` (the object, or undefined when there
 * is none: nothing is kept for a missing one) when none is; sent as those shared bytes (JsonText.shared).
 */
export function keptJson<T>(kept: Kept<Uint8Array>, key: string, build: () => T | undefined): JsonText<T> | undefined {
  let bytes = kept.get(key);
  if (bytes === undefined) {
    const answer = build();
    if (answer === undefined) return undefined;
    // Its own buffer (not a slice of Node's shared pool, which a kept answer would pin).
    bytes = ENCODER.encode(JSON.stringify(answer));
    kept.keep(key, bytes, bytes.byteLength);
  }
  return JsonText.shared(bytes);
}
