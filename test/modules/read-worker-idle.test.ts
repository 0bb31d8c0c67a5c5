// An idle read worker is stopped (its heap and SQLite cache are most of what a quiet service holds beyond
// its own), never a busy one, and the next heavy read starts a new worker and answers as before.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from '../../src/http/parse.ts';
import { ListResourcesQuery } from '../../src/modules/resources/schemas.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createResource } from '../helpers/fixtures.ts';

/**
 * Heavy reads (more rows than are built on the main thread) go to a read worker; each asks another page
 * size, so none is answered from a page kept by the one before (resources/pages.ts).
 */
let pageSize = 200;

describe('idle read workers', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
    const appId = (await createApp(app.api)).app_id;
    for (let i = 0; i < 3; i++) await createResource(app.api, { app_id: appId });
  });
  after(() => app.close());

  const heavyRead = async () => {
    const res = await fetch(`${app.url}/resources?page_size=${pageSize--}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    assert.equal(res.status, 200);
    return ((await res.json()) as { results: { id: string }[] }).results.map((r) => r.id).sort();
  };

  it('are stopped, and the next heavy read starts one and answers the same', async () => {
    assert.ok(app.ctx.reads.workers > 0, 'the pool runs workers for a file database');
    const first = await heavyRead();
    assert.equal(first.length, 3);
    assert.equal(app.ctx.reads.running, 1);
    const retired = app.ctx.reads.retired;

    app.ctx.reads.retireIdle(0);
    assert.equal(app.ctx.reads.running, 0);
    assert.equal(app.ctx.reads.retired, retired + 1);

    assert.deepEqual(await heavyRead(), first);
    assert.equal(app.ctx.reads.running, 1);
    assert.deepEqual(app.logs.filter((line) => line.level === 'error'), []);
  });

  it('are not stopped while they run a read, which answers', async () => {
    const retired = app.ctx.reads.retired;
    const query = parse(ListResourcesQuery, { page_size: '200' }, 'query');
    // Handed to a worker at once (the pool dispatches as the read is asked).
    const page = app.ctx.reads.answer('resources.list', { query, viewer: null }, app.adminUserId, app.clock.now());
    app.ctx.reads.retireIdle(0);
    assert.equal(app.ctx.reads.retired, retired);
    assert.equal(app.ctx.reads.running, 1);
    const answer = await page;
    const text = answer.text;
    const body = JSON.parse(typeof text === 'string' ? text : Buffer.from(text).toString('utf8')) as { results: unknown[] };
    answer.release();
    assert.equal(body.results.length, 3);
  });
});
