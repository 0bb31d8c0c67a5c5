// POST /queries/run through HTTP: node filters over users, groups and resources, paging, refusals.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createGroup, createMember, createOwner, createResource, createTag, createToken, createUser, NO_SUCH_ID } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';

interface Edge {
  node: { id: string; name: string; entityType: string; entityItemType: string };
  cursor: string;
}

describe('POST /queries/run', () => {
  let app: TestApp;
  // A small catalogue whose every answer is known.
  const ids: Record<string, string> = {};
  before(async () => {
    app = await startTestApp();
    const appA = await createApp(app.api, { name: 'App A' });
    const appB = await createApp(app.api, { name: 'App B' });
    ids.appA = appA.app_id;
    ids.appB = appB.app_id;
    ids.ann = (await createUser(app.api, { full_name: 'Ann Platform', email: 'ann@example.com' })).user_id;
    ids.bob = (await createUser(app.api, { full_name: 'Bob 100% Sales', email: 'bob@example.com' })).user_id;
    ids.eng = (await createGroup(app.api, { app_id: ids.appA, name: 'Engineering', group_type: 'OKTA_GROUP' })).group_id;
    ids.sales = (await createGroup(app.api, { app_id: ids.appB, name: 'Sales team', group_type: 'OPAL_GROUP' })).group_id;
    ids.prodDb = (await createResource(app.api, { app_id: ids.appA, name: 'prod-db', resource_type: 'CUSTOM' })).resource_id;
    ids.stagingDb = (await createResource(app.api, { app_id: ids.appA, name: 'staging-db', resource_type: 'CUSTOM' })).resource_id;
    ids.okta = (await createResource(app.api, { app_id: ids.appB, name: 'Okta Prod', resource_type: 'OKTA_APP' })).resource_id;
    const prod = await createTag(app.api, { tag_key: 'env', tag_value: 'prod' });
    const staging = await createTag(app.api, { tag_key: 'env', tag_value: 'staging' });
    const team = await createTag(app.api, { tag_key: 'team', tag_value: 'platform' });
    const attach = async (tag: string, kind: string, id: string) => {
      const res = await app.api.post(`/tags/${tag}/${kind}/${id}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    await attach(prod.tag_id, 'resources', ids.prodDb!);
    await attach(prod.tag_id, 'resources', ids.okta!);
    await attach(staging.tag_id, 'resources', ids.stagingDb!);
    await attach(team.tag_id, 'users', ids.ann!);
    await attach(team.tag_id, 'groups', ids.eng!);
    await attach(prod.tag_id, 'groups', ids.eng!);
  });
  after(() => app.close());

  const run = async (body: Record<string, unknown>) => {
    const res = await app.api.post('/queries/run', body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { type: string; edges: Edge[]; pageInfo: Record<string, unknown> };
  };
  const names = async (nodeFilters: Record<string, unknown>) =>
    (await run({ type: 'NODE', query: { nodeFilters } })).edges.map((e) => e.node.name);

  it('with no filter lists users, then groups, then resources, each in creation order, with their types', async () => {
    const res = await run({ type: 'NODE' });
    assert.equal(res.type, 'NODE');
    assert.deepEqual(res.edges.map((e) => [e.node.name, e.node.entityType, e.node.entityItemType]), [
      [res.edges[0]!.node.name, 'USER', 'USER'],
      ['Ann Platform', 'USER', 'USER'],
      ['Bob 100% Sales', 'USER', 'USER'],
      ['Engineering', 'GROUP', 'OKTA_GROUP'],
      ['Sales team', 'GROUP', 'OPAL_GROUP'],
      ['prod-db', 'RESOURCE', 'CUSTOM'],
      ['staging-db', 'RESOURCE', 'CUSTOM'],
      ['Okta Prod', 'RESOURCE', 'OKTA_APP'],
    ]);
    assert.equal(res.edges[0]!.node.id, app.adminUserId, 'the bootstrap admin is the first user');
    assert.equal(res.edges[1]!.node.id, ids.ann);
    assert.deepEqual(res.pageInfo, {
      hasNextPage: false, hasPreviousPage: false, startCursor: res.edges[0]!.cursor, endCursor: res.edges.at(-1)!.cursor,
    });
  });

  it('pages with first and after across the kinds, every node exactly once', async () => {
    const all = (await run({ type: 'NODE' })).edges.map((e) => e.node.id);
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await run({ type: 'NODE', first: 3, ...(after && { after }) });
      assert.ok(res.edges.length <= 3);
      assert.equal(res.pageInfo.hasPreviousPage, after !== undefined);
      seen.push(...res.edges.map((e) => e.node.id));
      pages++;
      if (!res.pageInfo.hasNextPage) break;
      after = res.pageInfo.endCursor as string;
      assert.equal(after, res.edges.at(-1)!.cursor);
    }
    assert.equal(pages, 3);
    assert.deepEqual(seen, all);
    // Any edge's cursor continues right after that edge.
    const fromGroup = await run({ type: 'NODE', after: (await run({ type: 'NODE' })).edges[3]!.cursor });
    assert.deepEqual(fromGroup.edges.map((e) => e.node.id), all.slice(4));
    const empty = await run({ type: 'NODE', query: { nodeFilters: { entityIDs: [NO_SUCH_ID] } } });
    assert.deepEqual(empty, { type: 'NODE', edges: [], pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: '', endCursor: '' } });
  });

  it('filters by type, item type, name, tag, ids and app', async () => {
    assert.deepEqual(await names({ entityTypes: ['RESOURCE'] }), ['prod-db', 'staging-db', 'Okta Prod']);
    assert.deepEqual(await names({ entityTypes: ['GROUP', 'USER'], entityName: { stringMatchType: 'CONTAINS', string: 'SALES' } }), ['Bob 100% Sales', 'Sales team']);
    assert.deepEqual(await names({ entityItemTypes: ['OKTA_APP', 'OKTA_GROUP'] }), ['Engineering', 'Okta Prod']);
    assert.deepEqual(await names({ entityItemTypes: ['USER'], entityName: { stringMatchType: 'STARTS_WITH', string: 'ann' } }), ['Ann Platform']);
    assert.deepEqual(await names({ entityName: { stringMatchType: 'ENDS_WITH', string: '-DB' } }), ['prod-db', 'staging-db']);
    assert.deepEqual(await names({ entityName: { stringMatchType: 'EQUALS', string: 'engineering' } }), ['Engineering']);
    assert.deepEqual(await names({ entityName: { stringMatchType: 'CONTAINS', string: '100%' } }), ['Bob 100% Sales'], '% is a plain character');
    assert.deepEqual(await names({ entityName: { stringMatchType: 'CONTAINS', string: '_' } }), [], '_ is a plain character');
    assert.deepEqual(await names({ entityTag: { key: 'env', value: 'prod' } }), ['Engineering', 'prod-db', 'Okta Prod']);
    assert.deepEqual(await names({ entityTag: { key: 'env' } }), ['Engineering', 'prod-db', 'staging-db', 'Okta Prod']);
    assert.deepEqual(await names({ entityTag: { key: 'team', value: 'platform' } }), ['Ann Platform', 'Engineering']);
    assert.deepEqual(await names({ entityIDs: [ids.okta!.toUpperCase(), ids.bob!, NO_SUCH_ID] }), ['Bob 100% Sales', 'Okta Prod']);
    assert.deepEqual(await names({ importedFromApp: [ids.appB!] }), ['Sales team', 'Okta Prod'], 'users come from no app');
    assert.deepEqual(await names({ entityIDs: [] }), []);
  });

  it('composes allOf, anyOf and not, to any depth within the bound', async () => {
    // The reference's own example: resources tagged env=prod, but not Okta apps.
    assert.deepEqual(await names({
      entityTypes: ['RESOURCE'],
      allOf: [{ entityTag: { key: 'env', value: 'prod' } }],
      not: { entityItemTypes: ['OKTA_APP'] },
    }), ['prod-db']);
    assert.deepEqual(await names({ anyOf: [{ entityTypes: ['USER'], entityTag: { key: 'team' } }, { entityName: { stringMatchType: 'EQUALS', string: 'staging-db' } }] }), [
      'Ann Platform', 'staging-db',
    ]);
    assert.deepEqual(await names({ not: { anyOf: [{ entityTypes: ['USER', 'RESOURCE'] }, { importedFromApp: [ids.appA!] }] } }), ['Sales team']);
    assert.deepEqual(await names({ anyOf: [] }), [], 'an empty anyOf matches nothing');
    assert.deepEqual((await names({ allOf: [] })).length, 8, 'an empty allOf matches everything');
    assert.deepEqual(await names({ not: { not: { not: { not: { entityIDs: [ids.eng!] } } } } }), ['Engineering']);
  });

  it('names every refused field with 400', async () => {
    let deep: Record<string, unknown> = { entityTypes: ['USER'] };
    for (let i = 0; i < 9; i++) deep = { not: deep };
    const cases: [unknown, string[]][] = [
      [{}, ['type']],
      [{ type: 'EDGE' }, ['type']],
      [{ type: 'NODE', first: 0 }, ['first']],
      [{ type: 'NODE', first: 1001 }, ['first']],
      [{ type: 'NODE', first: 2.5 }, ['first']],
      [{ type: 'NODE', after: 'garbage' }, ['after']],
      [{ type: 'NODE', query: { nodeFilters: { entityTypes: ['TEAM'] } } }, ['query.nodeFilters.entityTypes.0']],
      [{ type: 'NODE', query: { nodeFilters: { entityItemTypes: ['SPACESHIP'] } } }, ['query.nodeFilters.entityItemTypes.0']],
      [{ type: 'NODE', query: { nodeFilters: { allOf: [{ entityName: { stringMatchType: 'LIKE', string: 'x' } }] } } }, ['query.nodeFilters.allOf.0.entityName.stringMatchType']],
      [{ type: 'NODE', query: { nodeFilters: { anyOf: [{ entityTag: { value: 'x' } }] } } }, ['query.nodeFilters.anyOf.0.entityTag.key']],
      [{ type: 'NODE', query: { nodeFilters: { entityIDs: ['x'] } } }, ['query.nodeFilters.entityIDs.0']],
      [{ type: 'NODE', query: { nodeFilters: { not: { roleNames: ['Admin'] } } } }, ['query.nodeFilters.not.roleNames']],
      [{ type: 'NODE', query: { nodeFilters: { roleRemoteIds: ['r'] } } }, ['query.nodeFilters.roleRemoteIds']],
      [{ type: 'NODE', query: { nodeFilters: { entityTag: { key: 'env', connectionId: NO_SUCH_ID } } } }, ['query.nodeFilters.entityTag.connectionId']],
      [{ type: 'NODE', query: { accessFilters: { isAccessibleBy: { roleNames: ['Admin'] } } } }, ['query.accessFilters.isAccessibleBy.roleNames']],
      [{ type: 'NODE', query: { accessFilters: { hasAccessTo: { allOf: [{ roleRemoteIds: ['r'] }] } } } }, ['query.accessFilters.hasAccessTo.allOf.0.roleRemoteIds']],
      [{ type: 'NODE', query: { accessFilters: { hasAccessTo: { entityTag: { key: 'env', connectionId: NO_SUCH_ID } } } } }, ['query.accessFilters.hasAccessTo.entityTag.connectionId']],
      [{ type: 'NODE', query: { accessFilters: { hasAccessTo: { entityIDs: ['x'] } } } }, ['query.accessFilters.hasAccessTo.entityIDs.0']],
      [{ type: 'NODE', query: { accessFilters: { isAccessibleBy: deep } } }, [`query.accessFilters.isAccessibleBy${'.not'.repeat(9)}`]],
      [{ type: 'NODE', query: { nodeFilters: deep } }, [`query.nodeFilters${'.not'.repeat(9)}`]],
    ];
    for (const [body, expected] of cases) {
      const res = await app.api.post('/queries/run', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, 'validation_failed');
      assert.deepEqual(errorPaths(res.body), expected, JSON.stringify(body));
    }
  });

  it('is a read: a READ_ONLY token may run it, and nothing is recorded', async () => {
    const eventsBefore = (await app.api.get('/events', { page_size: 1000 })).body.results.length;
    const reader = app.api.as((await createToken(app.api, { access_level: 'READ_ONLY' })).secret);
    const res = await reader.post('/queries/run', { type: 'NODE', query: { nodeFilters: { entityTypes: ['GROUP'] } } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.edges.map((e: Edge) => e.node.id), [ids.eng, ids.sales]);
    assert.equal((await reader.post('/message-channels', { third_party_provider: 'SLACK', remote_id: 'C1' })).status, 403, 'other POSTs stay refused');
    // Only the token issued above was recorded.
    assert.equal((await app.api.get('/events', { page_size: 1000 })).body.results.length, eventsBefore + 1);
  });
});

describe('POST /queries/run with accessFilters (read through the access graph)', () => {
  let app: TestApp;
  const ids: Record<string, string> = {};
  // ann ∈ eng ⊂ all-staff; all-staff → prod-db at 'admin' (Admin), for 60 minutes; eng → wiki;
  // bob → staging-db directly; the role nhi → prod-db. cleo holds nothing.
  before(async () => {
    app = await startTestApp();
    const { app_id } = await createApp(app.api);
    const user = async (name: string) => (await createUser(app.api, { full_name: name })).user_id;
    const group = async (name: string) => (await createGroup(app.api, { app_id, name })).group_id;
    const resource = async (name: string, extra: Record<string, unknown> = {}) => (await createResource(app.api, { app_id, name, ...extra })).resource_id;
    ids.ann = await user('Ann');
    ids.bob = await user('Bob');
    ids.cleo = await user('Cleo');
    ids.eng = await group('eng');
    ids.staff = await group('all-staff');
    ids.prodDb = await resource('prod-db', { access_levels: [{ access_level_name: 'Admin', access_level_remote_id: 'admin' }] });
    ids.stagingDb = await resource('staging-db');
    ids.wiki = await resource('wiki');
    ids.role = await resource('deploy-role', { resource_type: 'AWS_IAM_ROLE', remote_info: { aws_iam_role: { arn: 'arn:aws:iam::1:role/deploy' } } });
    const post = async (path: string, body: Record<string, unknown>) => {
      const res = await app.api.post(path, body);
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
    };
    await post(`/groups/${ids.eng}/users/${ids.ann}`, { duration_minutes: 0 });
    await post(`/groups/${ids.eng}/containing-groups`, { containing_group_id: ids.staff });
    await post(`/groups/${ids.staff}/resources/${ids.prodDb}`, { access_level_remote_id: 'admin', duration_minutes: 60 });
    await post(`/groups/${ids.eng}/resources/${ids.wiki}`, { duration_minutes: 0 });
    await post(`/resources/${ids.stagingDb}/users/${ids.bob}`, { duration_minutes: 0 });
    await post(`/resources/${ids.prodDb}/non-human-identities/${ids.role}`, { duration_minutes: 0 });
  });
  after(() => app.close());

  const names = (edges: Edge[]) => edges.map((e) => `${e.node.entityType}:${e.node.name}`);
  const run = async (accessFilters: Record<string, unknown>, nodeFilters?: Record<string, unknown>, api = app.api) => {
    const res = await api.post('/queries/run', { type: 'NODE', query: { accessFilters, ...(nodeFilters && { nodeFilters }) } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return names(res.body.edges);
  };

  it('hasAccessTo: the users who hold it (through nesting too), the groups leading to it, the identities holding it', async () => {
    assert.deepEqual(await run({ hasAccessTo: { entityIDs: [ids.prodDb] } }), ['USER:Ann', 'GROUP:eng', 'GROUP:all-staff', 'RESOURCE:deploy-role']);
    assert.deepEqual(await run({ hasAccessTo: { entityIDs: [ids.staff] } }), ['USER:Ann', 'GROUP:eng'], 'a group is held by its nested groups, not by itself');
    assert.deepEqual(await run({ hasAccessTo: { entityName: { stringMatchType: 'ENDS_WITH', string: '-db' } } }, { entityTypes: ['USER'] }), ['USER:Ann', 'USER:Bob']);
    assert.deepEqual(await run({ hasAccessTo: { entityIDs: [ids.cleo] } }), [], 'nobody has access to a user');
  });

  it('hasAccessTo with roleRemoteIds and roleNames at its top counts only holdings at those levels', async () => {
    assert.deepEqual(await run({ hasAccessTo: { entityIDs: [ids.prodDb], roleRemoteIds: ['admin'] } }, { entityTypes: ['USER', 'GROUP'] }), ['USER:Ann', 'GROUP:eng', 'GROUP:all-staff']);
    assert.deepEqual(await run({ hasAccessTo: { entityIDs: [ids.prodDb], roleNames: ['Admin'] } }, { entityTypes: ['USER'] }), ['USER:Ann']);
    assert.deepEqual(await run({ hasAccessTo: { entityIDs: [ids.prodDb], roleRemoteIds: [''] } }, { entityTypes: ['USER', 'GROUP'] }), []);
    assert.deepEqual(await run({ hasAccessTo: { roleNames: ['Admin'] } }, { entityTypes: ['USER'] }), ['USER:Ann'], 'role filters alone: anything at that level');
  });

  it('isAccessibleBy: what a user holds, what a group leads to, what an identity holds; both filters intersect', async () => {
    assert.deepEqual(await run({ isAccessibleBy: { entityIDs: [ids.ann] } }), ['GROUP:eng', 'GROUP:all-staff', 'RESOURCE:prod-db', 'RESOURCE:wiki']);
    assert.deepEqual(await run({ isAccessibleBy: { entityIDs: [ids.eng] } }), ['GROUP:all-staff', 'RESOURCE:prod-db', 'RESOURCE:wiki']);
    assert.deepEqual(await run({ isAccessibleBy: { entityIDs: [ids.role] } }), ['RESOURCE:prod-db']);
    assert.deepEqual(await run({ isAccessibleBy: { entityIDs: [ids.cleo] } }), []);
    assert.deepEqual(await run({ isAccessibleBy: {} }, { entityTypes: ['USER'] }), [], 'users are accessible by nobody');
    assert.deepEqual(await run({ isAccessibleBy: { entityTypes: ['USER'] } }), ['GROUP:eng', 'GROUP:all-staff', 'RESOURCE:prod-db', 'RESOURCE:staging-db', 'RESOURCE:wiki']);
    assert.deepEqual(await run({ isAccessibleBy: { entityIDs: [ids.ann] }, hasAccessTo: { entityIDs: [ids.prodDb] } }), ['GROUP:eng', 'GROUP:all-staff']);
  });

  it('agrees with the holdings reads, and access ends at the exact instant it expires', async () => {
    const holders = (await app.api.get(`/resources/${ids.prodDb}/users`)).body.results.map((r: { user_id: string }) => r.user_id);
    assert.deepEqual(holders, [ids.ann]);
    app.clock.advance(60 * 60_000 - 1);
    assert.deepEqual(await run({ hasAccessTo: { entityIDs: [ids.prodDb] } }, { entityTypes: ['USER'] }), ['USER:Ann']);
    app.clock.advance(1);
    assert.deepEqual(await run({ hasAccessTo: { entityIDs: [ids.prodDb] } }), ['RESOURCE:deploy-role']);
    assert.deepEqual((await app.api.get(`/resources/${ids.prodDb}/users`)).body.results, []);
    assert.deepEqual(await run({ isAccessibleBy: { entityIDs: [ids.ann] } }), ['GROUP:eng', 'GROUP:all-staff', 'RESOURCE:wiki']);
  });

  it('shows a member only what visibility lets them see, inside the filters too', async () => {
    const owner = await createOwner(app.api);
    const secret = (await createResource(app.api, { name: 'secret-db', admin_owner_id: owner.owner_id })).resource_id;
    const member = await createMember(app.api, { full_name: 'Dee' });
    await app.api.post(`/resources/${secret}/users/${ids.bob}`, { duration_minutes: 0 });
    const limited = await app.api.put(`/resources/${secret}/visibility`, { visibility: 'LIMITED', visibility_group_ids: [ids.staff] });
    assert.equal(limited.status, 200, JSON.stringify(limited.body));
    assert.deepEqual(await run({ isAccessibleBy: { entityIDs: [ids.bob] } }), ['RESOURCE:staging-db', 'RESOURCE:secret-db'], 'an admin sees it');
    assert.deepEqual(await run({ isAccessibleBy: { entityIDs: [ids.bob] } }, undefined, member.api), ['RESOURCE:staging-db']);
    assert.deepEqual(await run({ hasAccessTo: { entityIDs: [secret] } }, undefined, member.api), [], 'who holds a hidden item does not leak');
    const all = await member.api.post('/queries/run', { type: 'NODE', query: { nodeFilters: { entityTypes: ['RESOURCE'] } } });
    assert.ok(!names(all.body.edges).includes('RESOURCE:secret-db'));
    // Once the member is in a visibility group (through nesting), it shows.
    await app.api.post(`/groups/${ids.eng}/users/${member.user.user_id}`, { duration_minutes: 0 });
    assert.deepEqual(await run({ hasAccessTo: { entityIDs: [secret] } }, undefined, member.api), ['USER:Bob']);
  });
});
