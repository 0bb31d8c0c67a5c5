// What an audit event's hash covers, and the walk that checks a run of events against it. Pure:
// the store feeds it database rows, `audit verify --file` feeds it export lines.
import * as crypto from 'node:crypto';

/** The previous hash of the first event ever recorded (also written into sql/0006_audit_chain.sql). */
export const GENESIS_HASH = '0'.repeat(64);

/** First element of every serialisation, so a future change of format cannot be confused with this one. */
export const CHAIN_FORMAT = 'gatehouse-event-v1';

/**
 * The hashed fields, in the order they are serialised, named as an export line names them.
 * `sub_events` is the JSON text exactly as stored (an export line carries it parsed; JSON.stringify
 * gives the stored text back, since record() wrote it with JSON.stringify).
 */
export const HASHED_FIELDS = [
  'prev_hash', 'seq', 'event_id', 'event_type', 'actor_user_id', 'actor_name', 'actor_email',
  'actor_ip_address', 'api_token_name', 'api_token_preview', 'created_at', 'sub_events',
] as const;

/** The events table's columns behind HASHED_FIELDS, in its order (event_id is stored as id), then the stored hash. */
export const CHAIN_COLUMNS = `prev_hash, seq, id, event_type, actor_user_id, actor_name, actor_email, actor_ip_address,
  api_token_name, api_token_preview, created_at, sub_events, hash`;

/** The hashed fields' values in HASHED_FIELDS order (absent values are null, never omitted). */
export type HashedValues = [
  prevHash: string, seq: number, eventId: string, eventType: string, actorUserId: string, actorName: string,
  actorEmail: string | null, actorIp: string | null, tokenName: string | null, tokenPreview: string | null,
  createdAt: string, subEventsText: string,
];

// crypto.hash (Node ≥ 20.12) is a one-shot digest about twice as fast as createHash for an event's
// few hundred bytes; verify hashes every event, so it is worth the fallback for older 20.x.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
/** SHA-256 of a text, hex. */
export const sha256 = oneShot
  ? (text: string) => oneShot('sha256', text, 'hex')
  : (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const PREFIX = JSON.stringify([CHAIN_FORMAT]).slice(0, -1) + ',';

/** SHA-256 (hex) of the JSON array [CHAIN_FORMAT, ...values]: JSON makes the field boundaries unambiguous. */
export function eventHash(values: HashedValues): string {
  // The same text as JSON.stringify([CHAIN_FORMAT, ...values]), without copying the array.
  return sha256(PREFIX + JSON.stringify(values).slice(1));
}

/** One event as the walk sees it: the hashed values and the hash stored with them. */
export interface ChainLink {
  values: HashedValues;
  hash: string | null;
}

/**
 * An event whose serialisation was already hashed to exactly its stored hash (the database
 * serialises rows in SQL for speed): the walk needs only its place and its links. Pass a ChainLink
 * instead whenever the digest differs, so the JavaScript serialisation has the last word.
 */
export interface DigestedLink {
  prevHash: string;
  seq: number;
  eventId: string;
  hash: string;
}

/** Where an event sits, for messages: `seq 42 (event 0b5c…)`. */
export interface EventPlace {
  seq: number;
  eventId: string;
}

export const describe = (at: EventPlace): string => `seq ${at.seq} (event ${at.eventId})`;

/** The first thing found wrong: the event to look at and what happened to it. */
export interface ChainProblem {
  /** Undefined when the problem is not one event (an export line that does not parse, an empty log). */
  at: EventPlace | undefined;
  kind: 'altered' | 'removed' | 'reordered' | 'unhashed' | 'anchor' | 'malformed';
  message: string;
}

/** How the walk looks up, after a break, which event (anywhere in the run) has a given hash. */
export type FindByHash = (hash: string) => EventPlace | undefined;

/**
 * Checks events fed in stored order. `start` is the previous hash the first event must name:
 * GENESIS_HASH for a whole log, or undefined to take the first event's own prev_hash as given
 * (a partial export, anchored by that hash). Stops at the first problem; `findByHash` is only
 * called then, to tell a moved event from a removed or re-hashed one.
 */
export class ChainWalk {
  count = 0;
  first: (EventPlace & { prevHash: string }) | undefined;
  last: (EventPlace & { hash: string }) | undefined;
  problem: ChainProblem | undefined;
  private anchorSeen = false;

  constructor(
    private readonly start: string | undefined,
    private readonly findByHash: FindByHash,
    /** A head noted earlier (`seq` had `hash`); checked where the run covers it, and required to be covered. */
    private readonly anchor?: { seq: number; hash: string },
  ) {}

  /** Checks the next event; false once a problem is found (then `problem` says what). */
  push(link: ChainLink | DigestedLink): boolean {
    const full = 'values' in link;
    const [prevHash, seq, eventId] = full ? link.values : [link.prevHash, link.seq, link.eventId];
    const at = { seq, eventId };
    const linked = prevHash === (this.last ? this.last.hash : (this.start ?? prevHash));
    const intact = !full || (link.hash !== null && eventHash(link.values) === link.hash);
    if (!linked || !intact) {
      this.problem = this.diagnose(at, prevHash, link.hash, linked, intact);
      return false;
    }
    if (this.anchor && !this.checkAnchor(at, prevHash, link.hash!)) return false;
    this.first ??= { ...at, prevHash };
    this.last = { ...at, hash: link.hash! };
    this.count++;
    return true;
  }

  /** After the last event: a problem when the run never reached the anchor (the log was cut short). */
  finish(): ChainProblem | undefined {
    if (this.problem || !this.anchor || this.anchorSeen) return this.problem;
    this.problem = {
      at: this.last,
      kind: 'anchor',
      message: `the anchor seq ${this.anchor.seq} is not covered: the events run ` +
        (this.first ? `from seq ${this.first.seq} to ${this.last!.seq}` : 'empty') + ', so the log was cut short or the anchor is outside it',
    };
    return this.problem;
  }

  private checkAnchor(at: EventPlace, prevHash: string, hash: string): boolean {
    const { seq, hash: expected } = this.anchor!;
    // A partial run starting right after the anchor is tied to it by its first previous hash.
    const found = at.seq === seq ? hash : !this.last && at.seq === seq + 1 ? prevHash : undefined;
    if (found === undefined) return true;
    this.anchorSeen = true;
    if (found === expected) return true;
    this.problem = {
      at,
      kind: 'anchor',
      message: `the log was rewritten: seq ${seq} had the hash ${expected} when anchored, but the chain now gives ${found}`,
    };
    return false;
  }

  private diagnose(at: EventPlace, prevHash: string, hash: string | null, linked: boolean, intact: boolean): ChainProblem {
    if (hash === null) {
      return { at, kind: 'unhashed', message: `${describe(at)} has no hash: it was written outside Gatehouse` };
    }
    const before = this.last;
    if (!linked) {
      // It names a predecessor other than the event before it: if that one exists elsewhere, it moved.
      const writtenAfter = this.findByHash(prevHash);
      if (writtenAfter) {
        return {
          at,
          kind: 'reordered',
          message: `${describe(at)} is out of order: it was written right after ${describe(writtenAfter)}, ` +
            `but now ${before ? `follows ${describe(before)}` : 'comes first'}`,
        };
      }
    }
    if (!intact) {
      return { at, kind: 'altered', message: `${describe(at)} was altered: its stored fields no longer match its hash` };
    }
    // Intact itself, but the event it was written after is nowhere: removed, or changed and re-hashed.
    if (!before) {
      return { at, kind: 'removed', message: `events before ${describe(at)} were removed: the log does not start at its first event` };
    }
    if (at.seq > before.seq + 1) {
      const missing = at.seq - 1 > before.seq + 1 ? `seq ${before.seq + 1}–${at.seq - 1}` : `seq ${before.seq + 1}`;
      return { at, kind: 'removed', message: `events between ${describe(before)} and ${describe(at)} were removed (${missing} missing)` };
    }
    return {
      at: before,
      kind: 'altered',
      message: `${describe(before)} was altered and re-hashed: ${describe(at)}, written right after it, recorded a different hash for it`,
    };
  }
}
