// Bundles through HTTP: create, list (contains + total_count over several pages), get, update, delete,
// and the resources and groups a bundle holds, with counts that always match the contents.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createBundle, createGroup, createOwner, createResource, NO_SUCH_ID, unique } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';
import { readEvents } from '../helpers/events.ts';

type SubEvent = Record<string, string | null> & { sub_event_type: string };
type Event = { event_id: string; event_type: string; sub_events: SubEvent[] };
type Bundle = { id: string; bundle_id: string; name: string; description: string; admin_owner_id: string; created_at: string; updated_at: string;
  total_num_items: number; total_num_resources: number; total_num_groups: number };

describe('bundles', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const getBundle = async (id: string): Promise<Bundle> => {
    const res = await app.api.get(`/bundles/${id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as Bundle;
  };
  const counts = async (id: string) => {
    const b = await getBundle(id);
    return [b.total_num_items, b.total_num_resources, b.total_num_groups];
  };

  describe('create, get, update, delete', () => {
    it('creates a bundle (201) carrying both id and bundle_id, zero counts, and BUNDLES_CREATED', async () => {
      app.clock.set('2026-05-01T08:00:00.000Z');
      const owner = await createOwner(app.api);
      const res = await app.api.post('/bundles', { name: 'On-call kit', description: 'Everything on-call needs', admin_owner_id: owner.owner_id.toUpperCase() });
      assert.equal(res.status, 201);
      const bundle = res.body as Bundle;
      assert.equal(bundle.id, bundle.bundle_id);
      assert.deepEqual(
        { ...bundle, id: undefined, bundle_id: undefined },
        {
          id: undefined, bundle_id: undefined, name: 'On-call kit', description: 'Everything on-call needs', admin_owner_id: owner.owner_id,
          created_at: '2026-05-01T08:00:00.000Z', updated_at: '2026-05-01T08:00:00.000Z',
          total_num_items: 0, total_num_resources: 0, total_num_groups: 0,
        },
      );
      assert.deepEqual(await getBundle(bundle.id), bundle);
      const [event] = await readEvents<Event>(app.api, { object: bundle.id });
      assert.equal(event?.event_type, 'BUNDLES_CREATED');
      assert.equal(event.sub_events[0]?.bundle_name, 'On-call kit');
      // The owner's history shows it too.
      assert.equal((await readEvents<Event>(app.api, { object: owner.owner_id, type: 'BUNDLES_CREATED' })).length, 1);

      const bare = await createBundle(app.api, { admin_owner_id: owner.owner_id });
      assert.equal((await getBundle(bare.id)).description, '');
    });

    const badCreates: [string, Record<string, unknown>, string][] = [
      ['a missing name', { admin_owner_id: NO_SUCH_ID }, 'name'],
      ['an empty name', { name: '  ', admin_owner_id: NO_SUCH_ID }, 'name'],
      ['a name over 200 characters', { name: 'n'.repeat(201), admin_owner_id: NO_SUCH_ID }, 'name'],
      ['a missing admin_owner_id', { name: 'x' }, 'admin_owner_id'],
      ['an admin_owner_id that is not a UUID', { name: 'x', admin_owner_id: 'nope' }, 'admin_owner_id'],
      ['a description that is not a string', { name: 'x', admin_owner_id: NO_SUCH_ID, description: 5 }, 'description'],
    ];
    for (const [name, body, path] of badCreates) {
      it(`POST /bundles refuses ${name} with 400 naming ${path}`, async () => {
        const res = await app.api.post('/bundles', body);
        assert.equal(res.status, 400);
        assert.deepEqual(errorPaths(res.body), [path]);
      });
    }

    it('404s naming admin_owner_id for an unknown owner, creating and recording nothing', async () => {
      const name = unique('ghost-bundle');
      const res = await app.api.post('/bundles', { name, admin_owner_id: NO_SUCH_ID });
      assert.equal(res.status, 404);
      assert.deepEqual(errorPaths(res.body), ['admin_owner_id']);
      assert.equal((await app.api.get('/bundles', { contains: name })).body.total_count, 0);
      const created = (await app.api.get('/events', { event_type_filter: 'BUNDLES_CREATED', page_size: 1000 })).body.results as Event[];
      assert.equal(created.some((e) => e.sub_events[0]?.bundle_name === name), false);
    });

    it('GET and DELETE 400 on a bad id and 404 on an unknown one', async () => {
      for (const method of ['get', 'delete'] as const) {
        assert.equal((await app.api[method]('/bundles/nope')).status, 400);
        const res = await app.api[method](`/bundles/${NO_SUCH_ID}`);
        assert.equal(res.status, 404);
        assert.deepEqual(errorPaths(res.body), ['bundle_id']);
      }
    });

    it('PUT changes only the fields given, bumps updated_at and records BUNDLES_UPDATED; a no-op records nothing', async () => {
      app.clock.set('2026-05-02T08:00:00.000Z');
      const bundle = await createBundle(app.api, { description: 'before' });
      const other = await createOwner(app.api);
      app.clock.set('2026-05-02T09:00:00.000Z');

      const res = await app.api.put(`/bundles/${bundle.id}`, { name: 'Renamed', admin_owner_id: other.owner_id, total_num_items: 99 });
      assert.equal(res.status, 200);
      const updated = res.body as Bundle;
      assert.equal(updated.name, 'Renamed');
      assert.equal(updated.description, 'before');
      assert.equal(updated.admin_owner_id, other.owner_id);
      assert.equal(updated.total_num_items, 0, 'read-only fields are ignored');
      assert.equal(updated.created_at, '2026-05-02T08:00:00.000Z');
      assert.equal(updated.updated_at, '2026-05-02T09:00:00.000Z');
      assert.deepEqual(await getBundle(bundle.id), updated);

      const [event] = await readEvents<Event>(app.api, { object: bundle.id, type: 'BUNDLES_UPDATED' });
      assert.equal(event?.sub_events[0]?.updated_fields, 'name,admin_owner_id');

      // The reference's own shape round-trips: sending the Bundle back changes nothing.
      app.clock.set('2026-05-02T10:00:00.000Z');
      const same = await app.api.put(`/bundles/${bundle.id}`, updated);
      assert.equal(same.status, 200);
      assert.deepEqual(same.body, updated);
      assert.equal((await readEvents<Event>(app.api, { object: bundle.id, type: 'BUNDLES_UPDATED' })).length, 1);
    });

    it('PUT refuses a mismatched id, a bad field, an unknown owner or bundle, and changes nothing', async () => {
      const bundle = await createBundle(app.api);
      const before = await getBundle(bundle.id);
      const cases: [Record<string, unknown>, number, string][] = [
        [{ bundle_id: NO_SUCH_ID, name: 'x' }, 400, 'bundle_id'],
        [{ id: NO_SUCH_ID, name: 'x' }, 400, 'id'],
        [{ name: '' }, 400, 'name'],
        [{ description: 7 }, 400, 'description'],
        [{ name: 'x', admin_owner_id: 'nope' }, 400, 'admin_owner_id'],
        [{ name: 'x', admin_owner_id: NO_SUCH_ID }, 404, 'admin_owner_id'],
      ];
      for (const [body, status, path] of cases) {
        const res = await app.api.put(`/bundles/${bundle.id}`, body);
        assert.equal(res.status, status, JSON.stringify(body));
        assert.deepEqual(errorPaths(res.body), [path]);
      }
      assert.deepEqual(await getBundle(bundle.id), before);
      assert.deepEqual(await readEvents<Event>(app.api, { object: bundle.id, type: 'BUNDLES_UPDATED' }), []);

      const unknown = await app.api.put(`/bundles/${NO_SUCH_ID}`, { name: 'x' });
      assert.equal(unknown.status, 404);
      assert.deepEqual(errorPaths(unknown.body), ['bundle_id']);
      assert.equal((await app.api.put('/bundles/nope', { name: 'x' })).status, 400);
    });

    it('DELETE removes the bundle with its items and records one BUNDLES_DELETED naming them', async () => {
      const bundle = await createBundle(app.api);
      const resource = await createResource(app.api);
      const group = await createGroup(app.api);
      assert.equal((await app.api.post(`/bundles/${bundle.id}/resources`, { resource_id: resource.resource_id })).status, 201);
      assert.equal((await app.api.post(`/bundles/${bundle.id}/groups`, { group_id: group.group_id })).status, 201);

      const res = await app.api.delete(`/bundles/${bundle.id}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {});
      assert.equal((await app.api.get(`/bundles/${bundle.id}`)).status, 404);
      assert.equal((await app.api.get(`/bundles/${bundle.id}/resources`)).status, 404);

      const [event] = await readEvents<Event>(app.api, { object: bundle.id, type: 'BUNDLES_DELETED' });
      assert.ok(event);
      assert.deepEqual(event.sub_events.map((s) => s.sub_event_type), ['BUNDLES_DELETED', 'BUNDLE_RESOURCES_REMOVED', 'BUNDLE_GROUPS_REMOVED']);
      assert.equal((await readEvents<Event>(app.api, { object: resource.resource_id, type: 'BUNDLES_DELETED' })).length, 1);
      assert.equal((await readEvents<Event>(app.api, { object: group.group_id, type: 'BUNDLES_DELETED' })).length, 1);
      assert.equal((await app.api.delete(`/bundles/${bundle.id}`)).status, 404);
      // The resource and group themselves are untouched.
      assert.equal((await app.api.get(`/resources/${resource.resource_id}`)).status, 200);
    });
  });

  describe('list', () => {
    it('filters by a case-insensitive substring of the name, with total_count of the whole filtered set on every page', async () => {
      const fresh = await startTestApp();
      try {
        const owner = await createOwner(fresh.api);
        const names = ['Alpha PAYMENTS', 'beta payments', 'Gamma', 'payMents delta', 'Epsilon', 'zeta-Payments-eta', 'Ωmega payments', 'Équipe Payments'];
        const made: Bundle[] = [];
        for (const name of names) made.push((await createBundle(fresh.api, { name, admin_owner_id: owner.owner_id })) as unknown as Bundle);
        const matching = made.filter((b) => b.name.toLowerCase().includes('payments')).map((b) => b.id);
        assert.equal(matching.length, 6);

        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const res = await fresh.api.get('/bundles', { contains: 'PayMents', page_size: 4, ...(cursor && { cursor }) });
          assert.equal(res.status, 200);
          assert.equal(res.body.total_count, 6, 'total_count is the whole filtered set, not the page');
          assert.equal(res.body.previous, cursor ?? null);
          seen.push(...res.body.bundles.map((b: Bundle) => b.id));
          cursor = res.body.next ?? undefined;
          pages++;
        } while (cursor);
        assert.equal(pages, 2);
        assert.deepEqual(seen, matching);

        // Folding is not ASCII-only.
        const accented = await fresh.api.get('/bundles', { contains: 'équipe' });
        assert.deepEqual(accented.body.bundles.map((b: Bundle) => b.name), ['Équipe Payments']);
        assert.equal((await fresh.api.get('/bundles', { contains: 'ΩMEGA' })).body.total_count, 1);
        // LIKE wildcards are plain characters here.
        assert.equal((await fresh.api.get('/bundles', { contains: '%' })).body.total_count, 0);

        const none = await fresh.api.get('/bundles', { contains: 'nothing-like-this' });
        assert.deepEqual([none.body.bundles, none.body.total_count, none.body.next], [[], 0, null]);

        const all = await fresh.api.get('/bundles', { page_size: 3 });
        assert.equal(all.body.total_count, names.length);
        assert.equal(all.body.bundles.length, 3);
        assert.deepEqual(all.body.bundles[0], made[0]);

        assert.equal((await fresh.api.get('/bundles', { cursor: 'garbage' })).status, 400);
        assert.equal((await fresh.api.get('/bundles', { page_size: 0 })).status, 400);
        assert.equal((await fresh.api.get('/bundles', { contains: ['a', 'b'] })).status, 400);
      } finally {
        await fresh.close();
      }
    });
  });

  describe('items', () => {
    it('adds and removes resources and groups, the counts following every change, each with its event', async () => {
      app.clock.set('2026-05-03T08:00:00.000Z');
      const bundle = await createBundle(app.api);
      const resource = await createResource(app.api, {
        access_levels: [{ access_level_name: 'Admin', access_level_remote_id: 'admin' }],
      });
      const group = await createGroup(app.api);
      assert.deepEqual(await counts(bundle.id), [0, 0, 0]);

      app.clock.set('2026-05-03T09:00:00.000Z');
      const added = await app.api.post(`/bundles/${bundle.id}/resources`, { resource_id: resource.resource_id.toUpperCase() });
      assert.equal(added.status, 201);
      assert.deepEqual(added.body, { bundle_id: bundle.id, resource_id: resource.resource_id, access_level_name: '', access_level_remote_id: '' });
      assert.deepEqual(await counts(bundle.id), [1, 1, 0]);
      assert.equal((await getBundle(bundle.id)).updated_at, '2026-05-03T09:00:00.000Z');

      const admin = await app.api.post(`/bundles/${bundle.id}/resources`, { resource_id: resource.resource_id, access_level_remote_id: 'admin' });
      assert.equal(admin.status, 201);
      assert.equal(admin.body.access_level_name, 'Admin', 'the name comes from the resource');
      assert.deepEqual(await counts(bundle.id), [2, 2, 0]);

      const g = await app.api.post(`/bundles/${bundle.id}/groups`, { group_id: group.group_id, access_level_remote_id: 'member', access_level_name: 'Member' });
      assert.equal(g.status, 201);
      assert.deepEqual(g.body, { bundle_id: bundle.id, group_id: group.group_id, access_level_name: 'Member', access_level_remote_id: 'member' });
      assert.deepEqual(await counts(bundle.id), [3, 2, 1]);

      const resourcesAdded = await readEvents<Event>(app.api, { object: resource.resource_id, type: 'BUNDLE_RESOURCES_ADDED' });
      assert.equal(resourcesAdded.length, 2);
      assert.deepEqual(resourcesAdded.map((e) => e.sub_events[0]?.access_level_remote_id).sort(), ['', 'admin']);
      assert.equal(resourcesAdded[0]?.sub_events[0]?.bundle_id, bundle.id);
      assert.equal((await readEvents<Event>(app.api, { object: group.group_id, type: 'BUNDLE_GROUPS_ADDED' })).length, 1);

      const listed = await app.api.get(`/bundles/${bundle.id}/resources`);
      assert.equal(listed.status, 200);
      assert.equal(listed.body.total_count, 2);
      assert.deepEqual(listed.body.bundle_resources, [added.body, admin.body]);
      const groups = await app.api.get(`/bundles/${bundle.id}/groups`);
      assert.deepEqual([groups.body.bundle_groups, groups.body.total_count], [[g.body], 1]);

      // Remove the admin level only; the default level stays.
      const removed = await app.api.delete(`/bundles/${bundle.id}/resources/${resource.resource_id}`, undefined, { query: { access_level_remote_id: 'admin' } });
      assert.equal(removed.status, 200);
      assert.deepEqual(removed.body, {});
      assert.deepEqual(await counts(bundle.id), [2, 1, 1]);
      const resourcesRemoved = await readEvents<Event>(app.api, { object: resource.resource_id, type: 'BUNDLE_RESOURCES_REMOVED' });
      assert.equal(resourcesRemoved.length, 1);
      assert.equal(resourcesRemoved[0]?.sub_events[0]?.access_level_remote_id, 'admin');

      // Removing what the bundle does not hold: an empty success that records nothing.
      const again = await app.api.delete(`/bundles/${bundle.id}/resources/${resource.resource_id}`, undefined, { query: { access_level_remote_id: 'admin' } });
      assert.deepEqual([again.status, again.body], [200, {}]);
      assert.equal((await readEvents<Event>(app.api, { object: resource.resource_id, type: 'BUNDLE_RESOURCES_REMOVED' })).length, 1);

      // Without access_level_remote_id the default level is removed.
      assert.equal((await app.api.delete(`/bundles/${bundle.id}/resources/${resource.resource_id}`)).status, 200);
      assert.deepEqual(await counts(bundle.id), [1, 0, 1]);

      // A group is removed at its level; the default level is not what it holds.
      assert.deepEqual((await app.api.delete(`/bundles/${bundle.id}/groups/${group.group_id}`)).body, {});
      assert.deepEqual(await counts(bundle.id), [1, 0, 1]);
      assert.equal((await readEvents<Event>(app.api, { object: group.group_id, type: 'BUNDLE_GROUPS_REMOVED' })).length, 0);
      assert.equal((await app.api.delete(`/bundles/${bundle.id}/groups/${group.group_id}`, undefined, { query: { access_level_remote_id: 'member' } })).status, 200);
      assert.deepEqual(await counts(bundle.id), [0, 0, 0]);
      const groupsRemoved = await readEvents<Event>(app.api, { object: group.group_id, type: 'BUNDLE_GROUPS_REMOVED' });
      assert.equal(groupsRemoved.length, 1);
      assert.equal(groupsRemoved[0]?.sub_events[0]?.group_id, group.group_id);
    });

    it('refuses a duplicate item with 409, changing and recording nothing', async () => {
      const bundle = await createBundle(app.api);
      const resource = await createResource(app.api);
      const group = await createGroup(app.api);
      await app.api.post(`/bundles/${bundle.id}/resources`, { resource_id: resource.resource_id });
      await app.api.post(`/bundles/${bundle.id}/groups`, { group_id: group.group_id });
      const dupResource = await app.api.post(`/bundles/${bundle.id}/resources`, { resource_id: resource.resource_id, access_level_remote_id: '' });
      assert.equal(dupResource.status, 409);
      assert.deepEqual(errorPaths(dupResource.body), ['resource_id']);
      const dupGroup = await app.api.post(`/bundles/${bundle.id}/groups`, { group_id: group.group_id });
      assert.equal(dupGroup.status, 409);
      assert.deepEqual(errorPaths(dupGroup.body), ['group_id']);
      assert.deepEqual(await counts(bundle.id), [2, 1, 1]);
      assert.equal((await readEvents<Event>(app.api, { object: resource.resource_id, type: 'BUNDLE_RESOURCES_ADDED' })).length, 1);
      assert.equal((await readEvents<Event>(app.api, { object: group.group_id, type: 'BUNDLE_GROUPS_ADDED' })).length, 1);
    });

    it('refuses bad and unknown items with the field named, changing and recording nothing', async () => {
      const bundle = await createBundle(app.api);
      const resource = await createResource(app.api, { access_levels: [{ access_level_name: 'Reader', access_level_remote_id: 'read' }] });
      const group = await createGroup(app.api);
      const cases: [string, unknown, number, string][] = [
        ['resources', {}, 400, 'resource_id'],
        ['resources', { resource_id: 'nope' }, 400, 'resource_id'],
        ['resources', { resource_id: resource.resource_id, access_level_remote_id: 5 }, 400, 'access_level_remote_id'],
        ['resources', { resource_id: NO_SUCH_ID }, 404, 'resource_id'],
        ['resources', { resource_id: resource.resource_id, access_level_remote_id: 'write' }, 404, 'access_level_remote_id'],
        // A name that differs from the stored one is accepted (deprecated, derived): see client-inputs.test.ts.
        ['groups', {}, 400, 'group_id'],
        ['groups', { group_id: 'nope' }, 400, 'group_id'],
        ['groups', { group_id: NO_SUCH_ID }, 404, 'group_id'],
        ['groups', { group_id: group.group_id, access_level_name: 3 }, 400, 'access_level_name'],
      ];
      for (const [plural, body, status, path] of cases) {
        const res = await app.api.post(`/bundles/${bundle.id}/${plural}`, body);
        assert.equal(res.status, status, `${plural} ${JSON.stringify(body)}`);
        assert.deepEqual(errorPaths(res.body), [path], `${plural} ${JSON.stringify(body)}`);
      }
      assert.equal((await app.api.post(`/bundles/${bundle.id}/resources`)).status, 400);
      assert.deepEqual(await counts(bundle.id), [0, 0, 0]);
      assert.deepEqual(await readEvents<Event>(app.api, { object: resource.resource_id, type: 'BUNDLE_RESOURCES_ADDED' }), []);
      assert.deepEqual(await readEvents<Event>(app.api, { object: group.group_id, type: 'BUNDLE_GROUPS_ADDED' }), []);

      // An unknown bundle is named whatever else is wrong with the item.
      for (const [plural, body] of [['resources', { resource_id: resource.resource_id }], ['groups', { group_id: group.group_id }]] as const) {
        const res = await app.api.post(`/bundles/${NO_SUCH_ID}/${plural}`, body);
        assert.equal(res.status, 404);
        assert.deepEqual(errorPaths(res.body), ['bundle_id']);
        assert.equal((await app.api.get(`/bundles/${NO_SUCH_ID}/${plural}`)).status, 404);
        assert.equal((await app.api.get(`/bundles/nope/${plural}`)).status, 400);
      }
      // Removing from an unknown bundle, or an unknown resource or group, is a 404 naming it.
      const removals: [string, number, string][] = [
        [`/bundles/${NO_SUCH_ID}/resources/${resource.resource_id}`, 404, 'bundle_id'],
        [`/bundles/${bundle.id}/resources/${NO_SUCH_ID}`, 404, 'resource_id'],
        [`/bundles/${bundle.id}/resources/nope`, 400, 'resource_id'],
        [`/bundles/${NO_SUCH_ID}/groups/${group.group_id}`, 404, 'bundle_id'],
        [`/bundles/${bundle.id}/groups/${NO_SUCH_ID}`, 404, 'group_id'],
        [`/bundles/${bundle.id}/groups/nope`, 400, 'group_id'],
      ];
      for (const [path, status, field] of removals) {
        const res = await app.api.delete(path);
        assert.equal(res.status, status, path);
        assert.deepEqual(errorPaths(res.body), [field], path);
      }
    });

    it('keeps counts right when a held resource or group is deleted elsewhere (cascade)', async () => {
      const bundle = await createBundle(app.api);
      const kept = await createResource(app.api);
      const doomed = await createResource(app.api, { access_levels: [{ access_level_name: 'Admin', access_level_remote_id: 'admin' }] });
      const doomedGroup = await createGroup(app.api);
      for (const body of [{ resource_id: kept.resource_id }, { resource_id: doomed.resource_id }, { resource_id: doomed.resource_id, access_level_remote_id: 'admin' }]) {
        assert.equal((await app.api.post(`/bundles/${bundle.id}/resources`, body)).status, 201);
      }
      assert.equal((await app.api.post(`/bundles/${bundle.id}/groups`, { group_id: doomedGroup.group_id })).status, 201);
      assert.deepEqual(await counts(bundle.id), [4, 3, 1]);

      assert.equal((await app.api.delete(`/resources/${doomed.resource_id}`)).status, 200);
      assert.deepEqual(await counts(bundle.id), [2, 1, 1]);
      const listed = await app.api.get(`/bundles/${bundle.id}/resources`);
      assert.deepEqual(listed.body.bundle_resources.map((r: { resource_id: string }) => r.resource_id), [kept.resource_id]);
      assert.equal(listed.body.total_count, 1);
      // The resource is gone, so removing it from the bundle is a 404 and the counts stay right.
      assert.equal((await app.api.delete(`/bundles/${bundle.id}/resources/${doomed.resource_id}`)).status, 404);
      assert.deepEqual(await counts(bundle.id), [2, 1, 1]);

      assert.equal((await app.api.delete(`/groups/${doomedGroup.group_id}`)).status, 200);
      assert.deepEqual(await counts(bundle.id), [1, 1, 0]);
      assert.equal((await app.api.get(`/bundles/${bundle.id}/groups`)).body.total_count, 0);
      // The list agrees with the single read.
      const inList = ((await app.api.get('/bundles', { contains: bundle.name })).body.bundles as Bundle[]).find((b) => b.id === bundle.id)!;
      assert.deepEqual([inList.total_num_items, inList.total_num_resources, inList.total_num_groups], [1, 1, 0]);
    });

    it('pages a bundle\'s resources by keyset, total_count the whole bundle on each page', async () => {
      const bundle = await createBundle(app.api);
      const app_id = (await createResource(app.api)).app_id;
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await createResource(app.api, { app_id });
        ids.push(r.resource_id);
        assert.equal((await app.api.post(`/bundles/${bundle.id}/resources`, { resource_id: r.resource_id })).status, 201);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await app.api.get(`/bundles/${bundle.id}/resources`, { page_size: 2, ...(cursor && { cursor }) });
        assert.equal(res.status, 200);
        assert.equal(res.body.total_count, 5);
        seen.push(...res.body.bundle_resources.map((r: { resource_id: string }) => r.resource_id));
        cursor = res.body.next ?? undefined;
      } while (cursor);
      assert.deepEqual(seen, ids);
      // A cursor of one list means nothing to another.
      const first = await app.api.get(`/bundles/${bundle.id}/resources`, { page_size: 2 });
      assert.equal((await app.api.get(`/bundles/${bundle.id}/groups`, { cursor: first.body.next })).status, 400);
    });
  });
});
