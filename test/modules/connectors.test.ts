// Connectors through HTTP against a loopback Opal connector: configuration, signed calls, pushes of
// every edge kind, truthful statuses under faults, expiry, retries by hand, sync and drift.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tick as runOutbox } from '../../src/outbox/index.ts';
import { tick as sweep } from '../../src/modules/access/sweep.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createMember, createOwner, createUser, unique } from '../helpers/fixtures.ts';
import { OpalConnector } from '../helpers/opal-connector.ts';
import { expectFired } from '../helpers/fired.ts';

const SECRET = 'connector-signing-secret-0123456789';
/** The connector's timeout: long enough for the stand-in on a loaded machine; only a 'slow' fault outlasts it. */
const TIMEOUT_MS = 3_000;

describe('connectors (Opal protocol)', () => {
  let app: TestApp;
  let remote: OpalConnector;
  let appId: string;
  let alice: { user_id: string; email: string };
  let bob: { user_id: string; email: string };
  let resourceId: string;
  let groupId: string;
  let group2Id: string;

  const outbox = () => runOutbox(app.ctx, app.clock.now());
  const events = async (type: string) => (await app.api.get('/events', { event_type_filter: type, page_size: 1000 })).body.results as { sub_events: Record<string, unknown>[] }[];
  const statusOnResource = async (userId: string) => {
    const list = await app.api.get(`/resources/${resourceId}/users`);
    return (list.body.results as { user_id: string; propagation_status: { status: string } | null }[]).find((r) => r.user_id === userId)?.propagation_status;
  };

  before(async () => {
    app = await startTestApp();
    remote = await new OpalConnector(SECRET).start();
    alice = await createUser(app.api);
    bob = await createUser(app.api);
    remote.users.set('u-alice', alice.email.toUpperCase());
    remote.users.set('u-bob', bob.email);
    remote.users.set('u-stranger', 'nobody@elsewhere.example');
    remote.resources.set('r-db', { name: 'Database', levels: [{ id: 'read', name: 'Read' }, { id: 'write', name: 'Write' }], users: new Map() });
    remote.groups.set('g-eng', { name: 'Engineering', users: new Set(), resources: new Set(), memberGroups: new Set() });
    remote.groups.set('g-all', { name: 'Everyone', users: new Set(), resources: new Set(), memberGroups: new Set() });
    appId = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
  });
  after(async () => {
    await app.close();
    await remote.stop();
  });

  it('lists the connector types as their adapters declare them: app and resource type, fields, which are secrets', async () => {
    const res = await app.api.get('/connector-types');
    assert.equal(res.status, 200);
    const byType: Record<string, any> = Object.fromEntries((res.body.results as { connector_type: string }[]).map((kind) => [kind.connector_type, kind]));
    assert.deepEqual(byType.OPAL_HTTP, {
      connector_type: 'OPAL_HTTP', name: 'Opal connector protocol', app_type: 'CUSTOM_CONNECTOR', resource_type: 'CUSTOM_CONNECTOR',
      edge_kinds: ['resource_user', 'group_user', 'group_resource', 'group_group'],
      configuration: [
        { name: 'url', title: 'Connector URL', description: byType.OPAL_HTTP.configuration[0].description, required: true, secret: 'url' },
        { name: 'signing_secret', title: 'Signing secret', description: byType.OPAL_HTTP.configuration[1].description, required: true, secret: 'secret' },
      ],
    });
    assert.deepEqual(byType.POSTGRES.configuration.map((f: { name: string; secret: string }) => [f.name, f.secret]), [['connection_url', 'url']]);
    assert.equal(byType.POSTGRES.resource_type, 'POSTGRES_INSTANCE');
  });

  it('refuses a connector for an app of another type, or without its fields, and records nothing', async () => {
    const other = await createApp(app.api);
    const wrongType = await app.api.put(`/apps/${other.app_id}/connector`, { url: remote.url, signing_secret: SECRET });
    assert.equal(wrongType.status, 400);
    assert.equal(wrongType.body.details[0].path, 'app_id');
    const noUrl = await app.api.put(`/apps/${appId}/connector`, { signing_secret: SECRET });
    assert.equal(noUrl.body.details[0].path, 'url');
    const badTimeout = await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: SECRET, timeout_ms: 5 });
    assert.equal(badTimeout.body.details[0].path, 'timeout_ms');
    assert.equal((await app.api.get(`/apps/${appId}/connector`)).status, 404);
    assert.equal((await events('CONNECTORS_UPDATED')).length, 0);
  });

  it('sets a connector, shows it with the secret masked, and keeps the secret when the mask is sent back', async () => {
    const put = await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: SECRET, timeout_ms: TIMEOUT_MS });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.connector_type, 'OPAL_HTTP');
    assert.notEqual(put.body.signing_secret, SECRET);
    assert.ok(!JSON.stringify(put.body).includes(SECRET));
    const again = await app.api.put(`/apps/${appId}/connector`, { ...put.body, drift_policy: 'REPORT' });
    assert.equal(again.status, 200);
    assert.equal(app.ctx.stores.connectors.get(appId)!.configuration.signing_secret, SECRET);
    const recorded = await events('CONNECTORS_UPDATED');
    assert.equal(recorded.length, 2);
    assert.ok(!JSON.stringify(recorded).includes(SECRET));
  });

  it('tests the connector through its signed /status', async () => {
    const res = await app.api.post(`/apps/${appId}/connector/test`);
    assert.deepEqual(res.body, { ok: true, status: 'SUCCESS', error: null });
    assert.ok(remote.calls.some((c) => c.path === '/status' && c.appId === appId && c.signed));
    remote.faultReads = true;
    remote.faults.push('error');
    const failed = await app.api.post(`/apps/${appId}/connector/test`);
    remote.faultReads = false;
    assert.equal(failed.body.ok, false);
    assert.equal(failed.body.status, 'ERR_REMOTE_INTERNAL_ERROR');
  });

  it('syncs: creates items with their remote ids and levels, links users by email, lists the unmatched', async () => {
    const res = await app.api.post(`/apps/${appId}/connector/sync`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.ok, true);
    assert.equal(res.body.users, 3);
    assert.equal(res.body.users_matched, 2);
    assert.equal(res.body.users_unmatched, 1);
    assert.deepEqual((await app.api.get(`/apps/${appId}/connector/unmatched-users`)).body.results, [{ remote_user_id: 'u-stranger', email: 'nobody@elsewhere.example' }]);
    assert.equal((await app.api.get(`/apps/${appId}/connector`)).body.unmatched_remote_users_count, 1);
    assert.equal(res.body.resources_created, 1);
    assert.equal(res.body.groups_created, 2);
    const resources = (await app.api.get('/resources', { page_size: 1000 })).body.results as { resource_id: string; app_id: string; remote_resource_id: string | null; name: string }[];
    const db = resources.find((r) => r.app_id === appId)!;
    assert.equal(db.remote_resource_id, 'r-db');
    resourceId = db.resource_id;
    const levels = (await app.api.get(`/resources/${resourceId}`)).body.access_levels as { access_level_remote_id: string }[];
    assert.deepEqual(levels.map((l) => l.access_level_remote_id).sort(), ['', 'read', 'write']);
    const groups = (await app.api.get('/groups', { page_size: 1000 })).body.results as { group_id: string; app_id: string; remote_id?: string; name: string }[];
    groupId = groups.find((g) => g.app_id === appId && g.name === 'Engineering')!.group_id;
    group2Id = groups.find((g) => g.app_id === appId && g.name === 'Everyone')!.group_id;
    // What a sync creates is not requestable until an admin opens it, and then for a day at most, reviewed.
    for (const item of [(await app.api.get(`/resources/${resourceId}`)).body, (await app.api.get(`/groups/${groupId}`)).body]) {
      assert.deepEqual([item.is_requestable, item.auto_approval, item.max_duration], [false, false, 1440], JSON.stringify(item));
    }
    const member = await createMember(app.api);
    const asked = await member.api.post('/requests', { resources: [{ id: resourceId, access_level_remote_id: 'read' }], groups: [], reason: 'please', duration_minutes: 60 });
    assert.notEqual(asked.status, 200, 'an imported item is not requestable by default');
    // Every call the sync made was signed and carried the app id.
    assert.equal(remote.badSignatures, 0);
    assert.ok(remote.calls.every((c) => c.appId === appId));
    // A second sync finds the same items.
    const second = await app.api.post(`/apps/${appId}/connector/sync`);
    assert.equal(second.body.ok, true, JSON.stringify(second.body));
    assert.equal(second.body.resources_created, 0);
    assert.equal(second.body.resources_updated, 1);
  });

  it('pushes a grant: PENDING at once (the answer never waits), SUCCESS once the connector answered', async () => {
    // The grant queues one push and announces nothing.
    const grant = await expectFired(app, { outbox: { 'connector.push': 1 } },
      () => app.api.post(`/resources/${resourceId}/users/${alice.user_id}`, { access_level_remote_id: 'read', duration_minutes: 60 }));
    assert.equal(grant.status, 200, JSON.stringify(grant.body));
    assert.deepEqual(await statusOnResource(alice.user_id), { status: 'PENDING' });
    assert.deepEqual(remote.edges(), []);
    const pending = await app.api.get('/propagations', { app_id: appId });
    assert.equal(pending.body.results.length, 1);
    assert.equal(pending.body.results[0].status, 'PENDING');
    await outbox();
    assert.deepEqual(remote.edges(), ['resource_user:u-alice:r-db:read']);
    assert.deepEqual(await statusOnResource(alice.user_id), { status: 'SUCCESS' });
    assert.equal((await app.api.get('/propagations', { app_id: appId })).body.results.length, 0);
    assert.equal((await events('PROPAGATIONS_SUCCEEDED')).length, 1);
  });

  it('ends access remotely at expiry, within a sweep and an outbox pass', async () => {
    app.clock.advance(61 * 60_000);
    sweep(app.ctx, app.clock.now());
    await outbox();
    assert.deepEqual(remote.edges(), []);
  });

  it('pushes group memberships, a group\'s resources and nesting, and their ends', async () => {
    for (const res of [
      await app.api.post(`/groups/${groupId}/users/${bob.user_id}`, { duration_minutes: 0 }),
      await app.api.post(`/groups/${groupId}/resources/${resourceId}`, { access_level_remote_id: 'write' }),
      await app.api.post(`/groups/${groupId}/containing-groups`, { containing_group_id: group2Id }),
    ]) assert.ok(res.status === 200 || res.status === 204, JSON.stringify(res.body));
    await outbox();
    assert.deepEqual(remote.edges(), ['group_group:g-eng:g-all:', 'group_resource:g-eng:r-db:write', 'group_user:u-bob:g-eng:']);
    const members = (await app.api.get(`/groups/${groupId}/users`)).body.results as { propagation_status: unknown }[];
    assert.deepEqual(members.map((m) => m.propagation_status), [{ status: 'SUCCESS' }]);
    for (const res of [
      await app.api.delete(`/groups/${groupId}/resources/${resourceId}?access_level_remote_id=write`),
      await app.api.delete(`/groups/${groupId}/containing-groups/${group2Id}`),
    ]) assert.ok(res.status === 200 || res.status === 204, JSON.stringify(res.body));
    await outbox();
    assert.deepEqual(remote.edges(), ['group_user:u-bob:g-eng:']);
    assert.equal(remote.badSignatures, 0);
  });

  it('throttled: ERR_REMOTE_THROTTLE, retried after Retry-After and back-off, then SUCCESS without anyone acting', async () => {
    remote.faults.push('throttle');
    await app.api.post(`/resources/${resourceId}/users/${bob.user_id}`, { access_level_remote_id: 'read', duration_minutes: 0 });
    await outbox();
    assert.deepEqual(await statusOnResource(bob.user_id), { status: 'ERR_REMOTE_THROTTLE' });
    const listed = (await app.api.get('/propagations', { app_id: appId })).body.results[0];
    assert.equal(listed.status, 'ERR_REMOTE_THROTTLE');
    assert.ok(Date.parse(listed.next_attempt_at) >= app.clock.now().getTime() + 3_000, 'Retry-After is a floor');
    await outbox();
    assert.deepEqual(await statusOnResource(bob.user_id), { status: 'ERR_REMOTE_THROTTLE' }, 'not retried before its time');
    app.clock.advance(3_000);
    await outbox();
    assert.deepEqual(await statusOnResource(bob.user_id), { status: 'SUCCESS' });
    assert.ok(remote.edges().includes('resource_user:u-bob:r-db:read'));
  });

  it('maps 500, 404, garbage answers and timeouts to their statuses', async () => {
    const cases: [string, string][] = [['error', 'ERR_REMOTE_INTERNAL_ERROR'], ['not_found', 'ERR_REMOTE_RESOURCE_NOT_FOUND'], ['bad_request', 'ERR_REMOTE_UNRECOVERABLE_ERROR'], ['slow', 'ERR_TIMEOUT']];
    // A slow answer never comes within the timeout (it ends when Gatehouse hangs up), however busy the machine.
    remote.slowMs = 10 * TIMEOUT_MS;
    for (const [fault, status] of cases) {
      const user = await createUser(app.api);
      remote.users.set(`u-${user.user_id}`, user.email);
      remote.faults.push(fault as 'error');
      await app.api.post(`/resources/${resourceId}/users/${user.user_id}`, { duration_minutes: 0 });
      await outbox();
      assert.deepEqual(await statusOnResource(user.user_id), { status }, fault);
      app.clock.advance(10 * 60_000);
      await outbox();
      assert.deepEqual(await statusOnResource(user.user_id), { status: 'SUCCESS' }, `${fault} then healthy`);
    }
    // A 200 whose body is not JSON still did the write (2xx): SUCCESS. Garbage on a read fails the sync instead.
    remote.faultReads = true;
    remote.faults.push('garbage');
    const sync = await app.api.post(`/apps/${appId}/connector/sync`);
    remote.faultReads = false;
    assert.equal(sync.body.ok, false);
    const errors = ((await app.api.get('/sync_errors', { app_id: appId })).body[0]?.sync_errors ?? []) as { error_message: string }[];
    assert.ok(errors.some((e) => e.error_message.includes('/users')), JSON.stringify(errors));
  });

  it('an unknown remote user is ERR_REMOTE_USER_NOT_FOUND until the connector lists them', async () => {
    const carol = await createUser(app.api);
    await app.api.post(`/resources/${resourceId}/users/${carol.user_id}`, { duration_minutes: 0 });
    await outbox();
    assert.deepEqual(await statusOnResource(carol.user_id), { status: 'ERR_REMOTE_USER_NOT_FOUND' });
    remote.users.set('u-carol', carol.email);
    app.clock.advance(10 * 60_000);
    await outbox();
    assert.deepEqual(await statusOnResource(carol.user_id), { status: 'SUCCESS' });
  });

  it('a long outage: FAILED after the deadline (evented, listed), retried by hand, then SUCCESS', async () => {
    remote.outage = 'error';
    const dave = await createUser(app.api);
    remote.users.set('u-dave', dave.email);
    await app.api.post(`/resources/${resourceId}/users/${dave.user_id}`, { duration_minutes: 0 });
    for (let i = 0; i < 60 && (await app.api.get('/propagations', { app_id: appId })).body.results.every((p: { state: string }) => p.state !== 'FAILED'); i++) {
      await outbox();
      app.clock.advance(4 * 3_600_000);
    }
    const failed = (await app.api.get('/propagations', { app_id: appId })).body.results[0];
    assert.equal(failed.state, 'FAILED');
    assert.equal(failed.status, 'ERR_REMOTE_INTERNAL_ERROR');
    assert.equal(failed.next_attempt_at, null);
    assert.equal((await events('PROPAGATIONS_FAILED')).length, 1);
    remote.outage = null;
    const retry = await app.api.post(`/apps/${appId}/connector/retry`);
    assert.deepEqual(retry.body, { requeued: 1 });
    await outbox();
    assert.deepEqual(await statusOnResource(dave.user_id), { status: 'SUCCESS' });
    assert.deepEqual((await app.api.post(`/apps/${appId}/connector/retry`)).body, { requeued: 0 });
  });

  it('offboarding removes everything the user held remotely', async () => {
    assert.ok(remote.edges().some((e) => e.includes('u-bob')));
    assert.equal((await app.api.put(`/users/${bob.user_id}`, { hr_idp_status: 'DEPROVISIONED' })).status, 200);
    await outbox();
    assert.deepEqual(remote.edges().filter((e) => e.includes('u-bob')), []);
  });

  it('drift: REPORT lists it in /sync_errors; IMPORT adds it with status null; REMOVE removes it remotely; missing access is pushed again', async () => {
    const erin = await createUser(app.api);
    remote.users.set('u-erin', erin.email);
    remote.resources.get('r-db')!.users.set('u-erin', new Set(['write']));
    const report = await app.api.post(`/apps/${appId}/connector/sync`);
    assert.equal(report.body.drift_found, 1);
    const errors = ((await app.api.get('/sync_errors', { app_id: appId })).body[0]?.sync_errors ?? []) as { error_message: string }[];
    assert.ok(errors.some((e) => e.error_message.includes('remotely but not in Gatehouse')));

    await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: SECRET, timeout_ms: TIMEOUT_MS, drift_policy: 'IMPORT' });
    const imported = await app.api.post(`/apps/${appId}/connector/sync`);
    assert.equal(imported.body.drift_imported, 1);
    assert.equal(await statusOnResource(erin.user_id), null);
    await outbox();
    assert.ok(remote.edges().includes('resource_user:u-erin:r-db:write'), 'an import pushes nothing back');

    // Gone remotely behind our back: pushed again.
    remote.resources.get('r-db')!.users.delete('u-erin');
    const again = await app.api.post(`/apps/${appId}/connector/sync`);
    assert.equal(again.body.pushed_again, 1);
    await outbox();
    assert.ok(remote.edges().includes('resource_user:u-erin:r-db:write'));

    await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: SECRET, timeout_ms: TIMEOUT_MS, drift_policy: 'REMOVE' });
    remote.resources.get('r-db')!.users.set('u-alice', new Set(['write']));
    const removed = await app.api.post(`/apps/${appId}/connector/sync`);
    assert.equal(removed.body.drift_removed, 1);
    await outbox();
    assert.ok(!remote.edges().includes('resource_user:u-alice:r-db:write'));
    assert.equal(remote.badSignatures, 0);
  });

  it('deleting a group removes its edges remotely', async () => {
    const group = await app.api.post('/groups', { name: unique('g'), group_type: 'OPAL_GROUP', app_id: appId, remote_group_id: 'g-temp' });
    remote.groups.set('g-temp', { name: 'temp', users: new Set(), resources: new Set(), memberGroups: new Set() });
    await app.api.post(`/groups/${group.body.group_id}/users/${alice.user_id}`, { duration_minutes: 0 });
    await outbox();
    assert.ok(remote.edges().includes('group_user:u-alice:g-temp:'));
    assert.equal((await app.api.delete(`/groups/${group.body.group_id}`)).status, 200);
    await outbox();
    assert.ok(!remote.edges().includes('group_user:u-alice:g-temp:'));
  });

  it('items of apps without a connector say SUCCESS, as before', async () => {
    const owner = await createOwner(app.api);
    const plain = await createApp(app.api, { admin_owner_id: owner.owner_id });
    const res = await app.api.post('/resources', { name: unique('r'), resource_type: 'CUSTOM', app_id: plain.app_id });
    await app.api.post(`/resources/${res.body.resource_id}/users/${alice.user_id}`, { duration_minutes: 0 });
    const list = await app.api.get(`/resources/${res.body.resource_id}/users`);
    assert.deepEqual(list.body.results[0].propagation_status, { status: 'SUCCESS' });
  });

  it('is for admins: a member may not read or set connectors', async () => {
    const { createMember } = await import('../helpers/fixtures.ts');
    const member = await createMember(app.api);
    assert.equal((await member.api.get(`/apps/${appId}/connector`)).status, 403);
    assert.equal((await member.api.get('/propagations')).status, 403);
    assert.equal((await member.api.post(`/apps/${appId}/connector/sync`)).status, 403);
  });
});
