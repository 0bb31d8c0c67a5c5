// Identity-provider group mappings through HTTP: upsert, read, replace all-or-nothing, delete, events.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createGroup, createResource, NO_SUCH_ID } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';
import { countEvents, readEvents } from '../helpers/events.ts';

describe('idp group mappings', () => {
  let app: TestApp;
  let appId: string;
  before(async () => {
    app = await startTestApp();
    appId = (await createApp(app.api)).app_id;
  });
  after(() => app.close());

  const oktaApp = async () => (await createResource(app.api, { app_id: appId, resource_type: 'OKTA_APP' })).resource_id;
  const group = async () => (await createGroup(app.api, { app_id: appId, group_type: 'OKTA_GROUP' })).group_id;
  const base = (appResourceId: string) => `/idp-group-mappings/${appResourceId}`;
  const one = (appResourceId: string, groupId: string) => `${base(appResourceId)}/groups/${groupId}`;

  describe('POST …/groups/{group_id} (upsert)', () => {
    it('creates with defaults, then changes only the fields given; every answer carries app_resource_id', async () => {
      const appResource = await oktaApp();
      const g = await group();
      const created = await app.api.post(one(appResource, g));
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.deepEqual(created.body, { app_resource_id: appResource, group_id: g, hidden_from_end_user: false });

      const aliased = await app.api.post(one(appResource.toUpperCase(), g.toUpperCase()), { alias: 'finance-team' });
      assert.deepEqual(aliased.body, { app_resource_id: appResource, group_id: g, alias: 'finance-team', hidden_from_end_user: false });
      const hidden = await app.api.post(one(appResource, g), { hidden_from_end_user: true });
      assert.deepEqual(hidden.body, { app_resource_id: appResource, group_id: g, alias: 'finance-team', hidden_from_end_user: true });
      const keptOnNull = await app.api.post(one(appResource, g), { hidden_from_end_user: null });
      assert.equal(keptOnNull.body.hidden_from_end_user, true, 'null leaves the flag as it is');
      const cleared = await app.api.post(one(appResource, g), { alias: null });
      assert.deepEqual(cleared.body, { app_resource_id: appResource, group_id: g, hidden_from_end_user: true });
      const nullBody = await app.api.post(one(appResource, g), null);
      assert.deepEqual(nullBody.body, cleared.body, 'a JSON null body changes nothing');

      assert.deepEqual((await app.api.get(one(appResource, g))).body, cleared.body);
      assert.deepEqual((await app.api.get(base(appResource))).body, { mappings: [cleared.body] });

      assert.equal((await readEvents(app.api, { object: g, type: 'IDP_GROUP_MAPPINGS_CREATED' })).length, 1);
      const updates = await readEvents(app.api, { object: appResource, type: 'IDP_GROUP_MAPPINGS_UPDATED' });
      assert.equal(updates.length, 5);
      assert.deepEqual(updates.map((e) => e.sub_events[0]!.alias), [null, null, 'finance-team', 'finance-team', 'finance-team'], 'newest first');
    });

    it('400s naming bad fields and ids, 404s naming an unknown app resource or group, recording nothing', async () => {
      const appResource = await oktaApp();
      const g = await group();
      const custom = (await createResource(app.api, { app_id: appId })).resource_id;
      const before = await countEvents(app.api, { type: 'IDP_GROUP_MAPPINGS_CREATED' });
      const cases: [string, unknown, number, string[]][] = [
        [one(appResource, g), { alias: 7 }, 400, ['alias']],
        [one(appResource, g), { hidden_from_end_user: 'yes' }, 400, ['hidden_from_end_user']],
        [one(appResource, g), { alias: 'x'.repeat(201) }, 400, ['alias']],
        [one('nope', g), {}, 400, ['app_resource_id']],
        [one(appResource, 'nope'), {}, 400, ['group_id']],
        [one(custom, g), {}, 400, ['app_resource_id']],
        [one(NO_SUCH_ID, g), {}, 404, ['app_resource_id']],
        [one(appResource, NO_SUCH_ID), {}, 404, ['group_id']],
      ];
      for (const [path, body, status, expected] of cases) {
        const res = await app.api.post(path, body);
        assert.equal(res.status, status, `${path} ${JSON.stringify(body)}`);
        assert.deepEqual(errorPaths(res.body), expected, `${path} ${JSON.stringify(body)}`);
      }
      assert.match((await app.api.post(one(custom, g), {})).body.message, /OKTA_APP/);
      assert.equal(await countEvents(app.api, { type: 'IDP_GROUP_MAPPINGS_CREATED' }), before);
      assert.deepEqual((await app.api.get(base(appResource))).body, { mappings: [] });
    });
  });

  describe('GET', () => {
    it('404s naming group_id for a group that is not mapped, and checks the app resource on reads too', async () => {
      const appResource = await oktaApp();
      const g = await group();
      const notMapped = await app.api.get(one(appResource, g));
      assert.equal(notMapped.status, 404);
      assert.deepEqual(errorPaths(notMapped.body), ['group_id']);
      assert.equal((await app.api.get(base(NO_SUCH_ID))).status, 404);
      const custom = (await createResource(app.api, { app_id: appId })).resource_id;
      const wrongType = await app.api.get(base(custom));
      assert.equal(wrongType.status, 400);
      assert.deepEqual(errorPaths(wrongType.body), ['app_resource_id']);
    });
  });

  describe('PUT /idp-group-mappings/{app_resource_id}', () => {
    it('replaces the whole set in the order given, recording what was created, changed and deleted', async () => {
      const appResource = await oktaApp();
      const [g1, g2, g3] = [await group(), await group(), await group()];
      await app.api.post(one(appResource, g1), { alias: 'one' });
      await app.api.post(one(appResource, g2), { alias: 'two' });
      const res = await app.api.put(base(appResource), {
        mappings: [{ group_id: g3, alias: 'three', hidden_from_end_user: true }, { group_id: g2.toUpperCase(), alias: 'two' }],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const expected = [
        { app_resource_id: appResource, group_id: g3, alias: 'three', hidden_from_end_user: true },
        { app_resource_id: appResource, group_id: g2, alias: 'two', hidden_from_end_user: false },
      ];
      assert.deepEqual(res.body, { mappings: expected });
      assert.deepEqual((await app.api.get(base(appResource))).body, { mappings: expected });
      assert.equal((await app.api.get(one(appResource, g1))).status, 404);

      const [event] = await readEvents(app.api, { object: appResource, type: 'IDP_GROUP_MAPPINGS_UPDATED' });
      assert.ok(event);
      assert.deepEqual(event.sub_events.map((s) => `${s.sub_event_type}:${s.group_id ?? s.mapping_count}`), [
        'IDP_GROUP_MAPPINGS_REPLACED:2', `IDP_GROUP_MAPPINGS_CREATED:${g3}`, `IDP_GROUP_MAPPINGS_DELETED:${g1}`,
      ], 'g2 is unchanged, so it has no sub-event');

      const emptied = await app.api.put(base(appResource), { mappings: [] });
      assert.deepEqual(emptied.body, { mappings: [] });
      assert.deepEqual((await app.api.get(base(appResource))).body, { mappings: [] });
    });

    it('is all or nothing: a bad item leaves the set as it was, naming mappings.N.field, recording nothing', async () => {
      const appResource = await oktaApp();
      const [g1, g2] = [await group(), await group()];
      await app.api.post(one(appResource, g1), { alias: 'kept' });
      const before = (await app.api.get(base(appResource))).body;
      const beforeEvents = await countEvents(app.api, { type: 'IDP_GROUP_MAPPINGS_UPDATED' });
      const cases: [unknown, number, string[]][] = [
        [{}, 400, ['mappings']],
        [{ mappings: {} }, 400, ['mappings']],
        [{ mappings: [{ group_id: g2 }, {}] }, 400, ['mappings.1.group_id']],
        [{ mappings: [{ group_id: g2, hidden_from_end_user: 1 }] }, 400, ['mappings.0.hidden_from_end_user']],
        [{ mappings: [{ group_id: g2, alias: ['a'] }] }, 400, ['mappings.0.alias']],
        [{ mappings: [{ group_id: g2 }, { group_id: g2.toUpperCase() }] }, 400, ['mappings.1.group_id']],
        [{ mappings: [{ group_id: g2 }, { group_id: NO_SUCH_ID }] }, 404, ['mappings.1.group_id']],
      ];
      for (const [body, status, expected] of cases) {
        const res = await app.api.put(base(appResource), body);
        assert.equal(res.status, status, JSON.stringify(body));
        assert.deepEqual(errorPaths(res.body), expected, JSON.stringify(body));
      }
      assert.equal((await app.api.put(base(NO_SUCH_ID), { mappings: [] })).status, 404);
      assert.deepEqual((await app.api.get(base(appResource))).body, before);
      assert.equal(await countEvents(app.api, { type: 'IDP_GROUP_MAPPINGS_UPDATED' }), beforeEvents);
    });
  });

  describe('DELETE …/groups/{group_id}', () => {
    it('deletes once with an event; deleting again is an empty success that records nothing', async () => {
      const appResource = await oktaApp();
      const g = await group();
      await app.api.post(one(appResource, g), { alias: 'gone soon' });
      const res = await app.api.delete(one(appResource, g));
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {});
      assert.equal((await app.api.get(one(appResource, g))).status, 404);
      const deleted = await readEvents(app.api, { object: g, type: 'IDP_GROUP_MAPPINGS_DELETED' });
      assert.equal(deleted.length, 1);
      assert.equal(deleted[0]!.sub_events[0]!.alias, 'gone soon');

      const again = await app.api.delete(one(appResource, g));
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, {});
      assert.equal((await readEvents(app.api, { object: g, type: 'IDP_GROUP_MAPPINGS_DELETED' })).length, 1);
      assert.equal((await app.api.delete(one(NO_SUCH_ID, g))).status, 404, 'an unknown app resource is still a 404');
      assert.equal((await app.api.delete(one(appResource, 'x'))).status, 400);
    });

    it('answers the older path (no `groups` segment, trailing slash) as the same delete, for clients generated from older references', async () => {
      const appResource = await oktaApp();
      const g = await group();
      await app.api.post(one(appResource, g), { alias: 'old client' });
      const res = await app.api.delete(`${base(appResource)}/${g}/`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, {});
      assert.equal((await app.api.get(one(appResource, g))).status, 404, 'the mapping is gone');
      const deleted = await readEvents<{ sub_events: { alias: string }[] }>(app.api, { object: g, type: 'IDP_GROUP_MAPPINGS_DELETED' });
      assert.equal(deleted.length, 1);
      assert.equal(deleted[0]!.sub_events[0]!.alias, 'old client');
      // The same rules as the current path: unknown ids 404, malformed ones 400, naming the parameter.
      const unknown = await app.api.delete(`${base(NO_SUCH_ID)}/${g}/`);
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.details[0].path, 'app_resource_id');
      const malformed = await app.api.delete(`${base(appResource)}/x/`);
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.details[0].path, 'group_id');
      const doc = (await (await fetch(`${new URL(app.url).origin}/openapi.json`)).json()) as { paths: Record<string, Record<string, Record<string, unknown>>> };
      const old = doc.paths['/v1/idp-group-mappings/{app_resource_id}/{group_id}/']?.delete;
      assert.equal(old?.deprecated, true, 'documented as deprecated');
      assert.equal(old?.['x-gatehouse-extension'], true, 'marked as not in the current reference');
    });

    it('a mapping goes with its group when the group is deleted', async () => {
      const appResource = await oktaApp();
      const [kept, dropped] = [await group(), await group()];
      await app.api.put(base(appResource), { mappings: [{ group_id: kept }, { group_id: dropped }] });
      assert.equal((await app.api.delete(`/groups/${dropped}`)).status, 200);
      assert.deepEqual((await app.api.get(base(appResource))).body.mappings.map((m: { group_id: string }) => m.group_id), [kept]);
    });
  });
});
