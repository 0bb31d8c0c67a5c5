// Request templates (extension) and what they ask of requests; a reviewer shortening the duration on
// approve; a manager reading their direct reports' access. All over HTTP, every answer checked
// against the API document, refusals checked to record nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createGroup, createMember, NO_SUCH_ID, type Signed } from '../helpers/fixtures.ts';
import { config, makeRequest, ownerOf, postRequest, requestableResource, stage } from '../helpers/requests.ts';
import { errorPaths } from '../helpers/errors.ts';
import { countEvents, readEvents } from '../helpers/events.ts';

describe('request templates', () => {
  let app: TestApp;
  let alice: Signed;
  let owner: { owner_id: string };
  let reviewer: Signed;

  before(async () => {
    app = await startTestApp();
    alice = await createMember(app.api);
    reviewer = await createMember(app.api);
    owner = await ownerOf(app, reviewer);
  });
  after(() => app.close());

  const FIELDS = [
    { name: 'Ticket', type: 'SHORT_TEXT', required: true, description: 'The change ticket' },
    { name: 'Details', type: 'LONG_TEXT', required: false },
    { name: 'On call', type: 'BOOLEAN', required: true },
    { name: 'Environment', type: 'MULTI_CHOICE', required: true, metadata: { multi_choice_data: { options: ['staging', 'production'] } } },
  ];

  it('creates, lists, reads, updates and deletes a template; members read, only admins write', async () => {
    const created = await app.api.post('/request-templates', { name: 'Production questions', custom_fields: FIELDS });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.request_template_id;
    assert.deepEqual(created.body.custom_fields.map((f: { name: string }) => f.name), ['Ticket', 'Details', 'On call', 'Environment']);
    assert.equal(created.body.custom_fields[0].description, 'The change ticket');
    assert.equal(created.body.custom_fields[1].required, false);

    assert.equal((await alice.api.get(`/request-templates/${id}`)).status, 200, 'a member reads the questions a form asks');
    assert.ok((await alice.api.get('/request-templates')).body.results.some((t: { request_template_id: string }) => t.request_template_id === id));
    const forbidden = await alice.api.post('/request-templates', { name: 'mine', custom_fields: [] });
    assert.equal(forbidden.status, 403);

    const renamed = await app.api.put('/request-templates', { request_template_id: id, name: 'Prod questions' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Prod questions');
    assert.equal(renamed.body.custom_fields.length, 4, 'fields kept when not given');
    const replaced = await app.api.put('/request-templates', { request_template_id: id, custom_fields: [FIELDS[0]] });
    assert.deepEqual(replaced.body.custom_fields.map((f: { name: string }) => f.name), ['Ticket'], 'custom_fields replaces wholesale');

    assert.equal((await app.api.delete(`/request-templates/${id}`)).status, 200);
    assert.equal((await app.api.get(`/request-templates/${id}`)).status, 404);
    assert.equal(await countEvents(app.api, { object: id }), 4, 'created, updated twice, deleted');
  });

  it('refuses bad fields naming them, and writes nothing', async () => {
    const before = await countEvents(app.api, { type: 'REQUEST_TEMPLATES_CREATED' });
    const cases: [unknown[], string][] = [
      [[{ name: 'A', type: 'SHORT_TEXT' }, { name: 'a', type: 'LONG_TEXT' }], 'custom_fields.1.name'],
      [[{ name: 'Env', type: 'MULTI_CHOICE' }], 'custom_fields.0.metadata.multi_choice_data.options'],
      [[{ name: 'Env', type: 'SHORT_TEXT', metadata: { multi_choice_data: { options: ['x'] } } }], 'custom_fields.0.metadata.multi_choice_data'],
      [[{ name: 'Env', type: 'MULTI_CHOICE', metadata: { multi_choice_data: { options: ['x', 'x'] } } }], 'custom_fields.0.metadata.multi_choice_data.options'],
      [[{ name: 'Env', type: 'DATE' }], 'custom_fields.0.type'],
      [[{ name: '', type: 'SHORT_TEXT' }], 'custom_fields.0.name'],
    ];
    for (const [fields, path] of cases) {
      const res = await app.api.post('/request-templates', { name: 'bad', custom_fields: fields });
      assert.equal(res.status, 400, JSON.stringify(fields));
      assert.deepEqual(errorPaths(res.body), [path]);
    }
    assert.equal((await app.api.put('/request-templates', { request_template_id: NO_SUCH_ID, name: 'x' })).status, 404);
    assert.equal(await countEvents(app.api, { type: 'REQUEST_TEMPLATES_CREATED' }), before);
  });

  it('a request for an item whose configuration names a template must answer its fields; the dry run lists them', async () => {
    const template = (await app.api.post('/request-templates', { name: 'Questions', custom_fields: FIELDS })).body;
    const resource = await requestableResource(app, owner.owner_id, undefined, { request_template_id: template.request_template_id });
    const body = { resources: [{ id: resource.resource_id }] };

    const preview = await postRequest(alice.api, body, { dry_run: 'true' });
    assert.equal(preview.status, 200, JSON.stringify(preview.body));
    assert.deepEqual(preview.body.custom_fields.map((f: { name: string; required: boolean }) => [f.name, f.required]), [['Ticket', true], ['Details', false], ['On call', true], ['Environment', true]]);
    assert.deepEqual(preview.body.custom_fields[3].metadata.multi_choice_data.options, ['staging', 'production']);
    assert.deepEqual(preview.body.custom_fields[0].asked_for, ['resources.0']);

    const answers = [
      { name: 'Ticket', type: 'SHORT_TEXT', value: 'CHG-1' },
      { name: 'On call', type: 'BOOLEAN', value: 'false' },
      { name: 'Environment', type: 'MULTI_CHOICE', value: 'production' },
    ];
    const refusals: [unknown[], string, RegExp][] = [
      [answers.slice(1), 'custom_metadata', /"Ticket"/],
      [[{ ...answers[0], value: '  ' }, ...answers.slice(1)], 'custom_metadata.0.value', /required/],
      [[{ ...answers[0], type: 'LONG_TEXT' }, ...answers.slice(1)], 'custom_metadata.0.type', /SHORT_TEXT/],
      [[...answers.slice(0, 2), { ...answers[2], value: 'qa' }], 'custom_metadata.2.value', /staging, production/],
      [[...answers, { name: 'ticket', type: 'SHORT_TEXT', value: 'again' }], 'custom_metadata.3.name', /second time/],
    ];
    const created = await countEvents(app.api, { type: 'REQUESTS_CREATED' });
    for (const [metadata, path, words] of refusals) {
      const res = await postRequest(alice.api, { ...body, custom_metadata: metadata });
      assert.equal(res.status, 400, JSON.stringify(metadata));
      assert.deepEqual(errorPaths(res.body), [path]);
      assert.match(res.body.message, words);
    }
    assert.equal(await countEvents(app.api, { type: 'REQUESTS_CREATED' }), created, 'refused requests recorded nothing');

    const id = await makeRequest(alice.api, { ...body, custom_metadata: [...answers, { name: 'Extra', type: 'SHORT_TEXT', value: 'kept' }] });
    const request = (await alice.api.get(`/requests/${id}`)).body;
    assert.deepEqual(request.custom_fields_responses.map((f: { field_name: string; field_value: unknown }) => [f.field_name, f.field_value]),
      [['Ticket', 'CHG-1'], ['On call', false], ['Environment', 'production'], ['Extra', 'kept']]);

    // In use: the template cannot be deleted.
    const del = await app.api.delete(`/request-templates/${template.request_template_id}`);
    assert.equal(del.status, 409);
    assert.deepEqual(errorPaths(del.body), ['request_template_id']);
  });

  it('a conditional configuration\'s template applies to the requesters it matches', async () => {
    const template = (await app.api.post('/request-templates', { name: 'Contractors', custom_fields: [{ name: 'Sponsor', type: 'SHORT_TEXT', required: true }] })).body;
    const contractors = await createGroup(app.api);
    const bob = await createMember(app.api);
    assert.equal((await app.api.post(`/groups/${contractors.group_id}/users/${bob.user_id}`, { duration_minutes: 0 })).status, 200);
    const resource = await requestableResource(app, owner.owner_id, [
      config(),
      config({ priority: 1, condition: { group_ids: [contractors.group_id] }, request_template_id: template.request_template_id, reviewer_stages: [stage({ owner_ids: [owner.owner_id] })] }),
    ]);
    const body = { resources: [{ id: resource.resource_id }] };
    assert.equal((await postRequest(alice.api, body)).status, 200, 'alice matches the default configuration: nothing asked');
    const refused = await postRequest(bob.api, body);
    assert.equal(refused.status, 400);
    assert.deepEqual(errorPaths(refused.body), ['custom_metadata']);
    assert.equal((await postRequest(bob.api, { ...body, custom_metadata: [{ name: 'Sponsor', type: 'SHORT_TEXT', value: 'Dana' }] })).status, 200);
  });
});

describe('a reviewer shortens the duration on approve', () => {
  let app: TestApp;
  let alice: Signed;
  let reviewer: Signed;
  let second: Signed;
  let resourceId: string;
  let twoStage: string;

  before(async () => {
    app = await startTestApp();
    alice = await createMember(app.api);
    reviewer = await createMember(app.api);
    second = await createMember(app.api);
    const owner = await ownerOf(app, reviewer);
    const secondOwner = await ownerOf(app, second);
    resourceId = (await requestableResource(app, owner.owner_id, [config({ reviewer_stages: [stage({ owner_ids: [owner.owner_id] })] })])).resource_id;
    twoStage = (await requestableResource(app, owner.owner_id, [config({
      reviewer_stages: [stage({ stage: 1, owner_ids: [owner.owner_id] }), stage({ stage: 2, owner_ids: [secondOwner.owner_id] })],
    })])).resource_id;
  });
  after(() => app.close());

  const expiryOf = async (id: string, userId: string) =>
    (await app.api.get(`/resources/${id}/users`)).body.results.find((r: { user_id: string }) => r.user_id === userId)?.expiration_date as string | undefined;

  it('grants for the shorter duration, shows it on the request and in the event', async () => {
    const id = await makeRequest(alice.api, { resources: [{ id: resourceId }], duration_minutes: 1440 });
    const res = await reviewer.api.post(`/requests/${id}/approve`, { level: 'REGULAR', duration_minutes: 60 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.request.status, 'APPROVED');
    assert.equal(res.body.request.duration_minutes, 60);
    assert.equal(res.body.request.requested_duration_minutes, 1440);
    assert.equal(await expiryOf(resourceId, alice.user_id), new Date(app.clock.now().getTime() + 60 * 60_000).toISOString());
    const [event] = await readEvents(app.api, { type: 'REQUESTS_APPROVED', object: id });
    assert.equal(event!.sub_events[0]!.duration_minutes, 60);
    assert.equal(event!.sub_events[0]!.requested_duration_minutes, 1440);
  });

  it('refuses a longer duration with 400 naming duration_minutes, and changes nothing', async () => {
    const id = await makeRequest(alice.api, { resources: [{ id: twoStage }], duration_minutes: 120 });
    const res = await reviewer.api.post(`/requests/${id}/approve`, { level: 'REGULAR', duration_minutes: 121 });
    assert.equal(res.status, 400);
    assert.deepEqual(errorPaths(res.body), ['duration_minutes']);
    assert.match(res.body.message, /at most 120 minutes/);
    assert.equal((await app.api.get(`/requests/${id}`)).body.request_comments.length, 0);
    assert.equal(await countEvents(app.api, { type: 'REQUEST_REVIEWS_ADDED', object: id }), 0, 'nothing recorded');
    const bad = await reviewer.api.post(`/requests/${id}/approve`, { level: 'REGULAR', duration_minutes: 0 });
    assert.deepEqual(errorPaths(bad.body), ['duration_minutes']);
    assert.equal((await second.api.post(`/requests/${id}/approve`, { level: 'REGULAR', duration_minutes: 121 })).status, 403, 'who may approve is asked first');

    // A first stage shortens; the second may shorten further, never back.
    assert.equal((await reviewer.api.post(`/requests/${id}/approve`, { level: 'REGULAR', duration_minutes: 90 })).body.request.duration_minutes, 90);
    const longer = await second.api.post(`/requests/${id}/approve`, { level: 'REGULAR', duration_minutes: 100 });
    assert.equal(longer.status, 400, 'the first shortening holds');
    const done = await second.api.post(`/requests/${id}/approve`, { level: 'REGULAR', duration_minutes: null });
    assert.equal(done.body.request.status, 'APPROVED');
    assert.equal(done.body.request.duration_minutes, 90);
    assert.equal(done.body.request.requested_duration_minutes, 120);
  });

  it('an indefinite request may be approved for any duration, an admin override included', async () => {
    const id = await makeRequest(alice.api, { resources: [{ id: twoStage }], duration_minutes: -1 });
    const res = await app.api.post(`/requests/${id}/approve`, { level: 'ADMIN', duration_minutes: 7 * 1440 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.request.duration_minutes, 7 * 1440);
    assert.equal(res.body.request.requested_duration_minutes, -1);
  });
});

describe('a manager reads their direct reports\' access', () => {
  let app: TestApp;
  let manager: Signed;
  let report: Signed;
  let stranger: Signed;
  let limited: string;

  before(async () => {
    app = await startTestApp();
    manager = await createMember(app.api);
    stranger = await createMember(app.api);
    report = await createMember(app.api);
    assert.equal((await app.api.put(`/users/${report.user_id}`, { manager_id: manager.user_id })).status, 200);
    const owner = await ownerOf(app, stranger);
    limited = (await requestableResource(app, owner.owner_id)).resource_id;
    assert.equal((await app.api.put(`/resources/${limited}/visibility`, { visibility: 'LIMITED', visibility_group_ids: [] })).status, 200);
    assert.equal((await app.api.post(`/resources/${limited}/users/${report.user_id}`, { duration_minutes: 0 })).status, 200);
  });
  after(() => app.close());

  const heldIds = (body: { results: { resource_id: string }[] }) => body.results.map((r) => r.resource_id);

  it('lists a manager\'s direct reports', async () => {
    const res = await manager.api.get('/users', { manager_id: manager.user_id });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.results.map((u: { user_id: string }) => u.user_id), [report.user_id]);
    assert.deepEqual((await manager.api.get('/users', { manager_id: report.user_id })).body.results, []);
    assert.deepEqual(errorPaths((await manager.api.get('/users', { manager_id: 'nope' })).body), ['manager_id']);
  });

  it('the manager sees everything the report holds, LIMITED items included', async () => {
    const res = await manager.api.get(`/resources/users/${report.user_id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(heldIds(res.body), [limited]);
    assert.equal((await manager.api.get(`/groups/users/${report.user_id}`)).status, 200);
  });

  it('someone who is not their manager sees only what they may see themselves', async () => {
    const other = await createMember(app.api);
    assert.deepEqual(heldIds((await other.api.get(`/resources/users/${report.user_id}`)).body), [], 'the LIMITED item stays hidden');
    // The rule runs one way: a report does not read their manager's access whole.
    const secret = (await requestableResource(app, (await ownerOf(app, stranger)).owner_id)).resource_id;
    assert.equal((await app.api.put(`/resources/${secret}/visibility`, { visibility: 'LIMITED', visibility_group_ids: [] })).status, 200);
    assert.equal((await app.api.post(`/resources/${secret}/users/${manager.user_id}`, { duration_minutes: 0 })).status, 200);
    assert.deepEqual(heldIds((await manager.api.get(`/resources/users/${manager.user_id}`)).body), [secret]);
    assert.deepEqual(heldIds((await report.api.get(`/resources/users/${manager.user_id}`)).body), []);
  });

  it('a manager may not offboard a report: that stays with admins', async () => {
    const res = await manager.api.put(`/users/${report.user_id}`, { hr_idp_status: 'DEPROVISIONED' });
    assert.equal(res.status, 403);
    assert.equal((await app.api.get(`/users/${report.user_id}`)).body.hr_idp_status, 'ACTIVE');
  });
});
