// A big access review's snapshot is written in slices across turns of the event loop (issue 21): other
// requests are answered between slices, the review is invisible until its last slice, and a review whose
// snapshot was never finished is dropped by the job, leaving nothing behind.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { commitPendingWrites } from '../../src/db/group-commit.ts';
import { openDatabase, type Db } from '../../src/db/open.ts';
import { ABANDONED_SNAPSHOT_MS, dropAbandonedSnapshots } from '../../src/modules/access-reviews/service.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { countEvents } from '../helpers/events.ts';
import { createApp, createGroup, createResource, createUser } from '../helpers/fixtures.ts';

const USERS = 40;
const RESOURCES = 4;
// The group's own members, then each resource the group holds: one snapshot row per user for each.
const ROWS = USERS * (1 + RESOURCES);
const SLICE = 3;

const review = (name: string) => ({
  name, reviewer_assignment_policy: 'MANUALLY', send_reviewer_assignment_notification: false,
  deadline: '2026-04-01T07:00:00Z', time_zone: 'UTC', self_review_allowed: false,
});

describe('access review snapshots written in slices', () => {
  let app: TestApp;
  let side: Db;
  let probeUser: string;
  before(async () => {
    app = await startTestApp({ env: { GATEHOUSE_UAR_SNAPSHOT_SLICE_ROWS: String(SLICE) } });
    // A second connection on the file sees what is committed, as another process would.
    side = openDatabase(app.dbFile, { readonly: true });
    const appId = (await createApp(app.api)).app_id;
    const group = (await createGroup(app.api, { app_id: appId })).group_id;
    for (let i = 0; i < RESOURCES; i++) {
      const resource = (await createResource(app.api, { app_id: appId })).resource_id;
      assert.equal((await app.api.post(`/groups/${group}/resources/${resource}`, { duration_minutes: 0 })).status, 200);
    }
    for (let i = 0; i < USERS; i++) {
      const user = (await createUser(app.api)).user_id;
      assert.equal((await app.api.post(`/groups/${group}/users/${user}`, { duration_minutes: 0 })).status, 200);
    }
    probeUser = (await createUser(app.api)).user_id;
  });
  after(async () => {
    side.close();
    await app.close();
  });

  const inProgressRows = () =>
    side.prepare('SELECT count(*) AS n FROM uar_snapshot_rows r JOIN uar_snapshots_in_progress p ON p.uar_id = r.uar_id').get() as { n: number };

  it('writes the rows over many turns, answers others between them, and shows the review only when whole', async () => {
    const before = await countEvents(app.api, { type: 'UARS_CREATED' });
    // Whatever else runs on the event loop: it sees the rows written so far after every turn.
    const seenByTurns = new Set<number>();
    let writing = true;
    const watch = () => {
      seenByTurns.add(inProgressRows().n);
      if (writing) setImmediate(watch);
    };
    setImmediate(watch);
    // A client reading meanwhile: what each answer showed, and how far the snapshot was when it came.
    const answers: { rows: number; listed: number; assigned: number }[] = [];
    const probe = (async () => {
      while (writing) {
        const res = await app.api.get('/uars', { page_size: 100 });
        assert.equal(res.status, 200);
        const mine = await app.api.get('/uar-assignments');
        assert.equal(mine.status, 200);
        answers.push({ rows: inProgressRows().n, listed: res.body.results.length, assigned: mine.body.results.length });
        const user = await app.api.get(`/users/${probeUser}`);
        assert.equal(user.status, 200);
      }
    })();
    const res = await app.api.post('/uar', review('whole catalogue'));
    writing = false;
    await probe;
    assert.equal(res.status, 200, JSON.stringify(res.body));

    const partial = [...seenByTurns].filter((n) => n > 0 && n < ROWS);
    assert.ok(partial.length >= 2, `the rows were written in one go: turns saw ${[...seenByTurns].sort((a, b) => a - b).join(', ')}`);
    const between = answers.filter((a) => a.rows > 0 && a.rows < ROWS);
    assert.ok(between.length > 0, `no request was answered between slices: ${JSON.stringify(answers)}`);
    // Answered while the snapshot was partial: the review was not there yet, nor in its reviewer's list.
    assert.deepEqual(between.map((a) => [a.listed, a.assigned]), between.map(() => [0, 0]));

    // Whole once answered: every row, one event, nothing left in progress.
    assert.equal(inProgressRows().n, 0);
    const snapshot = await app.api.get(`/uar/${res.body.uar_id}/snapshot`, { page_size: 1000 });
    assert.equal(snapshot.status, 200);
    assert.equal(snapshot.body.results.length, ROWS);
    assert.equal((await app.api.get('/uars', { page_size: 100 })).body.results.length, 1);
    // Every row got its reviewer (MANUALLY: the creator, as the fallback), assigned in slices too.
    const assignments = await app.api.get('/uar-assignments');
    assert.deepEqual(assignments.body.results.map((a: { uar_id: string; assigned_items: number }) => [a.uar_id, a.assigned_items]), [[res.body.uar_id, ROWS]]);
    assert.equal(await countEvents(app.api, { type: 'UARS_CREATED' }), before + 1);
  });

  it('hands the snapshot from the read worker as UTF-8 chunks of a slice each, transferred rather than copied as objects', async () => {
    assert.ok(app.ctx.reads.workers > 0);
    const taken = await app.ctx.reads.run('uar.snapshot', { scope: undefined }, app.adminUserId, app.clock.now());
    assert.equal(taken.rows, ROWS);
    assert.equal(taken.chunks.length, Math.ceil(ROWS / SLICE));
    assert.ok(taken.chunks.every((chunk) => chunk instanceof Uint8Array));
    const rows = taken.chunks.flatMap((chunk) => JSON.parse(Buffer.from(chunk).toString('utf8')) as unknown[]);
    assert.equal(rows.length, ROWS);
  });

  it('drops a review whose snapshot was never finished (a crash mid-way), rows first, recording nothing', async () => {
    const started = await app.api.post('/uar', review('interrupted'));
    assert.equal(started.status, 200);
    const id = started.body.uar_id as string;
    // What a crash between slices leaves: the review marked in progress. (The test writes the mark itself.)
    const writer = openDatabase(app.dbFile);
    writer.prepare('INSERT INTO uar_snapshots_in_progress (uar_id, started_at) VALUES (?, ?)').run(id, app.clock.now().toISOString());
    writer.close();
    assert.equal((await app.api.get(`/uar/${id}`)).status, 404);
    assert.equal((await app.api.get(`/uar/${id}/snapshot`)).status, 404);
    const events = await countEvents(app.api);

    // Not yet abandoned: the job leaves it.
    await dropAbandonedSnapshots(app.ctx, app.clock.now());
    assert.equal(inProgressRows().n, ROWS);

    app.clock.advance(ABANDONED_SNAPSHOT_MS + 1000);
    await dropAbandonedSnapshots(app.ctx, app.clock.now());
    // The job's last delete joins the open group-commit batch: make it durable before looking from outside.
    commitPendingWrites(app.ctx.db);
    assert.equal(inProgressRows().n, 0);
    const left = side.prepare('SELECT (SELECT count(*) FROM uars WHERE id = ?) + (SELECT count(*) FROM uar_snapshot_rows WHERE uar_id = ?) AS n').get(id, id) as { n: number };
    assert.equal(left.n, 0);
    assert.equal(await countEvents(app.api), events);
  });
});
