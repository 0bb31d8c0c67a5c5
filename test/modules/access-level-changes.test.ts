// Changing the access levels a resource or group offers: a level still in use cannot be dropped
// (409, nothing changes), and a renamed level is renamed on every grant and bundle item that uses it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createBundle, createGroup, createResource, createUser } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';
import { countEvents } from '../helpers/events.ts';

const level = (name: string, remoteId: string) => ({ access_level_name: name, access_level_remote_id: remoteId });

describe('changing access levels', () => {
  let app: TestApp;
  before(async () => (app = await startTestApp()));
  after(() => app.close());

  const ok = async (res: Promise<{ status: number; body: any }>) => {
    const answer = await res;
    assert.ok(answer.status >= 200 && answer.status < 300, JSON.stringify(answer.body));
    return answer.body;
  };
  /** Every (holder, level name) of a resource: users, then groups, then bundle items. */
  const resourceLevels = async (resourceId: string, bundleId: string) => ({
    users: (await ok(app.api.get(`/resources/${resourceId}/users`))).results.map((r: any) => `${r.access_level.access_level_remote_id}=${r.access_level.access_level_name}`).sort(),
    groups: (await ok(app.api.get(`/resources/${resourceId}/groups`))).group_resources.map((r: any) => `${r.access_level.access_level_remote_id}=${r.access_level.access_level_name}`).sort(),
    bundle: (await ok(app.api.get(`/bundles/${bundleId}/resources`))).bundle_resources.map((r: any) => `${r.access_level_remote_id}=${r.access_level_name}`).sort(),
  });

  it('refuses to drop a resource level that live access or a bundle item uses (409 naming it, nothing changes); renames follow everywhere', async () => {
    const resource = await createResource(app.api, { access_levels: [level('Admin', 'admin'), level('Read', 'ro')] });
    const id = resource.resource_id;
    const [user, other] = [await createUser(app.api), await createUser(app.api)];
    const group = await createGroup(app.api);
    const bundle = await createBundle(app.api);
    await ok(app.api.post(`/resources/${id}/users/${user.user_id}`, { duration_minutes: 0, access_level_remote_id: 'admin' }));
    await ok(app.api.post(`/groups/${group.group_id}/resources/${id}`, { duration_minutes: 0, access_level_remote_id: 'ro' }));
    await ok(app.api.post(`/bundles/${bundle.bundle_id}/resources`, { resource_id: id, access_level_remote_id: 'ro' }));

    const before = await resourceLevels(id, bundle.bundle_id);
    const events = await countEvents(app.api);
    for (const [kept, message] of [
      [[level('Read', 'ro')], 'access level "admin" is still used by 1 grant, bundle item or pending request; end them (or keep the level) first'],
      [[level('Admin', 'admin')], 'access level "ro" is still used by 2 grants, bundle items or pending requests; end them (or keep the level) first'],
    ] as const) {
      const res = await app.api.put('/resources', { resources: [{ resource_id: id, access_levels: kept }] });
      assert.equal(res.status, 409, JSON.stringify(res.body));
      assert.deepEqual(errorPaths(res.body), ['resources.0.access_levels']);
      assert.equal(res.body.message, message);
    }
    assert.deepEqual((await ok(app.api.get(`/resources/${id}`))).access_levels, [level('', ''), level('Admin', 'admin'), level('Read', 'ro')]);
    assert.deepEqual(await resourceLevels(id, bundle.bundle_id), before);
    assert.equal(await countEvents(app.api), events);

    await ok(app.api.put('/resources', { resources: [{ resource_id: id, access_levels: [level('Administrator', 'admin'), level('Reader', 'ro')] }] }));
    await ok(app.api.post(`/resources/${id}/users/${other.user_id}`, { duration_minutes: 0, access_level_remote_id: 'admin' }));
    assert.deepEqual(await resourceLevels(id, bundle.bundle_id), {
      users: ['admin=Administrator', 'admin=Administrator'], groups: ['ro=Reader'], bundle: ['ro=Reader'],
    });

    // An open session shows the new name too.
    const session = await app.api.post('/sessions', { resource_id: id, user_id: other.user_id, access_level_remote_id: 'admin', duration_minutes: 5 });
    assert.equal(session.status, 200, JSON.stringify(session.body));
    await ok(app.api.put('/resources', { resources: [{ resource_id: id, access_levels: [level('Admin (rw)', 'admin'), level('Reader', 'ro')] }] }));
    const sessions = (await ok(app.api.get('/sessions', { resource_id: id }))).results;
    assert.deepEqual(sessions.map((s: any) => s.access_level.access_level_name), ['Admin (rw)']);

    // Once nothing uses a level, or only access that has expired, it can go.
    await ok(app.api.delete(`/resources/${id}/users/${user.user_id}`, undefined, { query: { access_level_remote_id: 'admin' } }));
    await ok(app.api.put(`/resources/${id}/users/${other.user_id}`, { duration_minutes: 1, access_level_remote_id: 'admin' }));
    app.clock.advance(2 * 60_000);
    await ok(app.api.put('/resources', { resources: [{ resource_id: id, access_levels: [level('Reader', 'ro')] }] }));
    assert.deepEqual((await ok(app.api.get(`/resources/${id}`))).access_levels, [level('', ''), level('Reader', 'ro')]);
  });

  it('keeps a level a pending request asks for (approving it would grant that level), and renames it there', async () => {
    const resource = await createResource(app.api, { access_levels: [level('Read', 'ro')] });
    const requester = await createUser(app.api);
    const asked = await app.api.post('/requests', {
      resources: [{ id: resource.resource_id, access_level_remote_id: 'ro' }], groups: [], reason: 'x', duration_minutes: 60, target_user_id: requester.user_id,
    });
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    const refused = await app.api.put('/resources', { resources: [{ resource_id: resource.resource_id, access_levels: [] }] });
    assert.equal(refused.status, 409);
    assert.match(refused.body.message, /1 grant, bundle item or pending request/);
    await ok(app.api.put('/resources', { resources: [{ resource_id: resource.resource_id, access_levels: [level('Reader', 'ro')] }] }));
    const read = await ok(app.api.get(`/requests/${asked.body.id}`));
    assert.equal(read.requested_items_list[0].access_level_name, 'Reader');
    assert.equal((await app.api.post(`/requests/${asked.body.id}/cancel`)).status, 200);
    await ok(app.api.put('/resources', { resources: [{ resource_id: resource.resource_id, access_levels: [] }] }));
  });

  it('does the same for a group\'s levels', async () => {
    const group = await createGroup(app.api, { access_levels: [level('Lead', 'lead')] });
    const user = await createUser(app.api);
    await ok(app.api.post(`/groups/${group.group_id}/users/${user.user_id}`, { duration_minutes: 0, access_level_remote_id: 'lead' }));
    const refused = await app.api.put('/groups', { groups: [{ group_id: group.group_id, access_levels: [] }] });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.deepEqual(errorPaths(refused.body), ['groups.0.access_levels']);
    await ok(app.api.put('/groups', { groups: [{ group_id: group.group_id, access_levels: [level('Team lead', 'lead')] }] }));
    const members = (await ok(app.api.get(`/groups/${group.group_id}/users`))).results;
    assert.deepEqual(members.map((m: any) => m.access_level), [level('Team lead', 'lead')]);
  });
});
