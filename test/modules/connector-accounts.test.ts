// What a connector says about accounts is checked, and accounts it loses come back (issues 36.2, 37.3,
// 37.9), against the Opal connector stand-in: a POST /users answer naming someone else's account is
// refused and that account is never deleted; a connector that forgets its accounts (a restart of one that
// keeps them in memory) is healed by the next push or sync; a timeout while reading its users is ERR_TIMEOUT.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tick as runOutbox } from '../../src/outbox/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createUser } from '../helpers/fixtures.ts';
import { OpalConnector } from '../helpers/opal-connector.ts';

const SECRET = 'connector-accounts-secret-0123456789';

/** Runs the outbox until it has nothing due (a deprovision waits for the memberships before it). */
async function drain(app: TestApp): Promise<void> {
  for (let pass = 0; pass < 10; pass++) {
    await runOutbox(app.ctx, app.clock.now());
    app.clock.advance(2_000);
  }
}

describe('connector accounts: checked, and made again when lost (Opal protocol)', () => {
  let app: TestApp;
  let remote: OpalConnector;
  let appId: string;
  const resourceIds: Record<string, string> = {};

  const grant = async (resource: string, userId: string) => {
    assert.equal((await app.api.post(`/resources/${resourceIds[resource]}/users/${userId}`, { duration_minutes: 0 })).status, 200);
  };
  const statusOf = async (resource: string, userId: string) => {
    const holders = (await app.api.get(`/resources/${resourceIds[resource]}/users`)).body.results as { user_id: string; propagation_status: { status: string } | null }[];
    return holders.find((h) => h.user_id === userId)?.propagation_status?.status;
  };
  const syncErrors = async () => ((await app.api.get('/sync_errors', { app_id: appId })).body as { sync_errors: { error_message: string }[] }[]).flatMap((list) => list.sync_errors.map((e) => e.error_message));

  before(async () => {
    app = await startTestApp();
    remote = await new OpalConnector(SECRET).start();
    remote.createsUsers = true;
    remote.resources.set('r-wiki', { name: 'Wiki', levels: [], users: new Map() });
    remote.resources.set('r-docs', { name: 'Docs', levels: [], users: new Map() });
    remote.users.set('ru-alice', 'alice@example.com');
    remote.users.set('ru-stranger', 'stranger@elsewhere.example');
    appId = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
    assert.equal((await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: SECRET, timeout_ms: 30_000 })).status, 200);
    assert.equal((await app.api.post(`/apps/${appId}/connector/sync`)).body.ok, true);
    for (const r of (await app.api.get('/resources', { app_id: appId })).body.results as { resource_id: string; remote_resource_id: string }[]) {
      resourceIds[r.remote_resource_id] = r.resource_id;
    }
  });
  after(async () => {
    await app.close();
    await remote.stop();
  });

  it('refuses a POST /users answer naming another person\'s account, and never deletes that account', async () => {
    const alice = await createUser(app.api, { email: 'alice@example.com', full_name: 'Alice Able' });
    const bob = await createUser(app.api, { email: 'bob@example.com', full_name: 'Bob Baker' });
    await grant('r-wiki', alice.user_id);
    await runOutbox(app.ctx, app.clock.now());
    assert.ok(remote.edges().includes('resource_user:ru-alice:r-wiki:'));
    // Asked to create Bob, the connector answers Alice's id.
    remote.createAnswer = (email) => (email === 'bob@example.com' ? 'ru-alice' : undefined);
    await grant('r-docs', bob.user_id);
    await runOutbox(app.ctx, app.clock.now());
    assert.equal(remote.created.length, 1, 'Gatehouse asked to create Bob');
    assert.ok(!remote.edges().includes('resource_user:ru-alice:r-docs:'), 'Bob\'s grant did not land on Alice\'s account');
    assert.equal(await statusOf('r-docs', bob.user_id), 'ERR_REMOTE_UNRECOVERABLE_ERROR');
    assert.ok((await syncErrors()).some((e) => e.includes('"ru-alice"') && e.includes('another person') && e.includes('refused')), JSON.stringify(await syncErrors()));
    // Bob leaves: Alice's account is not his to remove, and Alice keeps her access.
    const callsBefore = remote.calls.length;
    assert.equal((await app.api.put(`/users/${bob.user_id}`, { hr_idp_status: 'DELETED' })).status, 200);
    await drain(app);
    const writes = remote.calls.slice(callsBefore).filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`);
    assert.ok(!writes.includes('DELETE /users/ru-alice'), writes.join(', '));
    assert.ok(remote.users.has('ru-alice'));
    assert.ok(remote.edges().includes('resource_user:ru-alice:r-wiki:'));
  });

  it('refuses an answer naming an account it found rather than made (one that matches nobody here)', async () => {
    const carol = await createUser(app.api, { email: 'carol@example.com', full_name: 'Carol Cole' });
    remote.createAnswer = (email) => (email === 'carol@example.com' ? 'ru-stranger' : undefined);
    await grant('r-docs', carol.user_id);
    await runOutbox(app.ctx, app.clock.now());
    assert.ok(!remote.edges().includes('resource_user:ru-stranger:r-docs:'));
    assert.equal(await statusOf('r-docs', carol.user_id), 'ERR_REMOTE_UNRECOVERABLE_ERROR');
    assert.equal((await app.api.put(`/users/${carol.user_id}`, { hr_idp_status: 'DELETED' })).status, 200);
    await drain(app);
    assert.ok(remote.users.has('ru-stranger'), 'an account Gatehouse did not make is never removed');
    remote.createAnswer = null;
  });

  it('a push to an account the connector forgot makes it again and lands at once', async () => {
    const dana = await createUser(app.api, { email: 'dana@example.com', full_name: 'Dana Dale' });
    await grant('r-wiki', dana.user_id);
    await runOutbox(app.ctx, app.clock.now());
    const first = [...remote.users].find(([, email]) => email === 'dana@example.com')![0];
    assert.ok(remote.edges().includes(`resource_user:${first}:r-wiki:`));
    // The connector restarts and has lost every account.
    remote.forget();
    await grant('r-docs', dana.user_id);
    // One pass: "user not found" drops the link, the account is made again, the push retried at once.
    await runOutbox(app.ctx, app.clock.now());
    const again = [...remote.users].find(([, email]) => email === 'dana@example.com')?.[0];
    assert.ok(again !== undefined && again !== first, `made again: ${String(again)}`);
    assert.ok(remote.edges().includes(`resource_user:${again}:r-docs:`), remote.edges().join(', '));
    assert.equal(await statusOf('r-docs', dana.user_id), 'SUCCESS');
  });

  it('heals the same when the connector\'s 404 names nothing ("Entity not found"): the resource is there, so the user is what is missing', async () => {
    const fay = await createUser(app.api, { email: 'fay@example.com', full_name: 'Fay Field' });
    await grant('r-wiki', fay.user_id);
    await runOutbox(app.ctx, app.clock.now());
    const first = [...remote.users].find(([, email]) => email === 'fay@example.com')![0];
    remote.forget();
    remote.genericNotFound = true;
    try {
      await grant('r-docs', fay.user_id);
      await runOutbox(app.ctx, app.clock.now());
      const again = [...remote.users].find(([, email]) => email === 'fay@example.com')?.[0];
      assert.ok(again !== undefined && again !== first, `made again: ${String(again)}`);
      assert.ok(remote.edges().includes(`resource_user:${again}:r-docs:`), remote.edges().join(', '));
      assert.equal(await statusOf('r-docs', fay.user_id), 'SUCCESS');
    } finally {
      remote.genericNotFound = false;
    }
  });

  it('an account that comes back under another id is matched again by email, not made', async () => {
    const erin = await createUser(app.api, { email: 'erin@example.com', full_name: 'Erin East' });
    remote.users.set('e-1', 'erin@example.com');
    await grant('r-wiki', erin.user_id);
    await runOutbox(app.ctx, app.clock.now());
    assert.ok(remote.edges().includes('resource_user:e-1:r-wiki:'));
    remote.forget();
    remote.users.set('e-2', 'erin@example.com');
    const made = remote.created.length;
    await grant('r-docs', erin.user_id);
    await runOutbox(app.ctx, app.clock.now());
    assert.ok(remote.edges().includes('resource_user:e-2:r-docs:'), remote.edges().join(', '));
    assert.equal(remote.created.length, made, 'nobody was created');
  });

  it('a 404 naming both the user and the resource is read by what its words say is missing, else by reading the resource; a lost resource never makes the account again', async () => {
    const hal = await createUser(app.api, { email: 'hal@example.com', full_name: 'Hal Hume' });
    await grant('r-wiki', hal.user_id);
    await runOutbox(app.ctx, app.clock.now());
    const account = [...remote.users].find(([, email]) => email === 'hal@example.com')![0];
    // Resources Gatehouse knows that the connector then loses, one per wording.
    const lost = ['r-lost-1', 'r-lost-2'];
    for (const id of lost) remote.resources.set(id, { name: id, levels: [], users: new Map() });
    assert.equal((await app.api.post(`/apps/${appId}/connector/sync`)).body.ok, true);
    for (const r of (await app.api.get('/resources', { app_id: appId })).body.results as { resource_id: string; remote_resource_id: string }[]) {
      resourceIds[r.remote_resource_id] = r.resource_id;
    }
    for (const id of lost) remote.resources.delete(id);
    const madeForHal = () => remote.created.filter((c) => c.attributes.email === 'hal@example.com').length;
    const made = madeForHal();
    const wordings: [string, (what: string, parts: string[], body: Record<string, unknown>) => string][] = [
      ['names the resource as missing', (what, parts, body) => `${what} ${parts[1]} not found for user ${String(body.user_id)}`],
      ['says nothing of which', (_what, parts, body) => `Entity not found (user ${String(body.user_id)}, resource ${parts[1]})`],
    ];
    for (const [i, [how, wording]] of wordings.entries()) {
      remote.notFoundWording = wording;
      try {
        const callsBefore = remote.calls.length;
        await grant(lost[i]!, hal.user_id);
        await runOutbox(app.ctx, app.clock.now());
        const calls = remote.calls.slice(callsBefore).map((c) => `${c.method} ${c.path}`);
        assert.ok(calls.includes(`POST /resources/${lost[i]}/users`), `${how}: the grant was pushed (${calls.join(', ')})`);
        assert.equal(calls.includes(`GET /resources/${lost[i]}`), i === 1, `${how}: the resource is read only when the words do not say`);
        assert.equal(await statusOf(lost[i]!, hal.user_id), 'ERR_REMOTE_RESOURCE_NOT_FOUND', how);
        assert.equal(madeForHal(), made, `${how}: no account was made again`);
        assert.ok(remote.users.has(account), `${how}: Hal's account is kept`);
      } finally {
        remote.notFoundWording = null;
      }
    }
    // The converse: the words name both and say the user is missing — the account is made again.
    remote.forget();
    remote.notFoundWording = (what, parts, body) => `${what} ${String(body.user_id)} not found on resource ${parts[1]}`;
    try {
      await grant('r-docs', hal.user_id);
      await runOutbox(app.ctx, app.clock.now());
      const again = [...remote.users].find(([, email]) => email === 'hal@example.com')?.[0];
      assert.ok(again !== undefined && again !== account, `made again: ${String(again)}`);
      assert.equal(await statusOf('r-docs', hal.user_id), 'SUCCESS');
    } finally {
      remote.notFoundWording = null;
    }
  });

  it('a full sync drops links to accounts it no longer sees, and the access they carried comes back', async () => {
    const frank = await createUser(app.api, { email: 'frank@example.com', full_name: 'Frank Fox' });
    await grant('r-wiki', frank.user_id);
    await runOutbox(app.ctx, app.clock.now());
    assert.ok([...remote.users.values()].includes('frank@example.com'));
    remote.forget();
    const sync = (await app.api.post(`/apps/${appId}/connector/sync`)).body;
    assert.equal(sync.ok, true, JSON.stringify(sync));
    assert.ok(sync.pushed_again >= 1, JSON.stringify(sync));
    await runOutbox(app.ctx, app.clock.now());
    const frankNow = [...remote.users].find(([, email]) => email === 'frank@example.com')?.[0];
    assert.ok(frankNow !== undefined, 'made again');
    assert.ok(remote.edges().includes(`resource_user:${frankNow}:r-wiki:`), remote.edges().join(', '));
    assert.equal(await statusOf('r-wiki', frank.user_id), 'SUCCESS');
  });
});

describe('connector errors are mapped as docs/connectors.md says, reads before a push too', () => {
  let app: TestApp;
  let remote: OpalConnector;
  let appId: string;
  let resourceId: string;

  before(async () => {
    app = await startTestApp();
    remote = await new OpalConnector(SECRET).start();
    remote.resources.set('r-wiki', { name: 'Wiki', levels: [], users: new Map() });
    appId = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
    assert.equal((await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: SECRET, timeout_ms: 30_000 })).status, 200);
    assert.equal((await app.api.post(`/apps/${appId}/connector/sync`)).body.ok, true);
    resourceId = ((await app.api.get('/resources', { app_id: appId })).body.results as { resource_id: string }[])[0]!.resource_id;
  });
  after(async () => {
    await app.close();
    await remote.stop();
  });

  it('a timeout while reading the connector\'s users before a push is ERR_TIMEOUT', async () => {
    // A short timeout for this case only; the connector answers reads long after it.
    assert.equal((await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: SECRET, timeout_ms: 500 })).status, 200);
    remote.slowMs = 20_000;
    remote.faultReads = true;
    remote.outage = 'slow';
    const gina = await createUser(app.api, { email: 'gina@example.com' });
    assert.equal((await app.api.post(`/resources/${resourceId}/users/${gina.user_id}`, { duration_minutes: 0 })).status, 200);
    await runOutbox(app.ctx, app.clock.now());
    remote.outage = null;
    remote.faultReads = false;
    const holders = (await app.api.get(`/resources/${resourceId}/users`)).body.results as { user_id: string; propagation_status: { status: string } }[];
    assert.equal(holders.find((h) => h.user_id === gina.user_id)!.propagation_status.status, 'ERR_TIMEOUT');
    const [propagation] = (await app.api.get('/propagations', { app_id: appId })).body.results as { last_error: string }[];
    assert.match(propagation!.last_error, /no answer within 500 ms/);
  });
});
