// One case-folding rule for every case-insensitive filter: resource_name, group_name and bundles' contains
// all find "Équipe" with "équipe", "STRASSE" with "straße", "ﬁnance" with "FINANCE".
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createBundle, createGroup, createResource } from '../helpers/fixtures.ts';

describe('case folding', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const names = ['Équipe Rouge', 'Straße Nord', 'ﬁnance ΣΟΦΙΑ'];
  const searches: [search: string, index: number][] = [['équipe', 0], ['ÉQUIPE', 0], ['STRASSE', 1], ['strasse', 1], ['FINANCE', 2], ['σοφια', 2], ['Équipe rouge', 0]];

  it('resource_name, group_name and contains find the same names with the same searches', async () => {
    const { app_id } = await createApp(app.api);
    const resources = await Promise.all(names.map((n) => createResource(app.api, { app_id, name: n })));
    const groups = await Promise.all(names.map((n) => createGroup(app.api, { app_id, name: n })));
    const bundles = await Promise.all(names.map((n) => createBundle(app.api, { name: n })));
    for (const [search, index] of searches) {
      const query = search; // this file's database holds only the names above
      const r = await app.api.get('/resources', { resource_name: query });
      assert.deepEqual(r.body.results.map((x: { resource_id: string }) => x.resource_id), [resources[index]!.resource_id], `resource_name=${query}`);
      const g = await app.api.get('/groups', { group_name: query });
      assert.deepEqual(g.body.results.map((x: { group_id: string }) => x.group_id), [groups[index]!.group_id], `group_name=${query}`);
      const b = await app.api.get('/bundles', { contains: query });
      assert.deepEqual(b.body.bundles.map((x: { bundle_id: string }) => x.bundle_id), [bundles[index]!.bundle_id], `contains=${query}`);
    }
  });
});
