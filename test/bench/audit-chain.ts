// Benchmark: what the audit chain costs. Builds a database of AUDIT_EVENTS (default 1,000,000)
// events through the real record(), then times: record() per event, the part of it the chain adds,
// and the real CLI's `audit verify`, `audit export` and `audit verify --file` over the whole log.
// Run: npm run bench:audit   (AUDIT_EVENTS=100000 for a quicker look)
//
// Targets (2-core project machines): the chain adds under 20 µs to a write; `audit verify` and
// `audit verify --file` of 1,000,000 events finish in under 15 s.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import { eventHash, type HashedValues } from '../../src/lib/event-chain.ts';
import { createEventStore } from '../../src/modules/events/store.ts';
import { FROM_SOURCES } from '../service/helpers/gatehouse-process.ts';

const EVENTS = Number(process.env.AUDIT_EVENTS ?? 1_000_000);
const BATCH = 1000;
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-audit-'));
const file = join(dir, 'gatehouse.db');
let failed = false;

function target(label: string, value: number, limit: number, unit: string): void {
  const ok = value <= limit;
  failed ||= !ok;
  console.log(`${ok ? 'ok  ' : 'SLOW'} ${label}: ${value.toFixed(unit === 'µs' ? 1 : 2)} ${unit} (target ≤ ${limit} ${unit})`);
}

const clock = new ManualClock('2026-01-01T00:00:00.000Z');
const db = openDatabase(file);
migrate(db, clock.now());
const events = createEventStore(db, clock);
const actor = { userId: newId(), name: 'Bench Admin', email: 'bench@example.com', tokenLabel: 'bench', tokenPreview: '****abcd', ip: '127.0.0.1' };
const recordBatch = db.transaction((n: number) => {
  for (let i = 0; i < n; i++) {
    clock.advance(1000);
    events.record(actor, 'USERS_CREATED', [{ sub_event_type: 'USERS_CREATED', user_id: newId(), user_email: `user${i}@example.com` }]);
  }
});

/** µs per record() over `events` events, BATCH to a transaction (commit cost amortised, as in bulk writes). */
function timeRecords(count: number): number {
  const start = process.hrtime.bigint();
  for (let done = 0; done < count; done += BATCH) recordBatch.immediate(Math.min(BATCH, count - done));
  return Number(process.hrtime.bigint() - start) / 1e3 / count;
}

console.log(`recording ${EVENTS} events into ${file}…`);
const perRecord = timeRecords(EVENTS);
console.log(`     record(), whole: ${perRecord.toFixed(1)} µs an event (${BATCH} to a transaction)`);

// The chain's share: the head read and the hash, alone, repeated over the full table…
const head = db.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1');
const sample: HashedValues = ['0'.repeat(64), 1, newId(), 'USERS_CREATED', actor.userId, actor.name, actor.email, actor.ip,
  actor.tokenLabel, actor.tokenPreview, clock.now().toISOString(), JSON.stringify([{ sub_event_type: 'USERS_CREATED', user_id: newId() }])];
const REPEAT = 200_000;
let start = process.hrtime.bigint();
for (let i = 0; i < REPEAT; i++) sample[0] = eventHash([head.get()!.hash, ...sample.slice(1)] as HashedValues);
const chainPart = Number(process.hrtime.bigint() - start) / 1e3 / REPEAT;
// …and the insert trigger that refuses an event off the chain: record() again without it.
const withTrigger = timeRecords(100_000);
db.exec('DROP TRIGGER events_append_to_chain');
const withoutTrigger = timeRecords(100_000);
db.exec(`CREATE TRIGGER events_append_to_chain BEFORE INSERT ON events
  WHEN NEW.hash IS NULL OR NEW.prev_hash IS NOT coalesce((SELECT hash FROM events ORDER BY seq DESC LIMIT 1), '${'0'.repeat(64)}')
  BEGIN SELECT RAISE(ABORT, 'audit chain: an event must carry its hash and follow the newest event'); END`);
console.log(`     head read + hash: ${chainPart.toFixed(1)} µs; insert trigger: ${(withTrigger - withoutTrigger).toFixed(1)} µs ` +
  `(record() ${withTrigger.toFixed(1)} µs with it, ${withoutTrigger.toFixed(1)} without)`);
target('chain cost per write (head read + hash + trigger)', chainPart + Math.max(0, withTrigger - withoutTrigger), 20, 'µs');
const total = (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
db.pragma('wal_checkpoint(TRUNCATE)');
db.close();

function timeCli(args: string[], stdoutFile?: string): { seconds: number; stdout: string } {
  const started = process.hrtime.bigint();
  const command = stdoutFile ? ['sh', '-c', `"$0" "$@" > '${stdoutFile}'`, ...FROM_SOURCES, ...args] : [...FROM_SOURCES, ...args];
  const run = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', maxBuffer: 1 << 24 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0) throw new Error(`gatehouse ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return { seconds, stdout: run.stdout };
}

const verified = timeCli(['audit', 'verify', '--db', file]);
console.log(`     ${verified.stdout.trim().replace(/\n/g, '\n     ')}`);
target(`gatehouse audit verify, ${total} events (wall, process start included)`, verified.seconds, 15, 's');
const exportFile = join(dir, 'export.jsonl');
const exported = timeCli(['audit', 'export', '--db', file], exportFile);
console.log(`     gatehouse audit export: ${exported.seconds.toFixed(2)} s, ${(statSync(exportFile).size / 1e6).toFixed(0)} MB`);
const fromFile = timeCli(['audit', 'verify', '--file', exportFile]);
target(`gatehouse audit verify --file, ${total} events`, fromFile.seconds, 15, 's');

rmSync(dir, { recursive: true, force: true });
process.exitCode = failed ? 1 : 0;
