// `audit verify` and `audit export`: walking the chain in a database or an export file, and
// writing the chain out as JSON Lines that can be checked without Gatehouse.
import { closeSync, openSync, readSync } from 'node:fs';
import type { Db } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import { ChainWalk, GENESIS_HASH, HASHED_FIELDS, sha256, type ChainProblem, type EventPlace, type HashedValues } from '../../lib/event-chain.ts';
import { createAuditStore, type ChainRow } from './store.ts';

/** A head noted earlier: `seq:hash`, as `audit verify` prints it. */
export interface Anchor {
  seq: number;
  hash: string;
}

export interface VerifyResult {
  count: number;
  first: (EventPlace & { prevHash: string }) | undefined;
  last: (EventPlace & { hash: string }) | undefined;
  problem: ChainProblem | undefined;
}

/** One export line: the event with its stored fields (sub_events parsed) and its two hashes. */
export interface ExportLine {
  seq: number;
  event_id: string;
  event_type: string;
  actor_user_id: string;
  actor_name: string;
  actor_email: string | null;
  actor_ip_address: string | null;
  api_token_name: string | null;
  api_token_preview: string | null;
  created_at: string;
  sub_events: unknown;
  prev_hash: string;
  hash: string;
}

/** Parses `SEQ:HASH`; undefined when it is not one. */
export function parseAnchor(raw: string): Anchor | undefined {
  const match = /^(\d{1,15}):([0-9a-f]{64})$/i.exec(raw.trim());
  return match ? { seq: Number(match[1]), hash: match[2]!.toLowerCase() } : undefined;
}

function chainStore(db: Db) {
  const store = createAuditStore(db);
  if (!store.hasChain) {
    throw new AppError('conflict', 'this database predates the audit chain (schema version 6): run `gatehouse migrate` first');
  }
  return store;
}

function resultOf(walk: ChainWalk): VerifyResult {
  return { count: walk.count, first: walk.first, last: walk.last, problem: walk.finish() };
}

/**
 * Walks every event of the database in seq order, in one read snapshot (safe while the service
 * writes), from the genesis hash. Stops at the first problem. Throws AppError when the file has no chain yet.
 */
export function verifyDatabase(db: Db, anchor?: Anchor): VerifyResult {
  const store = chainStore(db);
  return store.snapshot(() => {
    const walk = new ChainWalk(GENESIS_HASH, (hash) => store.findByHash(hash), anchor);
    for (const [text, prevHash, seq, eventId, hash] of store.iterateSerialisedFrom(Number.MIN_SAFE_INTEGER)) {
      if (hash !== null && sha256(text) === hash) {
        if (!walk.push({ prevHash, seq, eventId, hash })) break;
        continue;
      }
      // Not the same digest: the JavaScript serialisation of the stored values decides.
      const row = store.rowAt(seq)!;
      const stored = row.pop() as string | null;
      if (!walk.push({ values: row as unknown as HashedValues, hash: stored })) break;
    }
    return resultOf(walk);
  });
}

/**
 * Writes the events from the first one recorded at or after `since` (all when undefined) to the
 * newest, one JSON line each, in seq order and from one snapshot, so the lines form an unbroken run
 * of the chain whose first `prev_hash` anchors it. Returns how many lines were written.
 */
export function exportEvents(db: Db, since: string | undefined, write: (chunk: string) => void): number {
  const store = chainStore(db);
  return store.snapshot(() => {
    const from = since === undefined ? Number.MIN_SAFE_INTEGER : store.firstSeqSince(since);
    if (from === undefined) return 0;
    let buffer = '';
    let count = 0;
    for (const row of store.iterateFrom(from)) {
      buffer += JSON.stringify(exportLine(row)) + '\n';
      count++;
      if (buffer.length > 1 << 20) {
        write(buffer);
        buffer = '';
      }
    }
    if (buffer) write(buffer);
    return count;
  });
}

function exportLine(row: ChainRow): ExportLine {
  const [prev_hash, seq, event_id, event_type, actor_user_id, actor_name, actor_email, actor_ip_address,
    api_token_name, api_token_preview, created_at, sub_events, hash] = row;
  return {
    seq, event_id, event_type, actor_user_id, actor_name, actor_email, actor_ip_address, api_token_name,
    api_token_preview, created_at, sub_events: JSON.parse(sub_events), prev_hash, hash: hash ?? '',
  };
}

/** The hashed values of an export line, or a reason it is not one. */
function linkOf(text: string): { values: HashedValues; hash: string } | string {
  let line: Record<string, unknown>;
  try {
    line = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return 'it is not JSON';
  }
  if (typeof line !== 'object' || line === null || typeof line.hash !== 'string') return 'it has no hash';
  const values = HASHED_FIELDS.map((field) => (field === 'sub_events' ? JSON.stringify(line[field]) : line[field]));
  if (typeof values[0] !== 'string' || !Number.isInteger(values[1]) || typeof values[2] !== 'string') return 'it lacks prev_hash, seq or event_id';
  return { values: values as HashedValues, hash: line.hash };
}

/** Lines of a file of any size, read synchronously in 1 MiB chunks. */
export function* linesOf(file: string, chunkBytes = 1 << 20): Generator<string> {
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.alloc(chunkBytes);
    // A streaming decoder keeps a character split across two chunks whole (decoding each chunk on its
    // own garbled it, and the line's hash then failed: an intact export read as altered).
    const decoder = new TextDecoder('utf-8');
    let partial = '';
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      const lines = (partial + decoder.decode(chunk.subarray(0, n), { stream: true })).split('\n');
      partial = lines.pop()!;
      yield* lines;
    }
    partial += decoder.decode();
    if (partial) yield partial;
  } finally {
    closeSync(fd);
  }
}

/**
 * Checks an export file on its own: each line's hash against its fields, and each line against the
 * one before. The first line's prev_hash is taken as given (it anchors a partial export) unless
 * `anchor` says what it must be. Blank lines are skipped; a line that is not an event is a problem.
 */
export function verifyExportFile(file: string, anchor?: Anchor): VerifyResult {
  const findByHash = (hash: string): EventPlace | undefined => {
    for (const text of linesOf(file)) {
      const link = text.trim() && linkOf(text);
      if (link && typeof link !== 'string' && link.hash === hash) return { seq: link.values[1], eventId: link.values[2] };
    }
    return undefined;
  };
  const walk = new ChainWalk(undefined, findByHash, anchor);
  let lineNo = 0;
  for (const text of linesOf(file)) {
    lineNo++;
    if (!text.trim()) continue;
    const link = linkOf(text);
    if (typeof link === 'string') {
      return { ...resultOf(walk), problem: { at: undefined, kind: 'malformed', message: `line ${lineNo} is not an exported event: ${link}` } };
    }
    if (!walk.push(link)) break;
  }
  return resultOf(walk);
}
