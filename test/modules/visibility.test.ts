// Visibility of resources, groups and bundles through HTTP: GET/PUT …/visibility, and what members see
// in the lists and gets (admins see everything; an unseen item is a 404).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import type { ApiClient } from '../helpers/client.ts';
import { createApp, createBundle, createGroup, createOwner, createResource, createToken, createUser, NO_SUCH_ID } from '../helpers/fixtures.ts';
import { API_OPERATIONS } from '../../src/app.ts';
import { canSee } from '../../src/modules/visibility/service.ts';
import { countEvents } from '../helpers/events.ts';
import { OpalConnector } from '../helpers/opal-connector.ts';

describe('visibility', () => {
  let app: TestApp;
  let appId: string;
  before(async () => {
    app = await startTestApp();
    appId = (await createApp(app.api)).app_id;
  });
  after(() => app.close());

  /** A new member (the default organization role) and a client acting as them. */
  const member = async (): Promise<{ userId: string; api: ApiClient }> => {
    const user = await createUser(app.api);
    const { secret } = await createToken(app.api, { user_id: user.user_id });
    return { userId: user.user_id, api: app.api.as(secret) };
  };
  const limit = async (kind: 'resources' | 'groups' | 'bundles', id: string, groupIds: string[]) => {
    const res = await app.api.put(`/${kind}/${id}/visibility`, { visibility: 'LIMITED', visibility_group_ids: groupIds });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const addMember = async (groupId: string, userId: string, minutes = 0) => {
    const res = await app.api.post(`/groups/${groupId}/users/${userId}`, { duration_minutes: minutes });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  /** Every resource id a client lists, walking the pages at `pageSize`; also returns each page's length. */
  const listAll = async (api: ApiClient, path: string, key: string, idField: string, pageSize: number, query: Record<string, string> = {}) => {
    const ids: string[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    do {
      const res = await api.get(path, { ...query, page_size: pageSize, cursor });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      ids.push(...res.body[key].map((item: Record<string, string>) => item[idField]));
      sizes.push(res.body[key].length);
      cursor = res.body.next ?? undefined;
    } while (cursor);
    return { ids, sizes };
  };

  describe('GET and PUT …/visibility', () => {
    it('starts GLOBAL, sets LIMITED with groups in the order given, and records <KIND>_VISIBILITY_UPDATED', async () => {
      const [g1, g2] = [await createGroup(app.api, { app_id: appId }), await createGroup(app.api, { app_id: appId })];
      const items = {
        resources: (await createResource(app.api, { app_id: appId })).resource_id,
        groups: (await createGroup(app.api, { app_id: appId })).group_id,
        bundles: (await createBundle(app.api)).bundle_id,
      };
      for (const [kind, id] of Object.entries(items)) {
        assert.deepEqual((await app.api.get(`/${kind}/${id}/visibility`)).body, { visibility: 'GLOBAL', visibility_group_ids: [] });
        const info = { visibility: 'LIMITED', visibility_group_ids: [g2.group_id, g1.group_id.toUpperCase()] };
        const res = await app.api.put(`/${kind}/${id}/visibility`, info);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const expected = { visibility: 'LIMITED', visibility_group_ids: [g2.group_id, g1.group_id] };
        assert.deepEqual(res.body, kind === 'bundles' ? {} : expected, 'bundles answer an empty 200, as the reference says');
        assert.deepEqual((await app.api.get(`/${kind}/${id}/visibility`)).body, expected);
        const type = `${kind.slice(0, -1).toUpperCase()}_VISIBILITY_UPDATED`;
        const events = (await app.api.get('/events', { object_filter: id, event_type_filter: type })).body.results;
        assert.equal(events.length, 1, type);
        assert.equal(events[0].sub_events[0].visibility, 'LIMITED');
        // Back to GLOBAL.
        assert.equal((await app.api.put(`/${kind}/${id}/visibility`, { visibility: 'GLOBAL' })).status, 200);
        assert.deepEqual((await app.api.get(`/${kind}/${id}/visibility`)).body, { visibility: 'GLOBAL', visibility_group_ids: [] });
      }
    });

    it('refuses bad input with 400 or 404 naming the field, and changes and records nothing', async () => {
      const group = await createGroup(app.api, { app_id: appId });
      const resource = await createResource(app.api, { app_id: appId });
      await limit('resources', resource.resource_id, [group.group_id]);
      const path = `/resources/${resource.resource_id}/visibility`;
      const before = (await app.api.get(path)).body;
      const eventsBefore = await countEvents(app.api);
      const cases: [string, unknown, number, string][] = [
        [path, {}, 400, 'visibility'],
        [path, { visibility: 'PRIVATE' }, 400, 'visibility'],
        [path, { visibility: 'GLOBAL', visibility_group_ids: [group.group_id] }, 400, 'visibility_group_ids'],
        [path, { visibility: 'LIMITED', visibility_group_ids: ['nope'] }, 400, 'visibility_group_ids.0'],
        [path, { visibility: 'LIMITED', visibility_group_ids: [group.group_id, group.group_id.toUpperCase()] }, 400, 'visibility_group_ids'],
        [path, { visibility: 'LIMITED', visibility_group_ids: 'x' }, 400, 'visibility_group_ids'],
        [path, { visibility: 'LIMITED', visibility_group_ids: [group.group_id, NO_SUCH_ID] }, 404, 'visibility_group_ids.1'],
        [`/resources/${NO_SUCH_ID}/visibility`, { visibility: 'GLOBAL' }, 404, 'resource_id'],
        [`/groups/${NO_SUCH_ID}/visibility`, { visibility: 'GLOBAL' }, 404, 'group_id'],
        [`/bundles/${NO_SUCH_ID}/visibility`, { visibility: 'GLOBAL' }, 404, 'bundle_id'],
        ['/resources/not-a-uuid/visibility', { visibility: 'GLOBAL' }, 400, 'resource_id'],
      ];
      for (const [url, body, status, field] of cases) {
        const res = await app.api.put(url, body);
        assert.equal(res.status, status, `${url} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
        assert.ok(res.body.details.some((d: { path: string }) => d.path === field), `${field} in ${JSON.stringify(res.body.details)}`);
      }
      assert.deepEqual((await app.api.get(path)).body, before);
      assert.equal(await countEvents(app.api), eventsBefore);
      for (const [url, status, field] of [
        [`/resources/${NO_SUCH_ID}/visibility`, 404, 'resource_id'],
        [`/groups/${NO_SUCH_ID}/visibility`, 404, 'group_id'],
        [`/bundles/${NO_SUCH_ID}/visibility`, 404, 'bundle_id'],
        ['/groups/42/visibility', 400, 'group_id'],
      ] as const) {
        const res = await app.api.get(url);
        assert.equal(res.status, status);
        assert.equal(res.body.details[0].path, field);
      }
    });

    it('fails closed when a visibility group is deleted: the item stays LIMITED without it', async () => {
      const group = await createGroup(app.api, { app_id: appId });
      const resource = await createResource(app.api, { app_id: appId });
      await limit('resources', resource.resource_id, [group.group_id]);
      assert.equal((await app.api.delete(`/groups/${group.group_id}`)).status, 200);
      assert.deepEqual((await app.api.get(`/resources/${resource.resource_id}/visibility`)).body, { visibility: 'LIMITED', visibility_group_ids: [] });
    });
  });

  describe('who sees a LIMITED item', () => {
    it('members of a visibility group (direct, nested, unexpired), users of the owner and holders; admins always', async () => {
      const visibilityGroup = await createGroup(app.api, { app_id: appId });
      const inner = await createGroup(app.api, { app_id: appId });
      assert.equal((await app.api.post(`/groups/${inner.group_id}/containing-groups`, { containing_group_id: visibilityGroup.group_id })).status, 200);
      const [outsider, direct, nested, expiring, holder, ownerUser] = [
        await member(), await member(), await member(), await member(), await member(), await member(),
      ];
      const owner = await createOwner(app.api, { user_ids: [ownerUser.userId] });
      const resource = await createResource(app.api, { app_id: appId, admin_owner_id: owner.owner_id });
      const id = resource.resource_id;
      await limit('resources', id, [visibilityGroup.group_id]);
      await addMember(visibilityGroup.group_id, direct.userId);
      await addMember(inner.group_id, nested.userId);
      await addMember(visibilityGroup.group_id, expiring.userId, 60);
      assert.equal((await app.api.post(`/resources/${id}/users/${holder.userId}`, { duration_minutes: 0 })).status, 200);

      const sees = async (who: { api: ApiClient }) => {
        const get = await who.api.get(`/resources/${id}`);
        const listed = (await who.api.get('/resources', { resource_ids: id })).body.results.length === 1;
        const visibility = await who.api.get(`/resources/${id}/visibility`);
        assert.equal(get.status === 200, listed, 'the get and the list agree');
        assert.equal(visibility.status, get.status, 'the visibility read agrees');
        if (get.status === 404) assert.equal(get.body.message, (await who.api.get(`/resources/${NO_SUCH_ID}`)).body.message.replace(NO_SUCH_ID, id), 'an unseen item reads as a missing one');
        return listed;
      };
      assert.equal(await sees(app), true, 'admin');
      assert.equal(await sees(outsider), false, 'in no visibility group');
      assert.equal(await sees(direct), true, 'direct member');
      assert.equal(await sees(nested), true, 'member through a nested group');
      assert.equal(await sees(expiring), true, 'member until the membership expires');
      assert.equal(await sees(holder), true, 'holds the resource');
      assert.equal(await sees(ownerUser), true, 'a user of its admin owner');

      app.clock.advance(61 * 60_000);
      assert.equal(await sees(expiring), false, 'an expired membership no longer counts, swept or not');

      // The function the requests module uses agrees.
      const caller = (userId: string) => ({ userId, role: 'MEMBER' as const });
      assert.equal(canSee(app.ctx, caller(outsider.userId), 'resource', id), false);
      assert.equal(canSee(app.ctx, caller(nested.userId), 'resource', id), true);
      assert.equal(canSee(app.ctx, { userId: outsider.userId, role: 'ADMIN' }, 'resource', id), true);
      assert.equal(canSee(app.ctx, { userId: outsider.userId, role: 'ADMIN' }, 'resource', NO_SUCH_ID), false, 'an unknown item is never seen');

      // GLOBAL again: everyone sees it.
      assert.equal((await app.api.put(`/resources/${id}/visibility`, { visibility: 'GLOBAL' })).status, 200);
      assert.equal(await sees(outsider), true);
    });

    it('a LIMITED group is seen by its own members and its visibility groups\' members', async () => {
      const visibilityGroup = await createGroup(app.api, { app_id: appId });
      const group = await createGroup(app.api, { app_id: appId });
      await limit('groups', group.group_id, [visibilityGroup.group_id]);
      const [outsider, own, viewer] = [await member(), await member(), await member()];
      await addMember(group.group_id, own.userId);
      await addMember(visibilityGroup.group_id, viewer.userId);
      for (const [who, expected] of [[outsider, false], [own, true], [viewer, true], [{ api: app.api }, true]] as const) {
        assert.equal((await who.api.get(`/groups/${group.group_id}`)).status, expected ? 200 : 404);
        assert.equal((await who.api.get('/groups', { group_ids: group.group_id })).body.results.length, expected ? 1 : 0);
      }
    });

    it('filters bundles in the page and in total_count, and hides an unseen bundle\'s items', async () => {
      const visibilityGroup = await createGroup(app.api, { app_id: appId });
      const owner = await createOwner(app.api);
      const prefix = `vis-bundle-${process.pid}`;
      const bundles = [];
      for (let i = 0; i < 4; i++) bundles.push(await createBundle(app.api, { name: `${prefix}-${i}`, admin_owner_id: owner.owner_id }));
      await limit('bundles', bundles[1]!.bundle_id, [visibilityGroup.group_id]);
      await limit('bundles', bundles[2]!.bundle_id, []);
      const outsider = await member();
      const listed = await outsider.api.get('/bundles', { contains: prefix });
      assert.deepEqual(listed.body.bundles.map((b: { bundle_id: string }) => b.bundle_id), [bundles[0]!.bundle_id, bundles[3]!.bundle_id]);
      assert.equal(listed.body.total_count, 2);
      assert.equal((await app.api.get('/bundles', { contains: prefix })).body.total_count, 4, 'admins see all');
      assert.equal((await outsider.api.get(`/bundles/${bundles[1]!.bundle_id}`)).status, 404);
      assert.equal((await outsider.api.get(`/bundles/${bundles[1]!.bundle_id}/resources`)).status, 404);
      assert.equal((await outsider.api.get(`/bundles/${bundles[1]!.bundle_id}/groups`)).status, 404);
      assert.equal((await outsider.api.get(`/bundles/${bundles[0]!.bundle_id}/resources`)).status, 200);
      await addMember(visibilityGroup.group_id, outsider.userId);
      assert.equal((await outsider.api.get('/bundles', { contains: prefix })).body.total_count, 3);
      assert.equal((await outsider.api.get(`/bundles/${bundles[1]!.bundle_id}`)).status, 200);
    });

    it('answers every read under an unseen item as under a missing one, on every route that names one', async () => {
      const hiddenResource = (await createResource(app.api, { app_id: appId })).resource_id;
      const hiddenGroup = (await createGroup(app.api, { app_id: appId })).group_id;
      const owner = await createOwner(app.api);
      const hiddenBundle = (await createBundle(app.api, { admin_owner_id: owner.owner_id })).bundle_id;
      const rule = await app.api.post('/access-rules', {
        name: 'hidden rule', description: '', admin_owner_id: owner.owner_id, status: 'ACTIVE',
        ruleClauses: { when: { clauses: [{ selectors: [{ key: 'team', value: 'hidden', connection_id: NO_SUCH_ID }] }] } },
      });
      assert.equal(rule.status, 201, JSON.stringify(rule.body));
      const hiddenRule = rule.body.access_rule_id as string;
      await limit('resources', hiddenResource, []);
      await limit('groups', hiddenGroup, []);
      await limit('groups', hiddenRule, []);
      await limit('bundles', hiddenBundle, []);
      const outsider = await member();
      const hidden: Record<string, string> = {
        resource_id: hiddenResource, app_resource_id: hiddenResource, non_human_identity_id: hiddenResource,
        group_id: hiddenGroup, containing_group_id: hiddenGroup, access_rule_id: hiddenRule, bundle_id: hiddenBundle,
      };
      // What each route declares its path parameters name (src/http/route.ts): the guard reads only that.
      const declared = API_OPERATIONS.flatMap((group) => Object.entries(group.operations)).map(([key, doc]) => ({
        key,
        items: Object.entries((doc as { items?: Record<string, string | null> }).items ?? {}).filter(([, kind]) => kind !== null),
        adminOnly: (doc as { role?: string }).role === 'admin-read',
      }));
      const adminOnly = new Set(declared.filter((route) => route.adminOnly).map((route) => route.key.slice('GET '.length)));
      const itemParams = [...new Set(declared.flatMap((route) => route.items.map(([name]) => name)))];
      assert.deepEqual(Object.keys(hidden).sort(), itemParams.sort(), 'every parameter a route declares as naming an item is walked');
      const routes = declared.filter((route) => route.key.startsWith('GET ') && route.items.length > 0).map((route) => route.key.slice('GET '.length));
      assert.ok(routes.includes('/v1/access-rules/{access_rule_id}'));
      assert.ok(routes.length >= 25, `only ${routes.length} routes name an item`);
      for (const route of routes) {
        const fill = (ids: Record<string, string>) => route.replace(/^\/v1/, '').replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? outsider.userId);
        const missing = Object.fromEntries(Object.keys(hidden).map((name) => [name, NO_SUCH_ID]));
        const unseen = await outsider.api.get(fill(hidden));
        const absent = await outsider.api.get(fill(missing));
        if (adminOnly.has(route)) {
          // A route for admins refuses a member before it looks at the item: the same 403, seen, unseen or missing.
          assert.deepEqual([unseen.status, unseen.body.message], [403, absent.body.message], `${route}: ${JSON.stringify(unseen.body)}`);
          continue;
        }
        assert.equal(unseen.status, 404, `${route}: ${JSON.stringify(unseen.body)}`);
        assert.deepEqual(unseen.body.details, absent.body.details, `${route}: the details differ from a missing item's`);
        assert.equal(unseen.body.message, absent.body.message.replaceAll(NO_SUCH_ID, hidden[unseen.body.details[0].path]!), route);
        // An admin sees the item: whatever the route answers them, it is not "no such item".
        assert.notEqual((await app.api.get(fill(hidden))).body.message, unseen.body.message, `${route}: an admin sees the item`);
        // The router decodes parameters, so the guard must too: %63 is "c", %2D is "-".
        const encoded = Object.fromEntries(Object.entries(hidden).map(([name, id]) => [name, id.replace(/^./, (c) => `%${c.charCodeAt(0).toString(16)}`).replace('-', '%2D')]));
        const sneaky = await outsider.api.get(fill(encoded));
        assert.equal(sneaky.status, 404, `${route} percent-encoded: ${JSON.stringify(sneaky.body)}`);
        // HEAD runs the GET handler: it must be guarded like the GET.
        const head = await fetch(app.url + fill(hidden), { method: 'HEAD', headers: { authorization: `Bearer ${outsider.api.token}` } });
        assert.equal(head.status, 404, `HEAD ${route}`);
      }
    });

    it('answers a query parameter naming an unseen item as one naming a missing item', async () => {
      const hiddenResource = (await createResource(app.api, { app_id: appId })).resource_id;
      const hiddenGroup = (await createGroup(app.api, { app_id: appId })).group_id;
      await limit('resources', hiddenResource, []);
      await limit('groups', hiddenGroup, []);
      const outsider = await member();
      const cases: [string, string, string][] = [
        ['/sync_errors', 'resource_id', hiddenResource],
        ['/sync_errors', 'group_id', hiddenGroup],
        ['/sessions', 'resource_id', hiddenResource],
      ];
      for (const [path, param, id] of cases) {
        const unseen = await outsider.api.get(path, { [param]: id });
        const absent = await outsider.api.get(path, { [param]: NO_SUCH_ID });
        assert.equal(absent.status, 404, `${path}?${param}: ${JSON.stringify(absent.body)}`);
        assert.equal(unseen.status, 404, `${path}?${param}: ${JSON.stringify(unseen.body)}`);
        assert.deepEqual(unseen.body.details, absent.body.details, `${path}?${param}`);
        assert.equal(unseen.body.message, absent.body.message.replaceAll(NO_SUCH_ID, id), `${path}?${param}`);
        assert.equal((await app.api.get(path, { [param]: id })).status, 200, `${path}?${param}: an admin sees the item`);
      }
      // Opening a session on it: the same 404 as for a missing resource, not "you hold no access".
      const unseen = await outsider.api.post('/sessions', { resource_id: hiddenResource });
      const absent = await outsider.api.post('/sessions', { resource_id: NO_SUCH_ID });
      assert.equal(unseen.status, 404, JSON.stringify(unseen.body));
      assert.deepEqual(unseen.body.details, absent.body.details);
      assert.equal(unseen.body.message, absent.body.message.replaceAll(NO_SUCH_ID, hiddenResource));
    });

    it('shows a member another user\'s holdings only where they see the item; the holder sees all of their own', async () => {
      const holder = await member();
      const outsider = await member();
      const [hidden, shown] = [await createResource(app.api, { app_id: appId }), await createResource(app.api, { app_id: appId })];
      const hiddenGroup = await createGroup(app.api, { app_id: appId });
      for (const r of [hidden, shown]) assert.equal((await app.api.post(`/resources/${r.resource_id}/users/${holder.userId}`, { duration_minutes: 0 })).status, 200);
      await addMember(hiddenGroup.group_id, holder.userId);
      await limit('resources', hidden.resource_id, []);
      await limit('groups', hiddenGroup.group_id, []);
      const resourcesOf = async (api: ApiClient) =>
        (await listAll(api, `/resources/users/${holder.userId}`, 'results', 'resource_id', 1)).ids.filter((id) => [hidden.resource_id, shown.resource_id].includes(id)).sort();
      const groupsOf = async (api: ApiClient) => (await listAll(api, `/groups/users/${holder.userId}`, 'results', 'group_id', 1)).ids;
      assert.deepEqual(await resourcesOf(outsider.api), [shown.resource_id]);
      assert.ok(!(await groupsOf(outsider.api)).includes(hiddenGroup.group_id));
      assert.deepEqual(await resourcesOf(holder.api), [hidden.resource_id, shown.resource_id].sort());
      assert.ok((await groupsOf(holder.api)).includes(hiddenGroup.group_id));
      assert.deepEqual(await resourcesOf(app.api), [hidden.resource_id, shown.resource_id].sort());
    });

    it('lists the other end of an item\'s edges only where the member sees it: a resource\'s groups, a group\'s resources and containing groups', async () => {
      const outsider = await member();
      const [seenGroup, hiddenGroup] = [await createGroup(app.api, { app_id: appId }), await createGroup(app.api, { app_id: appId })];
      const [seenResource, hiddenResource] = [await createResource(app.api, { app_id: appId }), await createResource(app.api, { app_id: appId })];
      for (const g of [seenGroup, hiddenGroup]) assert.equal((await app.api.post(`/groups/${g.group_id}/resources/${seenResource.resource_id}`, { duration_minutes: 0 })).status, 200);
      assert.equal((await app.api.post(`/groups/${seenGroup.group_id}/resources/${hiddenResource.resource_id}`, { duration_minutes: 0 })).status, 200);
      assert.equal((await app.api.post(`/groups/${seenGroup.group_id}/containing-groups`, { containing_group_id: hiddenGroup.group_id })).status, 200);
      await limit('groups', hiddenGroup.group_id, []);
      await limit('resources', hiddenResource.resource_id, []);
      const ids = (list: { group_id?: string; resource_id?: string; containing_group_id?: string }[], key: 'group_id' | 'resource_id' | 'containing_group_id') => list.map((row) => row[key]).sort();
      assert.deepEqual(ids((await outsider.api.get(`/resources/${seenResource.resource_id}/groups`)).body.group_resources, 'group_id'), [seenGroup.group_id]);
      assert.deepEqual(ids((await outsider.api.get(`/groups/${seenGroup.group_id}/resources`)).body.group_resources, 'resource_id'), [seenResource.resource_id]);
      assert.deepEqual((await outsider.api.get(`/groups/${seenGroup.group_id}/containing-groups`)).body.containing_groups, []);
      assert.deepEqual(ids((await app.api.get(`/resources/${seenResource.resource_id}/groups`)).body.group_resources, 'group_id'), [seenGroup.group_id, hiddenGroup.group_id].sort());
      assert.equal((await app.api.get(`/groups/${seenGroup.group_id}/resources`)).body.group_resources.length, 2);
      assert.equal((await app.api.get(`/groups/${seenGroup.group_id}/containing-groups`)).body.containing_groups.length, 1);
    });

    it('filters the access rules list by the visibility of each rule\'s group', async () => {
      const owner = await createOwner(app.api);
      const created = await app.api.post('/access-rules', {
        name: 'limited rule', description: '', admin_owner_id: owner.owner_id, status: 'PAUSED',
        ruleClauses: { when: { clauses: [{ selectors: [{ key: 'team', value: 'x', connection_id: NO_SUCH_ID }] }] } },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const ruleId = created.body.access_rule_id as string;
      const outsider = await member();
      const listed = async (api: ApiClient) => (await listAll(api, '/access-rules', 'results', 'access_rule_id', 1000)).ids.includes(ruleId);
      assert.equal(await listed(outsider.api), true);
      await limit('groups', ruleId, []);
      assert.equal(await listed(outsider.api), false);
      assert.equal((await outsider.api.get(`/access-rules/${ruleId}`)).status, 404);
      assert.equal(await listed(app.api), true);
    });

    it('filters the non-human identities list the same way', async () => {
      const nhi = await createResource(app.api, { app_id: appId, resource_type: 'AWS_IAM_ROLE' });
      const outsider = await member();
      const listed = async (api: ApiClient) =>
        (await listAll(api, '/non-human-identities', 'results', 'resource_id', 1000)).ids.includes(nhi.resource_id);
      assert.equal(await listed(outsider.api), true);
      await limit('resources', nhi.resource_id, []);
      assert.equal(await listed(outsider.api), false);
      assert.equal(await listed(app.api), true);
    });

    it('no list a member reads names a LIMITED resource or group they may not see: every list, sync errors included', async () => {
      // A connector whose remote side holds a resource and a group Gatehouse does not grant: REPORT drift
      // records a sync error naming each item and the user holding it.
      const secret = 'visibility-connector-secret-0123456789';
      const remote = await new OpalConnector(secret).start();
      try {
        const holder = await member();
        const outsider = await member();
        const holderEmail = (await app.api.get(`/users/${holder.userId}`)).body.email as string;
        remote.users.set('u-holder', holderEmail);
        remote.resources.set('r-secret', { name: 'Secret ledger', levels: [{ id: 'read', name: 'Read' }], users: new Map([['u-holder', new Set(['read'])]]) });
        remote.groups.set('g-secret', { name: 'Secret circle', users: new Set(['u-holder']), resources: new Set(), memberGroups: new Set() });
        const connectorApp = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
        assert.equal((await app.api.put(`/apps/${connectorApp}/connector`, { url: remote.url, signing_secret: secret, timeout_ms: 5_000, drift_policy: 'REPORT' })).status, 200);
        assert.equal((await app.api.post(`/apps/${connectorApp}/connector/sync`)).body.ok, true);
        const resource = ((await app.api.get('/resources', { page_size: 1000 })).body.results as { resource_id: string; app_id: string }[]).find((r) => r.app_id === connectorApp)!.resource_id;
        const group = ((await app.api.get('/groups', { page_size: 1000 })).body.results as { group_id: string; app_id: string }[]).find((g) => g.app_id === connectorApp)!.group_id;
        // Both LIMITED to a visibility group the outsider is not in.
        const seers = await createGroup(app.api, { app_id: appId });
        const seer = await member();
        await addMember(seers.group_id, seer.userId);
        await limit('resources', resource, [seers.group_id]);
        await limit('groups', group, [seers.group_id]);
        // The drift is recorded again, now about LIMITED items.
        const synced = await app.api.post(`/apps/${connectorApp}/connector/sync`);
        assert.equal(synced.body.drift_found, 2, JSON.stringify(synced.body));
        const secrets = [resource, group, 'Secret ledger', 'Secret circle'];
        const leaks = (text: string) => secrets.filter((secretText) => text.includes(secretText));
        // An admin sees the drift about both items; so the lists below have something to leak.
        assert.deepEqual(leaks(JSON.stringify((await app.api.get('/sync_errors')).body)).slice(0, 2), [resource, group]);
        // So does a member of the visibility group.
        assert.deepEqual(leaks(JSON.stringify((await seer.api.get('/sync_errors', { app_id: connectorApp })).body)).slice(0, 2), [resource, group]);

        // Every list and read whose path names nothing, or only a user (filled with the holder's id), read as the outsider.
        const routes = API_OPERATIONS.flatMap((g) => Object.keys(g.operations))
          .filter((key) => key.startsWith('GET /v1/'))
          .map((key) => key.slice('GET '.length))
          .filter((path) => [...path.matchAll(/\{(\w+)\}/g)].every(([, name]) => name === 'user_id'));
        assert.ok(routes.includes('/v1/sync_errors') && routes.includes('/v1/resources/users/{user_id}') && routes.length >= 25, routes.join());
        const leaked: string[] = [];
        for (const route of routes) {
          const path = route.replace(/^\/v1/, '').replace('{user_id}', holder.userId);
          for (const query of [{ page_size: 1000 }, { app_id: connectorApp, page_size: 1000 }]) {
            const res = await outsider.api.get(path, query);
            const found = leaks(JSON.stringify(res.body));
            if (found.length > 0) leaked.push(`${route} ${JSON.stringify(query)} (${res.status}): ${found.join(', ')}`);
          }
        }
        assert.deepEqual(leaked, []);
      } finally {
        await remote.stop();
      }
    });

    it('filters in SQL, so every page but the last is full and paging skips and repeats nothing', async () => {
      const freshApp = (await createApp(app.api)).app_id;
      const resources = [];
      for (let i = 0; i < 9; i++) resources.push((await createResource(app.api, { app_id: freshApp, name: `paged-${i}` })).resource_id);
      // Hide every other resource, including the first and the last.
      for (const id of resources.filter((_, i) => i % 2 === 0)) await limit('resources', id, []);
      const outsider = await member();
      const visible = resources.filter((_, i) => i % 2 === 1);
      for (const pageSize of [1, 2, 3]) {
        const { ids, sizes } = await listAll(outsider.api, '/resources', 'results', 'resource_id', pageSize, { resource_name: 'paged-' });
        assert.deepEqual(ids, visible, `page_size ${pageSize}`);
        assert.ok(sizes.slice(0, -1).every((n) => n === pageSize), `pages ${JSON.stringify(sizes)} at page_size ${pageSize}`);
      }
      assert.deepEqual((await listAll(app.api, '/resources', 'results', 'resource_id', 4, { resource_name: 'paged-' })).ids, resources);
    });
  });
});
