// The step of migration 0006 that SQL cannot do: hashing the events recorded before the audit chain existed.
import { CHAIN_COLUMNS, eventHash, GENESIS_HASH, type HashedValues } from '../lib/event-chain.ts';
import type { Db } from './open.ts';

/**
 * Gives every event that has no hash yet its place in the chain, oldest first, each linked to the
 * one before. Run by migration 0006 inside the migration's transaction (SQLite cannot hash); a
 * no-op on a new database. Returns how many events it hashed.
 */
export function hashUnchainedEvents(db: Db): number {
  const batch = db.prepare<[number], [...HashedValues, string | null]>(
    `SELECT ${CHAIN_COLUMNS} FROM events WHERE seq > ? AND hash IS NULL ORDER BY seq LIMIT 5000`,
  ).raw();
  const before = db.prepare<[number], { hash: string | null }>('SELECT hash FROM events WHERE seq < ? ORDER BY seq DESC LIMIT 1');
  const update = db.prepare<[string, string, number]>('UPDATE events SET prev_hash = ?, hash = ? WHERE seq = ?');
  let after = 0;
  let prev: string | undefined;
  let count = 0;
  for (let rows = batch.all(after); rows.length > 0; rows = batch.all(after)) {
    for (const row of rows) {
      const seq = row[1];
      prev ??= before.get(seq)?.hash ?? GENESIS_HASH;
      const values = row.slice(0, 12) as HashedValues;
      values[0] = prev;
      prev = eventHash(values);
      update.run(values[0], prev, seq);
      after = seq;
      count++;
    }
  }
  return count;
}
