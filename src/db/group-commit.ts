// Group commit: the transactions of many requests made durable by one fsync, with synchronous=FULL kept.
//
// While the server runs, the first top-level db.transaction() of a turn of the event loop opens a batch
// (BEGIN IMMEDIATE); every transaction until the batch commits runs inside it as a SAVEPOINT (better-
// sqlite3 nests that way by itself), so a request that fails still rolls back alone. The batch commits
// on setImmediate, after the event loop has handed every request that arrived in the same turn to its
// handler: one COMMIT, one fsync, for all of them.
//
// What nobody may see before the fsync: every answer written while a batch is open (a write's, and a
// read's too, since a read on this connection sees the batch's uncommitted rows) is held and sent only
// once the batch is durable. If the batch cannot commit (or SQLite rolled it back under us), the held
// answers are never sent: their connections are cut, as a crash would, so no client is told of a write
// that is not on disk. Writes outside any transaction (autocommit) join an open batch, or commit alone.
//
// What must not act on a batch before it is durable: work that tells the outside world what it read
// (the outbox's handlers, event-stream deliveries) calls commitPendingWrites(db) first, so a lost batch
// can never have been emailed, posted to Slack, propagated to a connector or streamed.
import { ServerResponse } from 'node:http';
import type { Db } from './open.ts';

export interface GroupCommit {
  /** Whether a batch is open: answers written now are held until it is durable. */
  pending(): boolean;
  /** Calls `durable` once everything written so far is on disk, or `lost` when the batch could not commit. */
  whenDurable(durable: () => void, lost: (err: unknown) => void): void;
  /** Commits the open batch now (before shutdown, a checkpoint or anything that needs no open transaction). */
  flush(): void;
  /** Flushes, then lets db.transaction() commit each transaction alone again. */
  stop(): void;
  /** Batches committed and top-level transactions run inside them, since start. */
  readonly stats: { batches: number; transactions: number };
}

type TransactionFactory = Db['transaction'];

export interface GroupCommitOptions {
  /** Called after a batch was lost (rolled back): anything cached from inside it may be gone. */
  onLost?: (err: unknown) => void;
}

/** The batching running on each connection, for commitPendingWrites. */
const RUNNING = new WeakMap<Db, GroupCommit>();

/** How many transaction functions are running on each batched connection (nested ones count too). */
const DEPTH = new WeakMap<Db, { value: number }>();

/** What must forget what it read when a batch on the connection is lost (the answers kept in memory: db/kept.ts). */
const ON_LOSS = new WeakMap<Db, Set<() => void>>();

/**
 * Calls `forget` whenever a batch of writes on `db` is lost (rolled back after requests had read it):
 * anything kept in memory that was built while that batch was open may show a write that never happened.
 */
export function forgetOnLoss(db: Db, forget: () => void): void {
  let each = ON_LOSS.get(db);
  if (!each) ON_LOSS.set(db, (each = new Set()));
  each.add(forget);
}

/**
 * Whether the caller runs inside a transaction function of its own (db.transaction(fn)), so that
 * what it writes commits or rolls back with the change that called it. `db.inTransaction` cannot
 * tell under group commit: it is true for as long as a batch is open, between transactions too.
 */
export function insideTransaction(db: Db): boolean {
  const depth = DEPTH.get(db);
  return depth ? depth.value > 0 : db.inTransaction;
}

/**
 * Commits the open batch on `db`, if group commit runs there and a batch is open (a no-op otherwise:
 * without group commit every transaction is durable when it returns). Call before network work that
 * carries what was read from `db`, outside any transaction of one's own. Throws when the batch was
 * lost, so nothing read from it goes out.
 */
export function commitPendingWrites(db: Db): void {
  const commits = RUNNING.get(db);
  if (!commits?.pending()) return;
  let failure: unknown;
  commits.whenDurable(() => undefined, (err) => (failure = err));
  commits.flush();
  if (failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure));
}

/** Starts batching db.transaction() on `db` (once per connection). */
export function startGroupCommit(db: Db, options: GroupCommitOptions = {}): GroupCommit {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const original: TransactionFactory = db.transaction;
  const stats = { batches: 0, transactions: 0 };
  let open = false;
  const depth = { value: 0 };
  let waiting: Array<{ durable: () => void; lost: (err: unknown) => void }> = [];

  function openBatch(): void {
    begin.run();
    open = true;
    stats.batches += 1;
    setImmediate(flush);
  }

  function flush(): void {
    if (!open) return;
    open = false;
    const batch = waiting;
    waiting = [];
    let failure: unknown;
    if (!db.inTransaction) {
      // SQLite ends the whole transaction on some errors (SQLITE_FULL, SQLITE_IOERR…): the batch is gone.
      failure = new Error('the batch was rolled back by SQLite before it could commit');
    } else {
      try {
        commit.run();
      } catch (err) {
        failure = err;
        try {
          if (db.inTransaction) rollback.run();
        } catch {
          // nothing more to undo
        }
      }
    }
    if (failure !== undefined) {
      for (const forget of ON_LOSS.get(db) ?? []) forget();
      options.onLost?.(failure);
      for (const each of batch) each.lost(failure);
      return;
    }
    for (const each of batch) each.durable();
  }

  // Every variant (deferred, immediate, exclusive) of every transaction function joins the open batch,
  // or opens one when none is open and no transaction is (a nested call stays a plain SAVEPOINT).
  db.transaction = function batched(this: Db, fn: Parameters<TransactionFactory>[0]) {
    const transaction = original.call(this, fn);
    const joining = (variant: (...args: unknown[]) => unknown) =>
      function (this: unknown, ...args: unknown[]) {
        if (!db.inTransaction) {
          // A batch still marked open without a transaction was rolled back by SQLite: settle it as lost first.
          if (open) flush();
          openBatch();
        }
        if (open) stats.transactions += 1;
        depth.value += 1;
        try {
          return variant.apply(this, args);
        } finally {
          depth.value -= 1;
        }
      };
    const wrapped = joining(transaction) as ReturnType<TransactionFactory>;
    Object.defineProperties(wrapped, {
      default: { value: wrapped },
      deferred: { value: joining(transaction.deferred) },
      immediate: { value: joining(transaction.immediate) },
      exclusive: { value: joining(transaction.exclusive) },
      database: { value: db },
    });
    return wrapped;
  } as TransactionFactory;

  const commits: GroupCommit = {
    pending: () => open,
    whenDurable(durable, lost) {
      if (open) waiting.push({ durable, lost });
      else durable();
    },
    flush,
    stop() {
      flush();
      db.transaction = original;
      if (RUNNING.get(db) === commits) RUNNING.delete(db);
      if (DEPTH.get(db) === depth) DEPTH.delete(db);
    },
    stats,
  };
  RUNNING.set(db, commits);
  DEPTH.set(db, depth);
  return commits;
}

type Call = [method: 'write' | 'end', chunk: unknown, encoding: unknown, callback: unknown];

/**
 * The response class of a server whose answers wait for group commit: a response marked
 * `holdsUntilDurable` has its output (write and end, in order) held while a batch is open and sent once the batch is durable; when the batch is lost, the
 * connection is cut instead (the client learns nothing false). As methods of a class (createServer's
 * `ServerResponse` option) rather than closures put on each response: nothing is allocated for an
 * answer written while no batch is open, the common case for reads.
 */
export function heldResponses(commits: GroupCommit): typeof ServerResponse {
  class HeldResponse extends ServerResponse {
    /** Set for a response to hold (what the app answers); answers written before the app sees a request are not held. */
    holdsUntilDurable = false;
    #held: Call[] | null = null;

    override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
      this.#through('write', chunk, encoding, callback);
      return true;
    }

    override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
      this.#through('end', chunk, encoding, callback);
      return this;
    }

    #through(method: Call[0], chunk: unknown, encoding: unknown, callback: unknown): void {
      if (this.#held) this.#held.push([method, chunk, encoding, callback]);
      else if (!this.holdsUntilDurable || !commits.pending()) this.#send(method, chunk, encoding, callback);
      else {
        this.#held = [[method, chunk, encoding, callback]];
        commits.whenDurable(() => this.#release(), () => {
          this.#held = null;
          this.destroy();
        });
      }
    }

    #release(): void {
      const calls = this.#held ?? [];
      this.#held = null;
      for (const [method, chunk, encoding, callback] of calls) this.#send(method, chunk, encoding, callback);
    }

    #send(method: Call[0], chunk: unknown, encoding: unknown, callback: unknown): void {
      const send = ServerResponse.prototype[method] as (this: ServerResponse, ...args: unknown[]) => unknown;
      send.call(this, chunk, encoding, callback);
    }
  }
  HELD_CLASSES.add(HeldResponse);
  // Node's own type is generic in its request type; this class serves any (createServer's option's type).
  return HeldResponse as unknown as typeof ServerResponse;
}

/** The classes heldResponses made, to check that a response to hold is one of theirs. */
const HELD_CLASSES = new WeakSet<object>();

/**
 * Holds `res`'s output while a batch is open and sends it once the batch is durable, or cuts the
 * connection when it is lost. `res` must come from a server given heldResponses' class.
 */
export function holdUntilDurable(res: ServerResponse): void {
  let proto: object | null = Object.getPrototypeOf(res);
  while (proto !== null && !HELD_CLASSES.has(proto.constructor)) proto = Object.getPrototypeOf(proto);
  if (proto === null) throw new Error('holdUntilDurable: the server must be created with heldResponses(commits) as its ServerResponse');
  (res as ServerResponse & { holdsUntilDurable: boolean }).holdsUntilDurable = true;
}
