// The audit trail: appending events (always inside the caller's transaction) and reading them back.
import { insideTransaction } from '../../db/group-commit.ts';
import { Kept, type Watch } from '../../db/kept.ts';
import type { Db } from '../../db/open.ts';
import type { Caller } from '../../http/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { newTimeOrderedId } from '../../lib/ids.ts';
import { eventHash, GENESIS_HASH, type HashedValues } from '../../lib/event-chain.ts';
import { isEventType, type EventType } from './types.ts';
import { toApiEvent, type ApiEvent, type EventRow } from './mappers.ts';

/** One object an event touched. Every string value under a key ending in `_id` is indexed for the object filter. */
export interface SubEvent {
  sub_event_type: string;
  [field: string]: string | number | boolean | null;
}

/** Who did it, as far as the trail cares: a Caller, or an operator acting through the CLI. */
export type Actor = Pick<Caller, 'userId' | 'name' | 'email' | 'tokenLabel' | 'tokenPreview' | 'ip'>;

export interface EventFilter {
  startAt?: string | undefined;
  /** Events up to and including this instant… */
  endAt?: string | undefined;
  /** …or strictly before this one (a whole end date). */
  endBefore?: string | undefined;
  actorId?: string | undefined;
  objectId?: string | undefined;
  eventType?: EventType | undefined;
  tokenName?: string | undefined;
  tokenPreview?: string | undefined;
}

/** Each filter given adds one condition; statements are prepared once per combination and kept. */
const FILTER_SQL: Record<keyof EventFilter, string> = {
  startAt: 'created_at >= @startAt',
  endAt: 'created_at <= @endAt',
  endBefore: 'created_at < @endBefore',
  actorId: 'actor_user_id = @actorId',
  // Only in the join on event_objects below (alias o), which reads that object's events alone.
  objectId: 'o.object_id = @objectId',
  eventType: 'event_type = @eventType',
  tokenName: 'api_token_name = @tokenName',
  tokenPreview: 'api_token_preview = @tokenPreview',
};
const FILTER_KEYS = Object.keys(FILTER_SQL) as (keyof EventFilter)[];

/**
 * An event's API JSON is kept by seq (db/kept.ts): the trail is append-only, so only a row rewritten
 * (the chain's rehash) or deleted (a cascade) could make a kept one stale, and those writes drop it.
 */
const KEPT_EVENT_SOURCES: Watch[] = [
  { table: 'events', on: 'UPDATE', keys: ['OLD.seq'] },
  { table: 'events', on: 'DELETE', keys: ['OLD.seq'] },
];
/** Events' JSON kept: ~300 bytes each, so ~6 MB at most. */
const KEPT_EVENTS = { entries: 20_000, bytes: 8 * 2 ** 20 };

/** A listed event: its seq (the cursor's key) and its API JSON as UTF-8 bytes (shared: never to be written to). */
export interface EventText {
  seq: number;
  bytes: Uint8Array;
}

const ENCODER = new TextEncoder();

export function createEventStore(db: Db, clock: Clock) {
  const texts = new Kept<Uint8Array>(db, 'event_texts', KEPT_EVENT_SOURCES, KEPT_EVENTS);
  const bySeq = db.prepare<[number], EventRow>('SELECT * FROM events WHERE seq = ?');
  // Columns in HASHED_FIELDS order (src/lib/event-chain.ts), then the hash: one array feeds both.
  const insertEvent = db.prepare<[...HashedValues, string]>(
    `INSERT INTO events (prev_hash, seq, id, event_type, actor_user_id, actor_name, actor_email, actor_ip_address,
                         api_token_name, api_token_preview, created_at, sub_events, hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // The chain's head: one seek to the end of the seq (rowid) b-tree. Read inside the writing
  // transaction, never cached: the CLI and the server both append, and only the write lock
  // makes "the newest event" a fact rather than a guess.
  const head = db.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1');
  const insertObject = db.prepare<[string, number | bigint]>(
    'INSERT OR IGNORE INTO event_objects (object_id, event_seq) VALUES (?, ?)',
  );
  const byId = db.prepare<[string], EventRow>('SELECT * FROM events WHERE id = ?');
  const after = db.prepare<{ position: number; limit: number }, EventRow>(
    'SELECT * FROM events WHERE seq > @position ORDER BY seq LIMIT @limit',
  );
  const listStatements = new Map<string, ReturnType<typeof db.prepare<Record<string, unknown>, number>>>();

  function listStatement(filter: EventFilter) {
    const used = FILTER_KEYS.filter((key) => filter[key] !== undefined);
    const key = used.join(',');
    let statement = listStatements.get(key);
    if (!statement) {
      // With an object filter the page is read from that object's own entries, newest first, and stops
      // after `limit`: a join on event_objects' key (object_id, event_seq). As `seq IN (SELECT …)` SQLite
      // read every event of the object (thousands for a busy user) before the first row of the page.
      // Only the seqs: each event's text is kept (or read by seq once). With the object filter alone the
      // statement reads event_objects' key and nothing else.
      const others = used.filter((k) => k !== 'objectId');
      const sql = filter.objectId === undefined
        ? `SELECT seq FROM events WHERE ${['seq < @before', ...used.map((k) => FILTER_SQL[k])].join(' AND ')} ORDER BY seq DESC LIMIT @limit`
        : others.length === 0
          ? `SELECT o.event_seq AS seq FROM event_objects o WHERE o.object_id = @objectId AND o.event_seq < @before ORDER BY o.event_seq DESC LIMIT @limit`
          : `SELECT o.event_seq AS seq FROM event_objects o JOIN events e ON e.seq = o.event_seq
              WHERE ${['o.event_seq < @before', ...used.map((k) => FILTER_SQL[k])].join(' AND ')}
              ORDER BY o.event_seq DESC LIMIT @limit`;
      statement = db.prepare<Record<string, unknown>, number>(sql).pluck();
      listStatements.set(key, statement);
    }
    return statement;
  }

  /** record() inside a transaction: the new event takes the head's hash as its previous one. */
  function append(actor: Actor, eventType: EventType, subEvents: SubEvent[]): string {
    // The type checker already refuses other strings; this catches one built at run time.
    if (!isEventType(eventType)) throw new Error(`unknown event type ${String(eventType)}: add it to src/modules/events/types.ts`);
    const when = clock.now();
    // Time-ordered: appended at the end of the id index, as the event is at the end of the table.
    const id = newTimeOrderedId(when.getTime());
    const last = head.get();
    const seq = last ? last.seq + 1 : 1;
    const values: HashedValues = [
      last?.hash ?? GENESIS_HASH,
      seq,
      id,
      eventType,
      actor.userId,
      actor.name,
      actor.email,
      actor.ip,
      actor.tokenLabel,
      actor.tokenPreview,
      when.toISOString(),
      JSON.stringify(subEvents),
    ];
    insertEvent.run(...values, eventHash(values));
    for (const sub of subEvents) {
      for (const [field, value] of Object.entries(sub)) {
        if (field.endsWith('_id') && typeof value === 'string' && value !== '') insertObject.run(value, seq);
      }
    }
    return id;
  }

  const appendAlone = db.transaction(append);

  return {
    /**
     * Appends one event with its sub-events. Call it inside the transaction that made the change,
     * so the change and its record commit or roll back together (alone, it opens its own). The event
     * is chained to the newest one: it stores that event's hash and its own (docs/audit-log.md).
     * Returns the event id. Throws (a fault of ours) for a type not in src/modules/events/types.ts.
     */
    record(actor: Actor, eventType: EventType, subEvents: SubEvent[]): string {
      // Outside a transaction the head read and the insert could straddle another process's write.
      return insideTransaction(db) ? append(actor, eventType, subEvents) : appendAlone.immediate(actor, eventType, subEvents);
    },

    get(id: string): ApiEvent | undefined {
      const row = byId.get(id);
      return row && toApiEvent(row);
    },

    /** Up to `limit` events after seq `position`, oldest first, each as the API shows it (what event streams deliver). */
    after(position: number, limit: number): { seq: number; event: ApiEvent }[] {
      return after.all({ position, limit }).map((row) => ({ seq: row.seq, event: toApiEvent(row) }));
    },

    /**
     * Newest first, each as its API JSON's bytes; `before` is the seq of the last event already served (null for
     * the first page). Read lazily: the page stops reading where it is cut.
     */
    *list(filter: EventFilter, before: number | null, limit: number): Generator<EventText> {
      const params: Record<string, unknown> = { before: before ?? Number.MAX_SAFE_INTEGER, limit };
      for (const key of FILTER_KEYS) if (filter[key] !== undefined) params[key] = filter[key];
      for (const seq of listStatement(filter).all(params)) {
        const key = String(seq);
        let bytes = texts.get(key);
        if (bytes === undefined) {
          const row = bySeq.get(seq);
          if (row === undefined) continue;
          // Its own buffer (not a slice of Node's shared pool, which a kept answer would pin).
          const encoded = ENCODER.encode(JSON.stringify(toApiEvent(row)));
          bytes = texts.keep(key, encoded, encoded.byteLength + 100);
        }
        yield { seq, bytes };
      }
    },
  };
}

