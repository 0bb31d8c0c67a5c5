// Group commit (src/db/group-commit.ts) on a real SQLite file and real HTTP: many transactions, one
// commit; a failing one rolls back alone; no answer leaves before its batch is durable (a second
// connection — another process, as far as SQLite knows — already sees the write when the answer
// arrives); a lost batch cuts its connections instead of answering.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { commitPendingWrites, heldResponses, holdUntilDurable, insideTransaction, startGroupCommit, type GroupCommit } from '../../src/db/group-commit.ts';
import { openDatabase, type Db } from '../../src/db/open.ts';

describe('group commit', () => {
  let dir: string;
  let db: Db;
  let other: Db;
  let commits: GroupCommit;
  let lost: unknown[];
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-group-commit-'));
    db = openDatabase(join(dir, 'g.db'));
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)');
    other = openDatabase(join(dir, 'g.db'), { readonly: true });
    lost = [];
    commits = startGroupCommit(db, { onLost: (err) => lost.push(err) });
  });
  after(() => {
    commits.stop();
    other.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const count = () => (other.prepare('SELECT count(*) AS n FROM notes').get() as { n: number }).n;
  const texts = () => (other.prepare('SELECT text FROM notes ORDER BY id').all() as { text: string }[]).map((r) => r.text);

  it('commits the transactions of one turn of the event loop together, after it, each rolled back alone on failure', async () => {
    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
    const add = db.transaction((text: string, fail: boolean) => {
      insert.run(text);
      if (fail) throw new Error('refused');
    });
    const before = { ...commits.stats };
    for (let i = 0; i < 20; i++) {
      if (i === 7) assert.throws(() => add.immediate(`note ${i}`, true), /refused/);
      else add(`note ${i}`, false);
    }
    assert.equal(commits.pending(), true);
    assert.equal(count(), 0, 'nothing is visible to another connection before the batch commits');
    await nextTurn();
    assert.equal(commits.pending(), false);
    assert.deepEqual(commits.stats, { batches: before.batches + 1, transactions: before.transactions + 20 });
    assert.equal(count(), 19);
    assert.equal(texts().includes('note 7'), false);
  });

  it('tells a transaction function from an open batch (insideTransaction), nested and after a failure too', async () => {
    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
    const seen: boolean[] = [];
    const inner = db.transaction(() => seen.push(insideTransaction(db)));
    const outer = db.transaction((fail: boolean) => {
      insert.run(`depth ${fail}`);
      seen.push(insideTransaction(db));
      inner();
      seen.push(insideTransaction(db));
      if (fail) throw new Error('refused');
    });
    assert.equal(insideTransaction(db), false);
    outer(false);
    assert.equal(commits.pending(), true, 'a batch is open');
    assert.equal(db.inTransaction, true, 'which SQLite reports as a transaction');
    assert.equal(insideTransaction(db), false, 'but no transaction function of the caller runs');
    assert.throws(() => outer(true), /refused/);
    assert.equal(insideTransaction(db), false, 'a failed transaction leaves the count as it found it');
    assert.deepEqual(seen, [true, true, true, true, true, true]);
    await nextTurn();
    assert.equal(commits.pending(), false);
  });

  it('commits the open batch at once for work that tells the world what it read (commitPendingWrites)', async () => {
    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
    db.transaction(() => insert.run('to be sent'))();
    assert.equal(commits.pending(), true);
    assert.equal(texts().includes('to be sent'), false);
    commitPendingWrites(db);
    assert.equal(commits.pending(), false);
    assert.equal(texts().includes('to be sent'), true, 'another connection sees it before any network work starts');
    commitPendingWrites(db); // nothing open: a no-op
    // A batch SQLite rolled back under us is reported, so nothing read from it goes out.
    db.transaction(() => insert.run('never sent'))();
    db.prepare('ROLLBACK').run();
    const lostBefore = lost.length;
    assert.throws(() => commitPendingWrites(db), /rolled back/);
    assert.equal(lost.length, lostBefore + 1);
    assert.equal(texts().includes('never sent'), false);
    await nextTurn();
  });

  describe('over HTTP', () => {
    let server: Server;
    let url: string;
    before(async () => {
      const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
      const write = db.transaction((text: string) => insert.run(text));
      server = createServer({ ServerResponse: heldResponses(commits) }, (req, res) => {
        holdUntilDurable(res);
        const text = decodeURIComponent(req.url!.slice(1));
        if (req.method === 'POST') write(text);
        if (text.startsWith('lose')) db.prepare('ROLLBACK').run(); // as SQLite does on SQLITE_FULL or an I/O error
        res.writeHead(200, { 'content-type': 'text/plain' });
        // What a read would answer on this connection: it sees the batch's rows before they are durable.
        res.end(String((db.prepare('SELECT count(*) AS n FROM notes WHERE text = ?').get(text) as { n: number }).n));
      });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    after(() => new Promise<void>((done) => server.close(() => done())));

    it('answers writes and reads only once what they saw is on disk', async () => {
      const written = Array.from({ length: 16 }, (_, i) => `http ${i}`);
      const answers = await Promise.all(written.map(async (text) => {
        const res = await fetch(`${url}/${encodeURIComponent(text)}`, { method: 'POST' });
        const body = await res.text();
        // The moment the answer arrived, another connection already finds the row.
        const durable = (other.prepare('SELECT count(*) AS n FROM notes WHERE text = ?').get(text) as { n: number }).n;
        return { status: res.status, body, durable };
      }));
      for (const answer of answers) assert.deepEqual(answer, { status: 200, body: '1', durable: 1 });
    });

    it('cuts the connections of a batch that could not commit instead of answering them', async () => {
      const lostBefore = lost.length;
      await assert.rejects(fetch(`${url}/lose-me`, { method: 'POST' }).then((res) => res.text()));
      assert.equal(lost.length, lostBefore + 1);
      assert.equal(texts().includes('lose-me'), false);
      // The next batch works again.
      const res = await fetch(`${url}/after`, { method: 'POST' });
      assert.equal(await res.text(), '1');
      assert.equal(texts().includes('after'), true);
    });
  });
});
