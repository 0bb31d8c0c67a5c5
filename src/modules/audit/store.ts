// SQL for the audit chain: reading events in chain order for verify and export (the one-time hashing of
// events recorded before migration 0006 is the migration's: src/db/hash-events.ts).
import type { Db } from '../../db/open.ts';
import { CHAIN_COLUMNS, CHAIN_FORMAT, type EventPlace, type HashedValues } from '../../lib/event-chain.ts';

/** A stored event as one array: the hashed values, then the hash (null only if written outside Gatehouse). */
export type ChainRow = [...HashedValues, string | null];

/** An event serialised by SQLite, then its place: [text, prev_hash, seq, event id, hash]. */
export type SerialisedRow = [text: string, prevHash: string, seq: number, eventId: string, hash: string | null];

// The hashed serialisation built by SQLite's json_array, in HASHED_FIELDS order (src/lib/event-chain.ts): for the
// rows Gatehouse writes it is the same text eventHash() hashes, and reading one string per row
// instead of twelve values makes verify about twice as fast. Where SQLite's JSON escaping could
// differ from JavaScript's (control characters, say), the digest does not match and verify asks
// eventHash() instead, so this can make verify faster but never change its verdict.
const SERIALISED = `json_array('${CHAIN_FORMAT}', prev_hash, seq, id, event_type, actor_user_id, actor_name, actor_email,
  actor_ip_address, api_token_name, api_token_preview, created_at, sub_events), prev_hash, seq, id, hash`;

/** Chain reads over one database; `hasChain` is false for a file older than migration 0006. */
export function createAuditStore(db: Db) {
  const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('events')").all();
  const hasChain = columns.some((c) => c.name === 'hash');
  if (!hasChain) return { hasChain } as const;

  const fromSeq = db.prepare<[number], ChainRow>(`SELECT ${CHAIN_COLUMNS} FROM events WHERE seq >= ? ORDER BY seq`).raw();
  const serialisedFromSeq = db.prepare<[number], SerialisedRow>(`SELECT ${SERIALISED} FROM events WHERE seq >= ? ORDER BY seq`).raw();
  const atSeq = db.prepare<[number], ChainRow>(`SELECT ${CHAIN_COLUMNS} FROM events WHERE seq = ?`).raw();
  // Only used after a break is found: a scan, once, is cheaper than an index every write must keep.
  const byHash = db.prepare<[string], { seq: number; id: string }>('SELECT seq, id FROM events WHERE hash = ? LIMIT 1');
  const firstSince = db.prepare<[string], { seq: number | null }>('SELECT min(seq) AS seq FROM events WHERE created_at >= ?');

  return {
    hasChain,

    /** Every event from `seq` on, in chain order. Run inside snapshot() to see one state of the file. */
    iterateFrom(seq: number): IterableIterator<ChainRow> {
      return fromSeq.iterate(seq);
    },

    /** Every event from `seq` on, in chain order, serialised by SQLite (SERIALISED above). */
    iterateSerialisedFrom(seq: number): IterableIterator<SerialisedRow> {
      return serialisedFromSeq.iterate(seq);
    },

    /** One event's stored values and hash. */
    rowAt(seq: number): ChainRow | undefined {
      return atSeq.get(seq);
    },

    findByHash(hash: string): EventPlace | undefined {
      const row = byHash.get(hash);
      return row && { seq: row.seq, eventId: row.id };
    },

    /** The first event (lowest seq) recorded at or after `at`, so an export from it is an unbroken run. */
    firstSeqSince(at: string): number | undefined {
      return firstSince.get(at)?.seq ?? undefined;
    },

    /** Runs `fn` in one read transaction: every read inside sees the same state, whatever writers do meanwhile. */
    snapshot<T>(fn: () => T): T {
      return db.transaction(fn)();
    },
  } as const;
}

