// Groups through HTTP: create (with and without remote_info), read, list filters, bulk update, delete, events.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createGroup, createOwner, createTag, createUser, NO_SUCH_ID, unique } from '../helpers/fixtures.ts';
import { GROUP_METADATA_KINDS, GROUP_REMOTE_INFO_KINDS, GROUP_TYPES } from '../../src/modules/groups/kinds.ts';
import { errorPaths } from '../helpers/errors.ts';
import { countEvents } from '../helpers/events.ts';

describe('groups', () => {
  let app: TestApp;
  let appId: string;
  let appOwnerId: string;
  before(async () => {
    app = await startTestApp();
    const created = await createApp(app.api);
    appId = created.app_id;
    appOwnerId = created.admin_owner_id;
  });
  after(() => app.close());

  const get = async (id: string) => (await app.api.get(`/groups/${id}`)).body;
  const ids = (body: { results: { group_id: string }[] }) => body.results.map((g) => g.group_id);
  const refused = async (body: Record<string, unknown>, status: number, path: string, message?: RegExp) => {
    const before = await countEvents(app.api, { type: 'GROUPS_CREATED' });
    const res = await app.api.post('/groups', { name: unique('g'), group_type: 'OPAL_GROUP', app_id: appId, ...body });
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.ok(res.body.details.some((d: { path: string }) => d.path === path), `expected ${path} in ${JSON.stringify(res.body.details)}`);
    if (message) assert.match(JSON.stringify(res.body), message);
    assert.equal(await countEvents(app.api, { type: 'GROUPS_CREATED' }), before, 'a refused create records no event');
  };

  describe('POST /groups', () => {
    it('creates a Gatehouse-only group without remote_info, with defaults and the app owner', async () => {
      const res = await app.api.post('/groups', { name: 'Engineers', group_type: 'OPAL_GROUP', app_id: appId });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const g = res.body;
      assert.equal(g.admin_owner_id, appOwnerId);
      assert.equal(g.app_id, appId);
      assert.equal(g.group_type, 'OPAL_GROUP');
      assert.deepEqual(g.group_leader_user_ids, []);
      assert.equal(g.max_duration, -1);
      assert.equal(g.is_requestable, true);
      assert.equal(g.risk_sensitivity, 'UNKNOWN');
      assert.equal(g.custom_request_notification, null);
      assert.equal('remote_info' in g || 'remote_id' in g, false);
      assert.deepEqual(await get(g.group_id), g);
      const events = await app.api.get('/events', { object_filter: g.group_id, event_type_filter: 'GROUPS_CREATED' });
      assert.equal(events.body.results.length, 1);
      assert.equal(events.body.results[0].sub_events[0].group_name, 'Engineers');
    });

    it('imports a group with remote_info, metadata, leaders and settings', async () => {
      const [u1, u2] = [await createUser(app.api), await createUser(app.api)];
      const owner = await createOwner(app.api);
      const body = {
        name: 'Okta admins', group_type: 'OKTA_GROUP', app_id: appId, description: 'from Okta', admin_owner_id: owner.owner_id,
        remote_info: { okta_group: { group_id: '00g4' } }, remote_group_id: '00g4',
        metadata: JSON.stringify({ okta_directory_group: { group_id: '00g4' } }),
        group_leader_user_ids: [u2.user_id, u1.user_id.toUpperCase()],
        max_duration: 120, recommended_duration: 60, require_mfa_to_approve: true, auto_approval: true,
        custom_request_notification: 'hello', risk_sensitivity_override: 'MEDIUM',
      };
      const res = await app.api.post('/groups', body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const g = res.body;
      assert.deepEqual(g.remote_info, body.remote_info);
      assert.equal(g.remote_id, '00g4');
      assert.equal(g.metadata, body.metadata);
      assert.deepEqual(g.group_leader_user_ids, [u1.user_id, u2.user_id].sort());
      for (const key of ['description', 'admin_owner_id', 'max_duration', 'recommended_duration', 'require_mfa_to_approve', 'auto_approval',
        'custom_request_notification', 'risk_sensitivity_override'] as const) {
        assert.deepEqual(g[key], body[key], key);
      }
      assert.equal(g.risk_sensitivity, 'MEDIUM');
      assert.deepEqual(await get(g.group_id), g);
    });

    it('names every bad or unknown field', async () => {
      const res = await app.api.post('/groups', {});
      assert.deepEqual(errorPaths(res.body), ['app_id', 'group_type', 'name']);
      for (const type of ['opal_group', 'OPAL', 'CUSTOM']) await refused({ group_type: type }, 400, 'group_type');
      await refused({ app_id: NO_SUCH_ID }, 404, 'app_id');
      await refused({ admin_owner_id: NO_SUCH_ID }, 404, 'admin_owner_id');
      const user = await createUser(app.api);
      await refused({ group_leader_user_ids: [user.user_id, NO_SUCH_ID] }, 404, 'group_leader_user_ids.1');
      await refused({ group_leader_user_ids: [user.user_id, user.user_id] }, 400, 'group_leader_user_ids');
      await refused({ custom_request_notification: 'x'.repeat(801) }, 400, 'custom_request_notification');
      await refused({ risk_sensitivity_override: 'BAD' }, 400, 'risk_sensitivity_override');
      await refused({ max_duration: 10, recommended_duration: 20 }, 400, 'recommended_duration');
      await refused({ group_type: 'OKTA_GROUP', remote_info: { okta_group: { group_id: 'x', extra: 'y' } } }, 400, 'remote_info.okta_group.extra');
      await refused({ group_type: 'OKTA_GROUP', remote_info: { okta_group: {} } }, 400, 'remote_info.okta_group.group_id');
      await refused({ group_type: 'OKTA_GROUP', remote_info: { google_group: { group_id: 'x' } } }, 400, 'remote_info.google_group');
      await refused({ group_type: 'OKTA_GROUP', metadata: 'not json' }, 400, 'metadata', /JSON/);
      await refused({ group_type: 'OKTA_GROUP', metadata: JSON.stringify({ okta_directory_group: { group_id: 'x' }, duo_group: { group_id: 'y' } }) }, 400, 'metadata', /exactly one/);
      await refused({ group_type: 'LDAP_GROUP', metadata: JSON.stringify({ ldap_group: { group_id: 'x' } }) }, 400, 'metadata', /ldap_group/);
      const okMeta = await app.api.post('/groups', { name: unique('g'), group_type: 'GIT_HUB_TEAM', app_id: appId, metadata: JSON.stringify({ git_hub_team: { org_name: 'o', team_slug: 't' } }) });
      assert.equal(okMeta.status, 200);
      for (const table of [GROUP_REMOTE_INFO_KINDS, GROUP_METADATA_KINDS]) {
        for (const [kind, spec] of Object.entries(table)) {
          for (const type of spec.types) assert.ok((GROUP_TYPES as readonly string[]).includes(type), `${kind} → ${type}`);
        }
      }
    });
  });

  it('lists with type, ids, name and tag filters, paging by cursor', async () => {
    const marker = unique('list');
    const g1 = await createGroup(app.api, { app_id: appId, name: `${marker} Red`, group_type: 'OKTA_GROUP' });
    const g2 = await createGroup(app.api, { app_id: appId, name: `${marker} blue` });
    const g3 = await createGroup(app.api, { app_id: appId, name: `${marker} RED team` });
    assert.deepEqual(ids((await app.api.get('/groups', { group_name: `${marker} red` })).body), [g1.group_id, g3.group_id]);
    assert.deepEqual(ids((await app.api.get('/groups', { group_name: marker, group_type_filter: 'OKTA_GROUP' })).body), [g1.group_id]);
    assert.deepEqual(ids((await app.api.get('/groups', { group_ids: `${g3.group_id},${g2.group_id}` })).body), [g2.group_id, g3.group_id]);
    assert.deepEqual(ids((await app.api.get('/groups', { group_ids: [g1.group_id, g3.group_id] })).body), [g1.group_id, g3.group_id]);
    assert.equal((await app.api.get('/groups', { group_type_filter: 'okta' })).status, 400);
    const tag = await createTag(app.api);
    assert.equal((await app.api.post(`/tags/${tag.tag_id}/groups/${g2.group_id}`, {})).status, 200);
    assert.deepEqual(ids((await app.api.get('/groups', { tag_ids: tag.tag_id })).body), [g2.group_id]);
    const first = await app.api.get('/groups', { group_name: marker, page_size: 2 });
    assert.deepEqual(ids(first.body), [g1.group_id, g2.group_id]);
    const second = await app.api.get('/groups', { group_name: marker, page_size: 2, cursor: first.body.next });
    assert.deepEqual(ids(second.body), [g3.group_id]);
    assert.equal(second.body.next, null);
  });

  it('bulk-updates all or nothing, naming groups.N.field', async () => {
    const [a, b] = [await createGroup(app.api, { app_id: appId }), await createGroup(app.api, { app_id: appId })];
    const leader = await createUser(app.api);
    const owner = await createOwner(app.api);
    const before = [await get(a.group_id), await get(b.group_id)];
    const eventsBefore = await countEvents(app.api, { type: 'GROUPS_UPDATED' });
    const cases: [unknown[], number, string][] = [
      [[{ group_id: a.group_id, name: 'x' }, { group_id: NO_SUCH_ID }], 404, 'groups.1.group_id'],
      [[{ group_id: a.group_id, name: 'x' }, { group_id: b.group_id, group_leader_user_ids: [NO_SUCH_ID] }], 404, 'groups.1.group_leader_user_ids.0'],
      [[{ group_id: a.group_id, name: 'x' }, { group_id: b.group_id, admin_owner_id: NO_SUCH_ID }], 404, 'groups.1.admin_owner_id'],
      [[{ group_id: a.group_id, name: 'x' }, { group_id: b.group_id, max_duration: -5 }], 400, 'groups.1.max_duration'],
      [[{ group_id: a.group_id, name: 'x' }, { group_id: a.group_id }], 400, 'groups.1.group_id'],
    ];
    for (const [items, status, path] of cases) {
      const res = await app.api.put('/groups', { groups: items });
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.ok(res.body.details.some((d: { path: string }) => d.path === path), `${path} in ${JSON.stringify(res.body.details)}`);
      assert.deepEqual([await get(a.group_id), await get(b.group_id)], before);
    }
    assert.equal(await countEvents(app.api, { type: 'GROUPS_UPDATED' }), eventsBefore);

    const res = await app.api.put('/groups', { groups: [
      { group_id: a.group_id, name: 'A renamed', group_leader_user_ids: [leader.user_id], admin_owner_id: owner.owner_id },
      { group_id: b.group_id, require_support_ticket: true, is_requestable: false, risk_sensitivity_override: 'NONE' },
    ] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [na, nb] = [await get(a.group_id), await get(b.group_id)];
    assert.equal(na.name, 'A renamed');
    assert.deepEqual(na.group_leader_user_ids, [leader.user_id]);
    assert.equal(na.admin_owner_id, owner.owner_id);
    assert.equal(nb.require_support_ticket, true);
    assert.equal(nb.is_requestable, false);
    assert.equal(nb.risk_sensitivity, 'NONE');
    const { request_configuration_list: _, ...expectedB } = nb;
    assert.deepEqual(res.body.groups[1], expectedB);
    const events = await app.api.get('/events', { object_filter: b.group_id, event_type_filter: 'GROUPS_UPDATED' });
    assert.equal(events.body.results.length, 1);
    assert.equal(events.body.results[0].sub_events.length, 2);
    // Leaders are replaced, not merged.
    await app.api.put('/groups', { groups: [{ group_id: a.group_id, group_leader_user_ids: [] }] });
    assert.deepEqual((await get(a.group_id)).group_leader_user_ids, []);
  });

  it('deletes a group, records GROUPS_DELETED, and 404s afterwards', async () => {
    const g = await createGroup(app.api, { app_id: appId });
    const del = await app.api.delete(`/groups/${g.group_id}`);
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, {});
    assert.equal((await app.api.get(`/groups/${g.group_id}`)).status, 404);
    assert.equal((await app.api.delete(`/groups/${g.group_id}`)).status, 404);
    assert.equal((await app.api.get('/groups/not-a-uuid')).status, 400);
    const events = await app.api.get('/events', { object_filter: g.group_id, event_type_filter: 'GROUPS_DELETED' });
    assert.equal(events.body.results.length, 1);
  });
});
