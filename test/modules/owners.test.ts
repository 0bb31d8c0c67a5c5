// Owners and their user lists through HTTP: create, read, page, bulk update, delete, users.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { config, requestableResource, stage } from '../helpers/requests.ts';
import { createApp, createBundle, createGroup, createMessageChannel, createOwner, createResource, createToken, createUser, NO_SUCH_ID, unique } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';
import { countEvents, readEvents } from '../helpers/events.ts';

describe('owners', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  /** Events touching `id`, optionally of one type. */
  const allOwners = async () => (await app.api.get('/owners', { page_size: 1000 })).body.results;

  describe('POST /owners', () => {
    it('creates an owner with every field, readable by id, by name and in the list; users keep their order', async () => {
      const [u1, u2] = [await createUser(app.api), await createUser(app.api)];
      const name = `${unique('Platform Team')} ünïcode`;
      const channel = (await createMessageChannel(app.api)).message_channel_id;
      const res = await app.api.post('/owners', {
        name, description: 'runs the platform', access_request_escalation_period: 120,
        user_ids: [u2.user_id, u1.user_id.toUpperCase()], reviewer_message_channel_id: channel,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const { owner_id: id, ...fields } = res.body;
      assert.deepEqual(fields, { name, description: 'runs the platform', access_request_escalation_period: 120, reviewer_message_channel_id: channel });
      assert.deepEqual((await app.api.get(`/owners/${id}`)).body, res.body);
      assert.deepEqual((await app.api.get(`/owners/${id.toUpperCase()}`)).body, res.body);
      assert.deepEqual((await app.api.get(`/owners/name/${encodeURIComponent(name)}`)).body, res.body);
      assert.deepEqual((await app.api.get('/owners', { name })).body.results, [res.body]);
      const users = await app.api.get(`/owners/${id}/users`);
      assert.deepEqual(users.body.users.map((u: { user_id: string }) => u.user_id), [u2.user_id, u1.user_id]);

      const [event] = await readEvents(app.api, { object: id, type: 'OWNERS_CREATED' });
      assert.ok(event);
      assert.equal(event.sub_events[0]!.owner_name, name);
      assert.equal((await readEvents(app.api, { object: u1.user_id, type: 'OWNERS_CREATED' })).length, 1, 'the users added are findable too');
    });

    it('defaults description to "" and the escalation period to 0 (no escalation)', async () => {
      const res = await app.api.post('/owners', { name: unique('bare'), user_ids: [] });
      assert.equal(res.status, 200);
      assert.equal(res.body.description, '');
      assert.equal(res.body.access_request_escalation_period, 0);
      assert.equal('source_group_id' in res.body, false);
      assert.deepEqual((await app.api.get(`/owners/${res.body.owner_id}/users`)).body, { users: [] });
    });

    it('names every invalid field with 400 and creates nothing', async () => {
      const cases: [Record<string, unknown>, string[]][] = [
        [{}, ['name', 'user_ids']],
        [{ name: '   ', user_ids: [] }, ['name']],
        [{ name: 'x', user_ids: 'abc' }, ['user_ids']],
        [{ name: 'x', user_ids: ['nope'] }, ['user_ids.0']],
        [{ name: 'x', user_ids: [NO_SUCH_ID, NO_SUCH_ID] }, ['user_ids']],
        [{ name: 'x', user_ids: [], access_request_escalation_period: -1 }, ['access_request_escalation_period']],
        [{ name: 'x', user_ids: [], access_request_escalation_period: 1.5 }, ['access_request_escalation_period']],
        [{ name: 'x', user_ids: [], access_request_escalation_period: '60' }, ['access_request_escalation_period']],
        [{ name: 'x', user_ids: [], reviewer_message_channel_id: 'general' }, ['reviewer_message_channel_id']],
        [{ name: 'x', user_ids: [], source_group_id: 'g' }, ['source_group_id']],
        [{ name: 'x', user_ids: [], description: 7 }, ['description']],
      ];
      const before = await countEvents(app.api, { type: 'OWNERS_CREATED' });
      for (const [body, expected] of cases) {
        const res = await app.api.post('/owners', body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.code, 'validation_failed');
        assert.deepEqual(errorPaths(res.body), expected, JSON.stringify(body));
      }
      assert.equal(await countEvents(app.api, { type: 'OWNERS_CREATED' }), before);
      assert.equal((await app.api.get('/owners', { name: 'x' })).body.results.length, 0);
    });

    it('refuses user_ids alongside source_group_id (the source group supplies the users)', async () => {
      const user = await createUser(app.api);
      const res = await app.api.post('/owners', { name: unique('o'), user_ids: [user.user_id], source_group_id: NO_SUCH_ID });
      assert.equal(res.status, 400);
      assert.deepEqual(errorPaths(res.body), ['user_ids']);
    });

    it('404s naming user_ids.N, source_group_id or reviewer_message_channel_id for unknown references, recording nothing', async () => {
      const user = await createUser(app.api);
      const before = await countEvents(app.api, { type: 'OWNERS_CREATED' });
      const name = unique('o');
      const badUser = await app.api.post('/owners', { name, user_ids: [user.user_id, NO_SUCH_ID] });
      assert.equal(badUser.status, 404);
      assert.equal(badUser.body.code, 'not_found');
      assert.deepEqual(errorPaths(badUser.body), ['user_ids.1']);
      const badGroup = await app.api.post('/owners', { name, user_ids: [], source_group_id: NO_SUCH_ID });
      assert.equal(badGroup.status, 404);
      assert.deepEqual(errorPaths(badGroup.body), ['source_group_id']);
      const badChannel = await app.api.post('/owners', { name, user_ids: [], reviewer_message_channel_id: NO_SUCH_ID });
      assert.equal(badChannel.status, 404);
      assert.deepEqual(errorPaths(badChannel.body), ['reviewer_message_channel_id']);
      assert.equal((await app.api.get('/owners', { name })).body.results.length, 0);
      assert.equal(await countEvents(app.api, { type: 'OWNERS_CREATED' }), before);
    });

    it('refuses a duplicate name with 409 naming the field, recording nothing', async () => {
      const owner = await createOwner(app.api);
      const before = await countEvents(app.api, { type: 'OWNERS_CREATED' });
      const res = await app.api.post('/owners', { name: owner.name, user_ids: [] });
      assert.equal(res.status, 409);
      assert.equal(res.body.code, 'conflict');
      assert.deepEqual(errorPaths(res.body), ['name']);
      assert.equal(await countEvents(app.api, { type: 'OWNERS_CREATED' }), before);
    });
  });

  describe('GET /owners', () => {
    it('pages through every owner exactly once, in creation order', async () => {
      for (let i = 0; i < 5; i++) await createOwner(app.api);
      const everyone = await allOwners();
      assert.ok(everyone.length >= 5);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const res = await app.api.get('/owners', { page_size: 2, cursor });
        assert.equal(res.status, 200);
        assert.ok(res.body.results.length <= 2);
        assert.equal(res.body.previous, cursor ?? null);
        seen.push(...res.body.results.map((o: { owner_id: string }) => o.owner_id));
        cursor = res.body.next ?? undefined;
        pages++;
      } while (cursor !== undefined);
      assert.ok(pages >= 3);
      assert.deepEqual(seen, everyone.map((o: { owner_id: string }) => o.owner_id));
    });

    it('filters by exact name (not substring, case-sensitive)', async () => {
      const owner = await createOwner(app.api, { name: unique('Exact') });
      await createOwner(app.api, { name: `${owner.name}-longer` });
      assert.deepEqual((await app.api.get('/owners', { name: owner.name })).body.results.map((o: { owner_id: string }) => o.owner_id), [owner.owner_id]);
      assert.equal((await app.api.get('/owners', { name: owner.name.slice(0, -1) })).body.results.length, 0);
      assert.equal((await app.api.get('/owners', { name: owner.name.toLowerCase() })).body.results.length, 0);
    });

    it('400s on a bad cursor or page_size, naming it', async () => {
      const cursor = await app.api.get('/owners', { cursor: 'garbage' });
      assert.equal(cursor.status, 400);
      assert.deepEqual(errorPaths(cursor.body), ['cursor']);
      const size = await app.api.get('/owners', { page_size: 0 });
      assert.equal(size.status, 400);
      assert.deepEqual(errorPaths(size.body), ['page_size']);
    });

    it('400s on a non-UUID id and 404s on unknown ids and names', async () => {
      const bad = await app.api.get('/owners/not-a-uuid');
      assert.equal(bad.status, 400);
      assert.deepEqual(errorPaths(bad.body), ['owner_id']);
      assert.equal((await app.api.get(`/owners/${NO_SUCH_ID}`)).status, 404);
      assert.equal((await app.api.get(`/owners/name/${unique('nobody')}`)).status, 404);
      assert.equal((await app.api.get(`/owners/${NO_SUCH_ID}/users`)).status, 404);
    });
  });

  describe('PUT /owners (bulk update)', () => {
    it('updates several owners, clears links with "", and records one event naming each', async () => {
      const a = await createOwner(app.api, { reviewer_message_channel_id: (await createMessageChannel(app.api)).message_channel_id });
      const b = await createOwner(app.api, { description: 'b' });
      const newName = unique('renamed');
      const res = await app.api.put('/owners', {
        owners: [
          { owner_id: a.owner_id, name: newName, access_request_escalation_period: 30, reviewer_message_channel_id: '' },
          { owner_id: b.owner_id.toUpperCase(), description: 'B!' },
        ],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const readA = (await app.api.get(`/owners/${a.owner_id}`)).body;
      const readB = (await app.api.get(`/owners/${b.owner_id}`)).body;
      assert.deepEqual(res.body, { owners: [readA, readB] });
      assert.deepEqual(readA, { owner_id: a.owner_id, name: newName, description: '', access_request_escalation_period: 30 });
      assert.equal(readB.name, b.name, 'fields left out keep their value');
      assert.equal(readB.description, 'B!');
      const [event] = await readEvents(app.api, { object: b.owner_id, type: 'OWNERS_UPDATED' });
      assert.ok(event);
      assert.deepEqual(event.sub_events.map((s) => s.owner_id), [a.owner_id, b.owner_id]);
    });

    it('lets two owners swap names in one call', async () => {
      const [a, b] = [await createOwner(app.api), await createOwner(app.api)];
      const res = await app.api.put('/owners', { owners: [{ owner_id: a.owner_id, name: b.name }, { owner_id: b.owner_id, name: a.name }] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await app.api.get(`/owners/${a.owner_id}`)).body.name, b.name);
      assert.equal((await app.api.get(`/owners/${b.owner_id}`)).body.name, a.name);
    });

    it('changes nothing and records nothing when any item is bad', async () => {
      const [a, b, other] = [await createOwner(app.api), await createOwner(app.api), await createOwner(app.api)];
      const snapshot = await allOwners();
      const updatesBefore = await countEvents(app.api, { type: 'OWNERS_UPDATED' });
      const good = { owner_id: a.owner_id, name: unique('should-not-stick'), description: 'nope' };
      const cases: [unknown[], number, string][] = [
        [[good, { owner_id: NO_SUCH_ID, name: 'x' }], 404, 'owners.1.owner_id'],
        [[good, { owner_id: b.owner_id, access_request_escalation_period: -5 }], 400, 'owners.1.access_request_escalation_period'],
        [[good, { owner_id: b.owner_id, name: other.name }], 409, 'owners.1.name'],
        [[good, { owner_id: b.owner_id, name: good.name }], 409, 'owners.1.name'],
        [[good, { owner_id: a.owner_id, description: 'twice' }], 400, 'owners.1.owner_id'],
        [[good, { owner_id: b.owner_id, source_group_id: NO_SUCH_ID }], 404, 'owners.1.source_group_id'],
        [[good, { owner_id: b.owner_id, reviewer_message_channel_id: 'general' }], 400, 'owners.1.reviewer_message_channel_id'],
        [[good, { owner_id: b.owner_id, reviewer_message_channel_id: NO_SUCH_ID }], 404, 'owners.1.reviewer_message_channel_id'],
        [[good, { name: 'no id' }], 400, 'owners.1.owner_id'],
      ];
      for (const [owners, status, path] of cases) {
        const res = await app.api.put('/owners', { owners });
        assert.equal(res.status, status, JSON.stringify(owners));
        assert.deepEqual(errorPaths(res.body), [path], JSON.stringify(owners));
        assert.deepEqual(await allOwners(), snapshot, `nothing changed after ${JSON.stringify(owners)}`);
      }
      assert.equal(await countEvents(app.api, { type: 'OWNERS_UPDATED' }), updatesBefore);
      assert.equal((await app.api.put('/owners', {})).status, 400);
    });

    it('accepts an empty list, changing and recording nothing', async () => {
      const before = await countEvents(app.api, { type: 'OWNERS_UPDATED' });
      const res = await app.api.put('/owners', { owners: [] });
      assert.deepEqual([res.status, res.body], [200, { owners: [] }]);
      assert.equal(await countEvents(app.api, { type: 'OWNERS_UPDATED' }), before);
    });
  });

  describe('DELETE /owners/{owner_id}', () => {
    it('refuses while the owner administers an app, naming it, then deletes once it owns nothing', async () => {
      const owner = await createOwner(app.api);
      const owned = await createApp(app.api, { admin_owner_id: owner.owner_id });
      const refused = await app.api.delete(`/owners/${owner.owner_id}`);
      assert.equal(refused.status, 409);
      assert.equal(refused.body.code, 'conflict');
      assert.match(refused.body.message, /1 app\b/);
      assert.equal((await app.api.get(`/owners/${owner.owner_id}`)).status, 200);
      assert.equal((await readEvents(app.api, { object: owner.owner_id, type: 'OWNERS_DELETED' })).length, 0);

      assert.equal((await app.api.delete(`/apps/${owned.app_id}`)).status, 200);
      const res = await app.api.delete(`/owners/${owner.owner_id}`);
      assert.deepEqual([res.status, res.body], [200, {}]);
      assert.equal((await app.api.get(`/owners/${owner.owner_id}`)).status, 404);
      assert.equal((await readEvents(app.api, { object: owner.owner_id, type: 'OWNERS_DELETED' })).length, 1);
      assert.equal((await app.api.delete(`/owners/${owner.owner_id}`)).status, 404);
    });

    it('drops the owner\'s user list with it, and frees the name', async () => {
      const user = await createUser(app.api);
      const owner = await createOwner(app.api, { user_ids: [user.user_id] });
      assert.equal((await app.api.delete(`/owners/${owner.owner_id}`)).status, 200);
      assert.equal((await app.api.get(`/owners/name/${owner.name}`)).status, 404);
      const again = await createOwner(app.api, { name: owner.name });
      assert.deepEqual((await app.api.get(`/owners/${again.owner_id}/users`)).body, { users: [] });
    });

    it('names every kind of thing it still administers', async () => {
      const owner = await createOwner(app.api);
      const ownedApp = await createApp(app.api, { admin_owner_id: owner.owner_id });
      const resource = await createResource(app.api, { app_id: ownedApp.app_id });
      const group = await createGroup(app.api, { app_id: ownedApp.app_id });
      await createBundle(app.api, { admin_owner_id: owner.owner_id });
      await createBundle(app.api, { admin_owner_id: owner.owner_id });
      const res = await app.api.delete(`/owners/${owner.owner_id}`);
      assert.equal(res.status, 409);
      assert.match(res.body.message, /\b1 app\b/);
      assert.match(res.body.message, /\b2 bundles\b/);
      // Resources and groups made in an app are administered by the app's owner unless their area says otherwise.
      if (resource.admin_owner_id === owner.owner_id) assert.match(res.body.message, /\b1 resource\b/);
      if (group.admin_owner_id === owner.owner_id) assert.match(res.body.message, /\b1 group\b/);
      assert.equal((await app.api.get(`/owners/${owner.owner_id}`)).status, 200);
    });

    it('400s on a non-UUID id', async () => {
      const res = await app.api.delete('/owners/xyz');
      assert.equal(res.status, 400);
      assert.deepEqual(errorPaths(res.body), ['owner_id']);
    });
  });

  describe('owner users', () => {
    it('replaces the set in the order given and records who joined and left', async () => {
      const [u1, u2, u3] = [await createUser(app.api), await createUser(app.api), await createUser(app.api)];
      const owner = await createOwner(app.api, { user_ids: [u1.user_id, u2.user_id] });
      const res = await app.api.put(`/owners/${owner.owner_id}/users`, { user_ids: [u3.user_id, u1.user_id] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const ids = (body: { users: { user_id: string }[] }) => body.users.map((u) => u.user_id);
      assert.deepEqual(ids(res.body), [u3.user_id, u1.user_id]);
      assert.deepEqual(ids((await app.api.get(`/owners/${owner.owner_id}/users`)).body), [u3.user_id, u1.user_id]);
      assert.equal(res.body.users[0].email, u3.email);

      const [event] = await readEvents(app.api, { object: owner.owner_id, type: 'OWNER_USERS_UPDATED' });
      assert.ok(event);
      const subs = event.sub_events.map((s) => `${s.sub_event_type}:${s.user_id ?? ''}`).sort();
      assert.deepEqual(subs, ['OWNER_USERS_UPDATED:', `OWNER_USER_ADDED:${u3.user_id}`, `OWNER_USER_REMOVED:${u2.user_id}`].sort());
      assert.equal((await readEvents(app.api, { object: u2.user_id, type: 'OWNER_USERS_UPDATED' })).length, 1);

      const cleared = await app.api.put(`/owners/${owner.owner_id}/users`, { user_ids: [] });
      assert.deepEqual(cleared.body, { users: [] });
    });

    it('404s naming user_ids.N for an unknown user, and changes nothing', async () => {
      const user = await createUser(app.api);
      const owner = await createOwner(app.api, { user_ids: [user.user_id] });
      const before = await countEvents(app.api, { type: 'OWNER_USERS_UPDATED' });
      const res = await app.api.put(`/owners/${owner.owner_id}/users`, { user_ids: [NO_SUCH_ID] });
      assert.equal(res.status, 404);
      assert.deepEqual(errorPaths(res.body), ['user_ids.0']);
      const now = (await app.api.get(`/owners/${owner.owner_id}/users`)).body.users;
      assert.deepEqual(now.map((u: { user_id: string }) => u.user_id), [user.user_id]);
      assert.equal(await countEvents(app.api, { type: 'OWNER_USERS_UPDATED' }), before);
    });

    it('takes users from a source group: direct edits are refused until the link is cleared', async () => {
      const group = await createGroup(app.api);
      const owner = await createOwner(app.api, { source_group_id: group.group_id });
      assert.equal((owner as unknown as { source_group_id: string }).source_group_id, group.group_id);
      const user = await createUser(app.api);
      const refused = await app.api.put(`/owners/${owner.owner_id}/users`, { user_ids: [user.user_id] });
      assert.equal(refused.status, 409);
      assert.deepEqual(errorPaths(refused.body), ['user_ids']);

      const cleared = await app.api.put('/owners', { owners: [{ owner_id: owner.owner_id, source_group_id: '' }] });
      assert.equal(cleared.status, 200);
      assert.equal('source_group_id' in cleared.body.owners[0], false);
      assert.equal((await app.api.put(`/owners/${owner.owner_id}/users`, { user_ids: [user.user_id] })).status, 200);
      const relinked = await app.api.put('/owners', { owners: [{ owner_id: owner.owner_id, source_group_id: group.group_id }] });
      assert.equal(relinked.body.owners[0].source_group_id, group.group_id);
      assert.deepEqual((await app.api.get(`/owners/${owner.owner_id}/users`)).body.users, [], 'the listed user no longer counts: the group has no members');
      const [event] = await readEvents(app.api, { object: user.user_id, type: 'OWNERS_UPDATED' });
      assert.ok(event!.sub_events.some((e) => e.sub_event_type === 'OWNER_USER_REMOVED' && e.user_id === user.user_id), 'the listed user is forgotten, and the trail says so');
      assert.equal((await app.api.put('/owners', { owners: [{ owner_id: owner.owner_id, source_group_id: '' }] })).status, 200);
      assert.deepEqual((await app.api.get(`/owners/${owner.owner_id}/users`)).body.users, [], 'unlinking does not bring the old list back');
    });

    it('with a source group, its users are the group\'s members now (nesting included): they review, see what it administers, and the group cannot go', async () => {
      const [team, subteam] = [await createGroup(app.api), await createGroup(app.api)];
      const [lead, dev, outsider] = [await createUser(app.api), await createUser(app.api), await createUser(app.api)];
      assert.equal((await app.api.post(`/groups/${team.group_id}/users/${lead.user_id}`, { duration_minutes: 0 })).status, 200);
      assert.equal((await app.api.post(`/groups/${subteam.group_id}/users/${dev.user_id}`, { duration_minutes: 10 })).status, 200);
      assert.equal((await app.api.post(`/groups/${subteam.group_id}/containing-groups`, { containing_group_id: team.group_id })).status, 200);
      const owner = await createOwner(app.api, { source_group_id: team.group_id });
      const users = async () => (await app.api.get(`/owners/${owner.owner_id}/users`)).body.users.map((u: { user_id: string }) => u.user_id);
      // A source group's users come by email (case-folded; the id breaks a tie), whatever ids they got.
      const key = (u: { email: string; user_id: string }) => `${u.email.toLowerCase()}\u0000${u.user_id}`;
      const byEmail = [lead, dev].sort((a, b) => (key(a) < key(b) ? -1 : 1));
      assert.deepEqual(await users(), byEmail.map((u) => u.user_id));

      // They review for the owner.
      const resource = await requestableResource(app, owner.owner_id, [config({ reviewer_stages: [stage({ owner_ids: [owner.owner_id] })] })]);
      const asAdmin = await app.api.post('/requests', { resources: [{ id: resource.resource_id }], groups: [], reason: 'x', duration_minutes: 60, target_user_id: outsider.user_id });
      assert.equal(asAdmin.status, 200, JSON.stringify(asAdmin.body));
      const stages = (await app.api.get(`/requests/${asAdmin.body.id}`)).body.reviewer_stages[0].stages;
      assert.deepEqual(stages[0].reviewers.map((r: { id: string }) => r.id).sort(), [lead.user_id, dev.user_id].sort());

      // They see a LIMITED item the owner administers; someone outside the group does not.
      assert.equal((await app.api.put(`/resources/${resource.resource_id}/visibility`, { visibility: 'LIMITED', visibility_group_ids: [] })).status, 200);
      const as = async (userId: string) => app.api.as((await createToken(app.api, { user_id: userId })).secret);
      assert.equal((await (await as(dev.user_id)).get(`/resources/${resource.resource_id}`)).status, 200);
      assert.equal((await (await as(outsider.user_id)).get(`/resources/${resource.resource_id}`)).status, 404);

      // Membership is read now: an expired one no longer counts.
      app.clock.advance(11 * 60_000);
      assert.deepEqual(await users(), [lead.user_id]);

      const refused = await app.api.delete(`/groups/${team.group_id}`);
      assert.equal(refused.status, 409);
      assert.deepEqual(errorPaths(refused.body), ['group_id']);
    });

    it('validates the body and the owner', async () => {
      const owner = await createOwner(app.api);
      for (const [body, path] of [[{}, 'user_ids'], [{ user_ids: ['x'] }, 'user_ids.0']] as const) {
        const res = await app.api.put(`/owners/${owner.owner_id}/users`, body);
        assert.equal(res.status, 400);
        assert.deepEqual(errorPaths(res.body), [path]);
      }
      assert.equal((await app.api.put(`/owners/${NO_SUCH_ID}/users`, { user_ids: [] })).status, 404);
      assert.equal((await app.api.put('/owners/x/users', { user_ids: [] })).status, 400);
    });
  });
  describe('what an owner administers (owner_filter, an extension filter on resources and groups)', () => {
    it('lists the resources and groups an owner administers, page by page, and checks the id', async () => {
      const owner = await createOwner(app.api);
      const appId = (await createApp(app.api)).app_id;
      const r1 = await createResource(app.api, { app_id: appId, admin_owner_id: owner.owner_id });
      await createResource(app.api, { app_id: appId });
      const r2 = await createResource(app.api, { app_id: appId, admin_owner_id: owner.owner_id });
      const g1 = await createGroup(app.api, { app_id: appId, admin_owner_id: owner.owner_id });
      await createGroup(app.api, { app_id: appId });

      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await app.api.get('/resources', { owner_filter: owner.owner_id.toUpperCase(), page_size: 1, cursor });
        assert.equal(page.status, 200);
        ids.push(...page.body.results.map((r: { resource_id: string }) => r.resource_id));
        cursor = page.body.next ?? undefined;
      } while (cursor);
      assert.deepEqual(ids, [r1.resource_id, r2.resource_id]);
      const groups = await app.api.get('/groups', { owner_filter: owner.owner_id });
      assert.deepEqual(groups.body.results.map((g: { group_id: string }) => g.group_id), [g1.group_id]);
      assert.deepEqual((await app.api.get('/groups', { owner_filter: NO_SUCH_ID })).body.results, []);

      for (const path of ['/resources', '/groups']) {
        const bad = await app.api.get(path, { owner_filter: 'nope' });
        assert.equal(bad.status, 400);
        assert.deepEqual(errorPaths(bad.body), ['owner_filter']);
      }
    });
  });
});
