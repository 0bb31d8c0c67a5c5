// User access reviews through HTTP: POST /uar, GET /uars, GET /uar/{uar_id} in the reference's shapes,
// scope validation, and the snapshot (GET /uar/{uar_id}/snapshot) against the access reads.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import type { ApiClient } from '../helpers/client.ts';
import { createApp, createGroup, createOwner, createResource, createTag, createUser, NO_SUCH_ID } from '../helpers/fixtures.ts';
import { countEvents } from '../helpers/events.ts';

const DEADLINE = '2026-04-01T07:00:00Z';
const BASE = {
  name: 'Quarterly review', reviewer_assignment_policy: 'MANUALLY', send_reviewer_assignment_notification: false,
  deadline: DEADLINE, time_zone: 'America/Los_Angeles', self_review_allowed: false,
};

type Entry = Record<string, unknown> & { item_id: string; user_id: string };

/** Every entry of a review's snapshot, read page by page. */
async function readSnapshot(api: ApiClient, uarId: string, pageSize = 1000): Promise<Entry[]> {
  const all: Entry[] = [];
  let cursor: string | undefined;
  do {
    const res = await api.get(`/uar/${uarId}/snapshot`, { page_size: pageSize, cursor });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    all.push(...res.body.results);
    cursor = res.body.next ?? undefined;
  } while (cursor);
  return all;
}

/** A holding as both the snapshot and the access reads can state it. */
const key = (type: string, itemId: string, userId: string, level: { access_level_remote_id: string }, exp: unknown, direct?: unknown, paths?: unknown) =>
  JSON.stringify([type, itemId, userId, level.access_level_remote_id, exp, direct ?? null, paths ?? null]);

/** What GET /v1/resources/users/{id} and GET /v1/groups/users/{id} answer for these users now, as keys. */
async function accessReads(api: ApiClient, userIds: string[], items: Set<string>): Promise<string[]> {
  const keys: string[] = [];
  for (const userId of userIds) {
    for (const r of (await api.get(`/resources/users/${userId}`, { page_size: 1000 })).body.results) {
      if (items.has(r.resource_id)) keys.push(key('RESOURCE', r.resource_id, userId, r.access_level, r.expiration_date, r.has_direct_access, r.num_access_paths));
    }
    for (const g of (await api.get(`/groups/users/${userId}`, { page_size: 1000 })).body.results) {
      if (items.has(g.group_id)) keys.push(key('GROUP', g.group_id, userId, g.access_level, g.expiration_date));
    }
  }
  return keys.sort();
}

const snapshotKeys = (entries: Entry[]) =>
  entries.map((e) => e.item_type === 'RESOURCE'
    ? key('RESOURCE', e.item_id, e.user_id, e.access_level as { access_level_remote_id: string }, e.expiration_date, e.has_direct_access, e.num_access_paths)
    : key('GROUP', e.item_id, e.user_id, e.access_level as { access_level_remote_id: string }, e.expiration_date)).sort();

describe('user access reviews', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const start = async (body: Record<string, unknown>) => {
    const res = await app.api.post('/uar', body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  describe('the snapshot', () => {
    // A little graph: alice holds r1 directly for an hour; bob is in team, team is in dept, dept holds
    // r1; carol holds r2 directly and is in dept directly too.
    let alice: string, bob: string, carol: string, r1: string, r2: string, team: string, dept: string, appId: string;
    before(async () => {
      appId = (await createApp(app.api)).app_id;
      [alice, bob, carol] = [(await createUser(app.api)).user_id, (await createUser(app.api)).user_id, (await createUser(app.api)).user_id];
      r1 = (await createResource(app.api, { app_id: appId, access_levels: [{ access_level_name: 'Admin', access_level_remote_id: 'admin' }] })).resource_id;
      r2 = (await createResource(app.api, { app_id: appId })).resource_id;
      team = (await createGroup(app.api, { app_id: appId })).group_id;
      dept = (await createGroup(app.api, { app_id: appId })).group_id;
      const ok = async (res: Promise<{ status: number; body: unknown }>) => assert.equal((await res).status, 200, JSON.stringify((await res).body));
      await ok(app.api.post(`/resources/${r1}/users/${alice}`, { duration_minutes: 60, access_level_remote_id: 'admin' }));
      await ok(app.api.post(`/resources/${r2}/users/${carol}`, { duration_minutes: 0 }));
      await ok(app.api.post(`/groups/${team}/users/${bob}`, { duration_minutes: 0 }));
      await ok(app.api.post(`/groups/${dept}/users/${carol}`, { duration_minutes: 0 }));
      await ok(app.api.post(`/groups/${team}/containing-groups`, { containing_group_id: dept }));
      await ok(app.api.post(`/groups/${dept}/resources/${r1}`, {}));
    });

    it('equals what the access reads answer when the review starts, and never changes afterwards', async () => {
      const uar = await start({ ...BASE, uar_scope: { apps: [appId] } });
      const items = new Set([r1, r2, team, dept]);
      const taken = await readSnapshot(app.api, uar.uar_id);
      const atStart = await accessReads(app.api, [alice, bob, carol], items);
      assert.equal(atStart.length, 7); // alice r1; bob r1, team, dept; carol r2, r1, dept
      assert.deepEqual(snapshotKeys(taken), atStart);

      // Through which path: bob holds r1 through dept (reached through team), and dept through team.
      const bobR1 = taken.find((e) => e.user_id === bob && e.item_id === r1)!;
      assert.deepEqual([bobR1.has_direct_access, bobR1.num_access_paths, bobR1.access_path_group_ids], [false, 1, [dept]]);
      assert.deepEqual(taken.find((e) => e.user_id === bob && e.item_id === dept)!.access_path_group_ids, [team]);
      const aliceR1 = taken.find((e) => e.user_id === alice)!;
      assert.deepEqual(aliceR1.access_level, { access_level_name: 'Admin', access_level_remote_id: 'admin' });
      assert.equal(aliceR1.expiration_date, '2026-03-01T10:00:00.000Z');
      assert.deepEqual(aliceR1.access_path_group_ids, []);

      // Selecting the users reads each user's holdings instead of each item's holders: the same rows, in the same order.
      const byUsers = await start({ ...BASE, uar_scope: { apps: [appId], users: [carol, alice, bob, alice] } });
      assert.deepEqual(await readSnapshot(app.api, byUsers.uar_id), taken);

      // Access changes: alice's edge expires, carol's r2 edge is revoked, bob leaves team.
      app.clock.advance(61 * 60_000);
      assert.equal((await app.api.delete(`/resources/${r2}/users/${carol}`)).status, 200);
      assert.equal((await app.api.delete(`/groups/${team}/users/${bob}`)).status, 200);
      const now = await accessReads(app.api, [alice, bob, carol], items);
      assert.equal(now.length, 2, 'the reads see the changes'); // carol r1, dept
      assert.deepEqual(await readSnapshot(app.api, uar.uar_id), taken);

      // A review started now snapshots the new state.
      const later = await start({ ...BASE, deadline: '2026-05-01T00:00:00Z', uar_scope: { apps: [appId] } });
      assert.deepEqual(snapshotKeys(await readSnapshot(app.api, later.uar_id)), now);
      const snapshotPage = await app.api.get(`/uar/${later.uar_id}/snapshot`);
      assert.equal(snapshotPage.body.snapshot_taken_at, '2026-03-01T10:01:00.000Z');
    });

    it('pages the snapshot by cursor, and refuses one review\'s cursor on another', async () => {
      const uar = await start({ ...BASE, uar_scope: { apps: [appId] } });
      const whole = await readSnapshot(app.api, uar.uar_id);
      assert.ok(whole.length >= 2);
      assert.deepEqual(await readSnapshot(app.api, uar.uar_id, 1), whole);
      const other = await start({ ...BASE, uar_scope: { apps: [appId] } });
      const first = await app.api.get(`/uar/${uar.uar_id}/snapshot`, { page_size: 1 });
      const wrong = await app.api.get(`/uar/${other.uar_id}/snapshot`, { cursor: first.body.next });
      assert.equal(wrong.status, 400);
      assert.equal(wrong.body.details[0].path, 'cursor');
    });
  });

  describe('the scope', () => {
    // holder holds every item below directly, so the items a scope selects are the items of holder's rows.
    let holder: string;
    const items: Record<string, string> = {};
    let appA: string, appB: string, ownerX: string, tag: { key: string; value: string };
    before(async () => {
      holder = (await createUser(app.api)).user_id;
      ownerX = (await createOwner(app.api)).owner_id;
      appA = (await createApp(app.api)).app_id;
      appB = (await createApp(app.api)).app_id;
      items.prodDb = (await createResource(app.api, { app_id: appA, name: 'Prod database', admin_owner_id: ownerX })).resource_id;
      items.iamRole = (await createResource(app.api, { app_id: appB, name: 'deploy role', resource_type: 'AWS_IAM_ROLE' })).resource_id;
      items.okta = (await createGroup(app.api, { app_id: appA, name: 'okta admins', group_type: 'OKTA_GROUP' })).group_id;
      items.team = (await createGroup(app.api, { app_id: appB, name: 'PROD on-call', admin_owner_id: ownerX })).group_id;
      const t = await createTag(app.api, { tag_key: 'tier', tag_value: 'gold' });
      tag = { key: t.key, value: t.value };
      assert.equal((await app.api.post(`/tags/${t.tag_id}/groups/${items.okta}`)).status, 200);
      for (const id of [items.prodDb, items.iamRole]) assert.equal((await app.api.post(`/resources/${id}/users/${holder}`, { duration_minutes: 0 })).status, 200);
      for (const id of [items.okta, items.team]) assert.equal((await app.api.post(`/groups/${id}/users/${holder}`, { duration_minutes: 0 })).status, 200);
    });

    const selected = async (scope: Record<string, unknown>) => {
      const uar = await start({ ...BASE, uar_scope: { users: [holder], ...scope } });
      const ids = new Set((await readSnapshot(app.api, uar.uar_id)).map((e) => e.item_id));
      return Object.keys(items).filter((name) => ids.has(items[name]!)).sort();
    };

    it('selects resources and groups matching any filter (ANY, the default) or every filter (ALL)', async () => {
      const cases: [Record<string, unknown>, string[]][] = [
        [{}, ['iamRole', 'okta', 'prodDb', 'team']],
        [{ entities: [items.prodDb, items.team!.toUpperCase()] }, ['prodDb', 'team']],
        [{ apps: [appA] }, ['okta', 'prodDb']],
        [{ admins: [ownerX] }, ['prodDb', 'team']],
        [{ resource_types: ['AWS_IAM_ROLE'] }, ['iamRole']],
        [{ group_types: ['OKTA_GROUP'] }, ['okta']],
        [{ resource_types: ['AWS_IAM_ROLE'], group_types: ['OKTA_GROUP'], filter_operator: 'ALL' }, ['iamRole', 'okta']],
        [{ names: ['prod'] }, ['prodDb', 'team']],
        [{ tags: [{ key: tag.key }] }, ['okta']],
        [{ tags: [{ key: tag.key, value: tag.value }] }, ['okta']],
        [{ apps: [appA], names: ['role'] }, ['iamRole', 'okta', 'prodDb']],
        [{ apps: [appA], names: ['prod'], filter_operator: 'ALL' }, ['prodDb']],
        [{ admins: [ownerX], group_types: ['OPAL_GROUP'], filter_operator: 'ALL' }, ['team']],
        [{ filter_operator: 'ALL' }, ['iamRole', 'okta', 'prodDb', 'team']],
      ];
      for (const [scope, expected] of cases) assert.deepEqual(await selected(scope), expected, JSON.stringify(scope));
    });

    it('keeps only the selected users\' holdings', async () => {
      const other = (await createUser(app.api)).user_id;
      assert.equal((await app.api.post(`/resources/${items.prodDb}/users/${other}`, { duration_minutes: 0 })).status, 200);
      const uar = await start({ ...BASE, uar_scope: { users: [other], apps: [appA] } });
      const entries = await readSnapshot(app.api, uar.uar_id);
      assert.deepEqual(entries.map((e) => [e.user_id, e.item_id]), [[other, items.prodDb]]);
    });
  });

  describe('the reference shapes', () => {
    it('answers the UAR with defaults filled and the scope as validated; GET and the list agree', async () => {
      const owner = await createOwner(app.api);
      const uar = await start({
        ...BASE, deadline: '2026-04-01 06:59:59+00:00', reviewer_assignment_policy: 'BY_OWNING_TEAM_ADMIN', reminder_schedule: [7, 1],
        reminder_include_manager: true, uar_scope: { admins: [owner.owner_id.toUpperCase()], group_visibility: 'STRICT', include_group_bindings: true },
      });
      assert.deepEqual(uar, {
        uar_id: uar.uar_id, name: 'Quarterly review', reviewer_assignment_policy: 'BY_OWNING_TEAM_ADMIN', send_reviewer_assignment_notification: false,
        deadline: '2026-04-01T06:59:59.000Z', time_zone: 'America/Los_Angeles', self_review_allowed: false, instantly_action_reviews: false,
        uar_scope: { admins: [owner.owner_id], group_visibility: 'STRICT', include_group_bindings: true },
      });
      assert.deepEqual((await app.api.get(`/uar/${uar.uar_id.toUpperCase()}`)).body, uar);
      const events = (await app.api.get('/events', { object_filter: uar.uar_id })).body.results;
      assert.equal(events.length, 1);
      assert.equal(events[0].event_type, 'UARS_CREATED');
      assert.equal(events[0].sub_events[0].uar_name, 'Quarterly review');
      // Oldest first, paged.
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await app.api.get('/uars', { page_size: 2, cursor });
        seen.push(...page.body.results.map((u: { uar_id: string }) => u.uar_id));
        cursor = page.body.next ?? undefined;
      } while (cursor);
      assert.equal(seen.at(-1), uar.uar_id);
      assert.equal(seen.length, new Set(seen).size);
      assert.equal(seen.length, await countEvents(app.api, { type: 'UARS_CREATED' }));
    });

    it('refuses bad settings and scopes naming the field, and starts nothing', async () => {
      const before = await countEvents(app.api, { type: 'UARS_CREATED' });
      const { name: _n, ...noName } = BASE;
      const { deadline: _d, ...noDeadline } = BASE;
      const { send_reviewer_assignment_notification: _s, ...noSend } = BASE;
      const { time_zone: _t, ...noZone } = BASE;
      const scoped = (uar_scope: unknown) => ({ ...BASE, uar_scope });
      const cases: [unknown, number, string][] = [
        [noName, 400, 'name'],
        [{ ...BASE, name: '  ' }, 400, 'name'],
        [noDeadline, 400, 'deadline'],
        [noSend, 400, 'send_reviewer_assignment_notification'],
        [noZone, 400, 'time_zone'],
        [{ ...BASE, deadline: '2026-02-30T00:00:00Z' }, 400, 'deadline'],
        [{ ...BASE, deadline: '2026-04-01' }, 400, 'deadline'],
        [{ ...BASE, deadline: '2026-03-01T09:00:00Z' }, 400, 'deadline'],
        [{ ...BASE, time_zone: 'Mars/Olympus_Mons' }, 400, 'time_zone'],
        [{ ...BASE, reviewer_assignment_policy: 'RANDOM' }, 400, 'reviewer_assignment_policy'],
        [{ ...BASE, self_review_allowed: 'no' }, 400, 'self_review_allowed'],
        [{ ...BASE, reminder_schedule: [1, -1] }, 400, 'reminder_schedule.1'],
        [scoped({ filter_operator: 'SOME' }), 400, 'uar_scope.filter_operator'],
        [scoped({ group_visibility: 'NONE' }), 400, 'uar_scope.group_visibility'],
        [scoped({ resource_types: ['CUSTOM', 'NOPE'] }), 400, 'uar_scope.resource_types.1'],
        [scoped({ group_types: ['AWS_IAM_ROLE'] }), 400, 'uar_scope.group_types.0'],
        [scoped({ users: ['nope'] }), 400, 'uar_scope.users.0'],
        [scoped({ names: [''] }), 400, 'uar_scope.names.0'],
        [scoped({ tags: [{ value: 'x' }] }), 400, 'uar_scope.tags.0.key'],
        [scoped({ include_group_bindings: 1 }), 400, 'uar_scope.include_group_bindings'],
        [scoped({ users: [app.adminUserId, NO_SUCH_ID] }), 404, 'uar_scope.users.1'],
        [scoped({ entities: [NO_SUCH_ID] }), 404, 'uar_scope.entities.0'],
        [scoped({ apps: [NO_SUCH_ID] }), 404, 'uar_scope.apps.0'],
        [scoped({ admins: [NO_SUCH_ID] }), 404, 'uar_scope.admins.0'],
        [scoped({ tags: [{ key: 'no-such-key' }] }), 404, 'uar_scope.tags.0'],
      ];
      for (const [body, status, path] of cases) {
        const res = await app.api.post('/uar', body);
        assert.equal(res.status, status, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`);
        assert.equal(res.body.details[0].path, path, JSON.stringify(body));
      }
      assert.equal(await countEvents(app.api, { type: 'UARS_CREATED' }), before);
    });

    it('answers 404 for an unknown review and 400 for a malformed id', async () => {
      for (const path of [`/uar/${NO_SUCH_ID}`, `/uar/${NO_SUCH_ID}/snapshot`]) {
        const res = await app.api.get(path);
        assert.equal(res.status, 404, path);
        assert.deepEqual(res.body.details, [{ path: 'uar_id', message: 'no UAR with this id' }], path);
      }
      assert.equal((await app.api.get('/uar/not-a-uuid')).status, 400);
      assert.equal((await app.api.get('/uar/not-a-uuid/snapshot')).status, 400);
      const tag = await app.api.post('/uar', { ...BASE, uar_scope: { tags: [{ key: 'no-such-key', value: 'v' }] } });
      assert.equal(tag.status, 404);
      assert.equal(tag.body.message, 'no tag has key "no-such-key" and value "v"');
      assert.equal((await app.api.get('/uars', { page_size: 1001 })).status, 400);
      assert.equal((await app.api.get('/uars', { cursor: 'garbage' })).status, 400);
    });
  });
});
