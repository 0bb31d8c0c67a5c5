// The tamper-evident audit log as an operator uses it: `gatehouse audit verify` and `audit export`
// (in process, through runCli) over a real database file, edited by hand the way `sqlite3` would.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { createEventStore } from '../../src/modules/events/store.ts';
import { MIGRATIONS } from '../../src/db/migrations.ts';
import { eventHash, type HashedValues } from '../../src/lib/event-chain.ts';
import { linesOf } from '../../src/modules/audit/service.ts';
import { startTestApp } from '../helpers/app.ts';
import { createOwner, createTag } from '../helpers/fixtures.ts';
import { cli } from '../helpers/cli.ts';

interface Row {
  seq: number;
  id: string;
  prev_hash: string;
  hash: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Opens a copy like `sqlite3` does: foreign keys off, and the append-only triggers dropped first. */
function tamper(file: string, edit: (db: Database.Database) => void): void {
  const db = new Database(file);
  db.pragma('foreign_keys = OFF');
  for (const trigger of ['events_no_update', 'events_no_delete', 'events_append_to_chain']) db.exec(`DROP TRIGGER ${trigger}`);
  edit(db);
  db.close();
}

function rows(file: string): Row[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT seq, id, prev_hash, hash FROM events ORDER BY seq').all() as Row[];
  } finally {
    db.close();
  }
}

function exportLines(stdout: string): Record<string, unknown>[] {
  return stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('audit log', () => {
  let dir: string;
  let pristine: string;
  let events: Row[];
  let copies = 0;

  /** A fresh copy of the untouched database, to damage. */
  function copy(): string {
    const file = join(dir, `copy-${++copies}.db`);
    copyFileSync(pristine, file);
    return file;
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-audit-'));
    const app = await startTestApp();
    try {
      for (let i = 0; i < 4; i++) await createOwner(app.api);
      app.clock.advance(4 * DAY_MS);
      for (let i = 0; i < 3; i++) await createTag(app.api);
      // Another connection (the CLI's) appends while the service runs: both write to one chain.
      const created = await cli(['token', 'create', '--db', app.dbFile, '--email', 'admin@gatehouse.local', '--label', 'ops']);
      assert.equal(created.code, 0, created.stderr);
      await createOwner(app.api);
    } finally {
      await app.close({ keepFiles: true });
    }
    pristine = join(dir, 'pristine.db');
    copyFileSync(app.dbFile, pristine);
    rmSync(app.dir, { recursive: true, force: true });
    events = rows(pristine);
    assert.ok(events.length >= 10, `enough events to damage (${events.length})`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('passes an untouched database, counting every event and printing the head to anchor', async () => {
    const run = await cli(['audit', 'verify', '--db', pristine]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, new RegExp(`^ok: .*: ${events.length} events \\(seq 1–${events.length}\\) chained intact, from the first event`, 'm'));
    const last = events.at(-1)!;
    assert.match(run.stdout, new RegExp(`^head: ${last.seq}:${last.hash}$`, 'm'));
    assert.equal(events[0]!.prev_hash, '0'.repeat(64));
    for (let i = 1; i < events.length; i++) assert.equal(events[i]!.prev_hash, events[i - 1]!.hash, `seq ${events[i]!.seq} links to the one before`);
  });

  it('refuses a careless hand edit outright: the log is append-only', () => {
    const db = new Database(copy());
    assert.throws(() => db.prepare("UPDATE events SET actor_name = 'Mallory' WHERE seq = 3").run(), /append-only/);
    assert.throws(() => db.prepare('DELETE FROM events WHERE seq = 3').run(), /append-only/);
    assert.throws(
      () => db.prepare("INSERT INTO events (id, event_type, actor_user_id, actor_name, sub_events, created_at) VALUES ('x', 'T', 'u', 'n', '[]', 'now')").run(),
      /must carry its hash/,
    );
    db.close();
  });

  it('names an event whose fields were edited by hand', async () => {
    const file = copy();
    const target = events[4]!;
    tamper(file, (db) => db.prepare("UPDATE events SET actor_name = 'Mallory' WHERE seq = ?").run(target.seq));
    const run = await cli(['audit', 'verify', '--db', file]);
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, new RegExp(`^FAILED: .*seq ${target.seq} \\(event ${target.id}\\) was altered: its stored fields no longer match its hash`, 'm'));
    assert.match(run.stdout, new RegExp(`\\(${target.seq - 1} events before it are intact\\)`));
  });

  it('judges events with any characters the same way, whichever serialisation hashed them', async () => {
    // verify hashes SQLite's own serialisation first and falls back to JavaScript's where the two could
    // differ (control characters, escapes): an intact event must pass and an edited one be named.
    const file = copy();
    const db = openDatabase(file);
    const odd = 'q"\\/ \n\t\b\f\r \u0001\u001f\u007f \u2028\u2029 é 😀 </script>';
    const oddEvents = createEventStore(db, new ManualClock('2030-01-01T00:00:00.000Z'));
    const id = oddEvents.record({ userId: events[0]!.id, name: odd, email: odd, tokenLabel: odd, tokenPreview: null, ip: '::1' },
      'USERS_CREATED', [{ sub_event_type: 'USERS_CREATED', user_email: odd, note: odd }]);
    db.close();
    const seq = events.length + 1;
    const intact = await cli(['audit', 'verify', '--db', file]);
    assert.equal(intact.code, 0, intact.stdout + intact.stderr);
    assert.match(intact.stdout, new RegExp(`^ok: .*: ${seq} events`, 'm'));
    tamper(file, (raw) => raw.prepare("UPDATE events SET actor_name = replace(actor_name, 'é', 'e') WHERE seq = ?").run(seq));
    const edited = await cli(['audit', 'verify', '--db', file]);
    assert.equal(edited.code, 1, edited.stdout);
    assert.match(edited.stdout, new RegExp(`^FAILED: .*seq ${seq} \\(event ${id}\\) was altered`, 'm'));
  });

  it('names an event edited and re-hashed, through the next event that still records its old hash', async () => {
    const file = copy();
    const target = events[2]!;
    tamper(file, (db) => {
      const row = db.prepare(`SELECT prev_hash, seq, id, event_type, actor_user_id, actor_name, actor_email, actor_ip_address,
        api_token_name, api_token_preview, created_at, sub_events FROM events WHERE seq = ?`).raw().get(target.seq) as HashedValues;
      row[10] = '2020-01-01T00:00:00.000Z';
      db.prepare('UPDATE events SET created_at = ?, hash = ? WHERE seq = ?').run(row[10], eventHash(row), target.seq);
    });
    const run = await cli(['audit', 'verify', '--db', file]);
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, new RegExp(`seq ${target.seq} \\(event ${target.id}\\) was altered and re-hashed: seq ${target.seq + 1} `));
  });

  it('names the gap when events are deleted, in the middle or at the start', async () => {
    const middle = copy();
    tamper(middle, (db) => db.prepare('DELETE FROM events WHERE seq IN (?, ?)').run(events[5]!.seq, events[6]!.seq));
    const first = copy();
    tamper(first, (db) => db.prepare('DELETE FROM events WHERE seq = 1').run());
    const [runMiddle, runFirst] = await Promise.all([
      cli(['audit', 'verify', '--db', middle]),
      cli(['audit', 'verify', '--db', first]),
    ]);
    assert.equal(runMiddle.code, 1, runMiddle.stdout);
    assert.match(runMiddle.stdout, new RegExp(
      `events between seq ${events[4]!.seq} \\(event ${events[4]!.id}\\) and seq ${events[7]!.seq} \\(event ${events[7]!.id}\\) were removed \\(seq 6–7 missing\\)`,
    ));
    assert.equal(runFirst.code, 1, runFirst.stdout);
    assert.match(runFirst.stdout, new RegExp(`events before seq 2 \\(event ${events[1]!.id}\\) were removed`));
  });

  it('names an event moved out of order when two rows swap places', async () => {
    const file = copy();
    const [a, b] = [events[3]!, events[6]!];
    tamper(file, (db) => {
      db.prepare('UPDATE events SET seq = -1 WHERE seq = ?').run(a.seq);
      db.prepare('UPDATE events SET seq = ? WHERE seq = ?').run(a.seq, b.seq);
      db.prepare('UPDATE events SET seq = ? WHERE seq = -1').run(b.seq);
    });
    const run = await cli(['audit', 'verify', '--db', file]);
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, new RegExp(
      `seq ${a.seq} \\(event ${b.id}\\) is out of order: it was written right after seq ${b.seq - 1} \\(event ${events[5]!.id}\\), ` +
        `but now follows seq ${a.seq - 1} \\(event ${events[2]!.id}\\)`,
    ));
  });

  it('catches a log cut short against an anchored head, which the chain alone cannot', async () => {
    const file = copy();
    const head = events.at(-1)!;
    tamper(file, (db) => db.prepare('DELETE FROM events WHERE seq = ?').run(head.seq));
    const anchor = `${head.seq}:${head.hash}`;
    const [plain, anchored, stillGood] = await Promise.all([
      cli(['audit', 'verify', '--db', file]),
      cli(['audit', 'verify', '--db', file, '--anchor', anchor]),
      cli(['audit', 'verify', '--db', pristine, '--anchor', `${events[3]!.seq}:${events[3]!.hash}`]),
    ]);
    assert.equal(plain.code, 0, 'removing the newest event leaves a valid, shorter chain');
    assert.equal(anchored.code, 1, anchored.stdout);
    assert.match(anchored.stdout, new RegExp(`the anchor seq ${head.seq} is not covered`));
    assert.equal(stillGood.code, 0, stillGood.stdout);
  });

  it('exports every event with its hashes, and the export verifies offline; an edited line is named', async () => {
    const run = await cli(['audit', 'export', '--db', pristine]);
    assert.equal(run.code, 0, run.stderr);
    const lines = exportLines(run.stdout);
    assert.deepEqual(lines.map((l) => [l.seq, l.event_id, l.prev_hash, l.hash]), events.map((e) => [e.seq, e.id, e.prev_hash, e.hash]));
    assert.ok(Array.isArray(lines[0]!.sub_events), 'sub_events are exported as JSON, not text');
    const file = join(dir, 'all.jsonl');
    writeFileSync(file, run.stdout);
    const edited = join(dir, 'edited.jsonl');
    const target = lines[3]!;
    writeFileSync(edited, run.stdout.replace(`"event_id":"${target.event_id}","event_type":"${target.event_type}"`, `"event_id":"${target.event_id}","event_type":"NOTHING_HAPPENED"`));
    const [verified, caught] = await Promise.all([
      cli(['audit', 'verify', '--file', file]),
      cli(['audit', 'verify', '--file', edited]),
    ]);
    assert.equal(verified.code, 0, verified.stdout);
    assert.match(verified.stdout, new RegExp(`${events.length} events \\(seq 1–${events.length}\\) chained intact, from the first event`));
    assert.equal(caught.code, 1, caught.stdout);
    assert.match(caught.stdout, new RegExp(`seq ${target.seq} \\(event ${target.event_id}\\) was altered`));
  });

  it('reads an export whose multi-byte characters straddle the read chunks intact (an intact export read as altered)', () => {
    const file = join(dir, 'multibyte.jsonl');
    const lines = ['{"name":"Жанна €10 😀"}', '', 'ascii', '€€€€€€€', '😀😀ж'];
    writeFileSync(file, lines.join('\n'));
    for (let chunk = 1; chunk <= 9; chunk++) assert.deepEqual([...linesOf(file, chunk)], lines, `chunks of ${chunk} bytes`);
  });

  it('exports from --since on as an unbroken run, anchored by the previous hash of its first line', async () => {
    const since = await cli(['audit', 'export', '--db', pristine, '--since', '2026-03-05']);
    assert.equal(since.code, 0, since.stderr);
    const lines = exportLines(since.stdout);
    const startAt = events.findIndex((e) => e.id === lines[0]!.event_id);
    assert.ok(startAt > 0, 'starts after the first day');
    assert.equal(lines.length, events.length - startAt, 'every later event follows');
    assert.ok(lines.every((l) => String(l.created_at) >= '2026-03-05'), 'none from before the date');
    assert.equal(lines[0]!.prev_hash, events[startAt - 1]!.hash, 'the first line names the hash of the event before it');
    const file = join(dir, 'since.jsonl');
    writeFileSync(file, since.stdout);
    const before = events[startAt - 1]!;
    const [alone, anchored, wrongAnchor] = await Promise.all([
      cli(['audit', 'verify', '--file', file]),
      cli(['audit', 'verify', '--file', file, '--anchor', `${before.seq}:${before.hash}`]),
      cli(['audit', 'verify', '--file', file, '--anchor', `${before.seq}:${'e'.repeat(64)}`]),
    ]);
    assert.equal(alone.code, 0, alone.stdout);
    assert.match(alone.stdout, new RegExp(`${lines.length} events .* anchored on previous hash ${before.hash}`));
    assert.equal(anchored.code, 0, anchored.stdout);
    assert.equal(wrongAnchor.code, 1, wrongAnchor.stdout);
    assert.match(wrongAnchor.stdout, /the log was rewritten/);

    const future = await cli(['audit', 'export', '--db', pristine, '--since', '2999-01-01T00:00:00Z']);
    assert.equal(future.code, 0);
    assert.equal(future.stdout, '', 'nothing recorded since: an empty export');
  });

  it('hashes the events recorded before the chain existed when the database is migrated', async () => {
    const file = join(dir, 'old.db');
    const db = new Database(file);
    migrate(db, new Date('2026-01-01T00:00:00Z'), MIGRATIONS.slice(0, 2));
    const insert = db.prepare(`INSERT INTO events (id, event_type, actor_user_id, actor_name, sub_events, created_at)
      VALUES (?, 'USERS_CREATED', '00000000-0000-4000-8000-000000000001', 'Old Admin', ?, ?)`);
    for (let i = 1; i <= 5; i++) insert.run(`00000000-0000-4000-8000-00000000010${i}`, JSON.stringify([{ sub_event_type: 'USERS_CREATED', n: i }]), `2026-01-0${i}T00:00:00.000Z`);
    db.close();

    const early = await cli(['audit', 'verify', '--db', file]);
    assert.equal(early.code, 1);
    assert.match(early.stderr, /predates the audit chain .*gatehouse migrate/);
    const migrated = await cli(['migrate', '--db', file]);
    assert.equal(migrated.code, 0, migrated.stderr);
    const verified = await cli(['audit', 'verify', '--db', file]);
    assert.equal(verified.code, 0, verified.stdout);
    assert.match(verified.stdout, /5 events \(seq 1–5\) chained intact, from the first event/);
  });

  it('fails usage mistakes with status 2', async () => {
    const cases: [string[], RegExp][] = [
      [['audit', 'export', '--since', 'yesterday', '--db', pristine], /--since must be a date/],
      [['audit', 'verify', '--anchor', '12', '--db', pristine], /--anchor must be SEQ:HASH/],
      [['audit', 'verify', '--db', pristine, '--file', 'x.jsonl'], /--db or --file, not both/],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(args)));
    cases.forEach(([args, message], i) => {
      assert.equal(runs[i]!.code, 2, args.join(' '));
      assert.match(runs[i]!.stderr, message, args.join(' '));
    });
    const garbage = join(dir, 'garbage.jsonl');
    writeFileSync(garbage, '\nnot json\n');
    const malformed = await cli(['audit', 'verify', '--file', garbage]);
    assert.equal(malformed.code, 1);
    assert.match(malformed.stdout, /line 2 is not an exported event: it is not JSON/);
  });
});
