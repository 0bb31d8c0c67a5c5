// Tags through HTTP: create (query and/or body), find, get, delete, list, attach/detach on users, groups
// and resources with their audit events, the tags of one entity, and GET /users?tag_ids=.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createGroup, createOwner, createResource, createTag, createUser, NO_SUCH_ID, unique } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';
import { readEvents } from '../helpers/events.ts';

type SubEvent = Record<string, string | null> & { sub_event_type: string };
type Event = { event_id: string; event_type: string; actor_user_id: string; sub_events: SubEvent[] };

describe('tags', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());


  describe('create, find, get', () => {
    it('creates a tag from the CreateTagInfo body, stamped with the caller and the clock, and finds it three ways', async () => {
      app.clock.set('2026-04-01T10:00:00.000Z');
      const key = unique('env');
      const res = await app.api.post('/tag', { tag_key: key, tag_value: 'production' });
      assert.equal(res.status, 200);
      assert.equal(res.body.key, key);
      assert.equal(res.body.value, 'production');
      assert.equal(res.body.user_creator_id, app.adminUserId);
      assert.equal(res.body.created_at, '2026-04-01T10:00:00.000Z');
      assert.equal(res.body.updated_at, '2026-04-01T10:00:00.000Z');
      assert.equal('admin_owner_id' in res.body, false);

      assert.deepEqual((await app.api.get(`/tag/${res.body.tag_id}`)).body, res.body);
      assert.deepEqual((await app.api.get(`/tag/${res.body.tag_id.toUpperCase()}`)).body, res.body);
      assert.deepEqual((await app.api.get('/tag', { tag_key: key, tag_value: 'production' })).body, res.body);

      const [event] = await readEvents<Event>(app.api, { object: res.body.tag_id });
      assert.equal(event?.event_type, 'TAGS_CREATED');
      assert.equal(event.actor_user_id, app.adminUserId);
      assert.equal(event.sub_events[0]?.tag_id, res.body.tag_id);
      assert.equal(event.sub_events[0]?.tag_key, key);
    });

    it('accepts the deprecated query parameters, and the body wins field by field when both are given', async () => {
      const owner = await createOwner(app.api);
      const queryKey = unique('q');
      const fromQuery = await app.api.post('/tag', undefined, { query: { tag_key: queryKey, tag_value: 'a', admin_owner_id: owner.owner_id } });
      assert.equal(fromQuery.status, 200);
      assert.deepEqual([fromQuery.body.key, fromQuery.body.value, fromQuery.body.admin_owner_id], [queryKey, 'a', owner.owner_id]);

      const bodyKey = unique('b');
      const both = await app.api.post('/tag', { tag_key: bodyKey }, { query: { tag_key: unique('ignored'), tag_value: 'from-query' } });
      assert.equal(both.status, 200);
      assert.equal(both.body.key, bodyKey);
      assert.equal(both.body.value, 'from-query');
    });

    it('takes a missing value as the empty value, and GET /tag without tag_value finds that tag', async () => {
      const key = unique('novalue');
      const res = await app.api.post('/tag', { tag_key: `  ${key}  ` });
      assert.equal(res.status, 200);
      assert.equal(res.body.key, key);
      assert.equal(res.body.value, '');
      assert.equal((await app.api.get('/tag', { tag_key: key })).body.tag_id, res.body.tag_id);
      assert.equal((await app.api.get('/tag', { tag_key: key, tag_value: 'other' })).status, 404);
    });

    it('records admin_owner_id, and 404s naming it when the owner does not exist, recording nothing', async () => {
      const owner = await createOwner(app.api);
      const owned = await createTag(app.api, { admin_owner_id: owner.owner_id.toUpperCase() });
      assert.equal((owned as unknown as { admin_owner_id: string }).admin_owner_id, owner.owner_id);

      const key = unique('orphan');
      const res = await app.api.post('/tag', { tag_key: key, admin_owner_id: NO_SUCH_ID });
      assert.equal(res.status, 404);
      assert.deepEqual(errorPaths(res.body), ['admin_owner_id']);
      assert.equal((await app.api.get('/tag', { tag_key: key })).status, 404);
      const created = (await app.api.get('/events', { event_type_filter: 'TAGS_CREATED', page_size: 1000 })).body.results as Event[];
      assert.equal(created.some((e) => e.sub_events[0]?.tag_key === key), false);
    });

    it('refuses a duplicate key and value with 409 and records no second event; another value is another tag', async () => {
      const tag = await createTag(app.api, { tag_value: 'x' });
      const dup = await app.api.post('/tag', { tag_key: tag.key, tag_value: 'x' });
      assert.equal(dup.status, 409);
      assert.equal(dup.body.code, 'conflict');
      assert.deepEqual(errorPaths(dup.body), ['tag_key']);
      const viaQuery = await app.api.post('/tag', undefined, { query: { tag_key: tag.key, tag_value: 'x' } });
      assert.equal(viaQuery.status, 409);
      const created = (await app.api.get('/events', { event_type_filter: 'TAGS_CREATED', page_size: 1000 })).body.results as Event[];
      assert.equal(created.filter((e) => e.sub_events[0]?.tag_key === tag.key).length, 1);

      const other = await app.api.post('/tag', { tag_key: tag.key, tag_value: 'y' });
      assert.equal(other.status, 200);
      assert.notEqual(other.body.tag_id, tag.tag_id);
    });

    const badCreates: [string, unknown, Record<string, string> | undefined, string][] = [
      ['no key anywhere', undefined, undefined, 'tag_key'],
      ['an empty key', { tag_key: '   ' }, undefined, 'tag_key'],
      ['a key over 128 characters', { tag_key: 'k'.repeat(129) }, undefined, 'tag_key'],
      ['a value that is not a string', { tag_key: 'k', tag_value: 7 }, undefined, 'tag_value'],
      ['a value over 256 characters', { tag_key: 'k', tag_value: 'v'.repeat(257) }, undefined, 'tag_value'],
      ['an owner id that is not a UUID (body)', { tag_key: 'k', admin_owner_id: 'nope' }, undefined, 'admin_owner_id'],
      ['an owner id that is not a UUID (query)', undefined, { tag_key: 'k', admin_owner_id: 'nope' }, 'admin_owner_id'],
      ['an empty key in the query', undefined, { tag_key: '' }, 'tag_key'],
      ['a body that is not an object', [1, 2], undefined, 'body'],
    ];
    for (const [name, body, query, path] of badCreates) {
      it(`POST /tag refuses ${name} with 400 naming ${path}`, async () => {
        const res = await app.api.post('/tag', body, query ? { query } : {});
        assert.equal(res.status, 400);
        assert.equal(res.body.code, 'validation_failed');
        assert.deepEqual(errorPaths(res.body), [path]);
      });
    }

    it('GET /tag needs tag_key; GET /tag/{id} 400s on a bad id and 404s on an unknown one', async () => {
      const noKey = await app.api.get('/tag', { tag_value: 'x' });
      assert.equal(noKey.status, 400);
      assert.deepEqual(errorPaths(noKey.body), ['tag_key']);
      const unknown = await app.api.get('/tag', { tag_key: unique('none') });
      assert.equal(unknown.status, 404);
      assert.deepEqual(errorPaths(unknown.body), ['tag_key']);
      assert.equal((await app.api.get('/tag/not-a-uuid')).status, 400);
      const missing = await app.api.get(`/tag/${NO_SUCH_ID}`);
      assert.equal(missing.status, 404);
      assert.deepEqual(errorPaths(missing.body), ['tag_id']);
    });
  });

  describe('attach and detach', () => {
    const kinds = [
      { kind: 'user', plural: 'users', column: 'user_id', make: async (a: TestApp) => (await createUser(a.api)).user_id },
      { kind: 'group', plural: 'groups', column: 'group_id', make: async (a: TestApp) => (await createGroup(a.api)).group_id },
      { kind: 'resource', plural: 'resources', column: 'resource_id', make: async (a: TestApp) => (await createResource(a.api)).resource_id },
    ] as const;

    for (const { kind, plural, column, make } of kinds) {
      it(`attaches to a ${kind} once (ENTITY_TAG_ADDED), lists it, and detaches it (ENTITY_TAG_REMOVED)`, async () => {
        const targetId = await make(app);
        const first = await createTag(app.api);
        const second = await createTag(app.api);
        assert.deepEqual((await app.api.get(`/${plural}/${targetId}/tags`)).body, { tags: [] });

        const attach = await app.api.post(`/tags/${first.tag_id}/${plural}/${targetId}`);
        assert.equal(attach.status, 200);
        assert.deepEqual(attach.body, {});
        assert.equal((await app.api.post(`/tags/${second.tag_id}/${plural}/${targetId}`, {})).status, 200);
        // Attaching again is a success that changes nothing and records nothing.
        assert.equal((await app.api.post(`/tags/${first.tag_id}/${plural}/${targetId}`)).status, 200);

        const listed = await app.api.get(`/${plural}/${targetId}/tags`);
        assert.equal(listed.status, 200);
        assert.deepEqual(listed.body.tags.map((t: { tag_id: string }) => t.tag_id), [first.tag_id, second.tag_id]);
        assert.deepEqual(listed.body.tags[0], (await app.api.get(`/tag/${first.tag_id}`)).body);

        const added = await readEvents<Event>(app.api, { object: targetId, type: 'ENTITY_TAG_ADDED' });
        assert.equal(added.length, 2);
        const addedFirst = added.find((e) => e.sub_events[0]?.tag_id === first.tag_id);
        assert.ok(addedFirst);
        assert.equal(addedFirst.sub_events[0]?.sub_event_type, 'ENTITY_TAG_ADDED');
        assert.equal(addedFirst.sub_events[0]?.[column], targetId);
        assert.equal((await readEvents<Event>(app.api, { object: first.tag_id, type: 'ENTITY_TAG_ADDED' })).length, 1);

        const detach = await app.api.delete(`/tags/${first.tag_id}/${plural}/${targetId}`);
        assert.equal(detach.status, 200);
        assert.deepEqual(detach.body, {});
        assert.deepEqual((await app.api.get(`/${plural}/${targetId}/tags`)).body.tags.map((t: { tag_id: string }) => t.tag_id), [second.tag_id]);
        const removed = await readEvents<Event>(app.api, { object: targetId, type: 'ENTITY_TAG_REMOVED' });
        assert.equal(removed.length, 1);
        assert.equal(removed[0]?.sub_events[0]?.tag_id, first.tag_id);
        assert.equal(removed[0]?.sub_events[0]?.[column], targetId);

        // Detaching what is not attached: an empty success that records nothing.
        const again = await app.api.delete(`/tags/${first.tag_id}/${plural}/${targetId}`);
        assert.equal(again.status, 200);
        assert.deepEqual(again.body, {});
        assert.equal((await readEvents<Event>(app.api, { object: targetId, type: 'ENTITY_TAG_REMOVED' })).length, 1);
      });

      it(`404s on an unknown tag or ${kind} (naming it) and 400s on a bad id, recording nothing`, async () => {
        const targetId = await make(app);
        const tag = await createTag(app.api);
        for (const method of ['post', 'delete'] as const) {
          const noTag = await app.api[method](`/tags/${NO_SUCH_ID}/${plural}/${targetId}`);
          assert.equal(noTag.status, 404);
          assert.deepEqual(errorPaths(noTag.body), ['tag_id']);
          const noTarget = await app.api[method](`/tags/${tag.tag_id}/${plural}/${NO_SUCH_ID}`);
          assert.equal(noTarget.status, 404);
          assert.deepEqual(errorPaths(noTarget.body), [column]);
          const badTarget = await app.api[method](`/tags/${tag.tag_id}/${plural}/nope`);
          assert.equal(badTarget.status, 400);
          assert.deepEqual(errorPaths(badTarget.body), [column]);
          assert.equal((await app.api[method](`/tags/nope/${plural}/${targetId}`)).status, 400);
        }
        assert.deepEqual(await readEvents<Event>(app.api, { object: targetId, type: 'ENTITY_TAG_ADDED' }), []);
        assert.deepEqual((await readEvents<Event>(app.api, { object: tag.tag_id })).map((e) => e.event_type), ['TAGS_CREATED']);

        const unknownList = await app.api.get(`/${plural}/${NO_SUCH_ID}/tags`);
        assert.equal(unknownList.status, 404);
        assert.deepEqual(errorPaths(unknownList.body), [column]);
        assert.equal((await app.api.get(`/${plural}/nope/tags`)).status, 400);
      });
    }

    it('refuses an attach body that is not a JSON object', async () => {
      const user = await createUser(app.api);
      const tag = await createTag(app.api);
      const res = await app.api.post(`/tags/${tag.tag_id}/users/${user.user_id}`, [1]);
      assert.equal(res.status, 400);
      assert.deepEqual((await app.api.get(`/users/${user.user_id}/tags`)).body.tags, []);
    });

    it('deleting a tag detaches it everywhere and records one TAGS_DELETED naming every entity', async () => {
      const user = await createUser(app.api);
      const group = await createGroup(app.api);
      const resource = await createResource(app.api);
      const doomed = await createTag(app.api);
      const kept = await createTag(app.api);
      for (const [plural, id] of [['users', user.user_id], ['groups', group.group_id], ['resources', resource.resource_id]] as const) {
        assert.equal((await app.api.post(`/tags/${doomed.tag_id}/${plural}/${id}`)).status, 200);
        assert.equal((await app.api.post(`/tags/${kept.tag_id}/${plural}/${id}`)).status, 200);
      }

      const res = await app.api.delete(`/tag/${doomed.tag_id}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {});
      assert.equal((await app.api.get(`/tag/${doomed.tag_id}`)).status, 404);
      for (const [plural, id] of [['users', user.user_id], ['groups', group.group_id], ['resources', resource.resource_id]] as const) {
        const tags = (await app.api.get(`/${plural}/${id}/tags`)).body.tags as { tag_id: string }[];
        assert.deepEqual(tags.map((t) => t.tag_id), [kept.tag_id], plural);
      }

      const deleted = await readEvents<Event>(app.api, { object: doomed.tag_id, type: 'TAGS_DELETED' });
      assert.equal(deleted.length, 1);
      const subs = deleted[0]!.sub_events;
      assert.equal(subs[0]?.sub_event_type, 'TAGS_DELETED');
      assert.equal(subs[0]?.tag_key, doomed.key);
      const named = subs.slice(1).map((s) => [s.sub_event_type, s.tag_id, s.user_id ?? s.group_id ?? s.resource_id]);
      assert.deepEqual(named.sort(), [
        ['ENTITY_TAG_REMOVED', doomed.tag_id, group.group_id],
        ['ENTITY_TAG_REMOVED', doomed.tag_id, resource.resource_id],
        ['ENTITY_TAG_REMOVED', doomed.tag_id, user.user_id],
      ].sort());
      // Each entity's own history shows the removal.
      assert.equal((await readEvents<Event>(app.api, { object: user.user_id, type: 'TAGS_DELETED' })).length, 1);
      assert.equal((await readEvents<Event>(app.api, { object: resource.resource_id, type: 'TAGS_DELETED' })).length, 1);

      const again = await app.api.delete(`/tag/${doomed.tag_id}`);
      assert.equal(again.status, 404);
      assert.deepEqual(errorPaths(again.body), ['tag_id']);
      assert.equal((await readEvents<Event>(app.api, { object: doomed.tag_id, type: 'TAGS_DELETED' })).length, 1);
      // The key and value are free again.
      assert.equal((await app.api.post('/tag', { tag_key: doomed.key, tag_value: doomed.value })).status, 200);
    });
  });

  describe('lists', () => {
    it('GET /tags pages by keyset through every tag, in creation order, without repeats', async () => {
      const fresh = await startTestApp();
      try {
        const made: string[] = [];
        for (let i = 0; i < 5; i++) made.push((await createTag(fresh.api)).tag_id);
        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const res = await fresh.api.get('/tags', { page_size: 2, ...(cursor && { cursor }) });
          assert.equal(res.status, 200);
          assert.ok(res.body.results.length <= 2);
          assert.equal(res.body.previous, cursor ?? null);
          seen.push(...res.body.results.map((t: { tag_id: string }) => t.tag_id));
          cursor = res.body.next ?? undefined;
          pages++;
        } while (cursor);
        assert.equal(pages, 3);
        assert.deepEqual(seen, made);

        const bad = await fresh.api.get('/tags', { cursor: 'garbage' });
        assert.equal(bad.status, 400);
        assert.deepEqual(errorPaths(bad.body), ['cursor']);
        assert.equal((await fresh.api.get('/tags', { page_size: 1001 })).status, 400);
      } finally {
        await fresh.close();
      }
    });

    it('GET /users?tag_ids= keeps users having ANY of the tags, once each, and still pages', async () => {
      const [a, b, unused] = [await createTag(app.api), await createTag(app.api), await createTag(app.api)];
      const onlyA = await createUser(app.api);
      const onlyB = await createUser(app.api);
      const both = await createUser(app.api);
      await createUser(app.api);
      for (const [tag, user] of [[a, onlyA], [b, onlyB], [a, both], [b, both]] as const) {
        assert.equal((await app.api.post(`/tags/${tag.tag_id}/users/${user.user_id}`)).status, 200);
      }
      const ids = async (query: Record<string, string | string[] | number>) => {
        const res = await app.api.get('/users', query);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.results.map((u: { user_id: string }) => u.user_id) as string[];
      };
      assert.deepEqual(await ids({ tag_ids: a.tag_id }), [onlyA.user_id, both.user_id]);
      assert.deepEqual(await ids({ tag_ids: [a.tag_id, b.tag_id] }), [onlyA.user_id, onlyB.user_id, both.user_id]);
      assert.deepEqual(await ids({ tag_ids: `${b.tag_id},${a.tag_id.toUpperCase()}` }), [onlyA.user_id, onlyB.user_id, both.user_id]);
      assert.deepEqual(await ids({ tag_ids: unused.tag_id }), []);
      assert.deepEqual(await ids({ tag_ids: NO_SUCH_ID }), []);

      const first = await app.api.get('/users', { tag_ids: [a.tag_id, b.tag_id], page_size: 2 });
      assert.deepEqual(first.body.results.map((u: { user_id: string }) => u.user_id), [onlyA.user_id, onlyB.user_id]);
      const second = await app.api.get('/users', { tag_ids: [a.tag_id, b.tag_id], page_size: 2, cursor: first.body.next });
      assert.deepEqual(second.body.results.map((u: { user_id: string }) => u.user_id), [both.user_id]);
      assert.equal(second.body.next, null);

      const bad = await app.api.get('/users', { tag_ids: 'nope' });
      assert.equal(bad.status, 400);
      assert.match(errorPaths(bad.body)[0]!, /^tag_ids/);
      // Without the filter every user is listed, tagged or not.
      assert.ok((await ids({ page_size: 1000 })).length >= 5);
    });
  });
});
