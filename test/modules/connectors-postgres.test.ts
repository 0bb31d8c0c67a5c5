// The built-in PostgreSQL connector against a real throw-away PostgreSQL cluster: sync imports roles
// as access levels, an approved request becomes a role membership, expiry revokes it, an outage is an
// ERR_… status and recovery SUCCESS without anyone acting.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tick as runOutbox } from '../../src/outbox/index.ts';
import { tick as sweep } from '../../src/modules/access/sweep.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createMember, createOwner, createUser, type Signed } from '../helpers/fixtures.ts';
import { config, makeRequest } from '../helpers/requests.ts';
import { findPostgres, sqlOn, startPostgres, type PostgresServer } from '../helpers/postgres-server.ts';

const found = findPostgres();

describe('connectors: PostgreSQL', { skip: 'reason' in found ? found.reason : false }, () => {
  let app: TestApp;
  let server: PostgresServer;
  let appId: string;
  let resourceId: string;
  let alice: Signed;

  const sql = (text: string, params: unknown[] = []): Promise<any[]> => sqlOn(server, text, params);
  const memberships = async () =>
    (await sql(`SELECT g.rolname AS role, m.rolname AS member FROM pg_auth_members am JOIN pg_roles g ON g.oid = am.roleid
                JOIN pg_roles m ON m.oid = am.member WHERE m.rolname LIKE 'alicepg%' OR m.rolname LIKE 'pgbob%' ORDER BY 1, 2`))
      .map((r) => `${r.role}:${r.member}`);
  const statusOf = async (userId: string) =>
    ((await app.api.get(`/resources/${resourceId}/users`)).body.results as { user_id: string; access_level: { access_level_remote_id: string }; propagation_status: unknown }[])
      .filter((r) => r.user_id === userId).map((r) => [r.access_level.access_level_remote_id, r.propagation_status]);

  before(async () => {
    server = await startPostgres((found as { bin: string }).bin);
    await sql('CREATE ROLE app_read NOLOGIN');
    await sql('CREATE ROLE app_write NOLOGIN');
    await sql('CREATE ROLE alicepg LOGIN');
    app = await startTestApp();
    alice = await createMember(app.api, { email: 'alicepg@example.com' });
    const owner = await createOwner(app.api);
    appId = (await createApp(app.api, { app_type: 'POSTGRES', admin_owner_id: owner.owner_id })).app_id;
  });
  after(async () => {
    await app?.close();
    server?.destroy();
  });

  it('sets the connector with the password masked, and tests it', async () => {
    const put = await app.api.put(`/apps/${appId}/connector`, { connection_url: server.url, timeout_ms: 3_000 });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.connector_type, 'POSTGRES');
    assert.ok(!put.body.connection_url.includes('not-checked-under-trust'));
    assert.deepEqual((await app.api.post(`/apps/${appId}/connector/test`)).body, { ok: true, status: 'SUCCESS', error: null });
  });

  it('sync creates the POSTGRES_INSTANCE resource whose access levels are the grantable roles', async () => {
    const res = await app.api.post(`/apps/${appId}/connector/sync`);
    assert.equal(res.body.ok, true, JSON.stringify(res.body));
    assert.equal(res.body.resources_created, 1);
    const resources = (await app.api.get('/resources', { page_size: 1000 })).body.results as { resource_id: string; app_id: string; resource_type: string }[];
    const instance = resources.find((r) => r.app_id === appId)!;
    assert.equal(instance.resource_type, 'POSTGRES_INSTANCE');
    resourceId = instance.resource_id;
    const levels = (await app.api.get(`/resources/${resourceId}`)).body.access_levels.map((l: { access_level_remote_id: string }) => l.access_level_remote_id);
    assert.deepEqual(levels.sort(), ['', 'app_read', 'app_write']);
    // Alice's login role is hers because an admin says so (never by its name).
    const link = await app.api.put(`/apps/${appId}/connector/user-links`, { remote_user_id: 'alicepg', user_id: alice.user.user_id });
    assert.equal(link.status, 200, JSON.stringify(link.body));
  });

  it('an approved request becomes a membership in pg_auth_members; its expiry revokes it', async () => {
    const put = await app.api.put('/resources', { resources: [{ resource_id: resourceId, request_configurations: [config({ auto_approval: true })] }] });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    await makeRequest(alice.api, { resources: [{ id: resourceId, access_level_remote_id: 'app_read' }], duration_minutes: 60 });
    assert.deepEqual(await statusOf(alice.user.user_id), [['app_read', { status: 'PENDING' }]]);
    await runOutbox(app.ctx, app.clock.now());
    assert.deepEqual(await memberships(), ['app_read:alicepg']);
    assert.deepEqual(await statusOf(alice.user.user_id), [['app_read', { status: 'SUCCESS' }]]);
    app.clock.advance(61 * 60_000);
    sweep(app.ctx, app.clock.now());
    await runOutbox(app.ctx, app.clock.now());
    assert.deepEqual(await memberships(), []);
  });

  it('a user without a linked role is ERR_REMOTE_USER_NOT_LINKED, until an admin links one', async () => {
    const bob = await createUser(app.api, { email: 'pgbob@example.com' });
    await app.api.post(`/resources/${resourceId}/users/${bob.user_id}`, { access_level_remote_id: 'app_write', duration_minutes: 0 });
    await runOutbox(app.ctx, app.clock.now());
    assert.deepEqual(await statusOf(bob.user_id), [['app_write', { status: 'ERR_REMOTE_USER_NOT_LINKED' }]]);
    await sql('CREATE ROLE pgbob LOGIN');
    assert.equal((await app.api.post(`/apps/${appId}/connector/sync`)).body.ok, true);
    // The push waits out its back-off (at most 5 minutes) unless the link brings it forward.
    app.clock.advance(60_000);
    await runOutbox(app.ctx, app.clock.now());
    assert.deepEqual(await statusOf(bob.user_id), [['app_write', { status: 'ERR_REMOTE_USER_NOT_LINKED' }]]);
    assert.equal((await app.api.put(`/apps/${appId}/connector/user-links`, { remote_user_id: 'pgbob', user_id: bob.user_id })).status, 200);
    const waiting = (await app.api.get('/propagations', { app_id: appId })).body.results.filter((p: { principal_id: string }) => p.principal_id === bob.user_id);
    assert.deepEqual(waiting.map((p: { next_attempt_at: string | null }) => p.next_attempt_at), [app.clock.now().toISOString()], 'due at the link');
    // The same instant: no clock moved, the next tick carries it.
    await runOutbox(app.ctx, app.clock.now());
    assert.deepEqual(await statusOf(bob.user_id), [['app_write', { status: 'SUCCESS' }]]);
    assert.deepEqual(await memberships(), ['app_write:pgbob']);
  });

  it('server stopped: an ERR_… status; server back: SUCCESS without anyone acting', async () => {
    server.stop();
    await app.api.post(`/resources/${resourceId}/users/${alice.user.user_id}`, { access_level_remote_id: 'app_write', duration_minutes: 0 });
    await runOutbox(app.ctx, app.clock.now());
    const rows = await statusOf(alice.user.user_id);
    assert.deepEqual(rows, [['app_write', { status: 'ERR_REMOTE_INTERNAL_ERROR' }]]);
    server.start();
    app.clock.advance(10 * 60_000);
    await runOutbox(app.ctx, app.clock.now());
    assert.deepEqual(await statusOf(alice.user.user_id), [['app_write', { status: 'SUCCESS' }]]);
    assert.deepEqual(await memberships(), ['app_write:alicepg', 'app_write:pgbob']);
  });

  it('a sync imports memberships granted outside Gatehouse as drift (IMPORT: status null)', async () => {
    await app.api.put(`/apps/${appId}/connector`, { connection_url: server.url, timeout_ms: 3_000, drift_policy: 'IMPORT' });
    await sql('GRANT app_read TO pgbob');
    const res = await app.api.post(`/apps/${appId}/connector/sync`);
    assert.equal(res.body.drift_imported, 1, JSON.stringify(res.body));
    const bob = (await app.api.get('/users', { page_size: 1000 })).body.results.find((u: { email: string }) => u.email === 'pgbob@example.com');
    assert.deepEqual((await statusOf(bob.user_id)).sort(), [['app_read', null], ['app_write', { status: 'SUCCESS' }]]);
  });
});
