// Clients generated from the reference send whole objects back on PUT: they read an item, change
// a field, and send everything the read answered. Each such PUT must accept what its GET answered,
// unchanged or with one field changed, and leave the rest exactly as it was.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createBundle, createGroup, createOwner, createResource, createUser } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';

const CONNECTION = '11111111-2222-4333-8444-555555555555';
const withoutUpdatedAt = (item: Record<string, unknown>) => ({ ...item, updated_at: undefined });

describe('PUT accepts the whole object its GET answered', () => {
  let app: TestApp;
  let ownerId: string;
  let reviewerId: string;
  let conditionGroupId: string;
  let userId: string;
  before(async () => {
    app = await startTestApp();
    userId = (await createUser(app.api)).user_id;
    ownerId = (await createOwner(app.api, { user_ids: [userId] })).owner_id;
    reviewerId = (await createOwner(app.api)).owner_id;
    conditionGroupId = (await createGroup(app.api)).group_id;
  });
  after(() => app.close());

  /** Request settings beyond the defaults: a conditional configuration with a reviewer stage. */
  const richSettings = () => ({
    max_duration: 480,
    recommended_duration: 60,
    require_support_ticket: true,
    access_levels: [{ access_level_name: 'Admin', access_level_remote_id: 'admin' }],
    request_configurations: [
      { allow_requests: true, auto_approval: false, require_mfa_to_request: false, require_support_ticket: true, max_duration_minutes: 480,
        recommended_duration_minutes: 60, priority: 0, reviewer_stages: [{ stage: 1, operator: 'AND', require_manager_approval: true, owner_ids: [reviewerId] }] },
      { condition: { group_ids: [conditionGroupId] }, allow_requests: true, auto_approval: true, require_mfa_to_request: false,
        require_support_ticket: false, max_duration_minutes: 60, recommended_duration_minutes: 30, priority: 1, reviewer_stages: [] },
    ],
  });

  /** GET `path`, PUT `toBody(read, changes)` to `putPath`, and check the read after is the read before with the changes. */
  async function roundTrip(path: string, putPath: string, toBody: (read: Record<string, unknown>) => unknown, changes: Record<string, unknown>) {
    const before = await app.api.get(path);
    assert.equal(before.status, 200, JSON.stringify(before.body));
    const res = await app.api.put(putPath, toBody({ ...before.body, ...changes }));
    assert.equal(res.status, 200, `${putPath}: ${JSON.stringify(res.body)}`);
    const after = await app.api.get(path);
    assert.deepEqual(withoutUpdatedAt(after.body), withoutUpdatedAt({ ...before.body, ...changes }), path);
    // Sent back again without a change, it stays as it is.
    assert.equal((await app.api.put(putPath, toBody(after.body))).status, 200);
    assert.deepEqual(withoutUpdatedAt((await app.api.get(path)).body), withoutUpdatedAt(after.body));
  }

  it('PUT /resources: a resource with access levels, conditional configurations and reviewer stages', async () => {
    const { resource_id } = await createResource(app.api, {
      admin_owner_id: ownerId, ...richSettings(), require_mfa_to_connect: true,
      ticket_propagation: { enabled_on_grant: true, enabled_on_revocation: false, ticket_provider: 'JIRA', ticket_project_id: 'OPS' },
    });
    await roundTrip(`/resources/${resource_id}`, '/resources', (read) => ({ resources: [read] }), { description: 'changed by a strict client' });
  });

  it('PUT /groups: a group with leaders, access levels and conditional configurations', async () => {
    const { group_id } = await createGroup(app.api, { admin_owner_id: ownerId, ...richSettings(), group_leader_user_ids: [userId] });
    await roundTrip(`/groups/${group_id}`, '/groups', (read) => ({ groups: [read] }), { name: 'renamed by a strict client' });
  });

  it('PUT /owners, /bundles/{id}, /apps/{id} and /users/{id}', async () => {
    await roundTrip(`/owners/${ownerId}`, '/owners', (read) => ({ owners: [read] }), { description: 'on call for billing' });
    const bundle = await createBundle(app.api, { admin_owner_id: ownerId });
    await roundTrip(`/bundles/${bundle.bundle_id}`, `/bundles/${bundle.bundle_id}`, (read) => read, { description: 'starter kit' });
    const { app_id } = await createApp(app.api, { admin_owner_id: ownerId });
    await roundTrip(`/apps/${app_id}`, `/apps/${app_id}`, (read) => read, { description: 'the billing app' });
    await roundTrip(`/users/${userId}`, `/users/${userId}`, (read) => read, {});
  });

  it('PUT …/visibility for a resource, a group and a bundle', async () => {
    const items: [string, string][] = [
      ['resources', (await createResource(app.api)).resource_id],
      ['groups', (await createGroup(app.api)).group_id],
      ['bundles', (await createBundle(app.api)).bundle_id],
    ];
    for (const [kind, id] of items) {
      const limited = { visibility: 'LIMITED', visibility_group_ids: [conditionGroupId] };
      assert.equal((await app.api.put(`/${kind}/${id}/visibility`, limited)).status, 200);
      await roundTrip(`/${kind}/${id}/visibility`, `/${kind}/${id}/visibility`, (read) => read, {});
    }
  });

  it('PUT /configuration-templates, /access-rules/{id} and /group-bindings', async () => {
    const template = await app.api.post('/configuration-templates', {
      name: 'strict template', admin_owner_id: ownerId, visibility: { visibility: 'GLOBAL' }, require_mfa_to_approve: false, require_mfa_to_connect: false,
      request_configurations: richSettings().request_configurations,
    });
    assert.equal(template.status, 200, JSON.stringify(template.body));
    const templateId = template.body.configuration_template_id as string;
    const readTemplate = async () => {
      const list = await app.api.get('/configuration-templates', { page_size: 1000 });
      return list.body.results.find((t: { configuration_template_id: string }) => t.configuration_template_id === templateId);
    };
    const read = await readTemplate();
    const put = await app.api.put('/configuration-templates', { ...read, name: 'strict template, renamed' });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual(await readTemplate(), { ...read, name: 'strict template, renamed' });

    const rule = await app.api.post('/access-rules', {
      name: 'Engineers', description: 'tagged team:eng', admin_owner_id: ownerId, status: 'ACTIVE',
      ruleClauses: { when: { clauses: [{ selectors: [{ key: 'team', value: 'eng', connection_id: CONNECTION }] }] } },
    });
    assert.equal(rule.status, 201, JSON.stringify(rule.body));
    await roundTrip(`/access-rules/${rule.body.access_rule_id}`, `/access-rules/${rule.body.access_rule_id}`, (r) => r, { description: 'tagged team:eng, edited' });

    const [source, target] = [(await createGroup(app.api)).group_id, (await createGroup(app.api)).group_id];
    const binding = await app.api.post('/group-bindings', { source_group_id: source, groups: [{ group_id: source }, { group_id: target }] });
    assert.equal(binding.status, 200, JSON.stringify(binding.body));
    const id = binding.body.group_binding_id as string;
    await roundTrip(`/group-bindings/${id}`, '/group-bindings', (read) => ({ group_bindings: [read] }), {});
  });

  it('PUT …/reviewer-stages takes back the stages its GET answered, for a resource and a group', async () => {
    const stages = [
      { stage: 1, operator: 'AND', require_manager_approval: true, require_admin_approval: false, owner_ids: [reviewerId, ownerId] },
      { stage: 2, operator: 'OR', require_manager_approval: false, require_admin_approval: true, owner_ids: [reviewerId] },
    ];
    const items: [string, string][] = [['resources', (await createResource(app.api)).resource_id], ['groups', (await createGroup(app.api)).group_id]];
    for (const [kind, id] of items) {
      const set = await app.api.put(`/${kind}/${id}/reviewer-stages`, { stages });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      const read = (await app.api.get(`/${kind}/${id}/reviewer-stages`)).body;
      assert.equal(read.length, 2);
      const again = await app.api.put(`/${kind}/${id}/reviewer-stages`, { stages: read });
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.deepEqual((await app.api.get(`/${kind}/${id}/reviewer-stages`)).body, read);
    }
  });

  it('refuses request_configuration_list that disagrees with request_configurations sent beside it, changing nothing', async () => {
    const { resource_id } = await createResource(app.api, { admin_owner_id: ownerId, ...richSettings() });
    const read = (await app.api.get(`/resources/${resource_id}`)).body;
    const res = await app.api.put('/resources', {
      resources: [{ ...read, request_configuration_list: read.request_configurations.slice(0, 1) }],
    });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.deepEqual(errorPaths(res.body), ['resources.0.request_configuration_list']);
    assert.deepEqual((await app.api.get(`/resources/${resource_id}`)).body, read);
  });
});
