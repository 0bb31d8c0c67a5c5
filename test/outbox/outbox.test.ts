// The outbox as a queue: rows only inside a transaction, per-key order, back-off, the deadline, retry by hand, restarts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backoffMs, enqueue, OUTBOX_ACTOR, retryFailed, tick, type Attempt, type OutboxHandler } from '../../src/outbox/index.ts';
import { openDatabase } from '../../src/db/open.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/** A handler that logs each run and answers what the test scripts for each key (default: ok). */
function scripted() {
  const runs: { key: string; seq: number; attempt: number; payload: unknown }[] = [];
  const answers = new Map<string, Attempt[]>();
  const settled: { seq: number; state: string }[] = [];
  const handler: OutboxHandler = {
    async run(_ctx, item) {
      runs.push({ key: item.key, seq: item.seq, attempt: item.attempt, payload: item.payload });
      await new Promise((resolve) => setImmediate(resolve));
      return answers.get(item.key)?.shift() ?? { ok: true };
    },
    settled(_ctx, item, outcome) {
      settled.push({ seq: item.seq, state: outcome.state });
    },
    giveUpAfterMs: 60_000,
  };
  return { runs, answers, settled, handlers: { 'test.kind': handler } };
}

describe('outbox', () => {
  let app: TestApp;
  before(async () => { app = await startTestApp(); });
  after(async () => { await app.close(); });
  const queue = (key: string, payload: unknown = null) =>
    app.ctx.db.transaction(() => enqueue(app.ctx, { kind: 'test.kind', key, payload, giveUpAfterMs: 60_000 })).immediate();

  test('enqueue refuses to run outside a transaction, also while a group-commit batch is open', () => {
    assert.throws(() => enqueue(app.ctx, { kind: 'test.kind', key: 'k', payload: 1 }), /inside the write transaction/);
    queue('opens-a-batch');
    assert.equal(app.ctx.db.inTransaction, true, 'the server batches that write: SQLite reports a transaction');
    assert.throws(() => enqueue(app.ctx, { kind: 'test.kind', key: 'k', payload: 1 }), /inside the write transaction/);
  });

  test('a row queued in a rolled-back transaction is not queued', async () => {
    const s = scripted();
    assert.throws(() => app.ctx.db.transaction(() => {
      enqueue(app.ctx, { kind: 'test.kind', key: 'rolled', payload: 1 });
      throw new Error('change refused');
    }).immediate(), /change refused/);
    await tick(app.ctx, app.clock.now(), undefined, s.handlers);
    assert.deepEqual(s.runs.filter((r) => r.key === 'rolled'), []);
  });

  test('a handler runs only once its row (and the change that queued it) is on disk, even inside a group-commit batch', async () => {
    // Under serve, transactions of one turn share a batch that commits after the turn (db/group-commit.ts):
    // the queued row is not durable yet when the tick claims it. The tick commits it before any handler runs.
    const other = openDatabase(app.dbFile, { readonly: true });
    try {
      const seen: { pending: boolean; durable: number }[] = [];
      const handler: OutboxHandler = {
        async run(_ctx, item) {
          seen.push({
            pending: app.ctx.db.inTransaction,
            durable: (other.prepare('SELECT count(*) AS n FROM outbox WHERE seq = ?').get(item.seq) as { n: number }).n,
          });
          return { ok: true };
        },
      };
      queue('durable-first', 1);
      assert.equal(app.ctx.db.inTransaction, true, 'the server batches this write');
      assert.equal((other.prepare("SELECT count(*) AS n FROM outbox WHERE key = 'durable-first'").get() as { n: number }).n, 0);
      await tick(app.ctx, app.clock.now(), undefined, { 'test.kind': handler });
      assert.deepEqual(seen, [{ pending: false, durable: 1 }]);
    } finally {
      other.close();
    }
  });

  test('rows of one key run in order, one at a time; other keys run alongside', async () => {
    const s = scripted();
    const a1 = queue('a', 1); const b1 = queue('b', 1); const a2 = queue('a', 2); const a3 = queue('a', 3);
    const summary = await tick(app.ctx, app.clock.now(), undefined, s.handlers);
    assert.equal(summary.done, 4);
    assert.deepEqual(s.runs.filter((r) => r.key === 'a').map((r) => r.seq), [a1, a2, a3]);
    assert.ok(s.runs.some((r) => r.seq === b1));
    assert.deepEqual(s.settled.map((x) => x.state), ['DONE', 'DONE', 'DONE', 'DONE']);
  });

  test('a failing row holds back later rows of its key, retries with back-off, then succeeds', async () => {
    const s = scripted();
    s.answers.set('c', [{ ok: false, error: 'remote down', code: 'X' }, { ok: false, error: 'still down', code: 'X' }]);
    const c1 = queue('c', 1); const c2 = queue('c', 2);
    await tick(app.ctx, app.clock.now(), undefined, s.handlers);
    assert.deepEqual(s.runs.map((r) => r.seq), [c1]);
    const row = app.ctx.stores.outbox.get(c1)!;
    assert.equal(row.state, 'PENDING');
    assert.equal(row.last_error, 'remote down');
    const delay = Date.parse(row.next_attempt_at) - app.clock.now().getTime();
    assert.ok(delay >= 500 && delay <= 1_000, `first retry after 0.5–1 s, got ${delay}`);
    // Not due yet: nothing runs.
    await tick(app.ctx, app.clock.now(), undefined, s.handlers);
    assert.equal(s.runs.length, 1);
    app.clock.advance(1_000);
    await tick(app.ctx, app.clock.now(), undefined, s.handlers);
    assert.equal(s.runs.length, 2);
    app.clock.advance(2_000);
    await tick(app.ctx, app.clock.now(), undefined, s.handlers);
    assert.deepEqual(s.runs.map((r) => [r.seq, r.attempt]), [[c1, 1], [c1, 2], [c1, 3], [c2, 1]]);
    assert.equal(app.ctx.stores.outbox.get(c1)!.state, 'DONE');
  });

  test('back-off doubles with jitter and is capped', () => {
    assert.equal(backoffMs(1, 300_000, () => 0), 500);
    assert.equal(backoffMs(1, 300_000, () => 1), 1_000);
    assert.equal(backoffMs(4, 300_000, () => 1), 8_000);
    assert.equal(backoffMs(40, 300_000, () => 1), 300_000);
  });

  test('past its deadline a row is FAILED, evented, does not block its key, and can be retried by hand', async () => {
    const s = scripted();
    s.answers.set('d', Array.from({ length: 100 }, () => ({ ok: false as const, error: 'nope', code: 'ERR' })));
    const d1 = queue('d', 1);
    const d2 = queue('d', 2);
    for (let i = 0; i < 40 && app.ctx.stores.outbox.get(d1)!.state === 'PENDING'; i++) {
      await tick(app.ctx, app.clock.now(), undefined, s.handlers);
      app.clock.advance(30_000);
    }
    const failed = app.ctx.stores.outbox.get(d1)!;
    assert.equal(failed.state, 'FAILED');
    assert.equal(failed.last_code, 'ERR');
    assert.ok(s.settled.some((x) => x.seq === d1 && x.state === 'FAILED'));
    const events = await app.api.get('/events', { event_type_filter: 'OUTBOX_ITEMS_FAILED' });
    assert.equal(events.status, 200);
    assert.ok(JSON.stringify(events.body).includes(`"outbox_seq":${d1}`));
    // The next row of the key was then free to run (it fails too: the script answers for the key).
    assert.ok(s.runs.some((r) => r.seq === d2));
    s.answers.set('d', []);
    const retried = app.ctx.db.transaction(() => retryFailed(app.ctx, OUTBOX_ACTOR, 'test.kind', 'd')).immediate();
    assert.ok(retried.some((row) => row.seq === d1));
    await tick(app.ctx, app.clock.now(), undefined, s.handlers);
    assert.equal(app.ctx.stores.outbox.get(d1)!.state, 'DONE');
  });

  test('a permanent failure fails at once; a throw counts as a failure', async () => {
    const s = scripted();
    s.answers.set('p', [{ ok: false, error: 'bad request', code: 'BAD', permanent: true }]);
    const p = queue('p');
    const thrower: OutboxHandler = { async run() { throw new Error('boom'); } };
    const t = app.ctx.db.transaction(() => enqueue(app.ctx, { kind: 'test.throws', key: 't', payload: null })).immediate();
    await tick(app.ctx, app.clock.now(), undefined, { ...s.handlers, 'test.throws': thrower });
    assert.equal(app.ctx.stores.outbox.get(p)!.state, 'FAILED');
    const row = app.ctx.stores.outbox.get(t)!;
    assert.equal(row.state, 'PENDING');
    assert.equal(row.last_error, 'boom');
  });

  test('rows of a kind without a handler wait untouched', async () => {
    const s = scripted();
    const seq = app.ctx.db.transaction(() => enqueue(app.ctx, { kind: 'test.unknown', key: 'u', payload: null })).immediate();
    await tick(app.ctx, app.clock.now(), undefined, s.handlers);
    assert.equal(app.ctx.stores.outbox.get(seq)!.attempts, 0);
  });

  test('a claim left by a dead process is released by the next process, and its row runs again', async () => {
    const s = scripted();
    const first = await startTestApp();
    const seq = first.ctx.db.transaction(() => enqueue(first.ctx, { kind: 'test.kind', key: 'crash', payload: null })).immediate();
    // What a process that died mid-run leaves: the row claimed, its attempt counted.
    first.ctx.db.transaction(() => first.ctx.stores.outbox.claim(seq, new Date(first.clock.now().getTime() + 600_000).toISOString())).immediate();
    await first.close({ keepFiles: true });
    const next = await startTestApp({ dbFile: first.dbFile, clock: first.clock });
    try {
      await tick(next.ctx, next.clock.now(), undefined, s.handlers);
      assert.deepEqual(s.runs.filter((r) => r.seq === seq).map((r) => r.attempt), [2]);
      assert.equal(next.ctx.stores.outbox.get(seq)!.state, 'DONE');
    } finally {
      await next.close();
    }
  });
});
