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
