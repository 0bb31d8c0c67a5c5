// Apps through HTTP: register, read, filter, update, and delete only when empty.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createGroup, createOwner, createResource, NO_SUCH_ID, unique } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';
import { countEvents, readEvents } from '../helpers/events.ts';

type App = { app_id: string; name: string; description: string; app_type: string; admin_owner_id: string };
const ids = (apps: App[]) => apps.map((a) => a.app_id);

describe('apps', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const listApps = async (query: Record<string, string | string[]> = {}) => {
    const res = await app.api.get('/apps', query);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.apps as App[];
  };

  describe('POST /apps', () => {
    it('registers an app, readable by id and in the list, and records APPS_CREATED', async () => {
      const owner = await createOwner(app.api);
      const name = unique('Prod AWS');
      const res = await app.api.post('/apps', { name, description: 'prod account', app_type: 'AWS', admin_owner_id: owner.owner_id.toUpperCase() });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const { app_id, ...fields } = res.body;
      assert.deepEqual(fields, { name, description: 'prod account', app_type: 'AWS', admin_owner_id: owner.owner_id });
      assert.deepEqual((await app.api.get(`/apps/${app_id}`)).body, res.body);
      assert.deepEqual((await listApps()).find((a) => a.app_id === app_id), res.body);
      const [event] = await readEvents(app.api, { object: app_id, type: 'APPS_CREATED' });
      assert.ok(event);
      assert.equal(event.sub_events[0]!.app_name, name);
      assert.equal((await readEvents(app.api, { object: owner.owner_id, type: 'APPS_CREATED' })).length, 1, 'findable from the owner too');
    });

    it('defaults the description to ""', async () => {
      const owner = await createOwner(app.api);
      const res = await app.api.post('/apps', { name: unique('a'), app_type: 'CUSTOM', admin_owner_id: owner.owner_id });
      assert.equal(res.status, 200);
      assert.equal(res.body.description, '');
    });

    it('names every invalid field with 400, including app types not spelled as the reference does', async () => {
      const owner = await createOwner(app.api);
      const valid = { name: 'n', app_type: 'CUSTOM', admin_owner_id: owner.owner_id };
      const cases: [Record<string, unknown>, string[]][] = [
        [{}, ['admin_owner_id', 'app_type', 'name']],
        [{ ...valid, name: '' }, ['name']],
        [{ ...valid, app_type: 'custom' }, ['app_type']],
        [{ ...valid, app_type: 'GITHUB' }, ['app_type']],
        [{ ...valid, app_type: 7 }, ['app_type']],
        [{ ...valid, admin_owner_id: 'owner' }, ['admin_owner_id']],
        [{ ...valid, description: ['x'] }, ['description']],
      ];
      const before = await countEvents(app.api, { type: 'APPS_CREATED' });
      for (const [body, expected] of cases) {
        const res = await app.api.post('/apps', body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.deepEqual(errorPaths(res.body), expected, JSON.stringify(body));
      }
      assert.equal(await countEvents(app.api, { type: 'APPS_CREATED' }), before);
    });

    it('404s naming admin_owner_id for an unknown owner, creating and recording nothing', async () => {
      const before = await countEvents(app.api, { type: 'APPS_CREATED' });
      const count = (await listApps()).length;
      const res = await app.api.post('/apps', { name: unique('a'), app_type: 'CUSTOM', admin_owner_id: NO_SUCH_ID });
      assert.equal(res.status, 404);
      assert.deepEqual(errorPaths(res.body), ['admin_owner_id']);
      assert.equal((await listApps()).length, count);
      assert.equal(await countEvents(app.api, { type: 'APPS_CREATED' }), before);
    });
  });

  describe('GET /apps', () => {
    it('filters by app types (comma-separated or repeated) and by owner', async () => {
      const owner = await createOwner(app.api);
      const aws = await createApp(app.api, { app_type: 'AWS', admin_owner_id: owner.owner_id });
      const gcp = await createApp(app.api, { app_type: 'GCP' });
      const okta = await createApp(app.api, { app_type: 'OKTA_DIRECTORY', admin_owner_id: owner.owner_id });
      const all = await listApps();
      assert.ok([aws, gcp, okta].every((a) => ids(all).includes(a.app_id)));
      assert.ok(ids(all).indexOf(aws.app_id) < ids(all).indexOf(okta.app_id), 'creation order');

      const awsOrGcp = await listApps({ app_type_filter: 'AWS,GCP' });
      assert.ok(awsOrGcp.every((a) => a.app_type === 'AWS' || a.app_type === 'GCP'));
      assert.ok(ids(awsOrGcp).includes(aws.app_id) && ids(awsOrGcp).includes(gcp.app_id));
      assert.deepEqual(ids(await listApps({ app_type_filter: ['AWS', 'GCP'] })), ids(awsOrGcp));

      assert.deepEqual(ids(await listApps({ owner_filter: owner.owner_id })), [aws.app_id, okta.app_id]);
      assert.deepEqual(ids(await listApps({ owner_filter: owner.owner_id, app_type_filter: 'OKTA_DIRECTORY' })), [okta.app_id]);
      assert.deepEqual(await listApps({ owner_filter: NO_SUCH_ID }), []);
    });

    it('400s naming a bad filter', async () => {
      for (const [query, path] of [[{ app_type_filter: 'AWS,NOPE' }, 'app_type_filter.1'], [{ owner_filter: 'x' }, 'owner_filter']] as const) {
        const res = await app.api.get('/apps', query);
        assert.equal(res.status, 400, JSON.stringify(query));
        assert.deepEqual(errorPaths(res.body), [path]);
      }
    });

    it('400s on a non-UUID id and 404s on an unknown one', async () => {
      const bad = await app.api.get('/apps/abc');
      assert.equal(bad.status, 400);
      assert.deepEqual(errorPaths(bad.body), ['app_id']);
      assert.equal((await app.api.get(`/apps/${NO_SUCH_ID}`)).status, 404);
    });
  });

  describe('PUT /apps/{app_id}', () => {
    it('renames and re-owns, keeping fields left out, and records APPS_UPDATED', async () => {
      const created = await createApp(app.api, { description: 'keep me' });
      const owner = await createOwner(app.api);
      const name = unique('renamed');
      const res = await app.api.put(`/apps/${created.app_id}`, { name, admin_owner_id: owner.owner_id });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { app_id: created.app_id, name, description: 'keep me', app_type: 'CUSTOM', admin_owner_id: owner.owner_id });
      assert.deepEqual((await app.api.get(`/apps/${created.app_id}`)).body, res.body);
      assert.equal((await readEvents(app.api, { object: created.app_id, type: 'APPS_UPDATED' })).length, 1);
    });

    it('refuses bad input and unknown ids, changing and recording nothing', async () => {
      const created = await createApp(app.api);
      const snapshot = (await app.api.get(`/apps/${created.app_id}`)).body;
      const cases: [Record<string, unknown>, number, string][] = [
        [{ app_type: 'AWS' }, 400, 'app_type'],
        [{ name: '' }, 400, 'name'],
        [{ admin_owner_id: 'x' }, 400, 'admin_owner_id'],
        [{ name: 'new', admin_owner_id: NO_SUCH_ID }, 404, 'admin_owner_id'],
      ];
      for (const [body, status, path] of cases) {
        const res = await app.api.put(`/apps/${created.app_id}`, body);
        assert.equal(res.status, status, JSON.stringify(body));
        assert.deepEqual(errorPaths(res.body), [path], JSON.stringify(body));
      }
      assert.deepEqual((await app.api.get(`/apps/${created.app_id}`)).body, snapshot);
      assert.equal((await readEvents(app.api, { object: created.app_id, type: 'APPS_UPDATED' })).length, 0);
      assert.equal((await app.api.put(`/apps/${NO_SUCH_ID}`, { name: 'x' })).status, 404);
    });
  });

  describe('DELETE /apps/{app_id}', () => {
    it('deletes an empty app, records APPS_DELETED, then 404s', async () => {
      const created = await createApp(app.api);
      const res = await app.api.delete(`/apps/${created.app_id}`);
      assert.deepEqual([res.status, res.body], [200, {}]);
      assert.equal((await app.api.get(`/apps/${created.app_id}`)).status, 404);
      assert.equal((await readEvents(app.api, { object: created.app_id, type: 'APPS_DELETED' })).length, 1);
      assert.equal((await app.api.delete(`/apps/${created.app_id}`)).status, 404);
      assert.equal((await app.api.delete('/apps/nope')).status, 400);
    });

    it('refuses with 409 while the app holds resources or groups, counting them, and records nothing', async () => {
      const withResource = await createApp(app.api);
      await createResource(app.api, { app_id: withResource.app_id });
      await createResource(app.api, { app_id: withResource.app_id });
      const withGroup = await createApp(app.api);
      await createGroup(app.api, { app_id: withGroup.app_id });
      const before = await countEvents(app.api, { type: 'APPS_DELETED' });

      const r = await app.api.delete(`/apps/${withResource.app_id}`);
      assert.equal(r.status, 409);
      assert.equal(r.body.code, 'conflict');
      assert.match(r.body.message, /2 resource\(s\) and 0 group\(s\)/);
      const g = await app.api.delete(`/apps/${withGroup.app_id}`);
      assert.equal(g.status, 409);
      assert.match(g.body.message, /0 resource\(s\) and 1 group\(s\)/);
      assert.equal((await app.api.get(`/apps/${withResource.app_id}`)).status, 200);
      assert.equal((await app.api.get(`/apps/${withGroup.app_id}`)).status, 200);
      assert.equal(await countEvents(app.api, { type: 'APPS_DELETED' }), before);
    });
  });
});
