// What a client generated from the reference sends: whole objects back (unknown and read-only fields),
// a JSON null for "no body" — and the one wording every route uses for the same fault.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import type { ApiResponse } from '../helpers/client.ts';
import { createApp, createBundle, createGroup, createOwner, createResource, createTag, createUser, unique } from '../helpers/fixtures.ts';

interface WriteRoute {
  method: 'POST' | 'PUT';
  path: string;
  /** A valid body; each case adds an unknown field and a read-only one to it. */
  body: () => Record<string, unknown>;
  /** A read-only field of the object the route writes, as a client would send it back. */
  readOnly: Record<string, unknown>;
  status?: number;
}

/** No message may quote the validation library. */
const LIBRARY_WORDS = /Invalid (key|type|length|value)|Expected |but received|received undefined/;

function assertOwnWords(res: ApiResponse, where: 'body' | 'query'): void {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.code, 'validation_failed');
  assert.ok(res.body.message.startsWith(`invalid ${where}: `), res.body.message);
  assert.doesNotMatch(JSON.stringify(res.body), LIBRARY_WORDS);
}

describe('body policy', () => {
  let app: TestApp;
  let routes: WriteRoute[];
  before(async () => {
    app = await startTestApp();
    const api = app.api;
    const owner = await createOwner(api);
    const user = await createUser(api);
    const appRecord = await createApp(api, { admin_owner_id: owner.owner_id });
    const resource = await createResource(api, { app_id: appRecord.app_id });
    const nhi = await createResource(api, { app_id: appRecord.app_id, resource_type: 'AWS_IAM_ROLE', remote_info: { aws_iam_role: { arn: 'arn:aws:iam::1:role/x' } } });
    const group = await createGroup(api, { app_id: appRecord.app_id });
    const tag = await createTag(api);
    const bundle = await createBundle(api, { admin_owner_id: owner.owner_id });
    const heldResource = await createResource(api, { app_id: appRecord.app_id });
    assert.equal((await api.post(`/resources/${heldResource.resource_id}/users/${user.user_id}`, { duration_minutes: 0 })).status, 200);

    const created_at = '2026-01-01T00:00:00Z';
    routes = [
      { method: 'POST', path: '/users', body: () => ({ email: `${unique('u')}@example.com`, full_name: 'U' }), readOnly: { user_id: user.user_id } },
      { method: 'POST', path: '/users/remote_users', body: () => ({ user_id: user.user_id, third_party_provider: 'SLACK', remote_id: unique('r') }), readOnly: { created_at } },
      { method: 'POST', path: '/tokens', body: () => ({ token_label: unique('t') }), readOnly: { token_id: user.user_id, created_at } },
      { method: 'POST', path: '/owners', body: () => ({ name: unique('o'), user_ids: [] }), readOnly: { owner_id: owner.owner_id } },
      { method: 'PUT', path: '/owners', body: () => ({ owners: [{ owner_id: owner.owner_id, name: unique('o'), extra_in_item: 1 }] }), readOnly: {} },
      { method: 'PUT', path: `/owners/${owner.owner_id}/users`, body: () => ({ user_ids: [] }), readOnly: { users: [] } },
      { method: 'POST', path: '/apps', body: () => ({ name: unique('a'), app_type: 'CUSTOM', admin_owner_id: owner.owner_id }), readOnly: { app_id: appRecord.app_id } },
      { method: 'PUT', path: `/apps/${appRecord.app_id}`, body: () => ({ name: unique('a') }), readOnly: { app_id: appRecord.app_id, app_type: 'CUSTOM' } },
      { method: 'POST', path: '/resources', body: () => ({ name: unique('r'), resource_type: 'CUSTOM', app_id: appRecord.app_id }), readOnly: { resource_id: resource.resource_id, risk_sensitivity: 'UNKNOWN' } },
      { method: 'PUT', path: '/resources', body: () => ({ resources: [{ resource_id: resource.resource_id, name: unique('r'), app_id: appRecord.app_id }] }), readOnly: {} },
      { method: 'POST', path: '/groups', body: () => ({ name: unique('g'), group_type: 'OPAL_GROUP', app_id: appRecord.app_id }), readOnly: { group_id: group.group_id } },
      { method: 'PUT', path: '/groups', body: () => ({ groups: [{ group_id: group.group_id, name: unique('g'), group_type: 'OPAL_GROUP' }] }), readOnly: {} },
      { method: 'POST', path: '/tag', body: () => ({ tag_key: unique('k'), tag_value: 'v' }), readOnly: { tag_id: tag.tag_id, created_at } },
      { method: 'POST', path: `/tags/${tag.tag_id}/users/${user.user_id}`, body: () => ({}), readOnly: { tag_id: tag.tag_id } },
      { method: 'POST', path: '/bundles', body: () => ({ name: unique('b'), admin_owner_id: owner.owner_id }), readOnly: { bundle_id: bundle.bundle_id, created_at }, status: 201 },
      { method: 'PUT', path: `/bundles/${bundle.bundle_id}`, body: () => ({ name: unique('b') }), readOnly: { created_at, total_num_items: 0 } },
      { method: 'POST', path: `/bundles/${bundle.bundle_id}/resources`, body: () => ({ resource_id: resource.resource_id }), readOnly: { resource_name: 'x' }, status: 201 },
      { method: 'POST', path: `/bundles/${bundle.bundle_id}/groups`, body: () => ({ group_id: group.group_id }), readOnly: { group_name: 'x' }, status: 201 },
      { method: 'POST', path: `/resources/${resource.resource_id}/users/${user.user_id}`, body: () => ({ duration_minutes: 60 }), readOnly: { email: user.email } },
      { method: 'PUT', path: `/resources/${resource.resource_id}/users/${user.user_id}`, body: () => ({ duration_minutes: 30 }), readOnly: { full_name: 'x' } },
      { method: 'POST', path: `/resources/${resource.resource_id}/non-human-identities/${nhi.resource_id}`, body: () => ({ duration_minutes: 60 }), readOnly: { resource_id: resource.resource_id } },
      { method: 'POST', path: '/sessions', body: () => ({ resource_id: heldResource.resource_id, user_id: user.user_id }), readOnly: { connection_id: 'c', expiration_date: created_at } },
    ];
  });
  after(() => app.close());

  it('every write route ignores unknown and read-only fields (the whole object sent back)', async () => {
    for (const route of routes) {
      const res = await app.api.request(route.method, route.path, { ...route.body(), ...route.readOnly, some_future_field: { nested: true } });
      assert.equal(res.status, route.status ?? 200, `${route.method} ${route.path}: ${JSON.stringify(res.body)}`);
      assert.doesNotMatch(JSON.stringify(res.body), /some_future_field/);
    }
  });

  it('PUT /apps/{app_id} still refuses a change of app_type (it is fixed at registration)', async () => {
    const route = routes.find((r) => r.method === 'PUT' && r.path.startsWith('/apps/'))!;
    const res = await app.api.put(route.path, { app_type: 'AWS' });
    assert.equal(res.status, 400);
    assert.equal(res.body.details[0].path, 'app_type');
  });

  describe('a JSON null body', () => {
    const nullBody = { rawBody: 'null', headers: { 'content-type': 'application/json' } };

    it('means "no body" where the reference makes the body optional', async () => {
      const owner = await createOwner(app.api);
      const user = await createUser(app.api);
      const resource = await createResource(app.api);
      const nhi = await createResource(app.api, { resource_type: 'AWS_IAM_ROLE', remote_info: { aws_iam_role: { arn: 'arn:aws:iam::1:role/y' } } });
      const tag = await createTag(app.api);

      const key = unique('team');
      const created = await app.api.request('POST', '/tag', undefined, { ...nullBody, query: { tag_key: key, tag_value: 'sre', admin_owner_id: owner.owner_id } });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.deepEqual([created.body.key, created.body.value], [key, 'sre']);

      const granted = await app.api.request('POST', `/resources/${resource.resource_id}/users/${user.user_id}`, undefined, {
        ...nullBody, query: { duration_minutes: 120, access_level_remote_id: '' },
      });
      assert.equal(granted.status, 200, JSON.stringify(granted.body));
      assert.equal(granted.body.expiration_date, '2026-03-01T11:00:00.000Z');

      const tagged = await app.api.request('POST', `/tags/${tag.tag_id}/users/${user.user_id}`, undefined, nullBody);
      assert.equal(tagged.status, 200, JSON.stringify(tagged.body));

      const attached = await app.api.request('POST', `/resources/${resource.resource_id}/non-human-identities/${nhi.resource_id}`, undefined, nullBody);
      assert.equal(attached.status, 200, JSON.stringify(attached.body));
      assert.equal(attached.body.expiration_date ?? null, null, 'no body grants the default level indefinitely');
    });

    it('is refused as "must be a JSON object" where a body is required', async () => {
      const optional = (r: WriteRoute) => r.path.startsWith('/tags/') || r.path.includes('/non-human-identities/') || r.path === '/tag' || (r.method === 'POST' && r.path.includes('/users/'));
      for (const route of routes.filter((r) => !optional(r))) {
        const res = await app.api.request(route.method, route.path, undefined, nullBody);
        assertOwnWords(res, 'body');
        assert.deepEqual(res.body.details, [{ path: 'body', message: 'must be a JSON object' }], `${route.method} ${route.path}`);
      }
    });
  });

  describe('one fault, one wording, on every route', () => {
    /** Each fault, applied to a route's valid body: the field it breaks and the wording expected. */
    const faults: { name: string; apply: (body: Record<string, unknown>, field: string) => unknown; message: string; atRoot?: boolean }[] = [
      { name: 'a missing required field', apply: (body, field) => { const copy = { ...body }; delete copy[field]; return copy; }, message: 'is required' },
      { name: 'a list for a text field', apply: (body, field) => ({ ...body, [field]: ['x'] }), message: 'must be a string' },
      { name: 'an object for a text field', apply: (body, field) => ({ ...body, [field]: { a: 1 } }), message: 'must be a string' },
      { name: 'null for a text field', apply: (body, field) => ({ ...body, [field]: null }), message: 'must be a string' },
      { name: 'an array body', apply: () => [1], message: 'must be a JSON object', atRoot: true },
      { name: 'a string body', apply: () => 'text', message: 'must be a JSON object', atRoot: true },
      { name: 'a number body', apply: () => 7, message: 'must be a JSON object', atRoot: true },
    ];
    /** Routes and a required text field of each. */
    const textFields: [method: 'POST' | 'PUT', pathOf: (r: WriteRoute[]) => string, field: string][] = [
      ['POST', () => '/users', 'full_name'],
      ['POST', () => '/tokens', 'token_label'],
      ['POST', () => '/owners', 'name'],
      ['POST', () => '/apps', 'name'],
      ['POST', () => '/resources', 'name'],
      ['POST', () => '/groups', 'name'],
      ['POST', () => '/bundles', 'name'],
      ['POST', (r) => r.find((x) => x.path.endsWith('/resources') && x.path.startsWith('/bundles/'))!.path, 'resource_id'],
      ['POST', (r) => r.find((x) => x.path.endsWith('/groups') && x.path.startsWith('/bundles/'))!.path, 'group_id'],
      ['POST', () => '/sessions', 'resource_id'],
      ['POST', () => '/users/remote_users', 'user_id'],
    ];

    for (const fault of faults) {
      it(fault.name, async () => {
        for (const [method, pathOf, field] of textFields) {
          const path = pathOf(routes);
          const route = routes.find((r) => r.method === method && r.path === path)!;
          const res = await app.api.request(method, path, fault.apply(route.body(), field));
          assertOwnWords(res, 'body');
          const expected = { path: fault.atRoot ? 'body' : field, message: fault.message };
          assert.deepEqual(res.body.details, [expected], `${method} ${path}`);
          assert.equal(res.body.message, `invalid body: ${expected.path}: ${expected.message}`);
        }
      });
    }

    it('a wrong type inside a list item and inside a nested object reads the same', async () => {
      const owners = await app.api.put('/owners', { owners: [{ owner_id: 5 }] });
      assertOwnWords(owners, 'body');
      assert.deepEqual(owners.body.details, [{ path: 'owners.0.owner_id', message: 'must be a string' }]);
      const missing = await app.api.put('/groups', { groups: [{}] });
      assert.deepEqual(missing.body.details, [{ path: 'groups.0.group_id', message: 'is required' }]);
      const notObject = await app.api.put('/resources', { resources: [7] });
      assert.deepEqual(notObject.body.details, [{ path: 'resources.0', message: 'must be a JSON object' }]);
      const notList = await app.api.put('/owners', { owners: 'all' });
      assert.deepEqual(notList.body.details, [{ path: 'owners', message: 'must be a list' }]);
      const notNumber = await app.api.post('/owners', { name: 'n', user_ids: [], access_request_escalation_period: '60' });
      assert.deepEqual(notNumber.body.details, [{ path: 'access_request_escalation_period', message: 'must be a number' }]);
      const remoteInfo = await app.api.post('/resources', { name: 'n', resource_type: 'CUSTOM', app_id: routes[0]!.path, remote_info: 'x' });
      assertOwnWords(remoteInfo, 'body');
    });

    it('query faults keep the invalid query: prefix and the same words', async () => {
      const repeated = await app.api.get('/owners', { name: ['a', 'b'] });
      assertOwnWords(repeated, 'query');
      assert.deepEqual(repeated.body.details, [{ path: 'name', message: 'must be given once' }]);
      const missing = await app.api.get('/sessions');
      assertOwnWords(missing, 'query');
      assert.deepEqual(missing.body.details, [{ path: 'resource_id', message: 'is required' }]);
      const tagMissing = await app.api.get('/tag');
      assert.deepEqual(tagMissing.body.details, [{ path: 'tag_key', message: 'is required' }]);
    });
  });
});
