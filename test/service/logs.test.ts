// One structured log line per request — never the token — and the unauthenticated health check.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app.ts';
import { createToken, createUser } from '../helpers/fixtures.ts';

describe('request logs and health', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const requestLines = () => app.logs.filter((l) => l.msg === 'request');

  it('logs method, route template, status, duration, request id and token label for each request', async () => {
    const user = await createUser(app.api);
    const { secret } = await createToken(app.api, { token_label: 'log-reader', access_level: 'READ_ONLY' });
    const seen = requestLines().length;

    const res = await app.api.as(secret).get(`/users/${user.user_id}`);
    assert.equal(res.status, 200);
    const lines = requestLines().slice(seen);
    assert.equal(lines.length, 1, 'exactly one line for one request');
    const line = lines[0]!;
    assert.equal(line.level, 'info');
    assert.equal(line.method, 'GET');
    assert.equal(line.path, '/v1/users/:user_id', 'the template, not the id');
    assert.equal(line.status, 200);
    assert.equal(typeof line.duration_ms, 'number');
    assert.ok((line.duration_ms as number) >= 0);
    assert.equal(line.request_id, res.headers.get('x-request-id'));
    assert.equal(line.token_label, 'log-reader');

    assert.ok(!JSON.stringify(app.logs).includes(secret), 'a token secret never reaches the log');
    assert.ok(!JSON.stringify(app.logs).includes(ADMIN_TOKEN), 'a token secret never reaches the log');
  });

  it('logs refused requests under their route template, with no token label and no presented secret', async () => {
    const wrong = 'gth_not-a-real-token-0000000000000000';
    const seen = requestLines().length;
    const res = await app.api.as(wrong).delete(`/users/${app.adminUserId}/remote_users/SLACK`);
    assert.equal(res.status, 401);
    const forbidden = await app.api.as(undefined).get('/no/such/route');
    assert.equal(forbidden.status, 401);
    const [refused, unknown] = requestLines().slice(seen);
    assert.deepEqual(
      { method: refused?.method, path: refused?.path, status: refused?.status, token_label: refused?.token_label },
      { method: 'DELETE', path: '/v1/users/:user_id/remote_users/:third_party_provider', status: 401, token_label: null },
    );
    assert.equal(unknown?.path, '(no route)');
    assert.ok(!JSON.stringify(app.logs).includes(wrong));
  });

  it('answers GET /healthz without authentication, and logs it', async () => {
    const res = await fetch(app.url.replace(/\/v1$/, '/healthz'));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ok' });
    assert.equal(requestLines().at(-1)?.path, '/healthz');
  });
});
