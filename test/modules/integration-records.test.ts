// Records for integrations Gatehouse does not run, through HTTP: message channels, their resource and group
// links (and groups' links to on-call schedules, added through an Opsgenie stand-in: test/modules/on-call.test.ts
// tests the schedules themselves), scoped role permissions, sync errors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createBundle, createGroup, createResource, createUser, NO_SUCH_ID } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';
import { countEvents, readEvents } from '../helpers/events.ts';
import { OPSGENIE_KEY, OpsgenieStandIn } from '../helpers/on-call-stand-ins.ts';

let remoteCounter = 0;
const remoteId = () => `R${process.pid}X${++remoteCounter}`;

describe('integration records', () => {
  let app: TestApp;
  let appId: string;
  let opsgenie: OpsgenieStandIn;
  before(async () => {
    opsgenie = await OpsgenieStandIn.start(() => new Date());
    app = await startTestApp({ env: { GATEHOUSE_OPSGENIE_API_KEY: OPSGENIE_KEY, GATEHOUSE_OPSGENIE_API_URL: opsgenie.url } });
    appId = (await createApp(app.api)).app_id;
  });
  after(async () => {
    await app.close();
    await opsgenie.close();
  });


  const RECORDS = [
    { path: '/message-channels', idField: 'message_channel_id', listKey: 'channels', provider: 'SLACK', event: 'MESSAGE_CHANNELS_CREATED' },
  ] as const;

  const record = async (path: string, body: Record<string, unknown> = {}) => {
    const provider = path === '/message-channels' ? 'SLACK' : 'OPSGENIE';
    const remote = remoteId();
    if (provider === 'OPSGENIE') opsgenie.addSchedule(`Schedule ${remote}`, remote);
    const res = await app.api.post(path, { third_party_provider: provider, remote_id: remote, ...body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as Record<string, string>;
  };

  for (const kind of RECORDS) {
    describe(`${kind.path}`, () => {
      it('records one with its name, reads it back exactly by id and in the list, and records the event', async () => {
        const remote = remoteId();
        const extra = kind.path === '/message-channels' ? { is_private: true } : {};
        const res = await app.api.post(kind.path, { third_party_provider: kind.provider, remote_id: remote, name: 'api-team audit', ...extra });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const id = res.body[kind.idField];
        assert.deepEqual(res.body, { [kind.idField]: id, third_party_provider: kind.provider, remote_id: remote, name: 'api-team audit', ...extra });
        assert.deepEqual((await app.api.get(`${kind.path}/${id}`)).body, res.body);
        assert.deepEqual((await app.api.get(`${kind.path}/${id.toUpperCase()}`)).body, res.body);
        const list = (await app.api.get(kind.path)).body[kind.listKey];
        assert.deepEqual(list.at(-1), res.body, 'newest last');
        const [event] = await readEvents(app.api, { object: id, type: kind.event });
        assert.ok(event);
        assert.equal(event.sub_events[0]!.remote_id, remote);

        const bare = await record(kind.path, { is_private: false });
        assert.deepEqual(Object.keys(bare).sort(), [kind.idField, 'remote_id', 'third_party_provider', ...(kind.path === '/message-channels' ? ['is_private'] : [])].sort());
      });

      it('400s naming bad fields, 409s naming remote_id on a second record of the same object, recording nothing', async () => {
        const taken = await record(kind.path);
        const before = await countEvents(app.api, { type: kind.event });
        const cases: [unknown, number, string[]][] = [
          [{}, 400, ['remote_id', 'third_party_provider']],
          [{ third_party_provider: 'TEAMS', remote_id: 'x' }, 400, ['third_party_provider']],
          [{ third_party_provider: kind.provider, remote_id: '  ' }, 400, ['remote_id']],
          [{ third_party_provider: kind.provider, remote_id: 7 }, 400, ['remote_id']],
          [{ third_party_provider: kind.provider, remote_id: 'x', name: '' }, 400, ['name']],
          [{ third_party_provider: taken.third_party_provider, remote_id: taken.remote_id }, 409, ['remote_id']],
        ];
        if (kind.path === '/message-channels') cases.push([{ third_party_provider: 'SLACK', remote_id: 'x', is_private: 'no' }, 400, ['is_private']]);
        for (const [body, status, expected] of cases) {
          const res = await app.api.post(kind.path, body);
          assert.equal(res.status, status, JSON.stringify(body));
          assert.deepEqual(errorPaths(res.body), expected, JSON.stringify(body));
        }
        assert.equal(await countEvents(app.api, { type: kind.event }), before);
        assert.equal((await app.api.get(`${kind.path}/${NO_SUCH_ID}`)).status, 404);
        assert.deepEqual(errorPaths((await app.api.get(`${kind.path}/nope`)).body), [kind.idField]);
      });
    });
  }

  const LINKS = [
    { owner: 'resources', records: '/message-channels', field: 'message_channel_ids', idField: 'message_channel_id', listKey: 'channels', event: 'RESOURCE_MESSAGE_CHANNELS_UPDATED', ownerPath: 'resource_id' },
    { owner: 'groups', records: '/message-channels', field: 'message_channel_ids', idField: 'message_channel_id', listKey: 'channels', event: 'GROUP_MESSAGE_CHANNELS_UPDATED', ownerPath: 'group_id' },
    { owner: 'groups', records: '/on-call-schedules', field: 'on_call_schedule_ids', idField: 'on_call_schedule_id', listKey: 'on_call_schedules', event: 'GROUP_ON_CALL_SCHEDULES_UPDATED', ownerPath: 'group_id' },
  ] as const;

  for (const link of LINKS) {
    describe(`/${link.owner}/{id}${link.records}`, () => {
      const owner = async () =>
        link.owner === 'resources' ? (await createResource(app.api, { app_id: appId })).resource_id : (await createGroup(app.api, { app_id: appId })).group_id;
      const route = (id: string) => `/${link.owner}/${id}${link.records}`;
      const idsOf = (list: Record<string, string>[]) => list.map((r) => r[link.idField]);

      it('sets the list in order, answers the ids, reads the records back, and records who joined and left', async () => {
        const id = await owner();
        assert.deepEqual((await app.api.get(route(id))).body, { [link.listKey]: [] });
        const [a, b, c] = [await record(link.records), await record(link.records), await record(link.records)];
        const ida = a[link.idField]!, idb = b[link.idField]!, idc = c[link.idField]!;
        const first = await app.api.put(route(id), { [link.field]: [idb, ida.toUpperCase()] });
        assert.equal(first.status, 200, JSON.stringify(first.body));
        assert.deepEqual(first.body, [idb, ida]);
        assert.deepEqual((await app.api.get(route(id))).body, { [link.listKey]: [b, a] });

        const second = await app.api.put(route(id), { [link.field]: [ida, idc] });
        assert.deepEqual(second.body, [ida, idc]);
        assert.deepEqual(idsOf((await app.api.get(route(id))).body[link.listKey]), [ida, idc]);
        const [latest] = await readEvents(app.api, { object: id, type: link.event });
        assert.ok(latest);
        const base = link.event.replace(/_UPDATED$/, '');
        assert.deepEqual(latest.sub_events.map((s) => `${s.sub_event_type}:${s[link.idField] ?? s.count}`), [
          `${link.event}:2`, `${base}_ADDED:${idc}`, `${base}_REMOVED:${idb}`,
        ]);
        assert.deepEqual((await app.api.put(route(id), { [link.field]: [] })).body, []);
        assert.deepEqual((await app.api.get(route(id))).body, { [link.listKey]: [] });
      });

      it('is all or nothing: bad or unknown ids are named and change and record nothing', async () => {
        const id = await owner();
        const kept = (await record(link.records))[link.idField]!;
        await app.api.put(route(id), { [link.field]: [kept] });
        const before = await countEvents(app.api, { type: link.event });
        const cases: [string, unknown, number, string[]][] = [
          [route(id), {}, 400, [link.field]],
          // Required by the reference (…IDList): null is no list, refused as an absent field is, never read as "unlink all".
          [route(id), { [link.field]: null }, 400, [link.field]],
          [route(id), { [link.field]: 'all' }, 400, [link.field]],
          [route(id), { [link.field]: [kept, 'nope'] }, 400, [`${link.field}.1`]],
          [route(id), { [link.field]: [kept, kept.toUpperCase()] }, 400, [`${link.field}.1`]],
          [route(id), { [link.field]: [kept, NO_SUCH_ID] }, 404, [`${link.field}.1`]],
          [route(NO_SUCH_ID), { [link.field]: [kept] }, 404, [link.ownerPath]],
          [route('nope'), { [link.field]: [kept] }, 400, [link.ownerPath]],
        ];
        for (const [path, body, status, expected] of cases) {
          const res = await app.api.put(path, body);
          assert.equal(res.status, status, `${path} ${JSON.stringify(body)}`);
          assert.deepEqual(errorPaths(res.body), expected, `${path} ${JSON.stringify(body)}`);
        }
        assert.deepEqual(idsOf((await app.api.get(route(id))).body[link.listKey]), [kept]);
        assert.equal(await countEvents(app.api, { type: link.event }), before);
        assert.equal((await app.api.get(route(NO_SUCH_ID))).status, 404);
      });
    });
  }

  describe('/resources/{resource_id}/scoped-role-permissions', () => {
    const scopedRole = async () => (await createResource(app.api, { app_id: appId, resource_type: 'OPAL_SCOPED_ROLE' })).resource_id;
    const route = (id: string) => `/resources/${id}/scoped-role-permissions`;

    it('replaces the permissions and reads them back exactly, in order, with the event', async () => {
      const role = await scopedRole();
      assert.deepEqual((await app.api.get(route(role))).body, { permissions: [] });
      const target = await createResource(app.api, { app_id: appId });
      const user = await createUser(app.api);
      const bundle = await createBundle(app.api);
      const review = await app.api.post('/uar', {
        name: 'Scoped role review', reviewer_assignment_policy: 'MANUALLY', send_reviewer_assignment_notification: false,
        deadline: new Date(app.clock.now().getTime() + 7 * 86_400_000).toISOString(), time_zone: 'UTC', self_review_allowed: false,
        uar_scope: { entities: [target.resource_id] },
      });
      assert.equal(review.status, 200, JSON.stringify(review.body));
      const permissions = [
        { target_ids: [target.resource_id], target_type: 'RESOURCE', permission_name: 'READ', allow_all: false },
        { target_type: 'USER', permission_name: 'REQUEST_ON_BEHALF', allow_all: true },
        { target_ids: [], target_type: 'CONNECTION', permission_name: 'SYNC', allow_all: false },
        { target_ids: [bundle.bundle_id], target_type: 'BUNDLE', permission_name: 'EDIT_SETTINGS', allow_all: false },
        { target_ids: [user.user_id], target_type: 'USER', permission_name: 'RESET_MFA', allow_all: false },
        { target_ids: [appId], target_type: 'CONNECTION', permission_name: 'READ', allow_all: false },
        { target_ids: [review.body.uar_id], target_type: 'ACCESS_REVIEW', permission_name: 'ASSIGN_UAR_REVIEWERS', allow_all: false },
      ];
      const res = await app.api.put(route(role), { permissions });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { permissions });
      assert.deepEqual((await app.api.get(route(role))).body, { permissions });
      const [event] = await readEvents(app.api, { object: role, type: 'SCOPED_ROLE_PERMISSIONS_UPDATED' });
      assert.ok(event);
      assert.equal(event.sub_events[0]!.permission_count, permissions.length);

      assert.deepEqual((await app.api.put(route(role), { permissions: [] })).body, { permissions: [] });
    });

    it('only OPAL_SCOPED_ROLE resources have them; bad permissions are named and change nothing', async () => {
      const role = await scopedRole();
      const kept = [{ target_type: 'GROUP', permission_name: 'READ', allow_all: true }];
      await app.api.put(route(role), { permissions: kept });
      const custom = (await createResource(app.api, { app_id: appId })).resource_id;
      const before = await countEvents(app.api, { type: 'SCOPED_ROLE_PERMISSIONS_UPDATED' });
      const p = (over: Record<string, unknown>) => ({ target_type: 'RESOURCE', permission_name: 'READ', allow_all: false, ...over });
      const cases: [string, unknown, number, string[]][] = [
        [route(role), {}, 400, ['permissions']],
        [route(role), { permissions: [p({ target_type: 'TEAM' })] }, 400, ['permissions.0.target_type']],
        [route(role), { permissions: [p({ permission_name: 'FLY' })] }, 400, ['permissions.0.permission_name']],
        [route(role), { permissions: [p({ allow_all: undefined })] }, 400, ['permissions.0.allow_all']],
        [route(role), { permissions: [p({ target_ids: ['x'] })] }, 400, ['permissions.0.target_ids.0']],
        [route(role), { permissions: [p({}), p({ target_ids: [] })] }, 400, ['permissions.1.permission_name']],
        [route(role), { permissions: [p({ allow_all: true, target_ids: [custom] })] }, 400, ['permissions.0.target_ids']],
        [route(role), { permissions: [p({ target_ids: [custom, custom.toUpperCase()] })] }, 400, ['permissions.0.target_ids.1']],
        [route(role), { permissions: [p({ target_ids: [custom] }), p({ target_type: 'GROUP', target_ids: [custom] })] }, 404, ['permissions.1.target_ids.0']],
        [route(role), { permissions: [p({ target_type: 'ACCESS_REVIEW', permission_name: 'ASSIGN_UAR_REVIEWERS', target_ids: [NO_SUCH_ID] })] }, 404, ['permissions.0.target_ids.0']],
        [route(custom), { permissions: [] }, 400, ['resource_id']],
        [route(NO_SUCH_ID), { permissions: [] }, 404, ['resource_id']],
      ];
      for (const [path, body, status, expected] of cases) {
        const res = await app.api.put(path, body);
        assert.equal(res.status, status, `${path} ${JSON.stringify(body)}`);
        assert.deepEqual(errorPaths(res.body), expected, `${path} ${JSON.stringify(body)}`);
      }
      assert.deepEqual((await app.api.get(route(role))).body, { permissions: kept });
      assert.equal(await countEvents(app.api, { type: 'SCOPED_ROLE_PERMISSIONS_UPDATED' }), before);
      const wrongType = await app.api.get(route(custom));
      assert.equal(wrongType.status, 400);
      assert.match(wrongType.body.message, /OPAL_SCOPED_ROLE/);
    });
  });

  describe('GET /sync_errors', () => {
    it('answers an empty list (no sync has run) once the filters check out', async () => {
      const resource = await createResource(app.api, { app_id: appId });
      const group = await createGroup(app.api, { app_id: appId });
      assert.deepEqual((await app.api.get('/sync_errors')).body, []);
      assert.deepEqual((await app.api.get('/sync_errors', { app_id: appId, resource_id: resource.resource_id, group_id: group.group_id })).body, []);
      const cases: [Record<string, string | string[]>, number, string[]][] = [
        [{ app_id: 'x' }, 400, ['app_id']],
        [{ resource_id: [resource.resource_id, resource.resource_id] }, 400, ['resource_id']],
        [{ group_id: NO_SUCH_ID }, 404, ['group_id']],
        [{ app_id: NO_SUCH_ID }, 404, ['app_id']],
        [{ resource_id: NO_SUCH_ID }, 404, ['resource_id']],
      ];
      for (const [query, status, expected] of cases) {
        const res = await app.api.get('/sync_errors', query);
        assert.equal(res.status, status, JSON.stringify(query));
        assert.deepEqual(errorPaths(res.body), expected, JSON.stringify(query));
      }
    });
  });
});
