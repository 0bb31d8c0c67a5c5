// Non-human identities through HTTP: the list of them, attaching and detaching them to resources,
// expiry and the audit trail.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createGroup, createResource, createToken, createUser, NO_SUCH_ID } from '../helpers/fixtures.ts';
import { readEvents } from '../helpers/events.ts';

const MINUTE = 60_000;

describe('non-human identities', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const path = (resourceId: string, nhiId: string) => `/resources/${resourceId}/non-human-identities/${nhiId}`;
  const inMinutes = (minutes: number) => new Date(app.clock.now().getTime() + minutes * MINUTE).toISOString();
  /** Events about links of non-human identities only (creating the resources records others). */
  const linkEvents = async (objectId: string) => (await readEvents(app.api, { object: objectId })).filter((e) => e.event_type.startsWith('RESOURCE_NON_HUMAN_IDENTITIES'));
  const linked = async (resourceId: string) =>
    (await app.api.get(`/resources/${resourceId}/non-human-identities`)).body.results as { principal_id: string; expiration_date: string | null }[];
  const serviceAccount = (overrides: Record<string, unknown> = {}) => createResource(app.api, { resource_type: 'GCP_SERVICE_ACCOUNT', ...overrides });

  async function pair() {
    const resource = await createResource(app.api);
    const nhi = await serviceAccount();
    return { resource, nhi, url: path(resource.resource_id, nhi.resource_id) };
  }

  it('lists only resources of the non-human identity types, keyset paged', async () => {
    const { app_id } = await createApp(app.api);
    const role = await createResource(app.api, { app_id, resource_type: 'AWS_IAM_ROLE' });
    await createResource(app.api, { app_id, resource_type: 'CUSTOM' });
    const sa = await createResource(app.api, { app_id, resource_type: 'GCP_SERVICE_ACCOUNT' });
    const mi = await createResource(app.api, { app_id, resource_type: 'AZURE_USER_ASSIGNED_MANAGED_Identity' });
    await createResource(app.api, { app_id, resource_type: 'GCP_PROJECT' });

    const all = await app.api.get('/non-human-identities', { page_size: 1000 });
    assert.equal(all.status, 200);
    const ids = all.body.results.map((r: { resource_id: string }) => r.resource_id);
    for (const expected of [role, sa, mi]) assert.ok(ids.includes(expected.resource_id), `${expected.resource_id} is listed`);
    for (const r of all.body.results) assert.ok(['AWS_IAM_ROLE', 'GCP_SERVICE_ACCOUNT', 'AZURE_USER_ASSIGNED_MANAGED_Identity', 'DATABRICKS_ACCOUNT_SERVICE_PRINCIPAL', 'OPENAI_PLATFORM_SERVICE_ACCOUNT'].includes(r.resource_type));
    const ours = [role, sa, mi].map((r) => r.resource_id);
    assert.deepEqual(ids.filter((id: string) => ours.includes(id)), ours, 'in creation order');

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await app.api.get('/non-human-identities', { page_size: 2, cursor });
      assert.ok(page.body.results.length <= 2);
      seen.push(...page.body.results.map((r: { resource_id: string }) => r.resource_id));
      cursor = page.body.next ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, ids);
    assert.equal((await app.api.get('/non-human-identities', { page_size: 0 })).body.details[0].path, 'page_size');
  });

  it('attaches an identity for a duration, lists it as Access and records the event', async () => {
    const { resource, nhi, url } = await pair();
    const res = await app.api.post(url, { duration_minutes: 60 });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      resource_id: resource.resource_id,
      non_human_identity_id: nhi.resource_id,
      access_level: { access_level_name: '', access_level_remote_id: '' },
      expiration_date: inMinutes(60),
    });
    const list = await app.api.get(`/resources/${resource.resource_id}/non-human-identities`);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.results, [{
      principal_id: nhi.resource_id,
      principal_type: 'RESOURCE',
      entity_id: resource.resource_id,
      entity_type: 'RESOURCE',
      access_level: { access_level_name: '', access_level_remote_id: '' },
      expiration_date: inMinutes(60),
      has_direct_access: true,
      num_access_paths: 1,
    }]);
    const recorded = await readEvents(app.api, { object: nhi.resource_id, type: 'RESOURCE_NON_HUMAN_IDENTITIES_ADDED' });
    assert.equal(recorded.length, 1);
    assert.equal(recorded[0]!.sub_events[0]!.resource_id, resource.resource_id);
  });

  it('attaches at a named access level of the resource, apart from the default level', async () => {
    const resource = await createResource(app.api, { access_levels: [{ access_level_name: 'SQL user', access_level_remote_id: 'roles/cloudsql.instanceUser' }] });
    const nhi = await serviceAccount();
    const url = path(resource.resource_id, nhi.resource_id);
    const res = await app.api.post(url, { duration_minutes: 0, access_level_remote_id: 'roles/cloudsql.instanceUser' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.access_level, { access_level_name: 'SQL user', access_level_remote_id: 'roles/cloudsql.instanceUser' });
    assert.equal((await app.api.post(url, { duration_minutes: 0 })).status, 200);
    assert.equal((await linked(resource.resource_id)).length, 2);
    await app.api.delete(url, undefined, { query: { access_level_remote_id: 'roles/cloudsql.instanceUser' } });
    const left = (await app.api.get(`/resources/${resource.resource_id}/non-human-identities`)).body.results;
    assert.deepEqual(left.map((a: { access_level: { access_level_remote_id: string } }) => a.access_level.access_level_remote_id), ['']);
  });

  it('treats duration 0 as indefinite', async () => {
    const { url } = await pair();
    assert.equal((await app.api.post(url, { duration_minutes: 0 })).body.expiration_date, null);
  });

  it('refuses bad input, naming the field, and writes nothing', async () => {
    const { resource, nhi, url } = await pair();
    const custom = await createResource(app.api);
    const cases: [string, unknown, number, string][] = [
      [path(resource.resource_id, custom.resource_id), { duration_minutes: 5 }, 400, 'non_human_identity_id'],
      [path(nhi.resource_id, nhi.resource_id), { duration_minutes: 5 }, 400, 'non_human_identity_id'],
      [path(NO_SUCH_ID, nhi.resource_id), { duration_minutes: 5 }, 404, 'resource_id'],
      [path(resource.resource_id, NO_SUCH_ID), { duration_minutes: 5 }, 404, 'non_human_identity_id'],
      [path('x', nhi.resource_id), { duration_minutes: 5 }, 400, 'resource_id'],
      [url, { duration_minutes: 5, access_level_remote_id: 'nope' }, 404, 'access_level_remote_id'],
      // No body at all grants indefinitely (the reference makes the body optional): see body-policy.test.ts.
      [url, {}, 400, 'duration_minutes'],
      [url, { duration_minutes: 525961 }, 400, 'duration_minutes'],
      [url, { duration_minutes: -1 }, 400, 'duration_minutes'],
    ];
    for (const [target, body, status, field] of cases) {
      const res = await app.api.post(target, body);
      assert.equal(res.status, status, `${target} ${JSON.stringify(body)}`);
      assert.equal(res.body.details[0].path, field, `${target} ${JSON.stringify(body)}`);
    }
    assert.equal((await linked(resource.resource_id)).length, 0);
    assert.equal((await linked(nhi.resource_id)).length, 0);
    assert.equal((await linkEvents(nhi.resource_id)).length, 0);
    assert.equal((await app.api.get(`/resources/${NO_SUCH_ID}/non-human-identities`)).status, 404);
  });

  it('refuses to attach what is already attached (409), leaving it unchanged', async () => {
    const { resource, nhi, url } = await pair();
    await app.api.post(url, { duration_minutes: 10 });
    const again = await app.api.post(url, { duration_minutes: 0 });
    assert.equal(again.status, 409);
    assert.equal(again.body.details[0].path, 'non_human_identity_id');
    assert.equal((await linked(resource.resource_id))[0]!.expiration_date, inMinutes(10));
    assert.equal((await linkEvents(nhi.resource_id)).length, 1);
  });

  it('stops listing a link once it expires, and lets it be attached again', async () => {
    const { resource, nhi, url } = await pair();
    await app.api.post(url, { duration_minutes: 2 });
    app.clock.advance(2 * MINUTE);
    assert.equal((await linked(resource.resource_id)).length, 0);
    assert.deepEqual((await app.api.delete(url)).body, {}, 'detaching an expired link is an empty success');
    assert.equal((await readEvents(app.api, { object: nhi.resource_id, type: 'RESOURCE_NON_HUMAN_IDENTITIES_REMOVED' })).length, 0);
    assert.equal((await app.api.post(url, { duration_minutes: 2 })).status, 200);
    assert.equal((await linked(resource.resource_id)).length, 1);
  });

  it('detaches, recording the event once; a missing link is an empty success', async () => {
    const { resource, nhi, url } = await pair();
    await app.api.post(url, { duration_minutes: 0 });
    await app.api.delete(url, undefined, { query: { access_level_remote_id: 'other' } });
    assert.equal((await linked(resource.resource_id)).length, 1, 'another level is another link');
    const res = await app.api.delete(url);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {});
    assert.equal((await linked(resource.resource_id)).length, 0);
    assert.deepEqual((await app.api.delete(url)).body, {});
    assert.equal((await readEvents(app.api, { object: nhi.resource_id, type: 'RESOURCE_NON_HUMAN_IDENTITIES_REMOVED' })).length, 1);
    assert.equal((await app.api.delete(path(NO_SUCH_ID, nhi.resource_id))).status, 404);
    assert.equal((await app.api.delete(path(resource.resource_id, NO_SUCH_ID))).status, 404);
  });

  it('pages a resource\'s identities with limit / page_size and cursor', async () => {
    const resource = await createResource(app.api);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const nhi = await serviceAccount();
      ids.push(nhi.resource_id);
      await app.api.post(path(resource.resource_id, nhi.resource_id), { duration_minutes: 0 });
    }
    const first = await app.api.get(`/resources/${resource.resource_id}/non-human-identities`, { limit: 2 });
    assert.deepEqual(first.body.results.map((r: { principal_id: string }) => r.principal_id), ids.slice(0, 2));
    const second = await app.api.get(`/resources/${resource.resource_id}/non-human-identities`, { limit: 2, cursor: first.body.next });
    assert.deepEqual(second.body.results.map((r: { principal_id: string }) => r.principal_id), ids.slice(2));
    assert.equal(second.body.next, null);

    // A member does not see an identity hidden from them, and pages stay full around it.
    const hiddenGroup = await createGroup(app.api);
    assert.equal((await app.api.put(`/resources/${ids[0]}/visibility`, { visibility: 'LIMITED', visibility_group_ids: [hiddenGroup.group_id] })).status, 200);
    const member = app.api.as((await createToken(app.api, { user_id: (await createUser(app.api)).user_id })).secret);
    const page = await member.get(`/resources/${resource.resource_id}/non-human-identities`, { limit: 2 });
    assert.deepEqual(page.body.results.map((r: { principal_id: string }) => r.principal_id), ids.slice(1));
    assert.equal(page.body.next, null);
  });
});
