// Resources through HTTP: PUT /resources — all-or-nothing bulk updates, settings, access levels, events.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createOwner, createResource, NO_SUCH_ID } from '../helpers/fixtures.ts';
import { countEvents } from '../helpers/events.ts';

describe('resources: bulk update', () => {
  let app: TestApp;
  let appId: string;
  before(async () => {
    app = await startTestApp();
    appId = (await createApp(app.api)).app_id;
  });
  after(() => app.close());

  const get = async (id: string) => (await app.api.get(`/resources/${id}`)).body;
  const config = { allow_requests: true, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false };

  it('updates several resources, returns them in order, and records one event naming each', async () => {
    const [a, b] = [await createResource(app.api, { app_id: appId }), await createResource(app.api, { app_id: appId })];
    const owner = await createOwner(app.api);
    const res = await app.api.put('/resources', { resources: [
      { resource_id: b.resource_id.toUpperCase(), name: 'B renamed', admin_owner_id: owner.owner_id, max_duration: 120, require_support_ticket: true },
      { resource_id: a.resource_id, description: 'now described', require_manager_approval: true, recommended_duration: -1,
        extensions_duration_in_minutes: 60, require_mfa_to_connect: true, is_requestable: false, custom_request_notification: 'welcome' },
    ] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.resources.map((r: { resource_id: string }) => r.resource_id), [b.resource_id, a.resource_id]);
    const [nb, na] = [await get(b.resource_id), await get(a.resource_id)];
    assert.equal(nb.name, 'B renamed');
    assert.equal(nb.admin_owner_id, owner.owner_id);
    assert.equal(nb.max_duration, 120);
    assert.equal(nb.require_support_ticket, true);
    assert.equal(nb.description, '');
    assert.equal(na.name, a.name);
    assert.equal(na.description, 'now described');
    assert.equal(na.require_manager_approval, true);
    assert.equal(na.recommended_duration, -1);
    assert.equal(na.extensions_duration_in_minutes, 60);
    assert.equal(na.require_mfa_to_connect, true);
    assert.equal(na.is_requestable, false);
    assert.equal(na.custom_request_notification, 'welcome');
    // The response holds each updated resource as GET shows it, less the deprecated list UpdateResourceInfo types as an object.
    const { request_configuration_list: _, ...expectedA } = na;
    assert.deepEqual(res.body.resources[1], expectedA);
    const events = await app.api.get('/events', { object_filter: a.resource_id, event_type_filter: 'RESOURCES_UPDATED' });
    assert.equal(events.body.results.length, 1);
    const subs = events.body.results[0].sub_events;
    assert.deepEqual(subs.map((s: { resource_id: string }) => s.resource_id), [b.resource_id, a.resource_id]);
    assert.equal((await app.api.get('/events', { object_filter: b.resource_id, event_type_filter: 'RESOURCES_UPDATED' })).body.results.length, 1);
  });

  it('changes nothing when any item is unknown or invalid, naming resources.N.field', async () => {
    const [a, b] = [await createResource(app.api, { app_id: appId }), await createResource(app.api, { app_id: appId })];
    const before = [await get(a.resource_id), await get(b.resource_id)];
    const eventsBefore = await countEvents(app.api, { type: 'RESOURCES_UPDATED' });
    const cases: [unknown[], number, string][] = [
      [[{ resource_id: a.resource_id, name: 'x' }, { resource_id: NO_SUCH_ID, name: 'y' }], 404, 'resources.1.resource_id'],
      [[{ resource_id: a.resource_id, name: 'x' }, { resource_id: b.resource_id, max_duration: 0 }], 400, 'resources.1.max_duration'],
      [[{ resource_id: a.resource_id, name: 'x' }, { resource_id: b.resource_id, admin_owner_id: NO_SUCH_ID }], 404, 'resources.1.admin_owner_id'],
      [[{ resource_id: a.resource_id, name: 'x' }, { resource_id: a.resource_id, name: 'y' }], 400, 'resources.1.resource_id'],
      [[{ resource_id: a.resource_id, name: 'x' }, { resource_id: b.resource_id, custom_request_notification: 'n'.repeat(801) }], 400, 'resources.1.custom_request_notification'],
      [[{ resource_id: a.resource_id, name: 'x' }, { resource_id: b.resource_id, risk_sensitivity_override: 'EXTREME' }], 400, 'resources.1.risk_sensitivity_override'],
      [[{ resource_id: a.resource_id, max_duration: 30 }, { resource_id: b.resource_id, name: '' }], 400, 'resources.1.name'],
      [[{ resource_id: a.resource_id, max_duration: 30, recommended_duration: 60 }], 400, 'resources.0.recommended_duration'],
      [[{ resource_id: a.resource_id, name: 'x' }, { resource_id: 'nope' }], 400, 'resources.1.resource_id'],
      [[{ resource_id: a.resource_id, access_levels: [{ access_level_name: 'r', access_level_remote_id: 'r' }] }, { resource_id: b.resource_id, parent_resource_id: b.resource_id }],
        400, 'resources.1.parent_resource_id'],
      [[{ resource_id: a.resource_id, name: 'x' }, { resource_id: b.resource_id, request_configurations: [{ ...config, priority: 1 }] }], 400, 'resources.1.request_configurations.0.priority'],
    ];
    for (const [items, status, path] of cases) {
      const res = await app.api.put('/resources', { resources: items });
      assert.equal(res.status, status, `${path}: ${JSON.stringify(res.body)}`);
      assert.ok(res.body.details.some((d: { path: string }) => d.path === path), `${path} in ${JSON.stringify(res.body.details)}`);
      assert.deepEqual([await get(a.resource_id), await get(b.resource_id)], before, `nothing changed after ${path}`);
    }
    assert.equal(await countEvents(app.api, { type: 'RESOURCES_UPDATED' }), eventsBefore, 'refused updates record no event');
    assert.equal((await app.api.put('/resources', {})).body.details[0].path, 'resources');
    const empty = await app.api.put('/resources', { resources: [] });
    assert.deepEqual(empty.body, { resources: [] });
    assert.equal(await countEvents(app.api, { type: 'RESOURCES_UPDATED' }), eventsBefore);
  });

  it('sets and clears the risk override, ticket propagation and template ids', async () => {
    const r = await createResource(app.api, { app_id: appId, risk_sensitivity_override: 'LOW' });
    const ticketPropagation = { enabled_on_grant: true, enabled_on_revocation: true, ticket_provider: 'LINEAR' };
    // The template must exist (configuration-templates.test.ts covers linking); it sets the same ticket propagation.
    const template = (await app.api.post('/configuration-templates', {
      name: 'same propagation', admin_owner_id: r.admin_owner_id, visibility: { visibility: 'GLOBAL' },
      require_mfa_to_approve: false, require_mfa_to_connect: false, ticket_propagation: ticketPropagation,
    })).body.configuration_template_id;
    let res = await app.api.put('/resources', { resources: [{ resource_id: r.resource_id, risk_sensitivity_override: 'CRITICAL',
      ticket_propagation: ticketPropagation, configuration_template_id: template }] });
    assert.equal(res.body.resources[0].risk_sensitivity, 'CRITICAL');
    assert.equal(res.body.resources[0].configuration_template_id, template);
    assert.equal(res.body.resources[0].ticket_propagation.ticket_provider, 'LINEAR');
    res = await app.api.put('/resources', { resources: [{ resource_id: r.resource_id, risk_sensitivity_override: null, ticket_propagation: null, configuration_template_id: null }] });
    assert.equal(res.status, 200);
    const after = await get(r.resource_id);
    assert.equal(after.risk_sensitivity, 'UNKNOWN');
    assert.equal('risk_sensitivity_override' in after, false);
    assert.equal('ticket_propagation' in after, false);
    assert.equal('configuration_template_id' in after, false);
  });

  it('keeps request_configurations and the top-level settings in step', async () => {
    const r = await createResource(app.api, { app_id: appId });
    const reviewer = await createOwner(app.api);
    let res = await app.api.put('/resources', { resources: [{ resource_id: r.resource_id, request_configuration_list: { request_configurations: [
      { ...config, auto_approval: true, max_duration_minutes: 240, priority: 0,
        reviewer_stages: [{ stage: 1, operator: 'AND', require_manager_approval: true, owner_ids: [reviewer.owner_id] }] },
    ] } }] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    let now = await get(r.resource_id);
    assert.equal(now.auto_approval, true);
    assert.equal(now.max_duration, 240);
    // A later top-level change shows in the default configuration, whose reviewer stages stay.
    res = await app.api.put('/resources', { resources: [{ resource_id: r.resource_id, auto_approval: false, max_duration: 60 }] });
    now = await get(r.resource_id);
    assert.equal(now.request_configurations[0].auto_approval, false);
    assert.equal(now.request_configurations[0].max_duration_minutes, 60);
    assert.deepEqual(now.request_configurations[0].reviewer_stages[0].owner_ids, [reviewer.owner_id]);
    // Both forms may come back from a client sending the resource whole; they must agree.
    const both = await app.api.put('/resources', { resources: [{ resource_id: r.resource_id, request_configurations: now.request_configurations, request_configuration_list: { request_configurations: [] } }] });
    assert.equal(both.status, 400);
    assert.equal(both.body.details[0].path, 'resources.0.request_configuration_list');
    const unknownStageOwner = await app.api.put('/resources', { resources: [{ resource_id: r.resource_id, request_configurations: [
      { ...config, priority: 0, reviewer_stages: [{ stage: 1, operator: 'OR', require_manager_approval: false, owner_ids: [NO_SUCH_ID] }] }] }] });
    assert.equal(unknownStageOwner.status, 404);
    assert.equal(unknownStageOwner.body.details[0].path, 'resources.0.request_configurations.0.reviewer_stages.0.owner_ids.0');
    assert.deepEqual(await get(r.resource_id), now);
  });

  it('replaces the access levels a resource offers, keeping the default', async () => {
    const r = await createResource(app.api, { app_id: appId, access_levels: [{ access_level_name: 'Read', access_level_remote_id: 'read' }] });
    const res = await app.api.put('/resources', { resources: [{ resource_id: r.resource_id,
      access_levels: [{ access_level_name: 'Write', access_level_remote_id: 'write' }, { access_level_name: 'Admin', access_level_remote_id: 'admin' }] }] });
    assert.deepEqual(res.body.resources[0].access_levels, [
      { access_level_name: '', access_level_remote_id: '' },
      { access_level_name: 'Admin', access_level_remote_id: 'admin' },
      { access_level_name: 'Write', access_level_remote_id: 'write' },
    ]);
    assert.equal(app.ctx.stores.resources.accessLevel(r.resource_id, 'read'), undefined);
    assert.deepEqual(app.ctx.stores.resources.accessLevel(r.resource_id, 'write'), { access_level_name: 'Write', access_level_remote_id: 'write' });
    // Updates that leave access_levels out keep them.
    await app.api.put('/resources', { resources: [{ resource_id: r.resource_id, name: 'renamed' }] });
    assert.equal((await get(r.resource_id)).access_levels.length, 3);
  });
});
