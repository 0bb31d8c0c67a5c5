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
 * Drops everything kept on `db` when another connection committed since the last look. Looked once per
 * run of synchronous code (a request's checks and handler; the next microtask looks again): a commit
 * elsewhere during that run is concurrent with the request, which may answer as of either side of it.
 */
function checkExternal(db: Db): void {
  const watch = EXTERNAL.get(db)!;
  if (watch.looked) return;
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

  constructor(db: Db, name: string, watches: readonly Watch[], limits: KeptLimits) {
    this.#db = db;
    this.#limits = limits;
    this.#enabled = !db.readonly;
    this.#shared = sharedOf(db);
    if (!this.#enabled) return;
    this.#shared.kinds.add(this as Kept<unknown>);
    listen(db, name, watches, (key) => (key === null ? this.clear() : this.drop(key)));
    forgetOnLoss(db, () => this.clear());
    let external = EXTERNAL.get(db);
    if (!external) {
      const statement = db.prepare('PRAGMA data_version').pluck();
      EXTERNAL.set(db, (external = { version: () => statement.get(), seen: statement.get(), clears: new Set(), looked: false }));
    }
    external.clears.add(() => this.clear());
  }

  /** The answer kept for `key`, or undefined. */
  get(key: string): V | undefined {
    if (!this.#enabled) return undefined;
    checkExternal(this.#db);
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

  /** Keeps `value` (counted as `bytes`, plus KEPT_ENTRY_BYTES) for `key` when mayKeep(); returns it. */
  keep(key: string, value: V, bytes: number): V {
    const cost = bytes + KEPT_ENTRY_BYTES;
    if (!this.mayKeep() || cost > this.#limits.bytes || cost > this.#shared.total) return value;
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
    this.#entries.clear();
    this.#bytes = 0;
  }

  /** How many answers and bytes are kept (the bench and the tests read it). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }
}

const ENCODER = new TextEncoder();

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
