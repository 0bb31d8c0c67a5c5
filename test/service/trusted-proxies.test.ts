// GATEHOUSE_TRUSTED_PROXIES: behind listed proxies, X-Forwarded-For names the client for failed-auth
// throttling, the request log and audit events; without the setting, X-Forwarded-For is ignored.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const BAD = 'gth_wrong-guess-0000000000000000';

/** GET /users as `token`, from a client the proxy says is `forwardedFor` (no header when undefined). */
async function getUsers(app: TestApp, token: string, forwardedFor?: string): Promise<{ status: number; requestId: string | null }> {
  const res = await fetch(`${app.url}/users`, {
    headers: { authorization: `Bearer ${token}`, ...(forwardedFor !== undefined && { 'x-forwarded-for': forwardedFor }) },
  });
  await res.arrayBuffer();
  return { status: res.status, requestId: res.headers.get('x-request-id') };
}

describe('trusted proxies', () => {
  it('with the test client as a trusted proxy, the right-most untrusted X-Forwarded-For address is the client', async () => {
    const app = await startTestApp({
      env: { GATEHOUSE_TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1, ::1', GATEHOUSE_AUTH_FAILURE_LIMIT: '2' },
    });
    try {
      const admin = app.api.token!;
      // 203.0.113.5 guesses twice and is blocked (its bad tokens answer 429); another client behind the same proxy is not.
      for (let i = 0; i < 2; i++) assert.equal((await getUsers(app, BAD, '203.0.113.5')).status, 401);
      assert.equal((await getUsers(app, BAD, '203.0.113.5')).status, 429);
      assert.equal((await getUsers(app, BAD, '198.51.100.7')).status, 401);
      assert.equal((await getUsers(app, admin, '198.51.100.7')).status, 200);
      // Through a second trusted proxy, and with a port: still 203.0.113.5.
      assert.equal((await getUsers(app, BAD, '203.0.113.5, 10.1.2.3')).status, 429);
      assert.equal((await getUsers(app, BAD, '203.0.113.5:51234')).status, 429);
      // What the client itself wrote (left of the untrusted hop) is ignored: no spoofing a way out, or in.
      assert.equal((await getUsers(app, BAD, '198.51.100.7, 203.0.113.5')).status, 429);
      assert.equal((await getUsers(app, admin, '203.0.113.5, 198.51.100.7')).status, 200);
      // Every hop trusted: the left-most is the client.
      assert.equal((await getUsers(app, admin, '10.9.9.9, 10.1.1.1')).status, 200);

      const ok = await getUsers(app, admin, '198.51.100.99');
      const line = app.logs.find((l) => l.msg === 'request' && l.request_id === ok.requestId);
      assert.equal(line?.ip, '198.51.100.99', 'the request log names the client');
      const created = await fetch(`${app.url}/users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.42' },
        body: JSON.stringify({ email: 'proxied@example.com', full_name: 'Proxied' }),
      });
      const user = (await created.json()) as { user_id: string };
      const events = await app.api.get('/events', { object_filter: user.user_id });
      assert.equal(events.body.results[0].actor_ip_address, '198.51.100.42', 'audit events name the client');
    } finally {
      await app.close();
    }
  });

  it('without the setting, X-Forwarded-For is ignored (the socket peer is the client, as before)', async () => {
    const app = await startTestApp({ env: { GATEHOUSE_AUTH_FAILURE_LIMIT: '2' } });
    try {
      for (let i = 0; i < 2; i++) assert.equal((await getUsers(app, BAD, '203.0.113.5')).status, 401);
      const other = await getUsers(app, BAD, '198.51.100.7');
      assert.equal(other.status, 429, 'the forwarded address changed nothing: the peer is blocked');
      const line = app.logs.find((l) => l.msg === 'request' && l.request_id === other.requestId);
      assert.equal(line?.ip, '127.0.0.1');
    } finally {
      await app.close();
    }
  });

  it('a proxy that is not listed cannot name the client', async () => {
    const app = await startTestApp({ env: { GATEHOUSE_TRUSTED_PROXIES: '192.0.2.0/24', GATEHOUSE_AUTH_FAILURE_LIMIT: '2' } });
    try {
      for (let i = 0; i < 2; i++) assert.equal((await getUsers(app, BAD, `203.0.113.${i}`)).status, 401);
      assert.equal((await getUsers(app, BAD, '198.51.100.7')).status, 429);
    } finally {
      await app.close();
    }
  });

  it('refuses a setting that is not a list of addresses and CIDR ranges, naming the variable', () => {
    for (const bad of ['localhost', '10.0.0.0/33', '10.0.0.1/8/2', '::1/129', '300.1.1.1']) {
      assert.throws(() => loadConfig({ GATEHOUSE_TRUSTED_PROXIES: bad }), (err: unknown) => err instanceof ConfigError && /GATEHOUSE_TRUSTED_PROXIES/.test(err.message), bad);
    }
    assert.deepEqual(loadConfig({ GATEHOUSE_TRUSTED_PROXIES: ' 10.0.0.0/8 ,fd00::/8,, 127.0.0.1' }).trustedProxies, ['10.0.0.0/8', 'fd00::/8', '127.0.0.1']);
    assert.deepEqual(loadConfig({}).trustedProxies, []);
  });
});
