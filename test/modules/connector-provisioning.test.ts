// Connectors create the people they grant to and remove them when they leave: an Opal connector stand-in
// that starts with no users (POST /users, DELETE /users/{id}, as the connector spec's generated servers
// have them), one that does not create users (today's answer), and the real PostgreSQL cluster with
// GATEHOUSE_POSTGRES_CREATE_ROLES. Offboarding goes through SCIM, end to end.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tick as runOutbox } from '../../src/outbox/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { cli } from '../helpers/cli.ts';
import { readEvents } from '../helpers/events.ts';
import { createApp, createOwner, createUser } from '../helpers/fixtures.ts';
import { OpalConnector } from '../helpers/opal-connector.ts';
import { findPostgres, sqlOn, startPostgres, type PostgresServer } from '../helpers/postgres-server.ts';
import { ScimClient } from '../helpers/scim-client.ts';

const SECRET = 'connector-signing-secret-0123456789';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const deactivate = { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: false } }] };

/** A SCIM client for `app` with a fresh SCIM token of its admin. */
async function scimFor(app: TestApp): Promise<ScimClient> {
  const made = await cli(['token', 'create', '--db', app.dbFile, '--email', 'admin@gatehouse.local', '--label', 'idp', '--scim']);
  assert.equal(made.code, 0, made.stderr);
  return new ScimClient(app.url.replace(/\/v1$/, ''), made.stdout.trim());
}

/** Runs the outbox until it has nothing due (a deprovision waits for the memberships before it). */
async function drain(app: TestApp): Promise<void> {
  for (let pass = 0; pass < 10; pass++) {
    await runOutbox(app.ctx, app.clock.now());
    app.clock.advance(2_000);
  }
}

describe('connectors create the people they grant to (Opal protocol)', () => {
  let app: TestApp;
  let remote: OpalConnector;
  let scim: ScimClient;
  let appId: string;
  let resourceId: string;

  before(async () => {
    app = await startTestApp();
    remote = await new OpalConnector(SECRET).start();
    remote.createsUsers = true;
    remote.resources.set('r-wiki', { name: 'Wiki', levels: [], users: new Map() });
    remote.users.set('u-found', 'found@example.com');
    appId = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
    assert.equal((await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: SECRET })).status, 200);
    assert.equal((await app.api.post(`/apps/${appId}/connector/sync`)).status, 200);
    const resources = (await app.api.get('/resources', { page_size: 1000 })).body.results as { resource_id: string; app_id: string }[];
    resourceId = resources.find((r) => r.app_id === appId)!.resource_id;
    scim = await scimFor(app);
  });
  after(async () => {
    await app.close();
    await remote.stop();
  });

  it('creates a person the connector does not know, on their first grant, then grants', async () => {
    const person = await createUser(app.api, { email: 'new.hire@example.com', full_name: 'New Hire', position: 'Engineer' });
    assert.equal((await app.api.post(`/resources/${resourceId}/users/${person.user_id}`, { duration_minutes: 0 })).status, 200);
    await runOutbox(app.ctx, app.clock.now());
    assert.equal(remote.created.length, 1);
    assert.deepEqual(remote.created[0], { user_id: person.user_id, attributes: { email: 'new.hire@example.com', first_name: 'New', last_name: 'Hire', title: 'Engineer' } });
    assert.deepEqual(remote.edges(), ['resource_user:made-1:r-wiki:']);
    const [event] = await readEvents(app.api, { type: 'CONNECTOR_USERS_CREATED' });
    assert.deepEqual([event!.sub_events[0]!.user_id, event!.sub_events[0]!.remote_user_id], [person.user_id, 'made-1']);
    // A second grant finds them: nobody is created twice.
    assert.equal((await app.api.delete(`/resources/${resourceId}/users/${person.user_id}`)).status, 200);
    assert.equal((await app.api.post(`/resources/${resourceId}/users/${person.user_id}`, { duration_minutes: 0 })).status, 200);
    await runOutbox(app.ctx, app.clock.now());
    assert.equal(remote.created.length, 1);
  });

  it('offboarding through SCIM removes the memberships first, then the account Gatehouse made', async () => {
    const person = (await scim.get('/Users', { filter: 'userName eq "new.hire@example.com"' })).body.Resources[0];
    const callsBefore = remote.calls.length;
    assert.equal((await scim.patch(`/Users/${person.id}`, deactivate)).status, 200);
    await drain(app);
    const writes = remote.calls.slice(callsBefore).filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`);
    assert.deepEqual(writes, ['DELETE /resources/r-wiki/users/made-1', 'DELETE /users/made-1']);
    assert.equal(remote.users.has('made-1'), false);
    assert.equal((await readEvents(app.api, { type: 'CONNECTOR_USERS_DELETED' })).length, 1);
  });

  it('leaves alone an account it only matched by email, while ending its access', async () => {
    const found = await createUser(app.api, { email: 'found@example.com' });
    assert.equal((await app.api.post(`/resources/${resourceId}/users/${found.user_id}`, { duration_minutes: 0 })).status, 200);
    await runOutbox(app.ctx, app.clock.now());
    assert.ok(remote.edges().includes('resource_user:u-found:r-wiki:'));
    assert.equal((await scim.patch(`/Users/${found.user_id}`, deactivate)).status, 200);
    await drain(app);
    assert.ok(!remote.edges().includes('resource_user:u-found:r-wiki:'), 'access ended remotely');
    assert.ok(remote.users.has('u-found'), 'the account it did not make is kept');
  });

  it('keeps today\'s answer for a connector that does not create users', async () => {
    remote.createsUsers = false;
    const person = await createUser(app.api, { email: 'nobody.there@example.com' });
    assert.equal((await app.api.post(`/resources/${resourceId}/users/${person.user_id}`, { duration_minutes: 0 })).status, 200);
    await runOutbox(app.ctx, app.clock.now());
    const holders = (await app.api.get(`/resources/${resourceId}/users`)).body.results as { user_id: string; propagation_status: { status: string } }[];
    assert.equal(holders.find((h) => h.user_id === person.user_id)!.propagation_status.status, 'ERR_REMOTE_USER_NOT_FOUND');
  });
});

const postgres = findPostgres();

describe('the PostgreSQL connector creates a role for a person, and drops it when they leave', { skip: 'reason' in postgres ? postgres.reason : false }, () => {
  let app: TestApp;
  let server: PostgresServer;
  let scim: ScimClient;
  let appId: string;
  let resourceId: string;

  const sql = (text: string, params: unknown[] = []): Promise<any[]> => sqlOn(server, text, params);
  const roleOf = async (name: string) => (await sql('SELECT rolname, rolcanlogin, rolpassword IS NULL AS no_password FROM pg_authid WHERE rolname = $1', [name]))[0];

  before(async () => {
    server = await startPostgres((postgres as { bin: string }).bin);
    await sql('CREATE ROLE reporting NOLOGIN');
    await sql('CREATE ROLE old_timer LOGIN');
    app = await startTestApp({ env: { GATEHOUSE_POSTGRES_CREATE_ROLES: 'login' } });
    const owner = await createOwner(app.api);
    appId = (await createApp(app.api, { app_type: 'POSTGRES', admin_owner_id: owner.owner_id })).app_id;
    assert.equal((await app.api.put(`/apps/${appId}/connector`, { connection_url: server.url, timeout_ms: 60_000 })).status, 200);
    assert.equal((await app.api.post(`/apps/${appId}/connector/sync`)).body.ok, true);
    const resources = (await app.api.get('/resources', { page_size: 1000 })).body.results as { resource_id: string; app_id: string }[];
    resourceId = resources.find((r) => r.app_id === appId)!.resource_id;
    scim = await scimFor(app);
  });
  after(async () => {
    await app?.close();
    server?.destroy();
  });

  it('creates a LOGIN role named by the email, without a password, marked as Gatehouse\'s, and grants it', async () => {
    const person = await createUser(app.api, { email: 'ada@pg.example' });
    assert.equal((await app.api.post(`/resources/${resourceId}/users/${person.user_id}`, { access_level_remote_id: 'reporting', duration_minutes: 0 })).status, 200);
    await runOutbox(app.ctx, app.clock.now());
    assert.deepEqual(await roleOf('ada@pg.example'), { rolname: 'ada@pg.example', rolcanlogin: true, no_password: true });
    const comment = (await sql("SELECT shobj_description(oid, 'pg_authid') AS c FROM pg_roles WHERE rolname = 'ada@pg.example'"))[0].c;
    assert.equal(comment, `Created by Gatehouse for user ${person.user_id} (ada@pg.example)`);
    const members = await sql(`SELECT g.rolname AS role FROM pg_auth_members am JOIN pg_roles g ON g.oid = am.roleid JOIN pg_roles m ON m.oid = am.member WHERE m.rolname = 'ada@pg.example'`);
    assert.deepEqual(members.map((r) => r.role), ['reporting']);
    // A sync does not take the person's role for a grantable level.
    await app.api.post(`/apps/${appId}/connector/sync`);
    const levels = (await app.api.get(`/resources/${resourceId}`)).body.access_levels.map((l: { access_level_remote_id: string }) => l.access_level_remote_id);
    assert.deepEqual(levels.sort(), ['', 'reporting']);
  });

  it('revokes, then drops the role it made when the person is offboarded; a role it did not make stays', async () => {
    const ada = (await scim.get('/Users', { filter: 'userName eq "ada@pg.example"' })).body.Resources[0];
    assert.equal((await scim.patch(`/Users/${ada.id}`, deactivate)).status, 200);
    await drain(app);
    assert.equal(await roleOf('ada@pg.example'), undefined, 'the role Gatehouse made is dropped');

    const old = await createUser(app.api, { email: 'old_timer@elsewhere.example' });
    assert.equal((await app.api.post(`/resources/${resourceId}/users/${old.user_id}`, { access_level_remote_id: 'reporting', duration_minutes: 0 })).status, 200);
    await runOutbox(app.ctx, app.clock.now());
    assert.equal((await scim.patch(`/Users/${old.user_id}`, deactivate)).status, 200);
    await drain(app);
    assert.ok(await roleOf('old_timer'), 'a login role it found is never dropped');
    const left = await sql(`SELECT 1 FROM pg_auth_members am JOIN pg_roles m ON m.oid = am.member WHERE m.rolname = 'old_timer'`);
    assert.equal(left.length, 0, 'but its membership ended');
  });
});
