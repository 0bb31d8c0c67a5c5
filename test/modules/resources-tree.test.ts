// Resources through HTTP: the parent tree (ancestors, descendants, cycles), deleting, and the list filters (app_id an extension).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createGroup, createMember, createResource, createTag, NO_SUCH_ID, unique } from '../helpers/fixtures.ts';

describe('resources: tree, delete, list', () => {
  let app: TestApp;
  let appId: string;
  before(async () => {
    app = await startTestApp();
    appId = (await createApp(app.api)).app_id;
  });
  after(() => app.close());

  const get = async (id: string) => {
    const res = await app.api.get(`/resources/${id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const ids = (body: { results: { resource_id: string }[] }) => body.results.map((r) => r.resource_id);
  /** A chain of `depth` resources, each the child of the one before; returns ids root first. */
  const chain = async (depth: number, parent?: string) => {
    const out: string[] = [];
    for (let i = 0; i < depth; i++) {
      const r = await createResource(app.api, { app_id: appId, ...(out.length > 0 ? { parent_resource_id: out.at(-1) } : parent ? { parent_resource_id: parent } : {}) });
      out.push(r.resource_id);
    }
    return out;
  };

  it('keeps ancestors (nearest first) and descendants (breadth first) right at every depth of a 7-deep tree', async () => {
    const line = await chain(7);
    // A side branch under level 2, to check descendants are breadth first across branches.
    const side = await createResource(app.api, { app_id: appId, parent_resource_id: line[2] });
    for (let depth = 0; depth < line.length; depth++) {
      const r = await get(line[depth]!);
      assert.equal(r.parent_resource_id, depth === 0 ? undefined : line[depth - 1]);
      assert.deepEqual(r.ancestor_resource_ids, line.slice(0, depth).reverse(), `ancestors at depth ${depth}`);
      const below = line.slice(depth + 1);
      // The side branch sits at line[3]'s level and was created after it, so it follows line[3].
      const expected = depth <= 2 ? [...below.slice(0, 3 - depth), side.resource_id, ...below.slice(3 - depth)] : below;
      assert.deepEqual(r.descendant_resource_ids, expected, `descendants at depth ${depth}`);
    }
    const s = await get(side.resource_id);
    assert.deepEqual(s.ancestor_resource_ids, line.slice(0, 3).reverse());
    assert.deepEqual(s.descendant_resource_ids, []);

    // Filters: direct children, and everything below a resource.
    const children = await app.api.get('/resources', { parent_resource_id: line[2]! });
    assert.deepEqual(ids(children.body), [line[3], side.resource_id]);
    const under = await app.api.get('/resources', { ancestor_resource_id: line[4]! });
    assert.deepEqual(ids(under.body), line.slice(5));
    const underTop = await app.api.get('/resources', { ancestor_resource_id: line[0]! });
    assert.deepEqual(ids(underTop.body).sort(), [...line.slice(1), side.resource_id].sort());
  });

  it('refuses a parent that would make a cycle, at every depth, and changes nothing', async () => {
    const line = await chain(6);
    const before = await Promise.all(line.map(get));
    const self = await app.api.put('/resources', { resources: [{ resource_id: line[0], parent_resource_id: line[0] }] });
    assert.equal(self.status, 400);
    assert.equal(self.body.details[0].path, 'resources.0.parent_resource_id');
    for (let depth = 1; depth < line.length; depth++) {
      const res = await app.api.put('/resources', { resources: [{ resource_id: line[0], parent_resource_id: line[depth] }] });
      assert.equal(res.status, 400, `depth ${depth}`);
      assert.equal(res.body.details[0].path, 'resources.0.parent_resource_id');
      assert.match(res.body.message, /own ancestor/);
    }
    // A cycle built across two items of one call is refused too, and the first item rolls back.
    const two = await app.api.put('/resources', { resources: [
      { resource_id: line[5], parent_resource_id: null },
      { resource_id: line[0], parent_resource_id: line[5] },
      { resource_id: line[5], parent_resource_id: line[0] },
    ] });
    assert.equal(two.status, 400);
    assert.equal(two.body.details[0].path, 'resources.2.resource_id');
    const three = await app.api.put('/resources', { resources: [
      { resource_id: line[0], parent_resource_id: line[5] },
      { resource_id: line[3], description: 'changed' },
    ] });
    assert.equal(three.status, 400);
    assert.deepEqual(await Promise.all(line.map(get)), before);
    const unknown = await app.api.put('/resources', { resources: [{ resource_id: line[2], parent_resource_id: NO_SUCH_ID }] });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.details[0].path, 'resources.0.parent_resource_id');
    assert.deepEqual(await Promise.all(line.map(get)), before);
  });

  it('moves a subtree and detaches it, updating both sides', async () => {
    const a = await chain(3);
    const b = await chain(2);
    const moved = await app.api.put('/resources', { resources: [{ resource_id: a[1], parent_resource_id: b[1] }] });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.deepEqual(moved.body.resources[0].ancestor_resource_ids, [b[1], b[0]]);
    assert.deepEqual((await get(a[2]!)).ancestor_resource_ids, [a[1], b[1], b[0]]);
    assert.deepEqual((await get(b[0]!)).descendant_resource_ids, [b[1], a[1], a[2]]);
    assert.deepEqual((await get(a[0]!)).descendant_resource_ids, []);
    const detached = await app.api.put('/resources', { resources: [{ resource_id: a[1], parent_resource_id: null }] });
    assert.equal(detached.status, 200);
    assert.equal('parent_resource_id' in detached.body.resources[0], false);
    assert.deepEqual((await get(a[2]!)).ancestor_resource_ids, [a[1]]);
    assert.deepEqual((await get(b[1]!)).descendant_resource_ids, []);
  });

  it('deletes a leaf, refuses a resource with children (409), and 404s on unknown ids', async () => {
    const [parent, child] = await chain(2);
    const refused = await app.api.delete(`/resources/${parent}`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.details[0].path, 'resource_id');
    assert.equal((await app.api.get(`/resources/${parent}`)).status, 200);
    assert.equal((await app.api.get('/events', { object_filter: parent!, event_type_filter: 'RESOURCES_DELETED' })).body.results.length, 0);
    assert.equal((await app.api.delete(`/resources/${child}`)).status, 200);
    assert.deepEqual((await get(parent!)).descendant_resource_ids, []);
    assert.equal((await app.api.delete(`/resources/${parent}`)).status, 200);
    assert.equal((await app.api.get(`/resources/${parent}`)).status, 404);
    const events = await app.api.get('/events', { object_filter: parent!, event_type_filter: 'RESOURCES_DELETED' });
    assert.equal(events.body.results.length, 1);
    assert.equal((await app.api.delete(`/resources/${parent}`)).status, 404);
    assert.equal((await app.api.get(`/resources/${NO_SUCH_ID}`)).status, 404);
    assert.equal((await app.api.get('/resources/nope')).status, 400);
    assert.equal((await app.api.delete('/resources/nope')).status, 400);
  });

  it('filters by type, ids, name, remote id and tags, and pages by cursor', async () => {
    const fresh = (await createApp(app.api)).app_id;
    const tag = `f-${unique('x')}`;
    const make = (body: Record<string, unknown>) => createResource(app.api, { app_id: fresh, ...body });
    const r1 = await make({ name: `${tag} Alpha`, resource_type: 'AWS_IAM_ROLE', remote_resource_id: 'arn:1' });
    const r2 = await make({ name: `${tag} beta`, resource_type: 'AWS_IAM_ROLE', remote_resource_id: 'arn:2' });
    const r3 = await make({ name: `${tag} ALPHA two`, resource_type: 'GCP_BUCKET', remote_resource_id: 'arn:1' });

    const byType = await app.api.get('/resources', { resource_type_filter: 'GCP_BUCKET', resource_name: tag });
    assert.deepEqual(ids(byType.body), [r3.resource_id]);
    const byName = await app.api.get('/resources', { resource_name: `${tag} alpha` });
    assert.deepEqual(ids(byName.body), [r1.resource_id, r3.resource_id]);
    const byIdsComma = await app.api.get('/resources', { resource_ids: `${r3.resource_id},${r1.resource_id.toUpperCase()}` });
    assert.deepEqual(ids(byIdsComma.body), [r1.resource_id, r3.resource_id]);
    const byIdsRepeated = await app.api.get('/resources', { resource_ids: [r2.resource_id, r3.resource_id] });
    assert.deepEqual(ids(byIdsRepeated.body), [r2.resource_id, r3.resource_id]);
    const byRemote = await app.api.get('/resources', { remote_id: 'arn:1', resource_type_filter: 'AWS_IAM_ROLE' });
    assert.deepEqual(ids(byRemote.body), [r1.resource_id]);
    const remoteAlone = await app.api.get('/resources', { remote_id: 'arn:1' });
    assert.equal(remoteAlone.status, 400);
    assert.equal(remoteAlone.body.details[0].path, 'resource_type_filter');
    assert.equal((await app.api.get('/resources', { resource_type_filter: 'custom' })).status, 400);
    assert.equal((await app.api.get('/resources', { resource_ids: 'nope' })).body.details[0].path, 'resource_ids.0');

    const t1 = await createTag(app.api);
    const t2 = await createTag(app.api);
    assert.equal((await app.api.post(`/tags/${t1.tag_id}/resources/${r1.resource_id}`, {})).status, 200);
    assert.equal((await app.api.post(`/tags/${t2.tag_id}/resources/${r3.resource_id}`, {})).status, 200);
    assert.deepEqual(ids((await app.api.get('/resources', { tag_ids: t1.tag_id })).body), [r1.resource_id]);
    assert.deepEqual(ids((await app.api.get('/resources', { tag_ids: [t1.tag_id, t2.tag_id] })).body), [r1.resource_id, r3.resource_id]);
    assert.deepEqual(ids((await app.api.get('/resources', { tag_ids: `${t2.tag_id},${t1.tag_id}`, resource_type_filter: 'GCP_BUCKET' })).body), [r3.resource_id]);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await app.api.get('/resources', { resource_name: tag, page_size: 2, cursor });
      assert.equal(page.status, 200);
      assert.ok(page.body.results.length <= 2);
      seen.push(...ids(page.body));
      assert.equal(page.body.previous, cursor ?? null);
      cursor = page.body.next ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, [r1.resource_id, r2.resource_id, r3.resource_id]);
  });

  it('filters by app_id (an extension), page by page, and shows a member only what they may see', async () => {
    const [mine, other] = [(await createApp(app.api)).app_id, (await createApp(app.api)).app_id];
    const inMine: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      inMine.push((await createResource(app.api, { app_id: mine })).resource_id);
      await createResource(app.api, { app_id: other });
    }
    const walk = async (api: typeof app.api, appFilter: string) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await api.get('/resources', { app_id: appFilter, page_size: 2, cursor });
        assert.equal(page.status, 200, JSON.stringify(page.body));
        seen.push(...ids(page.body));
        cursor = page.body.next ?? undefined;
      } while (cursor);
      return seen;
    };
    assert.deepEqual(await walk(app.api, mine), inMine);
    assert.deepEqual(await walk(app.api, mine.toUpperCase()), inMine, 'ids match whatever their case');
    assert.deepEqual(await walk(app.api, NO_SUCH_ID), []);
    const bad = await app.api.get('/resources', { app_id: 'nope' });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.details.map((d: { path: string }) => d.path), ['app_id']);

    // One resource limited to a group the member is not in: the filtered list hides it from them.
    const group = await createGroup(app.api, { app_id: mine });
    assert.equal((await app.api.put(`/resources/${inMine[2]}/visibility`, { visibility: 'LIMITED', visibility_group_ids: [group.group_id] })).status, 200);
    const member = await createMember(app.api);
    assert.deepEqual(await walk(member.api, mine), inMine.filter((_, i) => i !== 2));
    assert.deepEqual(await walk(app.api, mine), inMine, 'an admin still sees it');
  });
});
