// List conventions: page_size bounds, signed cursors, and keyset pages that hold still while rows are added.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/fixtures.ts';

describe('paging', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
    // More than one full page of the largest size: insert straight through the store (fast, in one
    // transaction); the paging itself is what goes through HTTP.
    const { users } = app.ctx.stores;
    app.ctx.db.transaction(() => {
      for (let i = 0; i < 1_250; i++) {
        users.create({ email: `seed-${i}@example.com`, full_name: `Seed ${i}`, first_name: 'Seed', last_name: String(i), position: '', manager_id: null }, app.clock.now());
      }
    })();
  });
  after(() => app.close());

  for (const bad of ['0', '-1', '1.5', '1001', 'abc', '']) {
    it(`page_size=${JSON.stringify(bad)} → 400 naming page_size`, async () => {
      const res = await app.api.get('/users', { page_size: bad });
      assert.equal(res.status, 400);
      assert.equal(res.body.details[0].path, 'page_size');
    });
  }

  it('page_size given twice → 400', async () => {
    const res = await app.api.get('/users', { page_size: [10, 20] });
    assert.equal(res.status, 400);
    assert.equal(res.body.details[0].path, 'page_size');
  });

  it('defaults to 200 and allows 1000', async () => {
    const first = await app.api.get('/users');
    assert.equal(first.body.results.length, 200);
    assert.equal(typeof first.body.next, 'string');
    assert.equal(first.body.previous, null);
    const biggest = await app.api.get('/users', { page_size: 1000 });
    assert.equal(biggest.body.results.length, 1000);
  });

  it('walks every row exactly once while rows are inserted, and previous is the cursor used', async () => {
    const existing = new Set<string>(
      app.ctx.db.prepare('SELECT id FROM users').pluck().all() as string[],
    );
    assert.ok(existing.size > 1000);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await app.api.get('/users', { page_size: 97, cursor });
      assert.equal(res.status, 200);
      assert.equal(res.body.previous, cursor ?? null);
      seen.push(...res.body.results.map((u: { user_id: string }) => u.user_id));
      cursor = res.body.next ?? undefined;
      // Someone else writes between our pages.
      await createUser(app.api);
      pages++;
    } while (cursor && pages < 100);

    assert.equal(new Set(seen).size, seen.length, 'no row is served twice');
    for (const id of existing) assert.ok(seen.includes(id), `row ${id} that existed at the start was skipped`);
  });

  it('the last page says there is no next', async () => {
    const total = (app.ctx.db.prepare('SELECT count(*) FROM users').pluck().get() as number);
    const res = await app.api.get('/users', { page_size: 1000 });
    const second = await app.api.get('/users', { page_size: 1000, cursor: res.body.next });
    assert.equal(second.body.results.length, total - 1000);
    assert.equal(second.body.next, null);
  });

  it('refuses a tampered, foreign or garbage cursor with 400 naming cursor', async () => {
    const page = await app.api.get('/users', { page_size: 5 });
    const cursor: string = page.body.next;
    const [payload, signature] = cursor.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...decoded, k: 1 })).toString('base64url')}.${signature}`;
    const flipped = cursor.slice(0, -2) + (cursor.at(-2) === 'A' ? 'B' : 'A') + cursor.at(-1);

    for (const bad of [forged, flipped, 'garbage', `${payload}.`, '.abc', 'x'.repeat(2000)]) {
      const res = await app.api.get('/users', { cursor: bad });
      assert.equal(res.status, 400, `cursor ${bad.slice(0, 40)} was accepted`);
      assert.equal(res.body.details[0].path, 'cursor');
    }
    // A cursor from the users list means nothing to the tokens list.
    const foreign = await app.api.get('/tokens', { cursor });
    assert.equal(foreign.status, 400);
  });
});
