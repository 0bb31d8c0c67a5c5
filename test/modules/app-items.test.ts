// GET /v1/resources and GET /v1/groups with app_id (extension): one app's items, paged, with the other filters and visibility.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createGroup, createMember, createResource, NO_SUCH_ID, unique } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';

describe('an app\'s items (app_id on the resource and group lists)', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  /** Every page of `path` with `query`, a page of one at a time, so the cursor is exercised. */
  async function everyPage(path: string, query: Record<string, string>, idOf: (row: Record<string, string>) => string) {
    const found: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await app.api.get(path, { ...query, page_size: 1, cursor });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      found.push(...page.body.results.map(idOf));
      cursor = page.body.next ?? undefined;
    } while (cursor);
    return found;
  }

  it('keeps one app\'s resources and groups, page by page, and combines with the name filter', async () => {
    const mine = await createApp(app.api);
    const other = await createApp(app.api);
    const word = unique('alpha');
    const r1 = await createResource(app.api, { app_id: mine.app_id, name: `${word} one` });
    await createResource(app.api, { app_id: other.app_id, name: `${word} elsewhere` });
    const r2 = await createResource(app.api, { app_id: mine.app_id, name: 'beta two' });
    const g1 = await createGroup(app.api, { app_id: mine.app_id });
    await createGroup(app.api, { app_id: other.app_id });
    const g2 = await createGroup(app.api, { app_id: mine.app_id });

    assert.deepEqual(await everyPage('/resources', { app_id: mine.app_id }, (r) => r.resource_id!), [r1.resource_id, r2.resource_id]);
    assert.deepEqual(await everyPage('/groups', { app_id: mine.app_id }, (g) => g.group_id!), [g1.group_id, g2.group_id]);
    assert.deepEqual(await everyPage('/resources', { app_id: mine.app_id, resource_name: word }, (r) => r.resource_id!), [r1.resource_id]);
    // Any case of the id, as every other id filter.
    assert.deepEqual(await everyPage('/groups', { app_id: mine.app_id.toUpperCase() }, (g) => g.group_id!), [g1.group_id, g2.group_id]);
    // An app that does not exist has no items: an empty page, as other filters that match nothing.
    assert.deepEqual(await everyPage('/resources', { app_id: NO_SUCH_ID }, (r) => r.resource_id!), []);
  });

  it('shows a member only the app\'s items they may see', async () => {
    const mine = await createApp(app.api);
    const seen = await createResource(app.api, { app_id: mine.app_id });
    const hidden = await createResource(app.api, { app_id: mine.app_id });
    const hiddenGroup = await createGroup(app.api, { app_id: mine.app_id });
    assert.equal((await app.api.put(`/resources/${hidden.resource_id}/visibility`, { visibility: 'LIMITED' })).status, 200);
    assert.equal((await app.api.put(`/groups/${hiddenGroup.group_id}/visibility`, { visibility: 'LIMITED' })).status, 200);
    const member = await createMember(app.api);
    const resources = await member.api.get('/resources', { app_id: mine.app_id });
    assert.deepEqual(resources.body.results.map((r: { resource_id: string }) => r.resource_id), [seen.resource_id]);
    const groups = await member.api.get('/groups', { app_id: mine.app_id });
    assert.deepEqual(groups.body.results, []);
  });

  it('refuses an app_id that is not a UUID, naming it', async () => {
    for (const path of ['/resources', '/groups']) {
      const res = await app.api.get(path, { app_id: 'not-a-uuid' });
      assert.equal(res.status, 400, path);
      assert.deepEqual(errorPaths(res.body), ['app_id']);
      const twice = await app.api.get(`${path}?app_id=${NO_SUCH_ID}&app_id=${NO_SUCH_ID}`);
      assert.equal(twice.status, 400, path);
      assert.deepEqual(errorPaths(twice.body), ['app_id']);
    }
  });
});
