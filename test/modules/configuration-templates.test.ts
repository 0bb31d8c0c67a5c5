// Configuration templates through HTTP: CRUD, linking resources and groups, handing changes on to them,
// refusing direct changes to templated fields, and the 400s, 404s and 409s (records nothing).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createGroup, createOwner, createResource, createUser, NO_SUCH_ID, unique } from '../helpers/fixtures.ts';
import { countEvents, readEvents } from '../helpers/events.ts';
import { PAGERDUTY_TOKEN, PagerDutyStandIn } from '../helpers/on-call-stand-ins.ts';

describe('configuration templates', () => {
  let app: TestApp;
  let appId: string;
  let ownerId: string;
  let pagerDuty: PagerDutyStandIn;
  before(async () => {
    pagerDuty = await PagerDutyStandIn.start(() => new Date());
    app = await startTestApp({ env: { GATEHOUSE_PAGERDUTY_TOKEN: PAGERDUTY_TOKEN, GATEHOUSE_PAGERDUTY_API_URL: pagerDuty.url } });
    ownerId = (await createOwner(app.api)).owner_id;
    appId = (await createApp(app.api, { admin_owner_id: ownerId })).app_id;
  });
  after(async () => {
    await app.close();
    await pagerDuty.close();
  });

  const record = async (path: string, provider: string) => {
    const remote = unique('remote');
    if (provider === 'PAGER_DUTY') pagerDuty.addSchedule(`Schedule ${remote}`, remote);
    const res = await app.api.post(path, { third_party_provider: provider, remote_id: remote });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as Record<string, string>;
  };
  const minimal = (overrides: Record<string, unknown> = {}) => ({
    name: unique('template'), admin_owner_id: ownerId, visibility: { visibility: 'GLOBAL' },
    require_mfa_to_approve: false, require_mfa_to_connect: false, ...overrides,
  });
  const createTemplate = async (overrides: Record<string, unknown> = {}) => {
    const res = await app.api.post('/configuration-templates', minimal(overrides));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as Record<string, any>;
  };
  /** A template with every field set, and what it refers to. */
  const fullTemplate = async () => {
    const templateOwner = await createOwner(app.api);
    const reviewer = await createOwner(app.api);
    const visibilityGroup = await createGroup(app.api, { app_id: appId });
    const channel = await record('/message-channels', 'SLACK');
    const schedule = await record('/on-call-schedules', 'PAGER_DUTY');
    const breakGlass = await createUser(app.api);
    const template = await createTemplate({
      admin_owner_id: templateOwner.owner_id,
      visibility: { visibility: 'LIMITED', visibility_group_ids: [visibilityGroup.group_id] },
      linked_audit_message_channel_ids: [channel.message_channel_id],
      member_oncall_schedule_ids: [schedule.on_call_schedule_id],
      break_glass_user_ids: [breakGlass.user_id],
      require_mfa_to_approve: true,
      require_mfa_to_connect: true,
      ticket_propagation: { enabled_on_grant: true, enabled_on_revocation: false, ticket_provider: 'JIRA' },
      custom_request_notification: 'check your email',
      request_configurations: [
        { allow_requests: true, auto_approval: false, require_mfa_to_request: true, require_support_ticket: true, max_duration_minutes: 480,
          recommended_duration_minutes: 60, priority: 0,
          reviewer_stages: [{ stage: 1, operator: 'AND', require_manager_approval: false, owner_ids: [reviewer.owner_id] }] },
        { condition: { group_ids: [visibilityGroup.group_id] }, allow_requests: true, auto_approval: true, require_mfa_to_request: false,
          require_support_ticket: false, max_duration_minutes: 60, priority: 1 },
      ],
    });
    return { template, templateOwner, visibilityGroup, channel, schedule, breakGlass };
  };

  describe('POST, GET, PUT and DELETE /configuration-templates', () => {
    it('creates a template with the default request configuration when none is given, and lists it', async () => {
      const body = minimal();
      const template = await createTemplate(body);
      assert.deepEqual(
        { ...template, configuration_template_id: undefined, request_configuration_id: undefined, request_configurations: undefined },
        {
          ...body, configuration_template_id: undefined, request_configuration_id: undefined, request_configurations: undefined, visibility: { visibility: 'GLOBAL', visibility_group_ids: [] },
          linked_audit_message_channel_ids: [], member_oncall_schedule_ids: [], break_glass_user_ids: [], custom_request_notification: null,
          break_glass_group_ids: [], break_glass_max_minutes: 60,
        },
      );
      assert.equal(template.request_configurations.length, 1);
      assert.deepEqual(
        [template.request_configurations[0].priority, template.request_configurations[0].allow_requests, template.request_configurations[0].max_duration_minutes],
        [0, true, -1],
      );
      const listed = (await app.api.get('/configuration-templates', { page_size: 1000 })).body.results;
      assert.deepEqual(listed.find((t: { configuration_template_id: string }) => t.configuration_template_id === template.configuration_template_id), template);
      const events = (await app.api.get('/events', { object_filter: template.configuration_template_id })).body.results;
      assert.deepEqual(events.map((e: { event_type: string }) => e.event_type), ['CONFIGURATION_TEMPLATES_CREATED']);
    });

    it('pages the list by cursor', async () => {
      for (let i = 0; i < 3; i++) await createTemplate();
      const all = (await app.api.get('/configuration-templates', { page_size: 1000 })).body.results.map((t: { configuration_template_id: string }) => t.configuration_template_id);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await app.api.get('/configuration-templates', { page_size: 2, cursor });
        seen.push(...res.body.results.map((t: { configuration_template_id: string }) => t.configuration_template_id));
        cursor = res.body.next ?? undefined;
      } while (cursor);
      assert.deepEqual(seen, all);
      assert.equal((await app.api.get('/configuration-templates', { cursor: 'bogus' })).body.details[0].path, 'cursor');
    });

    it('refuses bad creates with 400 or 404 naming the field, and records nothing', async () => {
      const group = await createGroup(app.api, { app_id: appId });
      const eventsBefore = await countEvents(app.api);
      const config = { allow_requests: true, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false };
      const cases: [Record<string, unknown>, number, string][] = [
        [{ name: undefined }, 400, 'name'],
        [{ name: '  ' }, 400, 'name'],
        [{ admin_owner_id: undefined }, 400, 'admin_owner_id'],
        [{ admin_owner_id: 'x' }, 400, 'admin_owner_id'],
        [{ visibility: undefined }, 400, 'visibility'],
        [{ visibility: { visibility: 'private' } }, 400, 'visibility.visibility'],
        [{ visibility: { visibility: 'GLOBAL', visibility_group_ids: [group.group_id] } }, 400, 'visibility.visibility_group_ids'],
        [{ require_mfa_to_approve: undefined }, 400, 'require_mfa_to_approve'],
        [{ require_mfa_to_connect: 'no' }, 400, 'require_mfa_to_connect'],
        [{ custom_request_notification: 'x'.repeat(801) }, 400, 'custom_request_notification'],
        [{ request_configurations: [{ ...config, priority: 1 }] }, 400, 'request_configurations.0.priority'],
        [{ request_configurations: [{ ...config, priority: 0 }], request_configuration_list: { request_configurations: [] } }, 400, 'request_configuration_list'],
        [{ linked_audit_message_channel_ids: [NO_SUCH_ID, NO_SUCH_ID] }, 400, 'linked_audit_message_channel_ids'],
        [{ admin_owner_id: NO_SUCH_ID }, 404, 'admin_owner_id'],
        [{ visibility: { visibility: 'LIMITED', visibility_group_ids: [NO_SUCH_ID] } }, 404, 'visibility.visibility_group_ids.0'],
        [{ linked_audit_message_channel_ids: [NO_SUCH_ID] }, 404, 'linked_audit_message_channel_ids.0'],
        [{ member_oncall_schedule_ids: [NO_SUCH_ID] }, 404, 'member_oncall_schedule_ids.0'],
        [{ break_glass_user_ids: [NO_SUCH_ID] }, 404, 'break_glass_user_ids.0'],
        [{ request_configurations: [{ ...config, priority: 0, reviewer_stages: [{ stage: 1, operator: 'AND', require_manager_approval: false, owner_ids: [NO_SUCH_ID] }] }] },
          404, 'request_configurations.0.reviewer_stages.0.owner_ids.0'],
      ];
      for (const [overrides, status, field] of cases) {
        const res = await app.api.post('/configuration-templates', minimal(overrides));
        assert.equal(res.status, status, `${field}: ${JSON.stringify(res.body)}`);
        assert.ok(res.body.details.some((d: { path: string }) => d.path === field), `${field} in ${JSON.stringify(res.body.details)}`);
      }
      assert.equal(await countEvents(app.api), eventsBefore);
    });

    it('updates the fields given; refuses an unknown or missing template and bad fields without changing anything', async () => {
      const template = await createTemplate();
      const id = template.configuration_template_id;
      const res = await app.api.put('/configuration-templates', { configuration_template_id: id.toUpperCase(), name: 'renamed', require_mfa_to_connect: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { ...template, name: 'renamed', require_mfa_to_connect: true });
      const eventsBefore = await countEvents(app.api);
      const cases: [Record<string, unknown>, number, string][] = [
        [{ configuration_template_id: undefined, name: 'x' }, 400, 'configuration_template_id'],
        [{ configuration_template_id: NO_SUCH_ID, name: 'x' }, 404, 'configuration_template_id'],
        [{ configuration_template_id: id, name: '' }, 400, 'name'],
        [{ configuration_template_id: id, admin_owner_id: NO_SUCH_ID }, 404, 'admin_owner_id'],
        [{ configuration_template_id: id, visibility: { visibility: 'LIMITED', visibility_group_ids: [NO_SUCH_ID] } }, 404, 'visibility.visibility_group_ids.0'],
      ];
      for (const [body, status, field] of cases) {
        const refused = await app.api.put('/configuration-templates', body);
        assert.equal(refused.status, status, `${field}: ${JSON.stringify(refused.body)}`);
        assert.ok(refused.body.details.some((d: { path: string }) => d.path === field), `${field} in ${JSON.stringify(refused.body.details)}`);
      }
      assert.equal(await countEvents(app.api), eventsBefore);
      const listed = (await app.api.get('/configuration-templates', { page_size: 1000 })).body.results;
      assert.deepEqual(listed.find((t: { configuration_template_id: string }) => t.configuration_template_id === id), res.body);
    });

    it('deletes a template that nothing is linked to; 404 for an unknown one, 400 for a bad id', async () => {
      const template = await createTemplate();
      const id = template.configuration_template_id;
      assert.deepEqual((await app.api.delete(`/configuration-templates/${id}`)).body, {});
      const listed = (await app.api.get('/configuration-templates', { page_size: 1000 })).body.results;
      assert.equal(listed.some((t: { configuration_template_id: string }) => t.configuration_template_id === id), false);
      const again = await app.api.delete(`/configuration-templates/${id}`);
      assert.equal(again.status, 404);
      assert.equal(again.body.details[0].path, 'configuration_template_id');
      assert.equal((await app.api.delete('/configuration-templates/nope')).body.details[0].path, 'configuration_template_id');
      const types = (await app.api.get('/events', { object_filter: id })).body.results.map((e: { event_type: string }) => e.event_type);
      assert.deepEqual(types.sort(), ['CONFIGURATION_TEMPLATES_CREATED', 'CONFIGURATION_TEMPLATES_DELETED']);
    });

    it('keeps an owner, reviewer or group a template names from being deleted', async () => {
      const { template, templateOwner, visibilityGroup } = await fullTemplate();
      const owner = await app.api.delete(`/owners/${templateOwner.owner_id}`);
      assert.equal(owner.status, 409, JSON.stringify(owner.body));
      const reviewer = template.request_configurations[0].reviewer_stages[0].owner_ids[0];
      assert.equal((await app.api.delete(`/owners/${reviewer}`)).status, 409, 'a reviewer owner named in its request configurations');
      assert.equal((await app.api.delete(`/groups/${visibilityGroup.group_id}`)).status, 409, 'a group named in a condition');
    });
  });

  describe('linking resources and groups', () => {
    it('a linked resource and group take every templated setting at once', async () => {
      const { template, templateOwner, visibilityGroup, channel, schedule } = await fullTemplate();
      const id = template.configuration_template_id;
      const resource = (await app.api.post('/resources', { name: unique('linked'), resource_type: 'CUSTOM', app_id: appId, configuration_template_id: id.toUpperCase() })).body;
      const group = (await app.api.post('/groups', { name: unique('linked'), group_type: 'OPAL_GROUP', app_id: appId, configuration_template_id: id })).body;
      for (const [kind, item] of [['resources', resource], ['groups', group]] as const) {
        assert.equal(item.configuration_template_id, id);
        assert.equal(item.admin_owner_id, templateOwner.owner_id);
        assert.equal(item.require_mfa_to_approve, true);
        assert.equal(item.require_mfa_to_request, true, 'mirrored from the default configuration');
        assert.equal(item.require_support_ticket, true);
        assert.equal(item.max_duration, 480);
        assert.equal(item.recommended_duration, 60);
        assert.equal(item.custom_request_notification, 'check your email');
        assert.deepEqual(item.request_configurations, template.request_configurations);
        const itemId = item.resource_id ?? item.group_id;
        assert.deepEqual((await app.api.get(`/${kind}/${itemId}/visibility`)).body, template.visibility);
        assert.deepEqual((await app.api.get(`/${kind}/${itemId}/message-channels`)).body.channels.map((c: { message_channel_id: string }) => c.message_channel_id), [channel.message_channel_id]);
      }
      assert.equal(resource.require_mfa_to_connect, true);
      assert.deepEqual(resource.ticket_propagation, template.ticket_propagation);
      assert.deepEqual((await app.api.get(`/groups/${group.group_id}/on-call-schedules`)).body.on_call_schedules.map((s: { on_call_schedule_id: string }) => s.on_call_schedule_id), [schedule.on_call_schedule_id]);
      assert.ok(visibilityGroup);

      // Linking an existing resource by PUT applies the template too.
      const plain = await createResource(app.api, { app_id: appId });
      const res = await app.api.put('/resources', { resources: [{ resource_id: plain.resource_id, configuration_template_id: id }] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.resources[0].admin_owner_id, templateOwner.owner_id);
      assert.deepEqual(res.body.resources[0].request_configurations, template.request_configurations);
    });

    it('refuses an unknown template with 404 naming the field, changing nothing', async () => {
      const eventsBefore = await countEvents(app.api);
      const created = await app.api.post('/resources', { name: unique('r'), resource_type: 'CUSTOM', app_id: appId, configuration_template_id: NO_SUCH_ID });
      assert.equal(created.status, 404);
      assert.equal(created.body.details[0].path, 'configuration_template_id');
      const group = await createGroup(app.api, { app_id: appId });
      const eventsAfterSetup = await countEvents(app.api);
      assert.ok(eventsAfterSetup > eventsBefore);
      const updated = await app.api.put('/groups', { groups: [{ group_id: group.group_id, name: 'renamed', configuration_template_id: NO_SUCH_ID }] });
      assert.equal(updated.status, 404);
      assert.equal(updated.body.details[0].path, 'groups.0.configuration_template_id');
      assert.equal((await app.api.get(`/groups/${group.group_id}`)).body.name, group.name);
      assert.equal(await countEvents(app.api), eventsAfterSetup);
    });

    it('while linked, accepts back the stages and the whole item it read, even when the template numbered its stages itself', async () => {
      const reviewer = await createOwner(app.api);
      const unnumbered = { operator: 'OR', require_manager_approval: false, owner_ids: [reviewer.owner_id] };
      const template = await createTemplate({
        request_configurations: [{ allow_requests: true, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false, priority: 0,
          reviewer_stages: [unnumbered, { ...unnumbered, stage: 2 }] }],
      });
      const resource = (await app.api.post('/resources', { name: unique('r'), resource_type: 'CUSTOM', app_id: appId, configuration_template_id: template.configuration_template_id })).body;
      const stages = (await app.api.get(`/resources/${resource.resource_id}/reviewer-stages`)).body;
      const sentBack = await app.api.put(`/resources/${resource.resource_id}/reviewer-stages`, { stages });
      assert.equal(sentBack.status, 200, JSON.stringify(sentBack.body));
      const whole = (await app.api.get(`/resources/${resource.resource_id}`)).body;
      const put = await app.api.put('/resources', { resources: [whole] });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      // Linking by PUT names the template in its event, as POST does.
      const other = (await app.api.post('/resources', { name: unique('r'), resource_type: 'CUSTOM', app_id: appId })).body;
      assert.equal((await app.api.put('/resources', { resources: [{ resource_id: other.resource_id, configuration_template_id: template.configuration_template_id }] })).status, 200);
      const [event] = (await app.api.get('/events', { event_type_filter: 'RESOURCES_UPDATED', object_filter: other.resource_id, page_size: 1 })).body.results;
      assert.equal(event.sub_events[0].configuration_template_id, template.configuration_template_id);
    });

    it('while linked, refuses (409) a direct change to a templated field, allows the same value and other fields; unlinking keeps the values', async () => {
      const template = await createTemplate({ require_mfa_to_approve: true });
      const id = template.configuration_template_id;
      const resource = (await app.api.post('/resources', { name: unique('r'), resource_type: 'CUSTOM', app_id: appId, configuration_template_id: id })).body;
      const other = await createOwner(app.api);
      const before = (await app.api.get(`/resources/${resource.resource_id}`)).body;
      const eventsBefore = await countEvents(app.api);
      const refusals: [Record<string, unknown>, string][] = [
        [{ admin_owner_id: other.owner_id }, 'resources.0.admin_owner_id'],
        [{ require_mfa_to_approve: false }, 'resources.0.require_mfa_to_approve'],
        [{ max_duration: 60 }, 'resources.0.max_duration'],
        [{ is_requestable: false }, 'resources.0.is_requestable'],
        [{ require_mfa_to_connect: true }, 'resources.0.require_mfa_to_connect'],
        [{ custom_request_notification: 'hi' }, 'resources.0.custom_request_notification'],
        [{ request_configurations: [{ allow_requests: true, auto_approval: true, require_mfa_to_request: false, require_support_ticket: false, priority: 0 }] },
          'resources.0.request_configurations'],
      ];
      for (const [change, field] of refusals) {
        const res = await app.api.put('/resources', { resources: [{ resource_id: resource.resource_id, name: 'renamed', ...change }] });
        assert.equal(res.status, 409, `${field}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.details[0].path, field);
      }
      const visibility = await app.api.put(`/resources/${resource.resource_id}/visibility`, { visibility: 'LIMITED' });
      assert.equal(visibility.status, 409);
      assert.equal(visibility.body.details[0].path, 'visibility');
      assert.deepEqual((await app.api.get(`/resources/${resource.resource_id}`)).body, before);
      assert.equal(await countEvents(app.api), eventsBefore);

      // The same values (a whole object read back and sent again) and untemplated fields are fine.
      const { resource_id, name: _name, admin_owner_id, require_mfa_to_approve, max_duration, request_configurations, description } = before;
      const same = await app.api.put('/resources', { resources: [{ resource_id, name: 'renamed', description, admin_owner_id, require_mfa_to_approve, max_duration, request_configurations, require_manager_approval: true }] });
      assert.equal(same.status, 200, JSON.stringify(same.body));
      assert.equal(same.body.resources[0].name, 'renamed');
      assert.equal(same.body.resources[0].require_manager_approval, true, 'not a templated setting');
      assert.equal((await app.api.put(`/resources/${resource.resource_id}/visibility`, { visibility: 'GLOBAL' })).status, 200, 'the template\'s own visibility');

      // Unlinking keeps the values; then they may change.
      const unlinked = await app.api.put('/resources', { resources: [{ resource_id, configuration_template_id: null }] });
      assert.equal(unlinked.status, 200);
      assert.equal('configuration_template_id' in unlinked.body.resources[0], false);
      assert.equal(unlinked.body.resources[0].require_mfa_to_approve, true);
      const changed = await app.api.put('/resources', { resources: [{ resource_id, require_mfa_to_approve: false, admin_owner_id: other.owner_id }] });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.equal(changed.body.resources[0].admin_owner_id, other.owner_id);
    });

    it("while linked, refuses (409) other on-call schedules on PUT /groups/{id}/on-call-schedules, accepts the template's own; unlinked, they may change", async () => {
      const { template, schedule } = await fullTemplate();
      const other = await record('/on-call-schedules', 'PAGER_DUTY');
      const group = (await app.api.post('/groups', { name: unique('g'), group_type: 'OPAL_GROUP', app_id: appId, configuration_template_id: template.configuration_template_id })).body;
      const route = `/groups/${group.group_id}/on-call-schedules`;
      const linked = async () => (await app.api.get(route)).body.on_call_schedules.map((s: { on_call_schedule_id: string }) => s.on_call_schedule_id);
      const eventsBefore = await countEvents(app.api);
      for (const ids of [[other.on_call_schedule_id], [schedule.on_call_schedule_id, other.on_call_schedule_id], []]) {
        const res = await app.api.put(route, { on_call_schedule_ids: ids });
        assert.equal(res.status, 409, `${JSON.stringify(ids)}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(res.body.details, [{ path: 'on_call_schedule_ids', message: `is set by configuration template ${template.configuration_template_id}` }]);
        assert.match(res.body.message, /^the on-call schedules of group .* are set by configuration template .*; change the template, or unlink the group first$/);
      }
      assert.deepEqual(await linked(), [schedule.on_call_schedule_id]);
      assert.equal(await countEvents(app.api), eventsBefore, 'a refusal records nothing');
      // What the client read, sent back (in any case), is the template's own list: accepted, and changes nothing.
      const same = await app.api.put(route, { on_call_schedule_ids: [schedule.on_call_schedule_id!.toUpperCase()] });
      assert.equal(same.status, 200, JSON.stringify(same.body));
      assert.deepEqual(same.body, [schedule.on_call_schedule_id]);
      // Unlinked, the group keeps the schedules, and they are its own to change.
      assert.equal((await app.api.put('/groups', { groups: [{ group_id: group.group_id, configuration_template_id: null }] })).status, 200);
      assert.deepEqual(await linked(), [schedule.on_call_schedule_id]);
      const changed = await app.api.put(route, { on_call_schedule_ids: [other.on_call_schedule_id] });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.deepEqual(await linked(), [other.on_call_schedule_id]);
    });

    it('records what linking gives a new item as its owners do: the creation, then its visibility, channels and schedules', async () => {
      const { template, visibilityGroup, channel, schedule } = await fullTemplate();
      const id = template.configuration_template_id;
      for (const kind of ['resource', 'group'] as const) {
        const before = await countEvents(app.api);
        const body = kind === 'resource'
          ? { name: unique('r'), resource_type: 'CUSTOM', app_id: appId, configuration_template_id: id }
          : { name: unique('g'), group_type: 'OPAL_GROUP', app_id: appId, configuration_template_id: id };
        const res = await app.api.post(`/${kind}s`, body);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const itemId = res.body[`${kind}_id`];
        const recorded = (await readEvents(app.api)).slice(0, (await countEvents(app.api)) - before).reverse();
        const KIND = kind.toUpperCase();
        assert.deepEqual(recorded.map((e) => e.event_type), [
          `${KIND}S_CREATED`, `${KIND}_VISIBILITY_UPDATED`, `${KIND}_MESSAGE_CHANNELS_UPDATED`, ...(kind === 'group' ? ['GROUP_ON_CALL_SCHEDULES_UPDATED'] : []),
        ], kind);
        assert.equal(recorded[0]!.sub_events[0]!.configuration_template_id, id);
        assert.deepEqual(recorded[1]!.sub_events, [
          { sub_event_type: `${KIND}_VISIBILITY_UPDATED`, [`${kind}_id`]: itemId, visibility: 'LIMITED', visibility_group_ids: visibilityGroup.group_id },
        ]);
        assert.deepEqual(recorded[2]!.sub_events.map((sub) => [sub.sub_event_type, sub.message_channel_id ?? sub.count]), [
          [`${KIND}_MESSAGE_CHANNELS_UPDATED`, 1], [`${KIND}_MESSAGE_CHANNELS_ADDED`, channel.message_channel_id],
        ]);
        if (kind === 'group') {
          assert.deepEqual(recorded[3]!.sub_events.map((sub) => [sub.sub_event_type, sub.on_call_schedule_id ?? sub.count]), [
            ['GROUP_ON_CALL_SCHEDULES_UPDATED', 1], ['GROUP_ON_CALL_SCHEDULES_ADDED', schedule.on_call_schedule_id],
          ]);
        }
        // Linking again changes nothing the template gives, so only the item's own update is recorded.
        const again = await app.api.put(`/${kind}s`, { [`${kind}s`]: [{ [`${kind}_id`]: itemId, configuration_template_id: id }] });
        assert.equal(again.status, 200, JSON.stringify(again.body));
        assert.deepEqual((await readEvents(app.api)).slice(0, 1).map((e) => e.event_type), [`${KIND}S_UPDATED`]);
        assert.equal(await countEvents(app.api), before + recorded.length + 1);
      }
    });

    it('hands a template change on to every linked item, recording each owner\'s events, leaves unlinked ones alone, and refuses deleting it while linked', async () => {
      const template = await createTemplate();
      const id = template.configuration_template_id;
      const [r1, r2] = [
        (await app.api.post('/resources', { name: unique('r'), resource_type: 'CUSTOM', app_id: appId, configuration_template_id: id })).body,
        (await app.api.post('/resources', { name: unique('r'), resource_type: 'CUSTOM', app_id: appId, configuration_template_id: id })).body,
      ];
      const group = (await app.api.post('/groups', { name: unique('g'), group_type: 'OPAL_GROUP', app_id: appId, configuration_template_id: id })).body;
      const bystander = await createResource(app.api, { app_id: appId });
      const bystanderBefore = (await app.api.get(`/resources/${bystander.resource_id}`)).body;
      const newOwner = await createOwner(app.api);
      const visibilityGroup = await createGroup(app.api, { app_id: appId });

      const eventsBeforeChange = await countEvents(app.api);
      const res = await app.api.put('/configuration-templates', {
        configuration_template_id: id, admin_owner_id: newOwner.owner_id, require_mfa_to_approve: true,
        visibility: { visibility: 'LIMITED', visibility_group_ids: [visibilityGroup.group_id] },
        request_configuration_list: { request_configurations: [
          { allow_requests: false, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false, max_duration_minutes: 30, priority: 0 },
        ] },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      for (const [kind, itemId] of [['resources', r1.resource_id], ['resources', r2.resource_id], ['groups', group.group_id]] as const) {
        const item = (await app.api.get(`/${kind}/${itemId}`)).body;
        assert.equal(item.admin_owner_id, newOwner.owner_id, `${kind} ${itemId}`);
        assert.equal(item.require_mfa_to_approve, true);
        assert.equal(item.is_requestable, false);
        assert.equal(item.max_duration, 30);
        assert.deepEqual(item.request_configurations, res.body.request_configurations);
        assert.deepEqual((await app.api.get(`/${kind}/${itemId}/visibility`)).body, { visibility: 'LIMITED', visibility_group_ids: [visibilityGroup.group_id] });
      }
      assert.deepEqual((await app.api.get(`/resources/${bystander.resource_id}`)).body, bystanderBefore);

      // The template's event, then each owner's, as a direct change records them: one RESOURCES_UPDATED and
      // one GROUPS_UPDATED (a sub-event per linked item), and the visibility each item's owner records.
      const recorded = (await readEvents(app.api)).slice(0, (await countEvents(app.api)) - eventsBeforeChange).reverse();
      const item = (s: Record<string, unknown>) => s.resource_id ?? s.group_id ?? s.configuration_template_id;
      assert.deepEqual(recorded.map((e) => [e.event_type, e.sub_events.map((s) => [s.sub_event_type, item(s)])]), [
        ['CONFIGURATION_TEMPLATES_UPDATED', [['CONFIGURATION_TEMPLATES_UPDATED', id]]],
        ['RESOURCES_UPDATED', [['RESOURCES_UPDATED', r1.resource_id], ['RESOURCES_UPDATED', r2.resource_id]]],
        ['RESOURCE_VISIBILITY_UPDATED', [['RESOURCE_VISIBILITY_UPDATED', r1.resource_id]]],
        ['RESOURCE_VISIBILITY_UPDATED', [['RESOURCE_VISIBILITY_UPDATED', r2.resource_id]]],
        ['GROUPS_UPDATED', [['GROUPS_UPDATED', group.group_id]]],
        ['GROUP_VISIBILITY_UPDATED', [['GROUP_VISIBILITY_UPDATED', group.group_id]]],
      ]);
      for (const sub of recorded[1]!.sub_events.concat(recorded[4]!.sub_events)) {
        assert.equal(sub.configuration_template_id, id);
        assert.equal(sub.updated_fields, 'configuration_template');
      }
      assert.equal(recorded[2]!.sub_events[0]!.visibility, 'LIMITED');
      assert.equal(recorded[2]!.sub_events[0]!.visibility_group_ids, visibilityGroup.group_id);

      const eventsBefore = await countEvents(app.api);
      const refused = await app.api.delete(`/configuration-templates/${id}`);
      assert.equal(refused.status, 409);
      assert.equal(refused.body.details[0].path, 'configuration_template_id');
      assert.match(refused.body.message, /2 resources and 1 group/);
      assert.equal(await countEvents(app.api), eventsBefore);
      for (const r of [r1, r2]) assert.equal((await app.api.put('/resources', { resources: [{ resource_id: r.resource_id, configuration_template_id: null }] })).status, 200);
      assert.equal((await app.api.put('/groups', { groups: [{ group_id: group.group_id, configuration_template_id: null }] })).status, 200);
      assert.equal((await app.api.delete(`/configuration-templates/${id}`)).status, 200);
      assert.equal((await app.api.get(`/groups/${group.group_id}`)).body.admin_owner_id, newOwner.owner_id, 'unlinked items keep the values');
    });
  });
});
