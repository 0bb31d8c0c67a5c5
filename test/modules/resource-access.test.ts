// Users' direct access to resources through HTTP: add, update, remove, list, expiry and the audit trail.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createResource, createUser, NO_SUCH_ID } from '../helpers/fixtures.ts';
import { readEvents } from '../helpers/events.ts';

const MINUTE = 60_000;

describe('resource access (users on resources)', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const path = (resourceId: string, userId: string) => `/resources/${resourceId}/users/${userId}`;
  const inMinutes = (minutes: number) => new Date(app.clock.now().getTime() + minutes * MINUTE).toISOString();
  const listed = async (resourceId: string) => (await app.api.get(`/resources/${resourceId}/users`)).body.results as {
    user_id: string;
    expiration_date: string | null;
    access_level: { access_level_remote_id: string };
  }[];

  async function pair() {
    const resource = await createResource(app.api);
    const user = await createUser(app.api);
    return { resource, user, url: path(resource.resource_id, user.user_id) };
  }

  it('adds access for a duration, lists it, reads it back and records RESOURCE_USERS_ADDED', async () => {
    const { resource, user, url } = await pair();
    const res = await app.api.post(url, { duration_minutes: 90 });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      resource_id: resource.resource_id,
      user_id: user.user_id,
      access_level: { access_level_name: '', access_level_remote_id: '' },
      full_name: user.full_name,
      email: user.email,
      expiration_date: inMinutes(90),
    });

    const list = await app.api.get(`/resources/${resource.resource_id}/users`);
    assert.equal(list.status, 200);
    assert.equal(list.body.results.length, 1);
    assert.equal(list.body.results[0].resource_name, resource.name);
    assert.equal(list.body.results[0].has_direct_access, true);
    assert.equal(list.body.results[0].num_access_paths, 1);
    assert.equal(list.body.results[0].expiration_date, inMinutes(90));

    const one = await app.api.get(url);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, { data: [res.body], total_count: 1 });

    const recorded = await readEvents(app.api, { object: user.user_id, type: 'RESOURCE_USERS_ADDED' });
    assert.equal(recorded.length, 1);
    assert.equal(recorded[0]!.sub_events[0]!.resource_id, resource.resource_id);
    assert.equal((await readEvents(app.api, { object: resource.resource_id, type: 'RESOURCE_USERS_ADDED' })).length, 1);
  });

  it('treats duration 0 as indefinite: no expiration_date', async () => {
    const { url } = await pair();
    const res = await app.api.post(url, { duration_minutes: 0 });
    assert.equal(res.status, 200);
    assert.equal(res.body.expiration_date, null);
  });

  it('takes the deprecated query parameters, and the body wins over them', async () => {
    const fromQuery = await pair();
    const q = await app.api.post(fromQuery.url, undefined, { query: { duration_minutes: 30 } });
    assert.equal(q.status, 200);
    assert.equal(q.body.expiration_date, inMinutes(30));

    const both = await pair();
    const b = await app.api.post(both.url, { duration_minutes: 45 }, { query: { duration_minutes: 30, access_level_remote_id: 'nope' } });
    assert.equal(b.status, 404, 'the query level is still checked when the body does not give one');
    const c = await app.api.post(both.url, { duration_minutes: 45, access_level_remote_id: '' }, { query: { duration_minutes: 30, access_level_remote_id: 'nope' } });
    assert.equal(c.status, 200);
    assert.equal(c.body.expiration_date, inMinutes(45));
    assert.equal(c.body.access_level.access_level_remote_id, '');
  });

  it('validates duration_minutes wherever it comes from, naming it, and writes nothing', async () => {
    const { resource, user, url } = await pair();
    const cases: [unknown, Record<string, string | number> | undefined][] = [
      [undefined, undefined],
      [{}, undefined],
      [{ duration_minutes: 525961 }, undefined],
      [{ duration_minutes: -1 }, undefined],
      [{ duration_minutes: 1.5 }, undefined],
      [{ duration_minutes: '60' }, undefined],
      [undefined, { duration_minutes: 'abc' }],
      [undefined, { duration_minutes: 525961 }],
    ];
    for (const [body, query] of cases) {
      const res = await app.api.post(url, body, { query });
      assert.equal(res.status, 400, JSON.stringify({ body, query }));
      assert.equal(res.body.details[0].path, 'duration_minutes', JSON.stringify({ body, query }));
    }
    assert.equal((await app.api.post(url, { duration_minutes: 525960 })).status, 200, 'the maximum itself is allowed');
    assert.equal((await listed(resource.resource_id)).length, 1);
    assert.equal((await readEvents(app.api, { object: user.user_id })).filter((e) => e.event_type.startsWith('RESOURCE_USERS')).length, 1);
  });

  it('404s on an unknown resource, user or access level and 400s on a malformed id, writing nothing', async () => {
    const { resource, user, url } = await pair();
    const r1 = await app.api.post(path(NO_SUCH_ID, user.user_id), { duration_minutes: 10 });
    assert.equal(r1.status, 404);
    assert.equal(r1.body.details[0].path, 'resource_id');
    const r2 = await app.api.post(path(resource.resource_id, NO_SUCH_ID), { duration_minutes: 10 });
    assert.equal(r2.status, 404);
    assert.equal(r2.body.details[0].path, 'user_id');
    const r3 = await app.api.post(url, { duration_minutes: 10, access_level_remote_id: 'no-such-level' });
    assert.equal(r3.status, 404);
    assert.equal(r3.body.details[0].path, 'access_level_remote_id');
    const r4 = await app.api.post(path('not-a-uuid', user.user_id), { duration_minutes: 10 });
    assert.equal(r4.status, 400);
    assert.equal(r4.body.details[0].path, 'resource_id');
    assert.equal((await app.api.get(`/resources/${NO_SUCH_ID}/users`)).status, 404);
    assert.equal((await app.api.get(path(resource.resource_id, NO_SUCH_ID))).status, 404);
    assert.equal((await listed(resource.resource_id)).length, 0);
    assert.equal((await readEvents(app.api, { object: user.user_id })).filter((e) => e.event_type.startsWith('RESOURCE_USERS')).length, 0);
  });

  it('refuses to add access the user already holds (409), leaving it unchanged', async () => {
    const { resource, user, url } = await pair();
    await app.api.post(url, { duration_minutes: 10 });
    const again = await app.api.post(url, { duration_minutes: 500 });
    assert.equal(again.status, 409);
    assert.equal(again.body.details[0].path, 'user_id');
    assert.equal((await listed(resource.resource_id))[0]!.expiration_date, inMinutes(10));
    assert.equal((await readEvents(app.api, { object: user.user_id, type: 'RESOURCE_USERS_ADDED' })).length, 1);
  });

  it('stops reporting access once it has expired, and lets it be added again', async () => {
    const { resource, url } = await pair();
    await app.api.post(url, { duration_minutes: 5 });
    app.clock.advance(5 * MINUTE - 1);
    assert.equal((await listed(resource.resource_id)).length, 1);
    app.clock.advance(1);
    assert.equal((await listed(resource.resource_id)).length, 0, 'access ends at expiration_date');
    assert.deepEqual((await app.api.get(url)).body, { data: [], total_count: 0 });
    assert.equal((await app.api.put(url, { duration_minutes: 5 })).status, 404, 'expired access cannot be updated');
    const again = await app.api.post(url, { duration_minutes: 5 });
    assert.equal(again.status, 200);
    assert.equal(again.body.expiration_date, inMinutes(5));
    assert.equal((await listed(resource.resource_id)).length, 1);
  });

  it('keeps access at each of the resource\'s levels apart, with the level\'s name', async () => {
    const resource = await createResource(app.api, { access_levels: [{ access_level_name: 'Admin', access_level_remote_id: 'arn:role/Admin' }] });
    const user = await createUser(app.api);
    const url = path(resource.resource_id, user.user_id);
    const admin = await app.api.post(url, { duration_minutes: 10, access_level_remote_id: 'arn:role/Admin' });
    assert.equal(admin.status, 200);
    assert.deepEqual(admin.body.access_level, { access_level_name: 'Admin', access_level_remote_id: 'arn:role/Admin' });
    assert.equal((await app.api.post(url, { duration_minutes: 0 })).status, 200, 'the default level is another edge');
    assert.equal((await app.api.get(url)).body.total_count, 2);

    const put = await app.api.put(url, { duration_minutes: 20, access_level_remote_id: 'arn:role/Admin' });
    assert.equal(put.body.expiration_date, inMinutes(20));
    assert.equal((await app.api.get(url)).body.data.find((d: { access_level: { access_level_remote_id: string } }) => d.access_level.access_level_remote_id === '').expiration_date, null);

    await app.api.delete(url, undefined, { query: { access_level_remote_id: 'arn:role/Admin' } });
    const left = await listed(resource.resource_id);
    assert.deepEqual(left.map((r) => r.access_level.access_level_remote_id), ['']);
  });

  describe('PUT', () => {
    it('sets a new duration counted from now, 0 meaning indefinite, and records RESOURCE_USERS_UPDATED', async () => {
      const { resource, user, url } = await pair();
      await app.api.post(url, { duration_minutes: 10 });
      app.clock.advance(3 * MINUTE);
      const res = await app.api.put(url, { duration_minutes: 120 });
      assert.equal(res.status, 200);
      assert.equal(res.body.expiration_date, inMinutes(120));
      assert.equal(res.body.full_name, user.full_name);
      assert.equal((await listed(resource.resource_id))[0]!.expiration_date, inMinutes(120));
      const forever = await app.api.put(url, { duration_minutes: 0, access_level_remote_id: '' });
      assert.equal(forever.body.expiration_date, null);
      assert.equal((await readEvents(app.api, { object: user.user_id, type: 'RESOURCE_USERS_UPDATED' })).length, 2);
    });

    it('validates the body, 404s on access not held or unknown ids, and writes nothing', async () => {
      const { resource, user, url } = await pair();
      await app.api.post(url, { duration_minutes: 10 });
      for (const body of [{}, { duration_minutes: 525961 }, { duration_minutes: -1 }, { duration_minutes: 'x' }]) {
        const res = await app.api.put(url, body);
        assert.equal(res.status, 400);
        assert.equal(res.body.details[0].path, 'duration_minutes');
      }
      assert.equal((await app.api.put(url, { duration_minutes: 5, access_level_remote_id: 7 })).body.details[0].path, 'access_level_remote_id');
      const other = await createUser(app.api);
      const notHeld = await app.api.put(path(resource.resource_id, other.user_id), { duration_minutes: 5 });
      assert.equal(notHeld.status, 404);
      assert.equal(notHeld.body.details[0].path, 'user_id');
      const level = await app.api.put(url, { duration_minutes: 5, access_level_remote_id: 'nope' });
      assert.equal(level.status, 404);
      assert.equal(level.body.details[0].path, 'access_level_remote_id');
      assert.equal((await app.api.put(path(NO_SUCH_ID, user.user_id), { duration_minutes: 5 })).status, 404);
      assert.equal((await app.api.put(path(resource.resource_id, NO_SUCH_ID), { duration_minutes: 5 })).status, 404);
      assert.equal((await listed(resource.resource_id))[0]!.expiration_date, inMinutes(10));
      assert.equal((await readEvents(app.api, { object: user.user_id, type: 'RESOURCE_USERS_UPDATED' })).length, 0);
    });
  });

  describe('DELETE', () => {
    it('removes access and records RESOURCE_USERS_REMOVED; removing it again is an empty success with no event', async () => {
      const { resource, user, url } = await pair();
      await app.api.post(url, { duration_minutes: 0 });
      const res = await app.api.delete(url);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {});
      assert.equal((await listed(resource.resource_id)).length, 0);
      assert.equal((await readEvents(app.api, { object: user.user_id, type: 'RESOURCE_USERS_REMOVED' })).length, 1);

      const again = await app.api.delete(url);
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, {});
      const otherLevel = await app.api.delete(url, undefined, { query: { access_level_remote_id: 'never-granted' } });
      assert.equal(otherLevel.status, 200);
      assert.equal((await readEvents(app.api, { object: user.user_id, type: 'RESOURCE_USERS_REMOVED' })).length, 1);
    });

    it('only removes the access level named (the default when none is)', async () => {
      const { resource, url } = await pair();
      await app.api.post(url, { duration_minutes: 0 });
      await app.api.delete(url, undefined, { query: { access_level_remote_id: 'other' } });
      assert.equal((await listed(resource.resource_id)).length, 1);
    });

    it('treats expired access as already gone: empty success, no event', async () => {
      const { user, url } = await pair();
      await app.api.post(url, { duration_minutes: 1 });
      app.clock.advance(MINUTE);
      assert.deepEqual((await app.api.delete(url)).body, {});
      assert.equal((await readEvents(app.api, { object: user.user_id, type: 'RESOURCE_USERS_REMOVED' })).length, 0);
    });

    it('404s on an unknown resource or user', async () => {
      const { resource, user } = await pair();
      assert.equal((await app.api.delete(path(NO_SUCH_ID, user.user_id))).status, 404);
      assert.equal((await app.api.delete(path(resource.resource_id, NO_SUCH_ID))).status, 404);
      assert.equal((await app.api.delete(path(resource.resource_id, 'x'))).status, 400);
    });
  });

  it('pages the list with cursor and page_size, taking the reference\'s limit as page size too', async () => {
    const resource = await createResource(app.api);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const user = await createUser(app.api);
      ids.push(user.user_id);
      await app.api.post(path(resource.resource_id, user.user_id), { duration_minutes: 0 });
    }
    ids.sort(); // holders are listed in user id order (the keyset that stays fast through groups)
    const first = await app.api.get(`/resources/${resource.resource_id}/users`, { limit: 2 });
    assert.deepEqual(first.body.results.map((r: { user_id: string }) => r.user_id), ids.slice(0, 2));
    assert.equal(first.body.previous, null);
    assert.ok(first.body.next);
    const second = await app.api.get(`/resources/${resource.resource_id}/users`, { page_size: 2, limit: 1, cursor: first.body.next });
    assert.deepEqual(second.body.results.map((r: { user_id: string }) => r.user_id), ids.slice(2));
    assert.equal(second.body.next, null);
    assert.equal((await app.api.get(`/resources/${resource.resource_id}/users`, { limit: 0 })).body.details[0].path, 'limit');
    assert.equal((await app.api.get(`/resources/${resource.resource_id}/users`, { cursor: 'forged' })).body.details[0].path, 'cursor');
  });
});
