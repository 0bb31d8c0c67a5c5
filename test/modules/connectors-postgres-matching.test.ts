// Whose PostgreSQL role is whose (issue 36.3, 41.8), against a real throw-away cluster: never by name — a
// person whose email's local part names a service role gets nothing of it, and a drift-REMOVE sync leaves
// the service alone; a reused email starts unmatched, the role made for its former holder untouched; an
// admin links a person's login role, and may not link a role with privileges Gatehouse never grants nor
// the role Gatehouse signs in as, which is never listed as an unmatched account either.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tick as runOutbox } from '../../src/outbox/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createOwner, createUser } from '../helpers/fixtures.ts';
import { findPostgres, sqlOn, startPostgres, type PostgresServer } from '../helpers/postgres-server.ts';

const found = findPostgres();

describe('PostgreSQL roles are matched to people only by a rule an admin chose', { skip: 'reason' in found ? found.reason : false }, () => {
  let app: TestApp;
  let server: PostgresServer;
  let appId: string;
  let resourceId: string;

  const sql = (text: string, params: unknown[] = []): Promise<any[]> => sqlOn(server, text, params);
  const rolesOf = async (member: string) => (await sql(
    `SELECT g.rolname FROM pg_auth_members am JOIN pg_roles g ON g.oid = am.roleid JOIN pg_roles m ON m.oid = am.member WHERE m.rolname = $1 ORDER BY 1`, [member],
  )).map((r) => r.rolname as string);
  const statusOf = async (userId: string, level: string) =>
    ((await app.api.get(`/resources/${resourceId}/users`)).body.results as { user_id: string; access_level: { access_level_remote_id: string }; propagation_status: { status: string } | null }[])
      .find((r) => r.user_id === userId && r.access_level.access_level_remote_id === level)?.propagation_status?.status;
  const grant = async (userId: string, level: string) => {
    const res = await app.api.post(`/resources/${resourceId}/users/${userId}`, { access_level_remote_id: level, duration_minutes: 0 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await runOutbox(app.ctx, app.clock.now());
  };
  const link = (remoteUserId: string, userId: string | null) => app.api.put(`/apps/${appId}/connector/user-links`, { remote_user_id: remoteUserId, user_id: userId });

  before(async () => {
    server = await startPostgres((found as { bin: string }).bin);
    await sql('CREATE ROLE payments_rw NOLOGIN');
    await sql('CREATE ROLE reporting_ro NOLOGIN');
    // The production service's login role, holding what Gatehouse never granted, owning its table.
    await sql('CREATE ROLE app LOGIN');
    await sql('GRANT payments_rw TO app');
    await sql('CREATE TABLE payments (id int)');
    await sql('ALTER TABLE payments OWNER TO app');
    await sql('CREATE ROLE erin_pg LOGIN');
    await sql('CREATE ROLE ops_admin LOGIN CREATEROLE');
    // The role Gatehouse signs in as: CREATEROLE, not a superuser.
    await sql('CREATE ROLE gatehouse_connector LOGIN CREATEROLE');
    await sql('GRANT payments_rw, reporting_ro TO gatehouse_connector WITH ADMIN OPTION');
    app = await startTestApp({ env: { GATEHOUSE_POSTGRES_CREATE_ROLES: 'nologin' } });
    const owner = await createOwner(app.api);
    appId = (await createApp(app.api, { app_type: 'POSTGRES', admin_owner_id: owner.owner_id })).app_id;
    const url = new URL(server.url);
    url.username = 'gatehouse_connector';
    assert.equal((await app.api.put(`/apps/${appId}/connector`, { connection_url: url.href, timeout_ms: 60_000, drift_policy: 'REMOVE' })).status, 200);
    const sync = (await app.api.post(`/apps/${appId}/connector/sync`)).body;
    assert.equal(sync.ok, true, JSON.stringify(sync));
    resourceId = ((await app.api.get('/resources', { app_id: appId })).body.results as { resource_id: string }[])[0]!.resource_id;
  });
  after(async () => {
    await app?.close();
    server?.destroy();
  });

  it('a person whose email starts "app@" gets no grant on the service role app, and a REMOVE sync leaves app alone', async () => {
    const outsider = await createUser(app.api, { email: 'app@outside.test' });
    await grant(outsider.user_id, 'reporting_ro');
    assert.deepEqual(await rolesOf('app'), ['payments_rw'], 'nothing granted to the service role');
    // The role Gatehouse made for the person is named by the whole email, marked with their user id.
    assert.deepEqual(await rolesOf('app@outside.test'), ['reporting_ro']);
    const [mark] = await sql(`SELECT shobj_description(oid, 'pg_authid') AS c FROM pg_roles WHERE rolname = 'app@outside.test'`);
    assert.equal(mark!.c, `Created by Gatehouse for user ${outsider.user_id} (app@outside.test)`);
    const sync = (await app.api.post(`/apps/${appId}/connector/sync`)).body;
    assert.equal(sync.ok, true, JSON.stringify(sync));
    await runOutbox(app.ctx, app.clock.now());
    assert.deepEqual(await rolesOf('app'), ['payments_rw'], 'drift REMOVE did not touch the service role');
    assert.deepEqual(await rolesOf('app@outside.test'), ['reporting_ro']);
  });

  it('a reused email starts unmatched: the role made for its former holder is neither given nor dropped', async () => {
    const oldCarol = await createUser(app.api, { email: 'carol@ex.com' });
    await grant(oldCarol.user_id, 'reporting_ro');
    assert.deepEqual(await rolesOf('carol@ex.com'), ['reporting_ro']);
    // The first Carol's address moves on; a new person gets carol@ex.com.
    assert.equal((await app.api.put(`/users/${oldCarol.user_id}`, { email: 'carol.first@ex.com' })).status, 200);
    const newCarol = await createUser(app.api, { email: 'carol@ex.com' });
    await grant(newCarol.user_id, 'payments_rw');
    assert.equal(await statusOf(newCarol.user_id, 'payments_rw'), 'ERR_REMOTE_USER_NOT_LINKED');
    assert.deepEqual(await rolesOf('carol@ex.com'), ['reporting_ro'], 'the new Carol got nothing of the old one\'s role');
    // The new Carol leaves: the role Gatehouse made for the first one stays, with her access.
    assert.equal((await app.api.put(`/users/${newCarol.user_id}`, { hr_idp_status: 'DELETED' })).status, 200);
    for (let pass = 0; pass < 5; pass++) {
      await runOutbox(app.ctx, app.clock.now());
      app.clock.advance(2_000);
    }
    assert.deepEqual(await rolesOf('carol@ex.com'), ['reporting_ro']);
    assert.equal(await statusOf(oldCarol.user_id, 'reporting_ro'), 'SUCCESS');
  });

  it('an admin links a person\'s login role; never one with privileges Gatehouse does not grant, nor its own', async () => {
    const erin = await createUser(app.api, { email: 'erin@example.com' });
    for (const [role, words] of [['app', /owns tables/], ['ops_admin', /privileges Gatehouse does not grant \(CREATEROLE\)/], ['gatehouse_connector', /no remote user the connector's syncs have read/], ['payments_rw', /no remote user/]] as const) {
      const refused = await link(role, erin.user_id);
      assert.equal(refused.status, 400, `${role}: ${JSON.stringify(refused.body)}`);
      assert.equal(refused.body.details[0].path, 'remote_user_id');
      assert.match(refused.body.details[0].message, words);
    }
    const linked = await link('erin_pg', erin.user_id);
    assert.equal(linked.status, 200, JSON.stringify(linked.body));
    assert.deepEqual(linked.body, { remote_user_id: 'erin_pg', email: '', user_id: erin.user_id });
    await grant(erin.user_id, 'reporting_ro');
    assert.deepEqual(await rolesOf('erin_pg'), ['reporting_ro']);
    // A sync keeps the admin's link.
    assert.equal((await app.api.post(`/apps/${appId}/connector/sync`)).body.ok, true);
    assert.equal(await statusOf(erin.user_id, 'reporting_ro'), 'SUCCESS');
  });

  it('the role Gatehouse signs in as is not listed as an account that matches nobody', async () => {
    const unmatched = (await app.api.get(`/apps/${appId}/connector/unmatched-users`)).body.results.map((u: { remote_user_id: string }) => u.remote_user_id);
    assert.ok(unmatched.includes('app'), JSON.stringify(unmatched));
    assert.ok(!unmatched.includes('gatehouse_connector'), JSON.stringify(unmatched));
    assert.ok(!unmatched.includes('erin_pg'), 'linked: not unmatched');
  });
});
