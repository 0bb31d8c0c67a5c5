// The token cache (tokens/store.ts) never serves what changed: a token used once (so cached) stops working
// the moment it is revoked or its user offboarded, through the API or by another connection (the CLI,
// a second process), and a role change applies to the very next call.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type Db } from '../../src/db/open.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createToken, createUser } from '../helpers/fixtures.ts';

describe('token cache', () => {
  let app: TestApp;
  let other: Db;
  before(async () => {
    app = await startTestApp();
    other = openDatabase(app.dbFile);
  });
  after(async () => {
    other.close();
    await app.close();
  });

  const member = async () => {
    const user = await createUser(app.api);
    const token = await createToken(app.api, { user_id: user.user_id });
    const api = app.api.as(token.secret);
    // Twice: the second call is served by the cache.
    assert.equal((await api.get('/users')).status, 200);
    assert.equal((await api.get('/users')).status, 200);
    return { user, token, api };
  };

  it('refuses a cached token as soon as it is revoked through the API', async () => {
    const { token, api } = await member();
    assert.equal((await app.api.delete(`/tokens/${token.tokenId}`)).status, 200);
    assert.equal((await api.get('/users')).status, 401);
  });

  it('refuses a cached token as soon as its user is offboarded through the API', async () => {
    const { user, api } = await member();
    assert.equal((await app.api.put(`/users/${user.user_id}`, { hr_idp_status: 'DEPROVISIONED' })).status, 200);
    assert.equal((await api.get('/users')).status, 401);
  });

  it('refuses a cached token revoked by another connection (the CLI, another process)', async () => {
    const { token, api } = await member();
    other.prepare('DELETE FROM api_tokens WHERE id = ?').run(token.tokenId);
    assert.equal((await api.get('/users')).status, 401);
  });

  it('applies a role or status another connection wrote to the next call', async () => {
    const { user, api } = await member();
    assert.equal((await api.get('/events')).status, 403);
    other.prepare(`UPDATE users SET organization_role = 'ADMIN' WHERE id = ?`).run(user.user_id);
    assert.equal((await api.get('/events')).status, 200);
    other.prepare(`UPDATE users SET hr_idp_status = 'SUSPENDED' WHERE id = ?`).run(user.user_id);
    assert.equal((await api.get('/users')).status, 401);
  });
});
