// Big pages of requests are cut, never refused: 470 requests of the largest size a member may store,
// listed 500 at a time (on a read worker) by the admin, a reviewer and the requester, come back in
// pages cut at GATEHOUSE_MAX_PAGE_BYTES (UTF-8 bytes), each request once, through the cursor; the relay list too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import type { ApiClient } from '../helpers/client.ts';
import { createMember } from '../helpers/fixtures.ts';
import { config, makeRequest, ownerOf, requestableResource, stage } from '../helpers/requests.ts';

const COUNT = 470;

describe('pages of large requests', () => {
  let app: TestApp;
  let made: string[];
  let requester: Awaited<ReturnType<typeof createMember>>;
  let reviewer: Awaited<ReturnType<typeof createMember>>;
  before(async () => {
    app = await startTestApp();
    [requester, reviewer] = [await createMember(app.api), await createMember(app.api)];
    const reviewers = await ownerOf(app, reviewer.user);
    const resource = await requestableResource(app, reviewers.owner_id, [config({ reviewer_stages: [stage({ owner_ids: [reviewers.owner_id] })] })]);
    // Each at the caps: a 5,000-character reason and 20,000 characters of custom fields, in a script
    // whose characters take three bytes of UTF-8 (and two in memory): about 75 KB of JSON per request.
    const text = (n: number) => '€'.repeat(n);
    made = [];
    for (let i = 0; i < COUNT; i += 1) {
      made.push(await makeRequest(requester.api, {
        resources: [{ id: resource.resource_id }],
        reason: `${String(i).padStart(4, '0')} ${text(4995)}`,
        custom_metadata: [{ name: 'a', type: 'LONG_TEXT', value: text(10_000) }, { name: 'b', type: 'LONG_TEXT', value: text(10_000) }],
      }));
    }
  }, { timeout: 20 * 60_000 });
  after(() => app.close());

  /** Every request id `api` lists at `page_size`, page by page, and how many pages it took. */
  async function walk(api: ApiClient, pageSize: number): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await api.get('/requests', { page_size: pageSize, cursor });
      assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
      assert.ok(res.body.requests.length >= 1, 'a page holds one request at least');
      assert.ok(Buffer.byteLength(JSON.stringify(res.body)) <= app.ctx.config.maxPageBytes + 1024, 'the page is within the byte bound');
      ids.push(...res.body.requests.map((r: { id: string }) => r.id));
      cursor = res.body.cursor;
      pages += 1;
    } while (cursor);
    return { ids, pages };
  }

  for (const [who, pageSize] of [['the admin', 500], ['the reviewer', 500], ['the requester', 1000], ['the admin', 200]] as const) {
    it(`answers ${who}'s pages of ${pageSize} cut at the byte bound, each request once, newest first`, async () => {
      const api = who === 'the admin' ? app.api : who === 'the reviewer' ? reviewer.api : requester.api;
      const { ids, pages } = await walk(api, pageSize);
      assert.deepEqual(ids, [...made].reverse());
      assert.ok(pages >= 2, `${pages} page(s): the bound cut none`);
    });
  }

  it('cuts the deprecated relay list the same way, forward, 100 at a time', async () => {
    const ids: string[] = [];
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await app.api.get('/requests/relay', { first: 100, after });
      assert.equal(res.status, 200);
      assert.ok(Buffer.byteLength(JSON.stringify(res.body)) <= app.ctx.config.maxPageBytes + 1024, 'the page is within the byte bound');
      ids.push(...res.body.edges.map((e: { node: { id: string } }) => e.node.id));
      pages += 1;
      if (!res.body.pageInfo.hasNextPage) break;
      after = res.body.pageInfo.endCursor;
    }
    assert.deepEqual(ids, [...made].reverse());
    assert.ok(pages >= 2, `${pages} page(s)`);
  });
});
