// Users and remote user accounts through HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createMember, createUser, NO_SUCH_ID, unique } from '../helpers/fixtures.ts';
import { countEvents, readEvents } from '../helpers/events.ts';
import { errorPaths } from '../helpers/errors.ts';

describe('users', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('creates a user, splitting the full name, and reads it back by id and by email', async () => {
    const email = `${unique('ada')}@example.com`;
    const created = await app.api.post('/users', { email, full_name: 'Ada King Lovelace', position: 'Analyst' });
    assert.equal(created.status, 200);
    assert.equal(created.body.first_name, 'Ada');
    assert.equal(created.body.last_name, 'King Lovelace');
    assert.equal(created.body.position, 'Analyst');
    assert.equal(created.body.hr_idp_status, 'ACTIVE');

    const byId = await app.api.get('/user', { user_id: created.body.user_id });
    assert.deepEqual(byId.body, created.body);
    const byEmail = await app.api.get('/user', { email: email.toUpperCase() });
    assert.deepEqual(byEmail.body, created.body);
    const byPath = await app.api.get(`/users/${created.body.user_id}`);
    assert.deepEqual(byPath.body, created.body);
  });

  it('refuses a duplicate email with 409 naming the field, and writes nothing', async () => {
    const user = await createUser(app.api);
    const before = (await app.api.get('/events', { event_type_filter: 'USERS_CREATED' })).body.results.length;
    const res = await app.api.post('/users', { email: user.email, full_name: 'Someone Else' });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'conflict');
    assert.equal(res.body.details[0].path, 'email');
    const afterCount = (await app.api.get('/events', { event_type_filter: 'USERS_CREATED' })).body.results.length;
    assert.equal(afterCount, before);
  });

  it('PUT /users/{id}/name: a person changes their own name, an admin anyone\'s; nothing else, nobody else\'s; audited', async () => {
    const [mia, noor] = [await createMember(app.api, { full_name: 'Mia Member' }), await createMember(app.api, { full_name: 'Noor Other' })];
    const own = await mia.api.put(`/users/${mia.user.user_id}/name`, { full_name: '  Mia Moreno ' });
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.equal(own.body.full_name, 'Mia Moreno', 'trimmed');
    assert.equal(own.body.email, mia.user.email);
    const [event] = await readEvents(app.api, { type: 'USERS_UPDATED', object: mia.user.user_id });
    assert.equal(event!.actor_user_id, mia.user.user_id);
    assert.equal(event!.sub_events[0]!.updated_fields, 'full_name');

    const before = await countEvents(app.api, { type: 'USERS_UPDATED' });
    const theirs = await mia.api.put(`/users/${noor.user.user_id}/name`, { full_name: 'Renamed' });
    assert.equal(theirs.status, 403);
    assert.equal((await app.api.get(`/users/${noor.user.user_id}`)).body.full_name, 'Noor Other');
    for (const [body, paths] of [[{ full_name: '' }, ['full_name']], [{ full_name: 'two\nlines' }, ['full_name']], [{}, ['full_name']]] as const) {
      const bad = await mia.api.put(`/users/${mia.user.user_id}/name`, body);
      assert.equal(bad.status, 400);
      assert.deepEqual(errorPaths(bad.body), paths);
    }
    assert.equal((await mia.api.put(`/users/${NO_SUCH_ID}/name`, { full_name: 'Nobody' })).status, 404);
    assert.equal(await countEvents(app.api, { type: 'USERS_UPDATED' }), before, 'refusals record nothing');

    const byAdmin = await app.api.put(`/users/${noor.user.user_id}/name`, { full_name: 'Noor Okafor' });
    assert.equal(byAdmin.body.full_name, 'Noor Okafor');
    // Everything else stays with admins.
    assert.equal((await mia.api.put(`/users/${mia.user.user_id}`, { full_name: 'Via the admin route' })).status, 403);
  });

  it('validates the body and names each bad field', async () => {
    const res = await app.api.post('/users', { email: 'not-an-email', full_name: '' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_failed');
    assert.deepEqual(errorPaths(res.body), ['email', 'full_name']);
  });

  it('records the manager, and 404s on an unknown one', async () => {
    const manager = await createUser(app.api);
    const report = await createUser(app.api, { manager_id: manager.user_id });
    assert.equal((report as unknown as { manager_id: string }).manager_id, manager.user_id);
    const missing = await app.api.post('/users', {
      email: `${unique('x')}@example.com`, full_name: 'X Y', manager_id: NO_SUCH_ID,
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.details[0].path, 'manager_id');
  });

  it('GET /user needs user_id or email, and 404s on no match', async () => {
    assert.equal((await app.api.get('/user')).status, 400);
    assert.equal((await app.api.get('/user', { email: 'nobody@example.com' })).status, 404);
    assert.equal((await app.api.get('/user', { user_id: NO_SUCH_ID })).status, 404);
    assert.equal((await app.api.get('/user', { user_id: 'nope' })).status, 400);
  });

  it('lists users in creation order, the admin first', async () => {
    const res = await app.api.get('/users', { page_size: 1000 });
    assert.equal(res.status, 200);
    assert.equal(res.body.results[0].email, 'admin@gatehouse.local');
    assert.equal(res.body.next, null);
    assert.equal(res.body.previous, null);
  });

  it('contains keeps people whose email or full name holds the text, in any case, page by page', async () => {
    const tag = unique('zq');
    const manager = await createUser(app.api);
    const byName = await app.api.post('/users', { email: `${unique('a')}@example.com`, full_name: `Ümit ${tag.toUpperCase()} Yilmaz`, manager_id: manager.user_id });
    const byEmail = await app.api.post('/users', { email: `${tag}.b@example.com`, full_name: 'Bea Other' });
    const third = await app.api.post('/users', { email: `${tag}.c@example.com`, full_name: 'Cy Third', manager_id: manager.user_id });
    await createUser(app.api);
    const ids = [byName, byEmail, third].map((res) => res.body.user_id);

    const found: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await app.api.get('/users', { contains: tag, page_size: 1, cursor });
      assert.equal(page.status, 200);
      found.push(...page.body.results.map((u: { user_id: string }) => u.user_id));
      cursor = page.body.next ?? undefined;
    } while (cursor);
    assert.deepEqual(found, ids);

    const reports = await app.api.get('/users', { contains: tag.toUpperCase(), manager_id: manager.user_id });
    assert.deepEqual(reports.body.results.map((u: { user_id: string }) => u.user_id), [ids[0], ids[2]]);
    // Unicode folds as every other name filter does; % is a plain character, not a wildcard.
    assert.deepEqual((await app.api.get('/users', { contains: `ümit ${tag}` })).body.results.map((u: { user_id: string }) => u.user_id), [ids[0]]);
    assert.deepEqual((await app.api.get('/users', { contains: '%' })).body.results, []);

    const tooLong = await app.api.get('/users', { contains: 'x'.repeat(201) });
    assert.equal(tooLong.status, 400);
    assert.deepEqual(errorPaths(tooLong.body), ['contains']);
  });

  describe('remote users', () => {
    it('records accounts, filters by provider, user and remote id, and refuses duplicates', async () => {
      const alice = await createUser(app.api);
      const bob = await createUser(app.api);
      const a1 = await app.api.post('/users/remote_users', { user_id: alice.user_id, third_party_provider: 'GIT_HUB', remote_id: 'alice-gh' });
      assert.equal(a1.status, 200);
      assert.deepEqual(a1.body, { user_id: alice.user_id, third_party_provider: 'GIT_HUB', remote_id: 'alice-gh' });
      await app.api.post('/users/remote_users', { user_id: alice.user_id, third_party_provider: 'SLACK', remote_id: 'U123' });
      // Sample remote ids may be numbers; they are stored as text.
      const numeric = await app.api.post('/users/remote_users', { user_id: bob.user_id, third_party_provider: 'GIT_HUB', remote_id: 1234567890 });
      assert.equal(numeric.body.remote_id, '1234567890');

      const github = await app.api.get('/users/remote_users', { third_party_provider: 'GIT_HUB', user_id: [alice.user_id, bob.user_id] });
      assert.deepEqual(github.body.results.map((r: { remote_id: string }) => r.remote_id), ['alice-gh', '1234567890']);
      const both = await app.api.get('/users/remote_users', { third_party_provider: ['GIT_HUB', 'SLACK'], user_id: alice.user_id });
      assert.equal(both.body.results.length, 2);
      const byRemote = await app.api.get('/users/remote_users', { remote_id: 'U123' });
      assert.deepEqual(byRemote.body.results.map((r: { user_id: string }) => r.user_id), [alice.user_id]);

      const again = await app.api.post('/users/remote_users', { user_id: alice.user_id, third_party_provider: 'GIT_HUB', remote_id: 'other' });
      assert.equal(again.status, 409);
      const taken = await app.api.post('/users/remote_users', { user_id: bob.user_id, third_party_provider: 'SLACK', remote_id: 'U123' });
      assert.equal(taken.status, 409);

      const bad = await app.api.get('/users/remote_users', { third_party_provider: 'GITHUB' });
      assert.equal(bad.status, 400);
      assert.match(bad.body.details[0].path, /^third_party_provider/);
      const unknownUser = await app.api.post('/users/remote_users', { user_id: NO_SUCH_ID, third_party_provider: 'JIRA', remote_id: 'x' });
      assert.equal(unknownUser.status, 404);
    });

    it('removes an account, and removing it again is an empty success', async () => {
      const carol = await createUser(app.api);
      await app.api.post('/users/remote_users', { user_id: carol.user_id, third_party_provider: 'JIRA', remote_id: 'carol' });
      const first = await app.api.delete(`/users/${carol.user_id}/remote_users/JIRA`);
      assert.equal(first.status, 200);
      assert.equal((await app.api.get('/users/remote_users', { user_id: carol.user_id })).body.results.length, 0);
      const second = await app.api.delete(`/users/${carol.user_id}/remote_users/JIRA`);
      assert.equal(second.status, 200);
      const events = await app.api.get('/events', { object_filter: carol.user_id, event_type_filter: 'REMOTE_USERS_DELETED' });
      assert.equal(events.body.results.length, 1);
    });
  });
});
