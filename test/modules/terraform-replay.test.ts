// Replays what Terraform's provider (opalsecurity/terraform-provider-opal, its Speakeasy-generated
// resources) sends and reads for every resource type it manages that Gatehouse serves: create with every
// optional attribute set, read, update, read, import (a read from the id alone), delete, read 404 —
// comparing each read with what was written, field by field, so a field that would drift fails here and
// not in a user's plan. The call sequences are written out below (the provider's Create, Read, Update,
// Delete and ImportState, in order); nothing here reads the provider or the reference.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createGroup, createMessageChannel, createOwner, createResource, createTag, createUser, unique } from '../helpers/fixtures.ts';
import { PAGERDUTY_TOKEN, PagerDutyStandIn } from '../helpers/on-call-stand-ins.ts';

type Json = Record<string, any>;

/** A Terraform set attribute: compared without its order. */
class TfSet {
  constructor(readonly items: unknown[]) {}
}
const set = (...items: unknown[]) => new TfSet(items);
const canonical = (value: unknown): string => JSON.stringify(value, (_k, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v)
  ? Object.fromEntries(Object.entries(v as Json).sort(([a], [b]) => a.localeCompare(b)))
  : v));

/**
 * Compares `actual` with `expected` field by field (recursively; lists by position, as the provider maps
 * them; a TfSet without order) and fails naming every field that would show a Terraform user a diff.
 */
function sameFields(actual: unknown, expected: unknown, where: string, diffs: string[] = []): string[] {
  if (expected instanceof TfSet) {
    const got = Array.isArray(actual) ? actual.map(canonical).sort() : null;
    const want = expected.items.map(canonical).sort();
    if (!got || canonical(got) !== canonical(want)) diffs.push(`${where}: wrote the set ${canonical(want)}, read ${canonical(actual)}`);
  } else if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) diffs.push(`${where}: wrote ${expected.length} items, read ${canonical(actual)}`);
    else expected.forEach((item, i) => sameFields(actual[i], item, `${where}[${i}]`, diffs));
  } else if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') diffs.push(`${where}: wrote an object, read ${canonical(actual)}`);
    else for (const [key, value] of Object.entries(expected as Json)) sameFields((actual as Json)[key], value, `${where}.${key}`, diffs);
  } else if (expected !== undefined && actual !== expected) {
    diffs.push(`${where}: wrote ${canonical(expected)}, read ${canonical(actual)}`);
  }
  return diffs;
}
const assertSame = (actual: unknown, expected: unknown, where: string) => assert.deepEqual(sameFields(actual, expected, where), [], `${where} would drift`);

describe('Terraform provider call sequences, replayed', () => {
  let app: TestApp;
  let ownerId: string;
  let otherOwnerId: string;
  let appId: string;
  let users: string[];
  let channelIds: string[];
  let scheduleIds: string[];
  let conditionGroupId: string;
  let requestTemplateId: string;
  let pagerDuty: PagerDutyStandIn;

  /** One call of a sequence: its status must be the one the provider checks for. */
  async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body: unknown, status: number | number[]): Promise<Json> {
    const res = await app.api.request(method, path, body);
    const statuses = Array.isArray(status) ? status : [status];
    assert.ok(statuses.includes(res.status), `${method} ${path} answered ${res.status}, the provider accepts ${statuses.join(' or ')}: ${JSON.stringify(res.body)}`);
    return res.body as Json;
  }
  const get = (path: string) => call('GET', path, undefined, 200);

  before(async () => {
    // On-call schedules are looked up with their provider: a stand-in of PagerDuty's API holds them.
    pagerDuty = await PagerDutyStandIn.start(() => new Date());
    app = await startTestApp({ env: { GATEHOUSE_PAGERDUTY_TOKEN: PAGERDUTY_TOKEN, GATEHOUSE_PAGERDUTY_API_URL: pagerDuty.url } });
    users = [(await createUser(app.api)).user_id, (await createUser(app.api)).user_id, (await createUser(app.api)).user_id];
    ownerId = (await createOwner(app.api, { user_ids: [users[0]] })).owner_id;
    otherOwnerId = (await createOwner(app.api, { user_ids: [users[1]] })).owner_id;
    appId = (await createApp(app.api, { admin_owner_id: ownerId })).app_id;
    channelIds = [(await createMessageChannel(app.api)).message_channel_id, (await createMessageChannel(app.api)).message_channel_id];
    scheduleIds = [];
    for (let i = 0; i < 2; i++) {
      const remote = pagerDuty.addSchedule(`Rota ${i}`);
      scheduleIds.push((await call('POST', '/on-call-schedules', { third_party_provider: 'PAGER_DUTY', remote_id: remote }, 200)).on_call_schedule_id);
    }
    conditionGroupId = (await createGroup(app.api, { app_id: appId })).group_id;
    requestTemplateId = (await call('POST', '/request-templates', { name: unique('tf-questions'), custom_fields: [{ name: 'Ticket', type: 'SHORT_TEXT', required: true }] }, 200)).request_template_id;
  });
  after(async () => {
    await app.close();
    await pagerDuty.close();
  });

  /** A request configuration list with every attribute the provider has, the default one not first. */
  const configurations = (stageOwner: string, extension: number) => [
    {
      priority: 1, condition: { group_ids: [conditionGroupId], role_remote_ids: ['admin'] }, allow_requests: true, auto_approval: false,
      require_mfa_to_request: true, require_support_ticket: true, max_duration_minutes: 120, recommended_duration_minutes: 60,
      extensions_duration_in_minutes: 30, request_template_id: requestTemplateId, reviewer_stages: [
        { operator: 'OR', require_manager_approval: true, require_admin_approval: false, owner_ids: [stageOwner], service_user_ids: [users[2]] },
      ],
    },
    {
      priority: 0, allow_requests: true, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false,
      max_duration_minutes: 480, recommended_duration_minutes: 240, extensions_duration_in_minutes: extension,
      reviewer_stages: [{ operator: 'AND', require_manager_approval: false, require_admin_approval: true, owner_ids: [stageOwner], service_user_ids: [] }],
    },
  ];
  /** What the provider keeps of a configuration it reads (RefreshFromShared…: the same fields, owner and user ids as sets). */
  const asRead = (configs: Json[]) => configs.map((c) => ({
    ...c, condition: c.condition ? { group_ids: set(...c.condition.group_ids), role_remote_ids: set(...c.condition.role_remote_ids) } : undefined,
    reviewer_stages: c.reviewer_stages.map((s: Json) => ({ ...s, owner_ids: set(...s.owner_ids), service_user_ids: set(...s.service_user_ids) })),
  }));

  it('opal_resource: POST /resources, PUT /resources, PUT visibility, GET; Read GET /resources/{id} and its visibility; Delete; import by id', async () => {
    const visibilityGroup = (await createGroup(app.api, { app_id: appId })).group_id;
    const create = {
      app_id: appId, name: unique('tf-resource'), resource_type: 'AWS_IAM_ROLE', description: 'managed by Terraform', custom_request_notification: 'Check your email',
      remote_info: { aws_iam_role: { arn: 'arn:aws:iam::123456789012:role/ops', account_id: '123456789012' } },
    };
    const id = (await call('POST', '/resources', create, 200)).resource_id as string;
    const settings = (stageOwner: string, extension: number) => ({
      resource_id: id, admin_owner_id: stageOwner === ownerId ? ownerId : otherOwnerId, name: create.name, description: create.description,
      custom_request_notification: create.custom_request_notification, require_mfa_to_approve: true, require_mfa_to_connect: true,
      risk_sensitivity_override: 'HIGH', extensions_duration_in_minutes: 120,
      ticket_propagation: { enabled_on_grant: true, enabled_on_revocation: true, ticket_provider: 'JIRA', ticket_project_id: 'OPS' },
      request_configurations: configurations(stageOwner, extension),
    });
    const read = async () => ({ ...(await get(`/resources/${id}`)), visibility: await get(`/resources/${id}/visibility`) });
    const expect = (written: Json, visibility: Json) => ({
      ...written, resource_id: undefined, request_configurations: asRead(written.request_configurations),
      app_id: appId, resource_type: 'AWS_IAM_ROLE', remote_info: create.remote_info,
      visibility: { visibility: visibility.visibility, visibility_group_ids: set(...visibility.visibility_group_ids) },
    });
    // Create
    const first = settings(ownerId, 30);
    const updated = await call('PUT', '/resources', { resources: [first] }, 200);
    assertSame(updated.resources[0], { ...first, request_configurations: asRead(first.request_configurations) }, 'create: PUT /resources');
    const firstVisibility = { visibility: 'LIMITED', visibility_group_ids: [visibilityGroup] };
    await call('PUT', `/resources/${id}/visibility`, firstVisibility, 200);
    assertSame(await read(), expect(first, firstVisibility), 'create: GET');
    // Read (refresh)
    assertSame(await read(), expect(first, firstVisibility), 'refresh');
    // Update: the same three calls with the plan
    const second = { ...settings(otherOwnerId, 45), name: unique('tf-renamed'), description: 'changed', risk_sensitivity_override: 'LOW' };
    await call('PUT', '/resources', { resources: [second] }, 200);
    const secondVisibility = { visibility: 'GLOBAL', visibility_group_ids: [] };
    await call('PUT', `/resources/${id}/visibility`, secondVisibility, 200);
    assertSame(await read(), expect(second, secondVisibility), 'update: GET');
    assertSame(await read(), expect(second, secondVisibility), 'refresh after update');
    // Import: the id alone, then Read
    assertSame(await read(), expect(second, secondVisibility), 'import');
    // Delete, then the refresh that finds it gone
    await call('DELETE', `/resources/${id}`, undefined, 200);
    await call('GET', `/resources/${id}`, undefined, 404);
  });

  it('opal_group: POST /groups, PUT /groups, PUT visibility, message channels and on-call schedules, GETs; Delete; import by id', async () => {
    const create = {
      app_id: appId, name: unique('tf-group'), group_type: 'OKTA_GROUP', description: 'managed by Terraform', custom_request_notification: 'Welcome',
      remote_info: { okta_group: { group_id: '00gTerraform1' } },
    };
    const id = (await call('POST', '/groups', create, 200)).group_id as string;
    const settings = (stageOwner: string, extension: number) => ({
      group_id: id, admin_owner_id: stageOwner, name: create.name, description: create.description, custom_request_notification: create.custom_request_notification,
      require_mfa_to_approve: true, risk_sensitivity_override: 'MEDIUM', extensions_duration_in_minutes: 120, group_leader_user_ids: [users[0]],
      request_configurations: configurations(stageOwner, extension),
    });
    const read = async () => ({
      ...(await get(`/groups/${id}`)),
      visibility: await get(`/groups/${id}/visibility`),
      message_channel_ids: (await get(`/groups/${id}/message-channels`)).channels.map((c: Json) => c.message_channel_id),
      on_call_schedule_ids: (await get(`/groups/${id}/on-call-schedules`)).on_call_schedules.map((s: Json) => s.on_call_schedule_id),
    });
    const expect = (written: Json, visibility: Json, channels: string[], schedules: string[]) => ({
      ...written, group_id: id, request_configurations: asRead(written.request_configurations), group_leader_user_ids: set(...written.group_leader_user_ids),
      app_id: appId, group_type: 'OKTA_GROUP', remote_info: create.remote_info, visibility: { visibility: visibility.visibility, visibility_group_ids: set(...visibility.visibility_group_ids) },
      message_channel_ids: set(...channels), on_call_schedule_ids: set(...schedules),
    });
    const apply = async (written: Json, visibility: Json, channels: string[], schedules: string[]) => {
      await call('PUT', '/groups', { groups: [written] }, 200);
      await call('PUT', `/groups/${id}/visibility`, visibility, 200);
      await call('PUT', `/groups/${id}/message-channels`, { message_channel_ids: channels }, 200);
      await call('PUT', `/groups/${id}/on-call-schedules`, { on_call_schedule_ids: schedules }, 200);
    };
    const first = settings(ownerId, 30);
    const firstVisibility = { visibility: 'LIMITED', visibility_group_ids: [conditionGroupId] };
    await apply(first, firstVisibility, channelIds, scheduleIds);
    assertSame(await read(), expect(first, firstVisibility, channelIds, scheduleIds), 'create: GET');
    assertSame(await read(), expect(first, firstVisibility, channelIds, scheduleIds), 'refresh');
    const second = { ...settings(otherOwnerId, 60), name: unique('tf-renamed'), group_leader_user_ids: [users[1], users[2]] };
    const secondVisibility = { visibility: 'GLOBAL', visibility_group_ids: [] };
    await apply(second, secondVisibility, [channelIds[1]!], []);
    assertSame(await read(), expect(second, secondVisibility, [channelIds[1]!], []), 'update: GET');
    assertSame(await read(), expect(second, secondVisibility, [channelIds[1]!], []), 'import');
    await call('DELETE', `/groups/${id}`, undefined, 200);
    await call('GET', `/groups/${id}`, undefined, 404);
  });

  it('opal_owner: POST /owners, PUT /owners/{id}/users, GET owner and users; Update PUT /owners; Delete; import by id', async () => {
    const sourceGroup = (await createGroup(app.api, { app_id: appId })).group_id;
    const create = {
      name: unique('tf-owner'), description: 'on call for billing', access_request_escalation_period: 30, user_ids: [users[0], users[1]],
      reviewer_message_channel_id: channelIds[0],
    };
    const id = (await call('POST', '/owners', create, 200)).owner_id as string;
    const read = async () => ({ ...(await get(`/owners/${id}`)), user_ids: (await get(`/owners/${id}/users`)).users.map((u: Json) => u.user_id) });
    const { user_ids: firstUsers, ...firstFields } = create;
    assertSame(await read(), { ...firstFields, owner_id: id, user_ids: firstUsers }, 'create: GET');
    const second = { owner_id: id, name: unique('tf-owner'), description: 'changed', access_request_escalation_period: 60, reviewer_message_channel_id: channelIds[1], source_group_id: sourceGroup };
    await call('PUT', '/owners', { owners: [second] }, 200);
    assertSame(await read(), { ...second }, 'update: GET');
    assertSame(await read(), { ...second }, 'import');
    await call('DELETE', `/owners/${id}`, undefined, 200);
    await call('GET', `/owners/${id}`, undefined, 404);
  });

  it('opal_configuration_template: POST, PUT, the list read; Delete; import by id', async () => {
    const create = {
      name: unique('tf-template'), admin_owner_id: ownerId, visibility: { visibility: 'LIMITED', visibility_group_ids: [conditionGroupId] },
      linked_audit_message_channel_ids: [channelIds[0]], member_oncall_schedule_ids: [scheduleIds[0]], break_glass_user_ids: [users[2]],
      require_mfa_to_approve: true, require_mfa_to_connect: true, custom_request_notification: 'Check your email',
      ticket_propagation: { enabled_on_grant: true, enabled_on_revocation: false, ticket_provider: 'LINEAR', ticket_project_id: 'SEC' },
      request_configurations: configurations(ownerId, 30),
    };
    const created = await call('POST', '/configuration-templates', create, 200);
    const id = created.configuration_template_id as string;
    const read = async () => (await get('/configuration-templates')).results.find((t: Json) => t.configuration_template_id === id) ?? null;
    const expect = (written: Json) => ({
      ...written, configuration_template_id: id, request_configuration_id: created.request_configuration_id,
      visibility: { visibility: written.visibility.visibility, visibility_group_ids: set(...written.visibility.visibility_group_ids) },
      linked_audit_message_channel_ids: set(...written.linked_audit_message_channel_ids), member_oncall_schedule_ids: set(...written.member_oncall_schedule_ids),
      break_glass_user_ids: set(...written.break_glass_user_ids), request_configurations: asRead(written.request_configurations),
    });
    assert.match(created.request_configuration_id, /^[0-9a-f-]{36}$/);
    assertSame(created, expect(create), 'create');
    assertSame(await read(), expect(create), 'refresh');
    const second = { ...create, configuration_template_id: id, name: unique('tf-template'), admin_owner_id: otherOwnerId, visibility: { visibility: 'GLOBAL', visibility_group_ids: [] },
      linked_audit_message_channel_ids: [], break_glass_user_ids: [users[0], users[1]], request_configurations: configurations(otherOwnerId, 15) };
    assertSame(await call('PUT', '/configuration-templates', second, 200), expect(second), 'update');
    assertSame(await read(), expect(second), 'import');
    await call('DELETE', `/configuration-templates/${id}`, undefined, 200);
    assert.equal(await read(), null, 'deleted: the list no longer has it');
  });

  it('opal_bundle, opal_bundle_resource and opal_bundle_group: POST, GET, PUT, PUT visibility; items POSTed and found in the lists; Deletes', async () => {
    const create = { name: unique('tf-bundle'), description: 'starter kit', admin_owner_id: ownerId };
    const id = (await call('POST', '/bundles', create, 201)).bundle_id as string;
    await call('PUT', `/bundles/${id}/visibility`, { visibility: 'LIMITED', visibility_group_ids: [conditionGroupId] }, 200);
    const read = async () => ({ ...(await get(`/bundles/${id}`)), visibility: await get(`/bundles/${id}/visibility`) });
    assertSame(await read(), { ...create, bundle_id: id, visibility: { visibility: 'LIMITED', visibility_group_ids: set(conditionGroupId) } }, 'create: GET');
    const second = { bundle_id: id, name: unique('tf-bundle'), description: 'changed', admin_owner_id: otherOwnerId };
    await call('PUT', `/bundles/${id}`, second, 200);
    await call('PUT', `/bundles/${id}/visibility`, { visibility: 'GLOBAL', visibility_group_ids: [] }, 200);
    assertSame(await read(), { ...second, visibility: { visibility: 'GLOBAL', visibility_group_ids: set() } }, 'update: GET');

    const resource = (await createResource(app.api, { app_id: appId, access_levels: [{ access_level_name: 'Reader', access_level_remote_id: 'read' }] })).resource_id;
    const item = { bundle_id: id, resource_id: resource, access_level_remote_id: 'read', access_level_name: 'Reader' };
    assertSame(await call('POST', `/bundles/${id}/resources`, item, 201), item, 'opal_bundle_resource create');
    const findResource = async () => (await get(`/bundles/${id}/resources`)).bundle_resources.find((r: Json) => r.resource_id === resource) ?? null;
    assertSame(await findResource(), item, 'opal_bundle_resource read');
    await call('DELETE', `/bundles/${id}/resources/${resource}?access_level_remote_id=read`, undefined, 200);
    assert.equal(await findResource(), null);

    const group = (await createGroup(app.api, { app_id: appId })).group_id;
    const groupItem = { bundle_id: id, group_id: group, access_level_remote_id: '', access_level_name: '' };
    assertSame(await call('POST', `/bundles/${id}/groups`, { bundle_id: id, group_id: group }, 201), groupItem, 'opal_bundle_group create');
    const findGroup = async () => (await get(`/bundles/${id}/groups`)).bundle_groups.find((g: Json) => g.group_id === group) ?? null;
    assertSame(await findGroup(), groupItem, 'opal_bundle_group read');
    await call('DELETE', `/bundles/${id}/groups/${group}`, undefined, 200);
    assert.equal(await findGroup(), null);

    await call('DELETE', `/bundles/${id}`, undefined, 200);
    await call('GET', `/bundles/${id}`, undefined, 404);
  });

  it('opal_access_rule: POST (201), GET, PUT; Delete through DELETE /groups/{id}; import by id', async () => {
    const clauses = (value: string) => ({ when: { clauses: [{ selectors: [{ key: 'team', value, connection_id: appId }] }] } });
    await createTag(app.api, { tag_key: 'team', tag_value: 'eng' });
    const create = { name: unique('tf-rule'), description: 'everyone tagged team:eng', admin_owner_id: ownerId, status: 'ACTIVE', ruleClauses: clauses('eng') };
    const created = await call('POST', '/access-rules', create, 201);
    const id = created.access_rule_id as string;
    const expect = (written: Json) => ({ ...written, access_rule_id: id });
    assertSame(created, expect(create), 'create');
    assertSame(await get(`/access-rules/${id}`), expect(create), 'refresh');
    const second = { ...create, name: unique('tf-rule'), admin_owner_id: otherOwnerId, status: 'PAUSED', ruleClauses: clauses('ops') };
    assertSame(await call('PUT', `/access-rules/${id}`, second, 200), expect(second), 'update');
    assertSame(await get(`/access-rules/${id}`), expect(second), 'import');
    await call('DELETE', `/groups/${id}`, undefined, [200, 404]);
    await call('GET', `/access-rules/${id}`, undefined, 404);
  });

  it('opal_group_containing_group: POST with duration_minutes, GET one; Delete (204); import by {group_id, containing_group_id}', async () => {
    const group = (await createGroup(app.api, { app_id: appId })).group_id;
    const containing = (await createGroup(app.api, { app_id: appId })).group_id;
    const written = { containing_group_id: containing, duration_minutes: 120 };
    assertSame(await call('POST', `/groups/${group}/containing-groups`, written, 200), written, 'create');
    app.clock.advance(30 * 60_000);
    assertSame(await get(`/groups/${group}/containing-groups/${containing}`), written, 'refresh, half an hour on');
    assertSame(await get(`/groups/${group}/containing-groups/${containing}`), written, 'import');
    await call('DELETE', `/groups/${group}/containing-groups/${containing}`, undefined, 204);
    await call('GET', `/groups/${group}/containing-groups/${containing}`, undefined, 404);
  });

  it('opal_group_resource_list: PUT /groups/{id}/resources, GET; update replaces; Delete writes the empty list', async () => {
    const group = (await createGroup(app.api, { app_id: appId })).group_id;
    const levels = [{ access_level_name: 'Reader', access_level_remote_id: 'read' }];
    const [a, b] = [(await createResource(app.api, { app_id: appId, access_levels: levels })).resource_id, (await createResource(app.api, { app_id: appId })).resource_id];
    const read = async () => (await get(`/groups/${group}/resources`)).group_resources.map((r: Json) => ({ resource_id: r.resource_id, access_level_remote_id: r.access_level.access_level_remote_id }));
    const first = [{ resource_id: a, access_level_remote_id: 'read' }, { resource_id: b, access_level_remote_id: '' }];
    await call('PUT', `/groups/${group}/resources`, { resources: first }, 200);
    assertSame(await read(), set(...first), 'create: GET');
    const second = [{ resource_id: a, access_level_remote_id: '' }];
    await call('PUT', `/groups/${group}/resources`, { resources: second }, 200);
    assertSame(await read(), set(...second), 'update: GET');
    await call('PUT', `/groups/${group}/resources`, { resources: [] }, 200);
    assertSame(await read(), set(), 'delete');
  });

  it('opal_group_user: POST with duration and level, the users list read; PUT changes them; Delete; import by {group_id, user_id}', async () => {
    const group = (await createGroup(app.api, { app_id: appId, access_levels: [{ access_level_name: 'Member', access_level_remote_id: 'member' }, { access_level_name: 'Admin', access_level_remote_id: 'admin' }] })).group_id;
    const user = users[2]!;
    const find = async () => (await get(`/groups/${group}/users`)).results.find((u: Json) => u.user_id === user) ?? null;
    const created = await call('POST', `/groups/${group}/users/${user}`, { access_level_remote_id: 'member', duration_minutes: 60 }, 200);
    const expect = (level: string, name: string) => ({ group_id: group, user_id: user, access_level: { access_level_remote_id: level, access_level_name: name } });
    assertSame(created, expect('member', 'Member'), 'create');
    assertSame(await find(), expect('member', 'Member'), 'refresh');
    assertSame(await call('PUT', `/groups/${group}/users/${user}`, { access_level_remote_id: 'member', duration_minutes: 240 }, 200), expect('member', 'Member'), 'update');
    assertSame(await find(), expect('member', 'Member'), 'import');
    await call('DELETE', `/groups/${group}/users/${user}?access_level_remote_id=member`, undefined, 200);
    assert.equal(await find(), null);
  });

  it('opal_tag, opal_tag_user, opal_group_tag and opal_resource_tag: POST /tag, GET /tag/{id}; the links POSTed and read from the item\'s tags; Deletes', async () => {
    const written = { tag_key: unique('tf-key'), tag_value: 'blue' };
    const tag = await call('POST', '/tag', written, 200);
    const id = tag.tag_id as string;
    const expect = { tag_id: id, key: written.tag_key, value: written.tag_value };
    assertSame(tag, expect, 'create');
    assertSame(await get(`/tag/${id}`), expect, 'refresh');
    assertSame(await get(`/tag/${id}`), expect, 'import');
    const group = (await createGroup(app.api, { app_id: appId })).group_id;
    const resource = (await createResource(app.api, { app_id: appId })).resource_id;
    const links = [['users', users[0]!], ['groups', group], ['resources', resource]] as const;
    for (const [kind, target] of links) {
      await call('POST', `/tags/${id}/${kind}/${target}`, {}, 200);
      const tags = async () => (await get(`/${kind}/${target}/tags`)).tags.map((t: Json) => t.tag_id);
      assert.ok((await tags()).includes(id), `opal_${kind.slice(0, -1)}_tag read`);
      await call('DELETE', `/tags/${id}/${kind}/${target}`, undefined, 200);
      assert.ok(!(await tags()).includes(id), `opal_${kind.slice(0, -1)}_tag deleted`);
    }
    await call('DELETE', `/tag/${id}`, undefined, 200);
    await call('GET', `/tag/${id}`, undefined, 404);
  });

  it('opal_idp_group_mapping and opal_idp_group_mappings: POST one, GET one; PUT the set, GET it; Deletes', async () => {
    const idpApp = (await createResource(app.api, { app_id: appId, resource_type: 'OKTA_APP' })).resource_id;
    const [g1, g2] = [(await createGroup(app.api, { app_id: appId })).group_id, (await createGroup(app.api, { app_id: appId })).group_id];
    const one = { alias: 'engineers', hidden_from_end_user: true };
    assertSame(await call('POST', `/idp-group-mappings/${idpApp}/groups/${g1}`, one, 200), { app_resource_id: idpApp, group_id: g1, ...one }, 'opal_idp_group_mapping create');
    assertSame(await get(`/idp-group-mappings/${idpApp}/groups/${g1}`), { app_resource_id: idpApp, group_id: g1, ...one }, 'opal_idp_group_mapping read');
    await call('DELETE', `/idp-group-mappings/${idpApp}/groups/${g1}`, undefined, 200);
    await call('GET', `/idp-group-mappings/${idpApp}/groups/${g1}`, undefined, 404);

    const mappings = [{ group_id: g1, alias: 'one', hidden_from_end_user: false }, { group_id: g2, alias: 'two', hidden_from_end_user: true }];
    await call('PUT', `/idp-group-mappings/${idpApp}`, { mappings }, 200);
    const read = async () => (await get(`/idp-group-mappings/${idpApp}`)).mappings.map((m: Json) => ({ group_id: m.group_id, alias: m.alias, hidden_from_end_user: m.hidden_from_end_user }));
    assertSame(await read(), set(...mappings), 'opal_idp_group_mappings read');
    await call('PUT', `/idp-group-mappings/${idpApp}`, { mappings: [] }, 200);
    assertSame(await read(), set(), 'opal_idp_group_mappings delete');
  });

  it('opal_message_channel and opal_on_call_schedule: POST, GET by id, import by id (the provider deletes neither)', async () => {
    const channel = { third_party_provider: 'SLACK', remote_id: unique('C0'), name: '#tf-alerts', is_private: true };
    const createdChannel = await call('POST', '/message-channels', channel, 200);
    assertSame(createdChannel, channel, 'opal_message_channel create');
    assertSame(await get(`/message-channels/${createdChannel.message_channel_id}`), channel, 'opal_message_channel import');
    const schedule = { third_party_provider: 'PAGER_DUTY', remote_id: pagerDuty.addSchedule('Primary'), name: 'Primary' };
    const createdSchedule = await call('POST', '/on-call-schedules', schedule, 200);
    assertSame(createdSchedule, schedule, 'opal_on_call_schedule create');
    assertSame(await get(`/on-call-schedules/${createdSchedule.on_call_schedule_id}`), schedule, 'opal_on_call_schedule import');
  });

  it('opal_scoped_role_permission_list: PUT, GET; update replaces; Delete writes the empty list', async () => {
    const role = (await createResource(app.api, { app_id: appId, resource_type: 'OPAL_SCOPED_ROLE' })).resource_id;
    const target = (await createResource(app.api, { app_id: appId })).resource_id;
    const first = [{ target_ids: [target], target_type: 'RESOURCE', permission_name: 'READ', allow_all: false }];
    await call('PUT', `/resources/${role}/scoped-role-permissions`, { permissions: first }, 200);
    assertSame((await get(`/resources/${role}/scoped-role-permissions`)).permissions, first, 'create: GET');
    const second = [{ target_ids: [], target_type: 'USER', permission_name: 'REQUEST_ON_BEHALF', allow_all: true }];
    await call('PUT', `/resources/${role}/scoped-role-permissions`, { permissions: second }, 200);
    assertSame((await get(`/resources/${role}/scoped-role-permissions`)).permissions, second, 'update: GET');
    await call('PUT', `/resources/${role}/scoped-role-permissions`, { permissions: [] }, 200);
    assertSame((await get(`/resources/${role}/scoped-role-permissions`)).permissions, [], 'delete');
  });

  it('opal_delegation: POST, GET by id; Delete; read 404; import by id', async () => {
    const hours = (n: number) => new Date(app.clock.now().getTime() + n * 3_600_000).toISOString();
    const written = { delegator_user_id: users[0], delegate_user_id: users[1], start_time: hours(1), end_time: hours(48), reason: 'holiday' };
    const created = await call('POST', '/delegations', written, 200);
    assertSame(created, written, 'create');
    assertSame(await get(`/delegations/${created.id}`), written, 'import');
    await call('DELETE', `/delegations/${created.id}`, undefined, 200);
    await call('GET', `/delegations/${created.id}`, undefined, 404);
  });

  it('every link object answers the fields the reference declares for it', async () => {
    // The reference's properties of each link schema (who holds what, and what sits in what), written out;
    // each is checked in every answer that carries one: the write's and the reads'.
    const declared: Record<string, string[]> = {
      GroupContainingGroup: ['containing_group_id', 'duration_minutes', 'access_level_remote_id'],
      GroupResource: ['group_id', 'resource_id', 'group_name', 'resource_name', 'expiration_date', 'access_level'],
      GroupUser: ['group_id', 'group_name', 'description', 'user_id', 'access_level', 'full_name', 'email', 'expiration_date', 'propagation_status'],
      ResourceUser: ['resource_id', 'user_id', 'access_level', 'full_name', 'email', 'expiration_date'],
      ResourceNHI: ['resource_id', 'non_human_identity_id', 'access_level', 'expiration_date'],
      BundleResource: ['bundle_id', 'resource_id', 'access_level_name', 'access_level_remote_id'],
      BundleGroup: ['bundle_id', 'group_id', 'access_level_name', 'access_level_remote_id'],
      IdpGroupMapping: ['app_resource_id', 'group_id', 'alias', 'hidden_from_end_user'],
      GroupBinding: ['group_binding_id', 'created_by_id', 'created_at', 'source_group_id', 'groups'],
      ResourceAccessUser: ['resource_id', 'resource_name', 'description', 'user_id', 'access_level', 'full_name', 'email', 'expiration_date', 'has_direct_access', 'num_access_paths', 'propagation_status'],
      ResourceUserAccessStatus: ['resource_id', 'user_id', 'access_level', 'status', 'expiration_date'],
      Access: ['principal_id', 'principal_type', 'entity_id', 'entity_type', 'access_level', 'expiration_date', 'has_direct_access', 'num_access_paths'],
    };
    const group = (await createGroup(app.api, { app_id: appId })).group_id;
    const other = (await createGroup(app.api, { app_id: appId })).group_id;
    const resource = (await createResource(app.api, { app_id: appId })).resource_id;
    const nhi = (await createResource(app.api, { app_id: appId, resource_type: 'GCP_SERVICE_ACCOUNT' })).resource_id;
    const bundle = (await call('POST', '/bundles', { name: unique('links'), admin_owner_id: ownerId }, 201)).bundle_id;
    const idpApp = (await createResource(app.api, { app_id: appId, resource_type: 'OKTA_APP' })).resource_id;
    const answers: Record<string, Json[]> = {
      GroupContainingGroup: [
        await call('POST', `/groups/${group}/containing-groups`, { containing_group_id: other, duration_minutes: 60 }, 200),
        await get(`/groups/${group}/containing-groups/${other}`),
        ...(await get(`/groups/${group}/containing-groups`)).containing_groups,
      ],
      GroupResource: [(await call('POST', `/groups/${group}/resources/${resource}`, { duration_minutes: 60 }, 200)), ...(await get(`/groups/${group}/resources`)).group_resources],
      GroupUser: [await call('POST', `/groups/${group}/users/${users[0]}`, { duration_minutes: 60 }, 200), ...(await get(`/groups/${group}/users`)).results],
      ResourceUser: [await call('POST', `/resources/${resource}/users/${users[0]}`, { duration_minutes: 60 }, 200)],
      ResourceNHI: [await call('POST', `/resources/${resource}/non-human-identities/${nhi}`, { duration_minutes: 60 }, 200)],
      BundleResource: [await call('POST', `/bundles/${bundle}/resources`, { resource_id: resource }, 201), ...(await get(`/bundles/${bundle}/resources`)).bundle_resources],
      BundleGroup: [await call('POST', `/bundles/${bundle}/groups`, { group_id: group }, 201), ...(await get(`/bundles/${bundle}/groups`)).bundle_groups],
      IdpGroupMapping: [await call('POST', `/idp-group-mappings/${idpApp}/groups/${group}`, { alias: 'eng', hidden_from_end_user: false }, 200)],
      GroupBinding: [await call('POST', '/group-bindings', { source_group_id: group, groups: [{ group_id: group }, { group_id: other }] }, 200)],
      ResourceAccessUser: [...(await get(`/resources/${resource}/users`)).results, ...(await get(`/resources/users/${users[0]}`)).results],
      ResourceUserAccessStatus: [await get(`/resource-user-access-status/${resource}/${users[0]}`)],
    };
    answers.Access = (await get(`/resources/${resource}/non-human-identities`)).results;
    const missing: string[] = [];
    for (const [schema, fields] of Object.entries(declared)) {
      assert.ok(answers[schema]!.length > 0, schema);
      for (const [i, answer] of answers[schema]!.entries()) {
        for (const field of fields) if (!(field in answer)) missing.push(`${schema} (answer ${i}) lacks ${field}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});
