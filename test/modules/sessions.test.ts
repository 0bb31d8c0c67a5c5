// Sessions through HTTP: opening one on access the user holds, listing, ending, expiry, and how
// changes to the access cut sessions short.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createResource, createUser, NO_SUCH_ID } from '../helpers/fixtures.ts';
import { readEvents } from '../helpers/events.ts';

const MINUTE = 60_000;

describe('sessions', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const inMinutes = (minutes: number) => new Date(app.clock.now().getTime() + minutes * MINUTE).toISOString();
  const open = async (resourceId: string, userId?: string) =>
    (await app.api.get('/sessions', { resource_id: resourceId, user_id: userId })).body.results as {
      connection_id: string;
      user_id: string;
      expiration_date: string;
    }[];

  /** A resource and a user who holds access to it for `minutes` (0: indefinitely). */
  async function granted(minutes = 0) {
    const resource = await createResource(app.api);
    const user = await createUser(app.api);
    const edge = `/resources/${resource.resource_id}/users/${user.user_id}`;
    assert.equal((await app.api.post(edge, { duration_minutes: minutes })).status, 200);
    return { resource, user, edge };
  }

  it('GET /sessions requires resource_id, checks both ids, and 404s on an unknown resource', async () => {
    const none = await app.api.get('/sessions');
    assert.equal(none.status, 400);
    assert.equal(none.body.details[0].path, 'resource_id');
    assert.equal((await app.api.get('/sessions', { resource_id: 'x' })).body.details[0].path, 'resource_id');
    const { resource } = await granted();
    assert.equal((await app.api.get('/sessions', { resource_id: resource.resource_id, user_id: 'x' })).body.details[0].path, 'user_id');
    const unknown = await app.api.get('/sessions', { resource_id: NO_SUCH_ID });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.details[0].path, 'resource_id');
    const empty = await app.api.get('/sessions', { resource_id: resource.resource_id });
    assert.deepEqual(empty.body, { results: [], next: null, previous: null });
  });

  it('opens a session on held access, lists it (filtered by user) and records SESSIONS_CREATED', async () => {
    const { resource, user } = await granted();
    const res = await app.api.post('/sessions', { resource_id: resource.resource_id, user_id: user.user_id, duration_minutes: 30 });
    assert.equal(res.status, 200);
    assert.equal(res.body.resource_id, resource.resource_id);
    assert.equal(res.body.user_id, user.user_id);
    assert.deepEqual(res.body.access_level, { access_level_name: '', access_level_remote_id: '' });
    assert.equal(res.body.expiration_date, inMinutes(30));

    assert.deepEqual(await open(resource.resource_id), [res.body]);
    assert.deepEqual(await open(resource.resource_id, user.user_id), [res.body]);
    assert.deepEqual(await open(resource.resource_id, app.adminUserId), []);
    const recorded = await readEvents(app.api, { object: res.body.connection_id, type: 'SESSIONS_CREATED' });
    assert.equal(recorded.length, 1);
    assert.equal(recorded[0]!.sub_events[0]!.user_id, user.user_id);
  });

  it('lasts 60 minutes by default, and never past the access it rides on', async () => {
    const forever = await granted(0);
    const a = await app.api.post('/sessions', { resource_id: forever.resource.resource_id, user_id: forever.user.user_id });
    assert.equal(a.body.expiration_date, inMinutes(60));
    const short = await granted(20);
    const b = await app.api.post('/sessions', { resource_id: short.resource.resource_id, user_id: short.user.user_id, duration_minutes: 600 });
    assert.equal(b.body.expiration_date, inMinutes(20));
  });

  it('opens the session for the caller when no user_id is given', async () => {
    const resource = await createResource(app.api);
    const denied = await app.api.post('/sessions', { resource_id: resource.resource_id });
    assert.equal(denied.status, 409, 'the admin holds no access yet');
    await app.api.post(`/resources/${resource.resource_id}/users/${app.adminUserId}`, { duration_minutes: 0 });
    const res = await app.api.post('/sessions', { resource_id: resource.resource_id });
    assert.equal(res.status, 200);
    assert.equal(res.body.user_id, app.adminUserId);
  });

  it('refuses a user without unexpired access at that level (409), and bad or unknown input, writing nothing', async () => {
    const { resource, user } = await granted(5);
    const stranger = await createUser(app.api);
    const cases: [unknown, number, string][] = [
      [{ resource_id: resource.resource_id, user_id: stranger.user_id }, 409, 'user_id'],
      [{ resource_id: NO_SUCH_ID, user_id: user.user_id }, 404, 'resource_id'],
      [{ resource_id: resource.resource_id, user_id: NO_SUCH_ID }, 404, 'user_id'],
      [{ resource_id: resource.resource_id, user_id: user.user_id, access_level_remote_id: 'nope' }, 404, 'access_level_remote_id'],
      [{ resource_id: 'x', user_id: user.user_id }, 400, 'resource_id'],
      [{ user_id: user.user_id }, 400, 'resource_id'],
      [{ resource_id: resource.resource_id, user_id: user.user_id, duration_minutes: 0 }, 400, 'duration_minutes'],
      [{ resource_id: resource.resource_id, user_id: user.user_id, duration_minutes: 525961 }, 400, 'duration_minutes'],
    ];
    for (const [body, status, field] of cases) {
      const res = await app.api.post('/sessions', body);
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(res.body.details[0].path, field, JSON.stringify(body));
    }
    app.clock.advance(5 * MINUTE);
    const expired = await app.api.post('/sessions', { resource_id: resource.resource_id, user_id: user.user_id });
    assert.equal(expired.status, 409, 'access that has expired is not held');
    assert.deepEqual(await open(resource.resource_id), []);
    assert.equal((await readEvents(app.api, { object: resource.resource_id, type: 'SESSIONS_CREATED' })).length, 0);
  });

  it('opens a session at a named access level only when the user holds that level', async () => {
    const resource = await createResource(app.api, { access_levels: [{ access_level_name: 'Reader', access_level_remote_id: 'read' }] });
    const user = await createUser(app.api);
    await app.api.post(`/resources/${resource.resource_id}/users/${user.user_id}`, { duration_minutes: 0 });
    const body = { resource_id: resource.resource_id, user_id: user.user_id, access_level_remote_id: 'read' };
    assert.equal((await app.api.post('/sessions', body)).status, 409, 'the default level is not the Reader level');
    await app.api.post(`/resources/${resource.resource_id}/users/${user.user_id}`, { duration_minutes: 0, access_level_remote_id: 'read' });
    const res = await app.api.post('/sessions', body);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.access_level, { access_level_name: 'Reader', access_level_remote_id: 'read' });
    await app.api.delete(`/resources/${resource.resource_id}/users/${user.user_id}`);
    assert.equal((await open(resource.resource_id)).length, 1, 'removing the default level leaves a Reader session open');
  });

  it('stops listing a session at its expiration_date', async () => {
    const { resource, user } = await granted();
    await app.api.post('/sessions', { resource_id: resource.resource_id, user_id: user.user_id, duration_minutes: 10 });
    app.clock.advance(10 * MINUTE - 1);
    assert.equal((await open(resource.resource_id)).length, 1);
    app.clock.advance(1);
    assert.equal((await open(resource.resource_id)).length, 0);
  });

  it('ends a session with DELETE, recording SESSIONS_ENDED once; ending it again is an empty success', async () => {
    const { resource, user } = await granted();
    const session = (await app.api.post('/sessions', { resource_id: resource.resource_id, user_id: user.user_id })).body;
    const res = await app.api.delete(`/sessions/${session.connection_id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {});
    assert.deepEqual(await open(resource.resource_id), []);
    assert.deepEqual((await app.api.delete(`/sessions/${session.connection_id}`)).body, {});
    assert.equal((await readEvents(app.api, { object: session.connection_id, type: 'SESSIONS_ENDED' })).length, 1);

    const unknown = await app.api.delete(`/sessions/${NO_SUCH_ID}`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.details[0].path, 'connection_id');
    assert.equal((await app.api.delete('/sessions/x')).status, 400);
  });

  it('ending an expired session is an empty success with no event', async () => {
    const { resource, user } = await granted();
    const session = (await app.api.post('/sessions', { resource_id: resource.resource_id, user_id: user.user_id, duration_minutes: 1 })).body;
    app.clock.advance(MINUTE);
    assert.deepEqual((await app.api.delete(`/sessions/${session.connection_id}`)).body, {});
    assert.equal((await readEvents(app.api, { object: session.connection_id, type: 'SESSIONS_ENDED' })).length, 0);
  });

  it('removing the access ends its open sessions, in the same event', async () => {
    const { resource, user, edge } = await granted();
    const s1 = (await app.api.post('/sessions', { resource_id: resource.resource_id, user_id: user.user_id })).body;
    const s2 = (await app.api.post('/sessions', { resource_id: resource.resource_id, user_id: user.user_id })).body;
    await app.api.delete(edge);
    assert.deepEqual(await open(resource.resource_id), []);
    const removed = await readEvents(app.api, { object: s1.connection_id, type: 'RESOURCE_USERS_REMOVED' });
    assert.equal(removed.length, 1);
    assert.deepEqual(
      removed[0]!.sub_events.filter((s) => s.sub_event_type === 'SESSIONS_ENDED').map((s) => s.connection_id),
      [s1.connection_id, s2.connection_id],
    );
  });

  it('shortening the access cuts open sessions back to its new expiry; lengthening it leaves them be', async () => {
    const { resource, user, edge } = await granted();
    const s = (await app.api.post('/sessions', { resource_id: resource.resource_id, user_id: user.user_id, duration_minutes: 60 })).body;
    await app.api.put(edge, { duration_minutes: 0 });
    assert.equal((await open(resource.resource_id))[0]!.expiration_date, s.expiration_date);
    await app.api.put(edge, { duration_minutes: 15 });
    assert.equal((await open(resource.resource_id))[0]!.expiration_date, inMinutes(15));
    app.clock.advance(15 * MINUTE);
    assert.deepEqual(await open(resource.resource_id), []);
  });

  it('pages with cursor and page_size', async () => {
    const { resource, user } = await granted();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await app.api.post('/sessions', { resource_id: resource.resource_id, user_id: user.user_id })).body.connection_id);
    }
    const first = await app.api.get('/sessions', { resource_id: resource.resource_id, page_size: 2 });
    assert.deepEqual(first.body.results.map((s: { connection_id: string }) => s.connection_id), ids.slice(0, 2));
    const second = await app.api.get('/sessions', { resource_id: resource.resource_id, page_size: 2, cursor: first.body.next });
    assert.deepEqual(second.body.results.map((s: { connection_id: string }) => s.connection_id), ids.slice(2));
    assert.equal(second.body.next, null);
  });
});
