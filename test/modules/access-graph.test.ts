// The access graph through HTTP: group membership, groups' access to resources, nesting and cycles,
// effective-access reads, expiry at the instant and the sweep, sessions through groups, access rules,
// offboarding, concurrent grants, idempotent deletes, and the events each change records.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createGroup, createOwner, createResource, createTag, createUser, NO_SUCH_ID } from '../helpers/fixtures.ts';
import { tick as sweep } from '../../src/modules/access/sweep.ts';
import { mergeSmallest } from '../../src/modules/access/holdings-store.ts';
import { countEvents, readEvents } from '../helpers/events.ts';

const CONNECTION = '11111111-2222-4333-8444-555555555555';
const ids = (rows: { user_id?: string; group_id?: string; resource_id?: string }[], key: 'user_id' | 'group_id' | 'resource_id') => rows.map((r) => r[key]!).sort();

describe('mergeSmallest (the k-way merge behind holder pages)', () => {
  it('matches sorting the union, for random lists, starting points and limits', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (let round = 0; round < 300; round++) {
      const lists = Array.from({ length: 1 + rnd(6) }, () => [...new Set(Array.from({ length: rnd(40) }, () => String(rnd(100)).padStart(3, '0')))].sort());
      const from = String(rnd(100)).padStart(3, '0');
      const limit = 1 + rnd(30);
      const expected = [...new Set(lists.flat())].filter((id) => id >= from).sort().slice(0, limit);
      const readers = lists.map((list) => (start: string, n: number) => list.filter((id) => id >= start).slice(0, n));
      assert.deepEqual(mergeSmallest(readers, from, limit), expected, JSON.stringify({ lists, from, limit }));
    }
  });
});

describe('access graph', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const holders = async (resourceId: string) => (await app.api.get(`/resources/${resourceId}/users`)).body.results as Record<string, unknown>[];
  const members = async (groupId: string) => (await app.api.get(`/groups/${groupId}/users`)).body.results as Record<string, unknown>[];
  const groupsOf = async (userId: string) => (await app.api.get(`/groups/users/${userId}`)).body.results as { group_id: string }[];
  const resourcesOf = async (userId: string) => (await app.api.get(`/resources/users/${userId}`)).body.results as Record<string, unknown>[];
  const join = async (groupId: string, userId: string, body: Record<string, unknown> = { duration_minutes: 0 }) => {
    const res = await app.api.post(`/groups/${groupId}/users/${userId}`, body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const nest = async (groupId: string, containingId: string, extra: Record<string, unknown> = {}) => {
    const res = await app.api.post(`/groups/${groupId}/containing-groups`, { containing_group_id: containingId, ...extra });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const grantGroup = async (groupId: string, resourceId: string, body: Record<string, unknown> = {}) => {
    const res = await app.api.post(`/groups/${groupId}/resources/${resourceId}`, body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  describe('group membership', () => {
    it('adds a member at a group level with a duration, answers GroupUser, lists it and records GROUP_USERS_ADDED', async () => {
      const group = await createGroup(app.api, { access_levels: [{ access_level_name: 'Admin', access_level_remote_id: 'admin' }] });
      const user = await createUser(app.api);
      const body = await join(group.group_id, user.user_id, { duration_minutes: 60, access_level_remote_id: 'admin' });
      assert.equal(body.group_id, group.group_id);
      assert.deepEqual(body.access_level, { access_level_name: 'Admin', access_level_remote_id: 'admin' });
      assert.equal(body.expiration_date, new Date(app.clock.now().getTime() + 3_600_000).toISOString());
      assert.deepEqual(body.propagation_status, { status: 'SUCCESS' });
      assert.deepEqual((await members(group.group_id)).map((m) => m.user_id), [user.user_id]);
      assert.deepEqual((await app.api.get(`/groups/${group.group_id}`)).body.access_levels.map((l: { access_level_remote_id: string }) => l.access_level_remote_id), ['', 'admin']);
      const [event] = await readEvents(app.api, { object: user.user_id, type: 'GROUP_USERS_ADDED' });
      assert.equal(event!.sub_events[0]!.group_id, group.group_id);
      assert.equal(event!.sub_events[0]!.source, 'DIRECT');
    });

    it('checks duration bounds (0 and 525960 accepted; 525961 and -1 refused naming duration_minutes) and records nothing on refusal', async () => {
      const group = await createGroup(app.api);
      for (const [minutes, status] of [[0, 200], [525960, 200], [525961, 400], [-1, 400]] as const) {
        const user = await createUser(app.api);
        const before = await countEvents(app.api, { type: 'GROUP_USERS_ADDED' });
        const res = await app.api.post(`/groups/${group.group_id}/users/${user.user_id}`, { duration_minutes: minutes });
        assert.equal(res.status, status, `${minutes} minutes`);
        if (status === 400) {
          assert.equal(res.body.details[0].path, 'duration_minutes');
          assert.equal(await countEvents(app.api, { type: 'GROUP_USERS_ADDED' }), before);
        }
      }
      const user = await createUser(app.api);
      const resource = await createResource(app.api);
      for (const minutes of [525961, -1]) {
        assert.equal((await app.api.put(`/groups/${group.group_id}/users/${user.user_id}`, { duration_minutes: minutes })).body.details[0].path, 'duration_minutes');
        assert.equal((await app.api.post(`/groups/${group.group_id}/resources/${resource.resource_id}`, { duration_minutes: minutes })).body.details[0].path, 'duration_minutes');
      }
    });

    it('404s naming the unknown end or level, 409s a second live grant, and PUT moves the one level held', async () => {
      const group = await createGroup(app.api, { access_levels: [{ access_level_name: 'R', access_level_remote_id: 'read' }, { access_level_name: 'W', access_level_remote_id: 'write' }] });
      const user = await createUser(app.api);
      const path = `/groups/${group.group_id}/users/${user.user_id}`;
      assert.equal((await app.api.post(`/groups/${NO_SUCH_ID}/users/${user.user_id}`, { duration_minutes: 0 })).body.details[0].path, 'group_id');
      assert.equal((await app.api.post(`/groups/${group.group_id}/users/${NO_SUCH_ID}`, { duration_minutes: 0 })).body.details[0].path, 'user_id');
      const badLevel = await app.api.post(path, { duration_minutes: 0, access_level_remote_id: 'nope' });
      assert.equal(badLevel.status, 404);
      assert.equal(badLevel.body.details[0].path, 'access_level_remote_id');
      const noDuration = await app.api.post(path, {});
      assert.equal(noDuration.status, 400, 'duration_minutes is required for a user edge');
      assert.equal(noDuration.body.details[0].path, 'duration_minutes');
      await join(group.group_id, user.user_id, { duration_minutes: 0, access_level_remote_id: 'read' });
      assert.equal((await app.api.post(path, { duration_minutes: 5, access_level_remote_id: 'read' })).status, 409);
      const moved = await app.api.put(path, { duration_minutes: 30, access_level_remote_id: 'write' });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.access_level.access_level_remote_id, 'write');
      const kept = await app.api.put(path, { duration_minutes: 0 });
      assert.equal(kept.body.access_level.access_level_remote_id, 'write');
      assert.equal(kept.body.expiration_date, null);
      assert.deepEqual((await members(group.group_id)).map((m) => (m.access_level as { access_level_remote_id: string }).access_level_remote_id), ['write']);
    });

    it('every delete of an edge not held is an empty success that records nothing', async () => {
      const group = await createGroup(app.api);
      const other = await createGroup(app.api);
      const user = await createUser(app.api);
      const resource = await createResource(app.api);
      await join(group.group_id, user.user_id);
      const before = await app.api.get('/events', { page_size: 1000 });
      for (const path of [
        `/groups/${group.group_id}/users/${user.user_id}`,
        `/groups/${group.group_id}/resources/${resource.resource_id}`,
        `/groups/${group.group_id}/containing-groups/${other.group_id}`,
        `/resources/${resource.resource_id}/users/${user.user_id}`,
      ]) {
        const first = await app.api.delete(path, undefined, { query: { access_level_remote_id: 'not-held' } });
        // The reference answers 204 (no body) for removing a containing group, 200 for the others.
        const nesting = path.includes('containing-groups');
        assert.equal(first.status, nesting ? 204 : 200, path);
        assert.deepEqual(first.body, nesting ? undefined : {});
      }
      assert.equal((await app.api.get('/events', { page_size: 1000 })).body.results.length, before.body.results.length);
      assert.equal((await app.api.delete(`/groups/${group.group_id}/users/${user.user_id}`)).status, 200);
      assert.equal((await app.api.delete(`/groups/${group.group_id}/users/${user.user_id}`)).status, 200, 'twice');
      assert.equal(await countEvents(app.api, { type: 'GROUP_USERS_REMOVED' }) >= 1, true);
    });

    it('a second grant says how to change the first: PUT where there is one, else DELETE and add again', async () => {
      const group = await createGroup(app.api);
      const user = await createUser(app.api);
      const resource = await createResource(app.api);
      const outer = await createGroup(app.api);
      const twice = async (path: string, body: Record<string, unknown>) => {
        assert.equal((await app.api.post(path, body)).status, 200);
        const again = await app.api.post(path, body);
        assert.equal(again.status, 409);
        return again.body.message as string;
      };
      assert.match(await twice(`/groups/${group.group_id}/users/${user.user_id}`, { duration_minutes: 0 }), /use PUT \/v1\/groups\/\{group_id\}\/users\/\{user_id\}/);
      assert.match(await twice(`/resources/${resource.resource_id}/users/${user.user_id}`, { duration_minutes: 0 }), /use PUT \/v1\/resources\/\{resource_id\}\/users\/\{user_id\}/);
      assert.match(await twice(`/groups/${group.group_id}/resources/${resource.resource_id}`, { duration_minutes: 0 }), /DELETE it and add it again/);
      assert.match(await twice(`/groups/${group.group_id}/containing-groups`, { containing_group_id: outer.group_id }), /DELETE it and add it again/);
    });

    it('deleting a group or resource records the access that ended with it, findable by either end', async () => {
      const [group, inner, outer] = [await createGroup(app.api), await createGroup(app.api), await createGroup(app.api)];
      const user = await createUser(app.api);
      const [resource, other] = [await createResource(app.api), await createResource(app.api)];
      assert.equal((await app.api.post(`/groups/${group.group_id}/users/${user.user_id}`, { duration_minutes: 0 })).status, 200);
      assert.equal((await app.api.post(`/groups/${group.group_id}/resources/${other.resource_id}`, { duration_minutes: 0 })).status, 200);
      assert.equal((await app.api.post(`/groups/${group.group_id}/containing-groups`, { containing_group_id: outer.group_id })).status, 200);
      assert.equal((await app.api.post(`/groups/${inner.group_id}/containing-groups`, { containing_group_id: group.group_id })).status, 200);
      assert.equal((await app.api.delete(`/groups/${group.group_id}`)).status, 200);
      const [deleted] = (await app.api.get('/events', { event_type_filter: 'GROUPS_DELETED', object_filter: group.group_id })).body.results;
      assert.deepEqual(deleted.sub_events.map((e: { sub_event_type: string }) => e.sub_event_type).sort(), [
        'GROUPS_DELETED', 'GROUPS_REMOVED_FROM_GROUPS', 'GROUPS_REMOVED_FROM_GROUPS', 'GROUP_RESOURCES_REMOVED', 'GROUP_USERS_REMOVED',
      ]);
      for (const end of [user.user_id, other.resource_id, inner.group_id, outer.group_id]) {
        const found = (await app.api.get('/events', { event_type_filter: 'GROUPS_DELETED', object_filter: end })).body.results;
        assert.deepEqual(found.map((e: { event_id: string }) => e.event_id), [deleted.event_id], end);
      }

      assert.equal((await app.api.post(`/resources/${resource.resource_id}/users/${user.user_id}`, { duration_minutes: 0 })).status, 200);
      assert.equal((await app.api.post(`/groups/${inner.group_id}/resources/${resource.resource_id}`, { duration_minutes: 0 })).status, 200);
      assert.equal((await app.api.post('/sessions', { resource_id: resource.resource_id, user_id: user.user_id, duration_minutes: 30 })).status, 200);
      assert.equal((await app.api.delete(`/resources/${resource.resource_id}`)).status, 200);
      const [gone] = (await app.api.get('/events', { event_type_filter: 'RESOURCES_DELETED', object_filter: user.user_id })).body.results;
      assert.deepEqual(gone.sub_events.map((e: { sub_event_type: string }) => e.sub_event_type).sort(), ['GROUP_RESOURCES_REMOVED', 'RESOURCES_DELETED', 'RESOURCE_USERS_REMOVED', 'SESSIONS_ENDED']);
      assert.equal(gone.sub_events.find((e: { sub_event_type: string }) => e.sub_event_type === 'RESOURCE_USERS_REMOVED').resource_name, resource.name, 'names read before the delete');
    });

    it('concurrent grants of the same membership leave one live edge', async () => {
      const group = await createGroup(app.api);
      const user = await createUser(app.api);
      const results = await Promise.all(Array.from({ length: 12 }, () => app.api.post(`/groups/${group.group_id}/users/${user.user_id}`, { duration_minutes: 0 })));
      assert.deepEqual(results.map((r) => r.status).sort(), [200, ...Array(11).fill(409)]);
      assert.equal((await members(group.group_id)).length, 1);
      assert.equal((await readEvents(app.api, { object: user.user_id, type: 'GROUP_USERS_ADDED' })).length, 1);
    });
  });

  describe('groups, nesting and effective access', () => {
    it('nesting four deep: members of the innermost group hold what the outermost holds, with paths counted', async () => {
      const [g1, g2, g3, g4] = [await createGroup(app.api), await createGroup(app.api), await createGroup(app.api), await createGroup(app.api)];
      const resource = await createResource(app.api);
      const user = await createUser(app.api);
      await join(g1.group_id, user.user_id);
      await nest(g1.group_id, g2.group_id);
      await nest(g2.group_id, g3.group_id);
      await nest(g3.group_id, g4.group_id);
      const granted = await grantGroup(g4.group_id, resource.resource_id);
      assert.equal(granted.group_id, g4.group_id);
      assert.equal(granted.expiration_date, null);

      assert.deepEqual((await groupsOf(user.user_id)).map((g) => g.group_id).sort(), [g1, g2, g3, g4].map((g) => g.group_id).sort());
      assert.deepEqual((await members(g4.group_id)).map((m) => m.user_id), [user.user_id]);
      const [held] = await holders(resource.resource_id);
      assert.equal(held!.user_id, user.user_id);
      assert.equal(held!.has_direct_access, false);
      assert.equal(held!.num_access_paths, 1);
      assert.equal((await resourcesOf(user.user_id))[0]!.resource_id, resource.resource_id);
      assert.equal((await app.api.get(`/resource-user-access-status/${resource.resource_id}/${user.user_id}`)).body.status, 'AUTHORIZED');
      assert.deepEqual((await app.api.get(`/resources/${resource.resource_id}/groups`)).body.group_resources.map((g: { group_id: string }) => g.group_id), [g4.group_id]);
      assert.deepEqual((await app.api.get(`/groups/${g1.group_id}/containing-groups`)).body.containing_groups.map((g: { containing_group_id: string }) => g.containing_group_id), [g2.group_id]);
      assert.equal((await app.api.get(`/groups/${g1.group_id}/containing-groups/${g2.group_id}`)).status, 200);
      assert.equal((await app.api.get(`/groups/${g1.group_id}/containing-groups/${g3.group_id}`)).status, 404);

      // A direct grant and a second group add paths: 1 direct + 2 groups.
      await app.api.post(`/resources/${resource.resource_id}/users/${user.user_id}`, { duration_minutes: 0 });
      await grantGroup(g2.group_id, resource.resource_id);
      const [again] = await holders(resource.resource_id);
      assert.equal(again!.has_direct_access, true);
      assert.equal(again!.num_access_paths, 3);

      // Cutting the chain in the middle ends the inherited memberships and records the removal.
      const cut = await app.api.delete(`/groups/${g2.group_id}/containing-groups/${g3.group_id}`);
      assert.equal(cut.status, 204);
      assert.deepEqual((await groupsOf(user.user_id)).map((g) => g.group_id).sort(), [g1, g2].map((g) => g.group_id).sort());
      assert.equal((await readEvents(app.api, { object: g2.group_id, type: 'GROUPS_REMOVED_FROM_GROUPS' })).length, 1);
      assert.equal((await readEvents(app.api, { object: g1.group_id, type: 'GROUPS_ADDED_TO_GROUPS' })).length, 1);
    });

    it('refuses cycles (self, direct, indirect) with 400 naming containing_group_id, recording nothing', async () => {
      const [a, b, c] = [await createGroup(app.api), await createGroup(app.api), await createGroup(app.api)];
      await nest(a.group_id, b.group_id);
      await nest(b.group_id, c.group_id);
      const before = await countEvents(app.api, { type: 'GROUPS_ADDED_TO_GROUPS' });
      for (const [inner, outer] of [[a, a], [b, a], [c, a]] as const) {
        const res = await app.api.post(`/groups/${inner.group_id}/containing-groups`, { containing_group_id: outer.group_id });
        assert.equal(res.status, 400, `${inner.name} in ${outer.name}`);
        assert.equal(res.body.details[0].path, 'containing_group_id');
      }
      assert.equal(await countEvents(app.api, { type: 'GROUPS_ADDED_TO_GROUPS' }), before);
      const unknown = await app.api.post(`/groups/${a.group_id}/containing-groups`, { containing_group_id: NO_SUCH_ID });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.details[0].path, 'containing_group_id');
    });

    it('PUT /groups/{id}/resources replaces the set all or nothing, naming resources.N fields', async () => {
      const group = await createGroup(app.api);
      const [r1, r2, r3] = [await createResource(app.api), await createResource(app.api), await createResource(app.api)];
      await grantGroup(group.group_id, r1.resource_id);
      const bad = await app.api.put(`/groups/${group.group_id}/resources`, { resources: [{ resource_id: r2.resource_id }, { resource_id: NO_SUCH_ID }] });
      assert.equal(bad.status, 404);
      assert.equal(bad.body.details[0].path, 'resources.1.resource_id');
      const twice = await app.api.put(`/groups/${group.group_id}/resources`, { resources: [{ resource_id: r2.resource_id }, { resource_id: r2.resource_id }] });
      assert.equal(twice.body.details[0].path, 'resources.1');
      const listed = async () => ids((await app.api.get(`/groups/${group.group_id}/resources`)).body.group_resources, 'resource_id');
      assert.deepEqual(await listed(), [r1.resource_id], 'nothing changed');
      assert.equal((await app.api.put(`/groups/${group.group_id}/resources`, { resources: [{ resource_id: r2.resource_id }, { resource_id: r3.resource_id }] })).status, 200);
      assert.deepEqual(await listed(), [r2.resource_id, r3.resource_id].sort());
    });

    it('group-resource level: the body wins over the query string', async () => {
      const group = await createGroup(app.api);
      const resource = await createResource(app.api, { access_levels: [{ access_level_name: 'A', access_level_remote_id: 'a' }, { access_level_name: 'B', access_level_remote_id: 'b' }] });
      const res = await app.api.post(`/groups/${group.group_id}/resources/${resource.resource_id}`, { access_level_remote_id: 'b' }, { query: { access_level_remote_id: 'a' } });
      assert.equal(res.body.access_level.access_level_remote_id, 'b');
    });
  });

  describe('expiry', () => {
    it('a membership stops counting at its expiration_date exactly, and the sweep removes it with one event', async () => {
      const group = await createGroup(app.api);
      const resource = await createResource(app.api);
      const user = await createUser(app.api);
      await grantGroup(group.group_id, resource.resource_id);
      const { expiration_date: expiry } = await join(group.group_id, user.user_id, { duration_minutes: 10 });
      const start = app.clock.now().toISOString();
      const at = new Date(expiry as string).getTime();
      app.clock.set(new Date(at - 1));
      assert.equal((await holders(resource.resource_id)).length, 1);
      assert.equal((await holders(resource.resource_id))[0]!.expiration_date, expiry);
      assert.equal((await groupsOf(user.user_id)).length, 1);
      assert.equal(sweep(app.ctx, app.clock.now()), 0, 'nothing is due yet');
      app.clock.set(new Date(at));
      assert.equal((await holders(resource.resource_id)).length, 0);
      assert.equal((await members(group.group_id)).length, 0);
      assert.equal((await groupsOf(user.user_id)).length, 0);
      assert.equal((await resourcesOf(user.user_id)).length, 0);
      assert.equal((await app.api.get(`/resource-user-access-status/${resource.resource_id}/${user.user_id}`)).body.status, 'UNAUTHORIZED');
      assert.equal(sweep(app.ctx, app.clock.now()), 1);
      assert.equal(sweep(app.ctx, app.clock.now()), 0);
      const events = await readEvents(app.api, { object: user.user_id, type: 'GROUP_USERS_EXPIRED' });
      assert.equal(events.length, 1);
      assert.equal(events[0]!.sub_events[0]!.expiration_date, expiry);

      // A dead edge removed by hand before the sweep reaches it still leaves its expiry event.
      const other = await createUser(app.api);
      const { expiration_date: otherExpiry } = await join(group.group_id, other.user_id, { duration_minutes: 1 });
      app.clock.set(otherExpiry as string);
      assert.equal((await app.api.delete(`/groups/${group.group_id}/users/${other.user_id}`)).status, 200);
      assert.equal((await readEvents(app.api, { object: other.user_id, type: 'GROUP_USERS_EXPIRED' })).length, 1);
      assert.equal((await readEvents(app.api, { object: other.user_id, type: 'GROUP_USERS_REMOVED' })).length, 0);
      assert.equal(sweep(app.ctx, app.clock.now()), 0);

      // So does one granted again over its dead row: the old edge's end, then the new grant.
      const third = await createUser(app.api);
      const { expiration_date: thirdExpiry } = await join(group.group_id, third.user_id, { duration_minutes: 1 });
      app.clock.set(thirdExpiry as string);
      await join(group.group_id, third.user_id, { duration_minutes: 5 });
      const ended = await readEvents(app.api, { object: third.user_id, type: 'GROUP_USERS_EXPIRED' });
      assert.equal(ended.length, 1);
      assert.equal(ended[0]!.sub_events[0]!.expiration_date, thirdExpiry);
      assert.equal((await readEvents(app.api, { object: third.user_id, type: 'GROUP_USERS_ADDED' })).length, 2);
      assert.equal(sweep(app.ctx, app.clock.now()), 0);
      app.clock.set(start);
    });

    it('sessions open through a group, are capped at the holding expiry, and end when the membership goes', async () => {
      const group = await createGroup(app.api);
      const resource = await createResource(app.api);
      const user = await createUser(app.api);
      await grantGroup(group.group_id, resource.resource_id);
      const { expiration_date: expiry } = await join(group.group_id, user.user_id, { duration_minutes: 5 });
      const session = await app.api.post('/sessions', { resource_id: resource.resource_id, user_id: user.user_id, duration_minutes: 60 });
      assert.equal(session.status, 200, JSON.stringify(session.body));
      assert.equal(session.body.expiration_date, expiry);
      await app.api.put(`/groups/${group.group_id}/users/${user.user_id}`, { duration_minutes: 0 });
      await app.api.delete(`/groups/${group.group_id}/users/${user.user_id}`);
      assert.deepEqual((await app.api.get('/sessions', { resource_id: resource.resource_id })).body.results, []);
      const [removed] = await readEvents(app.api, { object: user.user_id, type: 'GROUP_USERS_REMOVED' });
      assert.ok(removed!.sub_events.some((s) => s.sub_event_type === 'SESSIONS_ENDED' && s.connection_id === session.body.connection_id));
      assert.equal((await app.api.post('/sessions', { resource_id: resource.resource_id, user_id: user.user_id, duration_minutes: 60 })).status, 409);
    });
  });

  it('deleting a group ends the sessions held through it', async () => {
    const group = await createGroup(app.api);
    const resource = await createResource(app.api);
    const user = await createUser(app.api);
    await grantGroup(group.group_id, resource.resource_id);
    await join(group.group_id, user.user_id);
    const session = await app.api.post('/sessions', { resource_id: resource.resource_id, user_id: user.user_id, duration_minutes: 60 });
    assert.equal(session.status, 200);
    assert.equal((await app.api.delete(`/groups/${group.group_id}`)).status, 200);
    assert.deepEqual((await app.api.get('/sessions', { resource_id: resource.resource_id })).body.results, []);
    assert.deepEqual(await holders(resource.resource_id), []);
    const [deleted] = await readEvents(app.api, { object: group.group_id, type: 'GROUPS_DELETED' });
    assert.ok(deleted!.sub_events.some((s) => s.sub_event_type === 'SESSIONS_ENDED' && s.connection_id === session.body.connection_id));
  });

  describe('resource users (direct edges in the graph)', () => {
    it('PUT changes the one level held to the body level, or the held level when the body names none', async () => {
      const resource = await createResource(app.api, { access_levels: [{ access_level_name: 'R', access_level_remote_id: 'read' }, { access_level_name: 'W', access_level_remote_id: 'write' }] });
      const user = await createUser(app.api);
      const path = `/resources/${resource.resource_id}/users/${user.user_id}`;
      await app.api.post(path, { duration_minutes: 0, access_level_remote_id: 'read' });
      const moved = await app.api.put(path, { duration_minutes: 60, access_level_remote_id: 'write' });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.access_level.access_level_remote_id, 'write');
      const noLevel = await app.api.put(path, { duration_minutes: 0 });
      assert.equal(noLevel.body.access_level.access_level_remote_id, 'write');
      assert.equal(noLevel.body.expiration_date, null);
      await app.api.post(path, { duration_minutes: 0, access_level_remote_id: 'read' });
      const ambiguous = await app.api.put(path, { duration_minutes: 0 });
      assert.equal(ambiguous.status, 400);
      assert.equal(ambiguous.body.details[0].path, 'access_level_remote_id');
    });

    it('a client knowing only `limit` reads all 5,000 holders in one call', async () => {
      const resource = await createResource(app.api);
      const group = await createGroup(app.api);
      await grantGroup(group.group_id, resource.resource_id);
      // Fixture volume straight into the real database (5,000 HTTP calls would only slow the suite).
      const now = app.clock.now().toISOString();
      const insertUser = app.ctx.db.prepare("INSERT INTO users (id, email, full_name, first_name, last_name, created_at) VALUES (?, ?, 'Bulk', 'Bulk', '', ?)");
      const insertMember = app.ctx.db.prepare('INSERT INTO group_users (group_id, user_id, created_at, updated_at) VALUES (?, ?, ?, ?)');
      app.ctx.db.transaction(() => {
        for (let i = 0; i < 5000; i++) {
          const id = `bbbbbbbb-0000-4000-8000-${String(i).padStart(12, '0')}`;
          insertUser.run(id, `bulk${i}@example.com`, now);
          insertMember.run(group.group_id, id, now, now);
        }
      })();
      const all = await app.api.get(`/resources/${resource.resource_id}/users`, { limit: 5000 });
      assert.equal(all.body.results.length, 5000);
      assert.equal(all.body.next, null);
      // Paging by cursor reaches the same set.
      const seen = new Set<string>();
      let cursor: string | undefined;
      do {
        const page = await app.api.get(`/resources/${resource.resource_id}/users`, { page_size: 1000, cursor });
        for (const row of page.body.results) seen.add(row.user_id);
        cursor = page.body.next ?? undefined;
      } while (cursor);
      assert.equal(seen.size, 5000);
    });
  });

  describe('access rules', () => {
    it('an ACTIVE rule follows tag attach/detach, rule edits and pausing; invalid clauses name the path', async () => {
      const owner = await createOwner(app.api);
      const eng = await createTag(app.api, { tag_key: 'team', tag_value: 'eng' });
      const ops = await createTag(app.api, { tag_key: 'team', tag_value: 'ops' });
      const [u1, u2] = [await createUser(app.api), await createUser(app.api)];
      await app.api.post(`/tags/${eng.tag_id}/users/${u1.user_id}`);
      const clauses = (value: string) => ({ when: { clauses: [{ selectors: [{ key: 'team', value, connection_id: CONNECTION }] }] } });
      const body = { name: 'Engineers', description: 'everyone tagged team:eng', admin_owner_id: owner.owner_id, status: 'ACTIVE', ruleClauses: clauses('eng') };
      const created = await app.api.post('/access-rules', body);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const ruleId = created.body.access_rule_id;
      assert.deepEqual((await app.api.get(`/access-rules/${ruleId}`)).body, created.body);
      assert.deepEqual((await members(ruleId)).map((m) => m.user_id), [u1.user_id]);

      await app.api.post(`/tags/${eng.tag_id}/users/${u2.user_id}`);
      assert.deepEqual(ids(await members(ruleId), 'user_id'), [u1.user_id, u2.user_id].sort());
      await app.api.delete(`/tags/${eng.tag_id}/users/${u1.user_id}`);
      assert.deepEqual((await members(ruleId)).map((m) => m.user_id), [u2.user_id]);

      // Members of a rule cannot be added, changed or removed by hand.
      assert.equal((await app.api.post(`/groups/${ruleId}/users/${u1.user_id}`, { duration_minutes: 0 })).status, 400);
      assert.equal((await app.api.put(`/groups/${ruleId}/users/${u2.user_id}`, { duration_minutes: 5 })).body.details[0].path, 'group_id');
      assert.equal((await app.api.delete(`/groups/${ruleId}/users/${u2.user_id}`)).body.details[0].path, 'group_id');

      await app.api.post(`/tags/${ops.tag_id}/users/${u1.user_id}`);
      const edited = await app.api.put(`/access-rules/${ruleId}`, { ...body, ruleClauses: clauses('ops') });
      assert.equal(edited.status, 200);
      assert.deepEqual((await members(ruleId)).map((m) => m.user_id), [u1.user_id]);

      const paused = await app.api.put(`/access-rules/${ruleId}`, { ...body, status: 'PAUSED', ruleClauses: clauses('ops') });
      assert.equal(paused.body.status, 'PAUSED');
      await app.api.delete(`/tags/${ops.tag_id}/users/${u1.user_id}`);
      await app.api.post(`/tags/${ops.tag_id}/users/${u2.user_id}`);
      assert.deepEqual((await members(ruleId)).map((m) => m.user_id), [u1.user_id], 'a PAUSED rule keeps its members');

      // `unless` excludes; deleting a tag re-evaluates.
      await app.api.put(`/access-rules/${ruleId}`, { ...body, ruleClauses: { ...clauses('ops'), unless: clauses('eng').when } });
      assert.deepEqual((await members(ruleId)).map((m) => m.user_id), [], 'u2 has ops but also eng');
      assert.equal((await app.api.delete(`/tag/${eng.tag_id}`)).status, 200);
      assert.deepEqual((await members(ruleId)).map((m) => m.user_id), [u2.user_id]);
      assert.ok((await app.api.get('/access-rules')).body.results.some((r: { access_rule_id: string }) => r.access_rule_id === ruleId));

      const before = await countEvents(app.api, { type: 'ACCESS_RULES_CREATED' });
      const invalid = await app.api.post('/access-rules', {
        ...body, ruleClauses: { when: { clauses: [{ selectors: [{ key: 'team', value: 'eng', connection_id: CONNECTION }, { value: 'x', connection_id: CONNECTION }] }] } },
      });
      assert.equal(invalid.status, 400);
      assert.ok(invalid.body.details.some((d: { path: string }) => d.path === 'ruleClauses.when.clauses.0.selectors.1.key'), JSON.stringify(invalid.body));
      assert.equal((await app.api.post('/access-rules', { ...body, ruleClauses: { when: { clauses: [] } } })).body.details[0].path, 'ruleClauses.when.clauses');
      // Attribute selectors Gatehouse cannot match are refused, not ignored (ignored in `unless`, they would widen the rule).
      const selector = { key: 'team', value: 'eng', connection_id: CONNECTION };
      const attributes = await app.api.post('/access-rules', {
        ...body, ruleClauses: { when: { clauses: [{ selectors: [selector] }] }, unless: { clauses: [{ selectors: [selector], attribute_selectors: [{ key: 'title', value: 'contractor' }] }] } },
      });
      assert.equal(attributes.status, 400);
      assert.equal(attributes.body.details[0].path, 'ruleClauses.unless.clauses.0.attribute_selectors');
      assert.equal(await countEvents(app.api, { type: 'ACCESS_RULES_CREATED' }), before);
      const emptyAttributes = await app.api.post('/access-rules', {
        ...body, name: 'whole object sent back', ruleClauses: { when: { clauses: [{ selectors: [selector], attribute_selectors: [] }] } },
      });
      assert.equal(emptyAttributes.status, 201, JSON.stringify(emptyAttributes.body));
      assert.equal((await app.api.get(`/access-rules/${NO_SUCH_ID}`)).status, 404);
    });

    it('makes and changes a rule\'s app and group through their owners, recording APPS_CREATED, GROUPS_CREATED and GROUPS_UPDATED', async () => {
      // Its own app: the rule app is made only while no OPAL app exists.
      const fresh = await startTestApp();
      try {
        const owner = await createOwner(fresh.api);
        const since = async (count: number) => (await readEvents(fresh.api)).slice(0, (await countEvents(fresh.api)) - count).reverse();
        const body = (name: string) => ({
          name, description: 'a rule', admin_owner_id: owner.owner_id, status: 'PAUSED',
          ruleClauses: { when: { clauses: [{ selectors: [{ key: 'team', value: 'eng', connection_id: CONNECTION }] }] } },
        });

        let before = await countEvents(fresh.api);
        const refused = await fresh.api.post('/access-rules', { ...body('refused'), admin_owner_id: NO_SUCH_ID });
        assert.equal(refused.status, 404);
        assert.equal(await countEvents(fresh.api), before, 'a refused rule makes and records nothing');
        assert.equal((await fresh.api.get('/apps')).body.apps.length, 0);

        const first = await fresh.api.post('/access-rules', body('first'));
        assert.equal(first.status, 201, JSON.stringify(first.body));
        const ruleId = first.body.access_rule_id;
        const group = (await fresh.api.get(`/groups/${ruleId}`)).body;
        let recorded = await since(before);
        assert.deepEqual(recorded.map((e) => e.event_type), ['APPS_CREATED', 'GROUPS_CREATED', 'ACCESS_RULES_CREATED']);
        assert.deepEqual(recorded[0]!.sub_events, [
          { sub_event_type: 'APPS_CREATED', app_id: group.app_id, app_name: 'Gatehouse', app_type: 'OPAL', owner_id: owner.owner_id },
        ]);
        assert.deepEqual(recorded[1]!.sub_events, [{
          sub_event_type: 'GROUPS_CREATED', group_id: ruleId, group_name: 'first', group_type: 'OPAL_ACCESS_RULE', app_id: group.app_id, admin_owner_id: owner.owner_id,
        }]);

        before = await countEvents(fresh.api);
        const second = await fresh.api.post('/access-rules', body('second'));
        assert.equal(second.status, 201);
        assert.deepEqual((await since(before)).map((e) => e.event_type), ['GROUPS_CREATED', 'ACCESS_RULES_CREATED'], 'the rule app is made once');
        assert.equal((await fresh.api.get(`/groups/${second.body.access_rule_id}`)).body.app_id, group.app_id);

        before = await countEvents(fresh.api);
        const renamed = await fresh.api.put(`/access-rules/${ruleId}`, body('renamed'));
        assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
        recorded = await since(before);
        assert.deepEqual(recorded.map((e) => e.event_type), ['GROUPS_UPDATED', 'ACCESS_RULES_UPDATED']);
        assert.deepEqual(recorded[0]!.sub_events, [
          { sub_event_type: 'GROUPS_UPDATED', group_id: ruleId, group_name: 'renamed', updated_fields: 'name,description,admin_owner_id' },
        ]);
        assert.equal((await fresh.api.get(`/groups/${ruleId}`)).body.name, 'renamed');
      } finally {
        await fresh.close();
      }
    });
  });

  describe('offboarding', () => {
    it('suspending a user ends every edge and session in one change with events; no read lists them afterwards', async () => {
      const group = await createGroup(app.api);
      const resource = await createResource(app.api);
      const other = await createResource(app.api);
      const user = await createUser(app.api);
      const manager = await createUser(app.api);
      await grantGroup(group.group_id, resource.resource_id);
      await join(group.group_id, user.user_id);
      await app.api.post(`/resources/${other.resource_id}/users/${user.user_id}`, { duration_minutes: 0 });
      const session = await app.api.post('/sessions', { resource_id: resource.resource_id, user_id: user.user_id, duration_minutes: 60 });
      assert.equal(session.status, 200);

      const bad = await app.api.put(`/users/${user.user_id}`, { hr_idp_status: 'GONE' });
      assert.equal(bad.body.details[0].path, 'hr_idp_status');
      assert.equal((await app.api.put(`/users/${user.user_id}`, { manager_id: user.user_id })).body.details[0].path, 'manager_id');
      assert.equal((await app.api.put(`/users/${NO_SUCH_ID}`, { position: 'x' })).status, 404);

      const res = await app.api.put(`/users/${user.user_id}`, { hr_idp_status: 'SUSPENDED', position: 'Former engineer', manager_id: manager.user_id });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.hr_idp_status, 'SUSPENDED');
      assert.equal(res.body.position, 'Former engineer');
      assert.deepEqual(await holders(resource.resource_id), []);
      assert.deepEqual(await holders(other.resource_id), []);
      assert.deepEqual(await members(group.group_id), []);
      assert.deepEqual(await groupsOf(user.user_id), []);
      assert.deepEqual(await resourcesOf(user.user_id), []);
      assert.deepEqual((await app.api.get('/sessions', { resource_id: resource.resource_id })).body.results, []);
      const [event] = await readEvents(app.api, { object: user.user_id, type: 'USERS_UPDATED' });
      const types = event!.sub_events.map((s) => s.sub_event_type).sort();
      assert.deepEqual(types, ['GROUP_USERS_REMOVED', 'RESOURCE_USERS_REMOVED', 'SESSIONS_ENDED', 'USERS_UPDATED']);
      const again = await app.api.post(`/groups/${group.group_id}/users/${user.user_id}`, { duration_minutes: 0 });
      assert.equal(again.status, 400);
      assert.equal(again.body.details[0].path, 'user_id');
    });
  });
});
