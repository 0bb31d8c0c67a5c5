// The outbox table's SQL: enqueue, claim due rows in per-key order, record outcomes, retry failed rows.
import type { Db } from '../db/open.ts';

/** An outbox row as the queue and its handlers see it. */
export interface OutboxRow {
  seq: number;
  kind: string;
  key: string;
  payload: string;
  state: 'PENDING' | 'DONE' | 'FAILED';
  attempts: number;
  next_attempt_at: string;
  deadline_at: string;
  last_error: string | null;
  last_code: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

const COLUMNS = `seq, kind, key, payload, state, attempts, next_attempt_at, deadline_at, last_error, last_code, created_at, updated_at, finished_at`;

export function createOutboxStore(db: Db) {
  const insert = db.prepare<{ kind: string; key: string; payload: string; due: string; deadline: string; now: string }>(
    `INSERT INTO outbox (kind, key, payload, state, next_attempt_at, deadline_at, created_at, updated_at)
     VALUES (@kind, @key, @payload, 'PENDING', @due, @deadline, @now, @now)`,
  );
  // Due: pending, its time has come, not claimed by a live tick, and no earlier row with its key is
  // still pending (so a later row never runs before an earlier one has finished, done or failed).
  // Lanes already at their share ([kind, key prefix] pairs) are left out, so their backlog cannot fill
  // the answer and hide other lanes' rows.
  const due = db.prepare<{ now: string; kinds: string; full: string; limit: number }, OutboxRow>(
    `SELECT ${COLUMNS} FROM outbox o
     WHERE o.state = 'PENDING' AND o.next_attempt_at <= @now AND o.claimed_until IS NULL
       AND o.kind IN (SELECT value FROM json_each(@kinds))
       AND NOT EXISTS (SELECT 1 FROM json_each(@full) f
                       WHERE f.value ->> 0 = o.kind AND substr(o.key, 1, length(f.value ->> 1)) = f.value ->> 1)
       AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.key = o.key AND p.state = 'PENDING' AND p.seq < o.seq)
     ORDER BY o.next_attempt_at, o.seq LIMIT @limit`,
  );
  const claim = db.prepare<{ seq: number; until: string }>(
    `UPDATE outbox SET claimed_until = @until, attempts = attempts + 1 WHERE seq = @seq AND state = 'PENDING' AND claimed_until IS NULL`,
  );
  const releaseAll = db.prepare('UPDATE outbox SET claimed_until = NULL WHERE claimed_until IS NOT NULL');
  const done = db.prepare<{ seq: number; now: string }>(
    `UPDATE outbox SET state = 'DONE', claimed_until = NULL, last_error = NULL, last_code = NULL, updated_at = @now, finished_at = @now WHERE seq = @seq`,
  );
  const retryAt = db.prepare<{ seq: number; now: string; at: string; error: string; code: string | null }>(
    `UPDATE outbox SET claimed_until = NULL, next_attempt_at = @at, last_error = @error, last_code = @code, updated_at = @now WHERE seq = @seq`,
  );
  const fail = db.prepare<{ seq: number; now: string; error: string; code: string | null }>(
    `UPDATE outbox SET state = 'FAILED', claimed_until = NULL, last_error = @error, last_code = @code, updated_at = @now, finished_at = @now WHERE seq = @seq`,
  );
  const requeue = db.prepare<{ seq: number; now: string; deadline: string }>(
    `UPDATE outbox SET state = 'PENDING', attempts = 0, next_attempt_at = @now, deadline_at = @deadline, finished_at = NULL, updated_at = @now
     WHERE seq = @seq AND state = 'FAILED'`,
  );
  const failedOf = db.prepare<{ kind: string; prefix: string }, OutboxRow>(
    `SELECT ${COLUMNS} FROM outbox WHERE kind = @kind AND state = 'FAILED' AND substr(key, 1, length(@prefix)) = @prefix ORDER BY seq`,
  );
  const pendingOf = db.prepare<{ kind: string; prefix: string }, OutboxRow>(
    `SELECT ${COLUMNS} FROM outbox WHERE kind = @kind AND state = 'PENDING' AND substr(key, 1, length(@prefix)) = @prefix ORDER BY seq`,
  );
  const dueAt = db.prepare<{ seq: number; now: string }>(
    `UPDATE outbox SET next_attempt_at = @now, updated_at = @now WHERE seq = @seq AND state = 'PENDING' AND next_attempt_at > @now`,
  );
  const get = db.prepare<[number], OutboxRow>(`SELECT ${COLUMNS} FROM outbox WHERE seq = ?`);
  const purge = db.prepare<{ before: string; limit: number }>(
    `DELETE FROM outbox WHERE seq IN (SELECT seq FROM outbox WHERE state = 'DONE' AND finished_at < @before LIMIT @limit)`,
  );
  const counts = db.prepare<{ kind: string }, { state: string; n: number }>(
    'SELECT state, count(*) AS n FROM outbox WHERE kind = @kind GROUP BY state',
  );
  const nextDue = db.prepare<{ kinds: string }, { at: string | null }>(
    `SELECT min(next_attempt_at) AS at FROM outbox WHERE state = 'PENDING' AND kind IN (SELECT value FROM json_each(@kinds))`,
  );

  return {
    insert(row: { kind: string; key: string; payload: string; due: string; deadline: string; now: string }): number {
      return Number(insert.run(row).lastInsertRowid);
    },
    /** Up to `limit` rows due at `now` among `kinds`, at most the first pending row per key, none of the `full` lanes ([kind, key prefix]). */
    due(now: string, kinds: readonly string[], limit: number, full: readonly (readonly [string, string])[] = []): OutboxRow[] {
      return due.all({ now, kinds: JSON.stringify(kinds), full: JSON.stringify(full), limit });
    },
    /** Marks a row as being run until `until` and counts the attempt; false when it was taken meanwhile. */
    claim(seq: number, until: string): boolean {
      return claim.run({ seq, until }).changes > 0;
    },
    /** Releases every claim: called once per process before its first tick (claims left are a dead process's). */
    releaseAll(): number {
      return releaseAll.run().changes;
    },
    done(seq: number, now: string): void {
      done.run({ seq, now });
    },
    retryAt(seq: number, now: string, at: string, error: string, code: string | null): void {
      retryAt.run({ seq, now, at, error, code });
    },
    fail(seq: number, now: string, error: string, code: string | null): void {
      fail.run({ seq, now, error, code });
    },
    /** Puts a FAILED row back in the queue, due now, with a fresh deadline; false unless it was FAILED. */
    requeue(seq: number, now: string, deadline: string): boolean {
      return requeue.run({ seq, now, deadline }).changes > 0;
    },
    failedOf(kind: string, keyPrefix: string): OutboxRow[] {
      return failedOf.all({ kind, prefix: keyPrefix });
    },
    pendingOf(kind: string, keyPrefix: string): OutboxRow[] {
      return pendingOf.all({ kind, prefix: keyPrefix });
    },
    /** Makes a PENDING row waiting past `now` due at `now`; false when it was due already or is not pending. */
    dueAt(seq: number, now: string): boolean {
      return dueAt.run({ seq, now }).changes > 0;
    },
    get(seq: number): OutboxRow | undefined {
      return get.get(seq);
    },
    /** Deletes up to `limit` DONE rows finished before `before`; returns how many. */
    purgeDone(before: string, limit: number): number {
      return purge.run({ before, limit }).changes;
    },
    counts(kind: string): Record<string, number> {
      return Object.fromEntries(counts.all({ kind }).map((row) => [row.state, row.n]));
    },
    /** The earliest next attempt among pending rows of `kinds`, or null when none is pending. */
    nextDue(kinds: readonly string[]): string | null {
      return nextDue.get({ kinds: JSON.stringify(kinds) })?.at ?? null;
    },
  };
}

