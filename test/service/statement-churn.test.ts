// Statement churn (issue 42): once a mix of reads and writes has run once, running it again with other
// ids, other filter values and other callers prepares no SQL statement. A statement prepared per distinct
// SQL (a value spliced into the text, a cache keyed by user or token) costs a compile on every request and
// grows memory for as long as the process runs; this holds the service to statements it prepares once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createGroup, createMember, createResource, createToken, unique } from '../helpers/fixtures.ts';
import { config, ownerOf } from '../helpers/requests.ts';

describe('statement churn', () => {
  let app: TestApp;
  before(async () => {
    // Heavy reads on this thread, so their statements are counted too (a worker prepares on its own connection).
    app = await startTestApp({ env: { GATEHOUSE_READ_WORKERS: '0' } });
  });
  after(() => app.close());

  /** One round of the soak's mix (test/bench/soak.ts), on objects made for it. */
  async function round(): Promise<void> {
    const member = await createMember(app.api);
    const owner = await ownerOf(app, { user_id: app.adminUserId });
    const resource = await createResource(app.api, { admin_owner_id: owner.owner_id, request_configurations: [config()] });
    const group = await createGroup(app.api, { admin_owner_id: owner.owner_id });
    const scim = app.api.as((await createToken(app.api, { scope: 'SCIM' })).secret);
    const scimUrl = app.url.replace(/\/v1$/, '/scim/v2');
    const calls: [string, string, unknown?, ApiOptions?][] = [
      ['POST', `/groups/${group.group_id}/users/${member.user_id}`, { duration_minutes: 60 }],
      ['PUT', `/groups/${group.group_id}/users/${member.user_id}`, { duration_minutes: 90 }],
      ['GET', `/resources/${resource.resource_id}`],
      ['GET', `/groups/${group.group_id}/users`],
      ['GET', `/groups/users/${member.user_id}`],
      ['GET', `/users/${member.user_id}`],
      ['GET', '/resources', undefined, { query: { page_size: 50 } }],
      ['GET', '/events', undefined, { query: { object_filter: group.group_id } }],
      ['GET', '/events', undefined, { query: { actor_filter: member.user_id, page_size: 5 } }],
      ['GET', '/requests', undefined, { query: { requester_id: member.user_id } }],
    ];
    for (const [method, path, body, options] of calls) {
      const res = await app.api.request(method, path, body, options);
      assert.equal(res.status, 200, `${method} ${path}: ${JSON.stringify(res.body)}`);
    }
    for (const [method, path, body, options] of calls.slice(2, 6)) {
      const res = await member.api.request(method, path, body, options);
      assert.ok(res.status === 200 || res.status === 404, `${method} ${path} as a member: ${res.status}`);
    }
    const asked = await member.api.post('/requests', { resources: [{ id: resource.resource_id }], groups: [], reason: unique('churn'), duration_minutes: 60 });
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    const approved = await app.api.post(`/requests/${asked.body.id}/approve`, { level: 'ADMIN' });
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    const scimUsers = await fetch(`${scimUrl}/Users?filter=${encodeURIComponent(`userName eq "${member.user.email}"`)}`, { headers: { authorization: `Bearer ${scim.token}` } });
    assert.equal(scimUsers.status, 200);
    await scimUsers.arrayBuffer();
  }
  type ApiOptions = Parameters<TestApp['api']['request']>[3];

  it('prepares no statement when the same mix runs again with other ids and values', async () => {
    await round();
    await round();
    const prepared: string[] = [];
    const { db } = app.ctx;
    const prepare = db.prepare;
    db.prepare = function (this: typeof db, source: string, ...rest: unknown[]) {
      prepared.push(source.replace(/\s+/g, ' ').slice(0, 160));
      return (prepare as (...args: unknown[]) => ReturnType<typeof prepare>).call(this, source, ...rest);
    } as typeof db.prepare;
    try {
      await round();
    } finally {
      db.prepare = prepare;
    }
    assert.deepEqual(prepared, [], `statements prepared again:\n${prepared.join('\n')}`);
  });
});
