// Connectors against hostile or careless input (issue 30): secrets in connector URLs never shown or
// recorded, remote data checked like API input, and the private-address policy on every connection.
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { readEvents } from '../helpers/events.ts';
import { createApp } from '../helpers/fixtures.ts';
import { OpalConnector } from '../helpers/opal-connector.ts';
import { freePort } from '../helpers/ports.ts';

const SECRET = 'connector-signing-secret-0123456789';

describe('connector URLs: secrets masked everywhere', () => {
  let app: TestApp;
  let remote: OpalConnector;
  before(async () => {
    app = await startTestApp();
    remote = await new OpalConnector(SECRET).start();
  });
  after(async () => {
    await app.close();
    await remote.stop();
  });

  it('masks a token in an Opal connector URL\'s query in GET and CONNECTORS_UPDATED, and keeps it when sent back masked', async () => {
    const appId = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
    const token = 'query-token-abcdefghijklmnop';
    const url = `${remote.url}?token=${token}`;
    const put = await app.api.put(`/apps/${appId}/connector`, { url, signing_secret: SECRET });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const got = await app.api.get(`/apps/${appId}/connector`);
    for (const body of [put.body, got.body]) {
      assert.ok(!JSON.stringify(body).includes(token), JSON.stringify(body));
      assert.match(body.url, /token=\*{12}mnop/);
    }
    // Sent back as GET shows it: the stored URL stays, token and all.
    assert.equal((await app.api.put(`/apps/${appId}/connector`, got.body)).status, 200);
    assert.equal(app.ctx.stores.connectors.get(appId)!.configuration.url, url);
    // A mask that is not this connector's is refused, naming the field.
    const foreign = await app.api.put(`/apps/${appId}/connector`, { ...got.body, url: `${remote.url}?token=************abcd` });
    assert.equal(foreign.status, 400);
    assert.equal(foreign.body.details[0].path, 'url');
    const events = await readEvents(app.api, { type: 'CONNECTORS_UPDATED' });
    assert.equal(events.length, 2);
    assert.ok(!JSON.stringify(events).includes(token), JSON.stringify(events));
  });

  it('masks a PostgreSQL password given as ?password= or in the user info, in GET and CONNECTORS_UPDATED', async () => {
    const appId = (await createApp(app.api, { app_type: 'POSTGRES' })).app_id;
    for (const [connectionUrl, password] of [
      ['postgres://gatehouse@db.example.com:5432/app?password=query-password-0123456789&sslmode=require', 'query-password-0123456789'],
      ['postgres://gatehouse:userinfo-password-0123456789@db.example.com:5432/app', 'userinfo-password-0123456789'],
    ] as const) {
      const put = await app.api.put(`/apps/${appId}/connector`, { connection_url: connectionUrl });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      const got = await app.api.get(`/apps/${appId}/connector`);
      for (const body of [put.body, got.body]) assert.ok(!JSON.stringify(body).includes(password), JSON.stringify(body));
      assert.ok(got.body.connection_url.includes('gatehouse'), 'the user name is no secret');
      assert.equal((await app.api.put(`/apps/${appId}/connector`, got.body)).status, 200);
      assert.equal(app.ctx.stores.connectors.get(appId)!.configuration.connection_url, connectionUrl);
    }
    assert.match((await app.api.put(`/apps/${appId}/connector`, { connection_url: 'postgres://u@h/db?sslmode=require&password=pw-0123456789abcdef' })).body.connection_url, /sslmode=require/);
    const events = await readEvents(app.api, { type: 'CONNECTORS_UPDATED', object: appId });
    assert.ok(events.length >= 4);
    assert.ok(!/query-password|userinfo-password|pw-0123/.test(JSON.stringify(events)), JSON.stringify(events));
  });
});

describe('connector data checked like API input', () => {
  let app: TestApp;
  let remote: OpalConnector;
  let appId: string;
  before(async () => {
    app = await startTestApp();
    remote = await new OpalConnector(SECRET).start();
    remote.pageSize = 50;
    appId = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
    assert.equal((await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: SECRET })).status, 200);
  });
  after(async () => {
    await app.close();
    await remote.stop();
  });

  it('skips remote items that fail the API\'s rules, each with a sync error naming it, and keeps the rest', async () => {
    remote.users.set('u-good', 'good@remote.example');
    remote.users.set('u-\u0000nul', 'nul@remote.example');
    remote.users.set('u-bad-email', 'not an email\r\nBcc: someone@else.example');
    remote.resources.set('r-nul', { name: 'Data\u0000base', levels: [], users: new Map() });
    remote.resources.set('r-long', { name: 'x'.repeat(201), levels: [], users: new Map() });
    remote.resources.set('r-ok', {
      name: 'Fine',
      levels: [{ id: 'read', name: 'Read' }, { id: 'crlf', name: 'Read\r\nForged: line' }, { id: 'nul\u0000', name: 'NUL' }],
      users: new Map([['u-good', new Set(['read'])]]),
    });
    remote.groups.set('g-newline', { name: 'Team\nForged', users: new Set(), resources: new Set(), memberGroups: new Set() });
    const res = await app.api.post(`/apps/${appId}/connector/sync`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.ok, true, JSON.stringify(res.body));
    assert.equal(res.body.items_refused, 7);
    assert.equal(res.body.users, 1);
    assert.equal(res.body.resources_created, 1);
    assert.equal(res.body.groups_created, 0);
    // Only the fine resource, with only its fine level; nothing with a control character was stored.
    const resources = (await app.api.get('/resources', { page_size: 1000 })).body.results as { resource_id: string; app_id: string; name: string }[];
    const mine = resources.filter((r) => r.app_id === appId);
    assert.deepEqual(mine.map((r) => r.name), ['Fine']);
    const levels = (await app.api.get(`/resources/${mine[0]!.resource_id}`)).body.access_levels as { access_level_remote_id: string; access_level_name: string }[];
    assert.deepEqual(levels.map((l) => l.access_level_remote_id).sort(), ['', 'read']);
    // Each refusal is a sync error naming the item, quoted so its control characters cannot forge a line.
    const errors = ((await app.api.get('/sync_errors', { app_id: appId })).body[0]?.sync_errors ?? []) as { error_message: string }[];
    const messages = errors.map((e) => e.error_message);
    for (const id of ['"u-\\u0000nul"', '"u-bad-email"', '"r-nul"', '"r-long"', '"crlf"', '"nul\\u0000"', '"g-newline"']) {
      assert.ok(messages.some((m) => m.includes(id) && m.includes('skipped')), `${id} in ${JSON.stringify(messages)}`);
    }
    assert.ok(messages.every((m) => !/[\u0000-\u001f]/.test(m)), JSON.stringify(messages));
    // The next sync still answers (a NUL once made every sync a 500).
    assert.equal((await app.api.post(`/apps/${appId}/connector/sync`)).status, 200);
  });
});

/**
 * A TCP listener posing as PostgreSQL: it records every byte and connection, and asks for the password in
 * cleartext (AuthenticationCleartextPassword), as a listener an admin was tricked into pointing at would.
 */
class PasswordTrap {
  connections = 0;
  received = Buffer.alloc(0);
  server!: Server;
  port = 0;
  readonly #sockets = new Set<Socket>();
  constructor(readonly mode: 'ask-password' | 'close' | 'silent') {}
  async start(): Promise<this> {
    this.server = createServer((socket) => {
      this.connections += 1;
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
      socket.on('error', () => {});
      if (this.mode === 'close') return void socket.destroy();
      socket.on('data', (chunk: Buffer) => {
        this.received = Buffer.concat([this.received, chunk]);
        if (this.mode !== 'ask-password') return;
        // The startup message (no type byte) gets the request for a cleartext password; the password ('p') a hang-up.
        if (chunk[0] === 0x70) socket.destroy();
        else socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }
  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const PASSWORD = 'cleartext-password-0123456789';

describe('the PostgreSQL connector obeys the private-address policy', () => {
  let denying: TestApp;
  let allowing: TestApp;
  const traps: PasswordTrap[] = [];
  const trap = async (mode: PasswordTrap['mode']) => {
    const t = await new PasswordTrap(mode).start();
    traps.push(t);
    return t;
  };
  const postgresApp = async (app: TestApp, connectionUrl: string, timeoutMs = 2_000) => {
    const appId = (await createApp(app.api, { app_type: 'POSTGRES' })).app_id;
    const put = await app.api.put(`/apps/${appId}/connector`, { connection_url: connectionUrl, timeout_ms: timeoutMs });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    return appId;
  };
  before(async () => {
    denying = await startTestApp({ env: { GATEHOUSE_PRIVATE_ADDRESSES: 'deny' } });
    allowing = await startTestApp();
  });
  after(async () => {
    await denying.close();
    await allowing.close();
    for (const t of traps) await t.stop();
  });

  it('the setting\'s former name still works, and the new one wins', () => {
    assert.equal(loadConfig({ GATEHOUSE_EVENT_STREAM_PRIVATE_ADDRESSES: 'deny' }).privateAddresses, 'deny');
    assert.equal(loadConfig({ GATEHOUSE_PRIVATE_ADDRESSES: 'allow', GATEHOUSE_EVENT_STREAM_PRIVATE_ADDRESSES: 'deny' }).privateAddresses, 'allow');
    assert.equal(loadConfig({}).privateAddresses, 'allow');
  });

  it('deny: loopback (by address or by name), 10.x and 169.254.169.254 are refused before any byte, the password never sent', async () => {
    const listener = await trap('ask-password');
    for (const host of ['127.0.0.1', 'localhost', '10.1.2.3', '169.254.169.254', '[::1]']) {
      const port = host === '127.0.0.1' || host === 'localhost' ? listener.port : 5432;
      const appId = await postgresApp(denying, `postgres://gatehouse:${PASSWORD}@${host}:${port}/postgres`);
      const tested = await denying.api.post(`/apps/${appId}/connector/test`);
      assert.equal(tested.body.ok, false, host);
      assert.match(tested.body.error, /is not public/, host);
      const synced = await denying.api.post(`/apps/${appId}/connector/sync`);
      assert.equal(synced.body.ok, false, host);
      assert.match(synced.body.error, /is not public/, host);
    }
    assert.equal(listener.connections, 0);
    assert.equal(listener.received.length, 0);
  });

  it('allow (the default): the same listener gets the password — what deny prevents', async () => {
    const listener = await trap('ask-password');
    const appId = await postgresApp(allowing, `postgres://gatehouse:${PASSWORD}@127.0.0.1:${listener.port}/postgres`);
    assert.equal((await allowing.api.post(`/apps/${appId}/connector/test`)).body.ok, false);
    assert.equal(listener.connections, 1);
    assert.ok(listener.received.includes(PASSWORD));
  });

  it('refused, closed before authenticating and silent read alike: no port scanner', async () => {
    const closed = await freePort();
    const hangUp = await trap('close');
    const silent = await trap('silent');
    const answers = [];
    for (const port of [closed, hangUp.port, silent.port]) {
      const appId = await postgresApp(allowing, `postgres://gatehouse@127.0.0.1:${port}/postgres`, 300);
      const { ok, status, error } = (await allowing.api.post(`/apps/${appId}/connector/test`)).body;
      answers.push({ ok, status, error });
    }
    assert.equal(answers[0]!.ok, false);
    assert.deepEqual(answers[1], answers[0]);
    assert.deepEqual(answers[2], answers[0]);
    assert.equal(answers[0]!.status, 'ERR_REMOTE_INTERNAL_ERROR');
  });

  it('the Opal connector too: refused, hung up and not HTTP read alike', async () => {
    const closed = await freePort();
    const hangUp = await trap('close');
    const notHttp = await trap('ask-password');
    const answers = [];
    for (const port of [closed, hangUp.port, notHttp.port]) {
      const appId = (await createApp(allowing.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
      assert.equal((await allowing.api.put(`/apps/${appId}/connector`, { url: `http://127.0.0.1:${port}/`, signing_secret: SECRET, timeout_ms: 2_000 })).status, 200);
      const { ok, status, error } = (await allowing.api.post(`/apps/${appId}/connector/test`)).body;
      answers.push({ ok, status, error });
    }
    assert.equal(answers[0]!.ok, false);
    assert.deepEqual(answers[1], answers[0]);
    assert.deepEqual(answers[2], answers[0]);
  });
});
