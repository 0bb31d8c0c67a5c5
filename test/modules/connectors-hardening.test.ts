// Connectors against hostile or careless input (issue 30): secrets in connector URLs never shown or
// recorded, remote data checked like API input, and the private-address policy on every connection.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { readEvents } from '../helpers/events.ts';
import { createApp } from '../helpers/fixtures.ts';
import { OpalConnector } from '../helpers/opal-connector.ts';

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
    assert.equal(app.ctx.stores.connectors.get(appId)!.url, url);
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
      assert.equal(app.ctx.stores.connectors.get(appId)!.connection_url, connectionUrl);
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
