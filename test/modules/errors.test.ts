// Every class of failure answers with the one error shape and the documented status, and leaks nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import type { ApiResponse } from '../helpers/client.ts';
import { NO_SUCH_ID, unique } from '../helpers/fixtures.ts';

/** Nothing internal in a message: no stack frames, file paths or SQL. */
function assertNothingLeaks(res: ApiResponse): void {
  const text = JSON.stringify(res.body);
  assert.doesNotMatch(text, /\bat \S+ \(|\.ts:\d+|node_modules|\/work\/|SELECT |INSERT |UPDATE |constraint failed|Sqlite/i);
}

describe('errors', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { GATEHOUSE_MAX_BODY_BYTES: '4096' } });
  });
  after(() => app.close());

  const countUsers = async () => (await app.api.get('/users', { page_size: 1000 })).body.results.length;

  it('malformed JSON → 400 invalid_json, nothing written', async () => {
    const before = await countUsers();
    const res = await app.api.post('/users', undefined, { rawBody: '{"email": "a@example.com",', headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'invalid_json');
    assertNothingLeaks(res);
    assert.equal(await countUsers(), before);
  });

  it('each schema violation → 400 naming the field path and the rule', async () => {
    const res = await app.api.post('/users', { email: 42, full_name: 'x'.repeat(201), manager_id: 'not-a-uuid' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_failed');
    const byPath = Object.fromEntries(res.body.details.map((d: { path: string; message: string }) => [d.path, d.message]));
    assert.deepEqual(Object.keys(byPath).sort(), ['email', 'full_name', 'manager_id']);
    assert.match(byPath.full_name, /at most 200/);
    assert.match(byPath.manager_id, /UUID/);
    assertNothingLeaks(res);
  });

  it('a body that is not an object → 400 naming the body', async () => {
    for (const body of [[1, 2], [], 'text', 7, null]) {
      const res = await app.api.post('/tokens', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, 'validation_failed');
    }
    const array = await app.api.post('/tokens', []);
    assert.equal(array.body.details[0].path, 'body');
  });

  it('a missing body where one is required → 400', async () => {
    const res = await app.api.post('/users');
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_failed');
  });

  it('a malformed id in a path → 400 naming the parameter', async () => {
    const res = await app.api.get('/events/not-a-uuid');
    assert.equal(res.status, 400);
    assert.equal(res.body.details[0].path, 'event_id');
  });

  for (const path of [`/events/${NO_SUCH_ID}`, `/users/${NO_SUCH_ID}`]) {
    it(`unknown id in a path → 404 (GET ${path.split('/')[1]})`, async () => {
      const res = await app.api.get(path);
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'not_found');
    });
  }

  it('unknown id in a path → 404 (DELETE /tokens)', async () => {
    const res = await app.api.delete(`/tokens/${NO_SUCH_ID}`);
    assert.equal(res.status, 404);
  });

  it('unknown route → 404', async () => {
    const res = await app.api.get('/no-such-thing');
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'not_found');
  });

  it('wrong method → 405 with Allow', async () => {
    const res = await app.api.request('PATCH', '/users');
    assert.equal(res.status, 405);
    assert.equal(res.body.code, 'method_not_allowed');
    assert.deepEqual(res.headers.get('allow')?.split(', ').sort(), ['GET', 'POST']);
  });

  it('a body over the cap → 413, nothing written', async () => {
    const before = await countUsers();
    const res = await app.api.post('/users', { email: `${unique('big')}@example.com`, full_name: 'Big', position: 'x'.repeat(5000) });
    assert.equal(res.status, 413);
    assert.equal(res.body.code, 'payload_too_large');
    assert.equal(await countUsers(), before);
  });

  it('a body that is not JSON → 415, nothing written', async () => {
    const before = await countUsers();
    const res = await app.api.post('/users', undefined, { rawBody: 'email=a@example.com', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(res.status, 415);
    assert.equal(res.body.code, 'unsupported_media_type');
    const untyped = await app.api.post('/users', undefined, { rawBody: '{"email":"a@example.com","full_name":"A"}' });
    assert.equal(untyped.status, 415);
    assert.equal(await countUsers(), before);
  });

  it('JSON with a charset or a +json type is accepted', async () => {
    const res = await app.api.post('/users', undefined, {
      rawBody: JSON.stringify({ email: `${unique('cs')}@example.com`, full_name: 'Char Set' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    assert.equal(res.status, 200);
  });

  it('an unexpected failure → 500 with a request id that is also in the log, and nothing internal', async () => {
    // Break the database under the running service: the next read of that table fails inside SQLite.
    app.ctx.db.exec('ALTER TABLE remote_users RENAME TO remote_users_gone');
    try {
      const res = await app.api.request('GET', '/users/remote_users', undefined, { expectServerError: true });
      assert.equal(res.status, 500);
      assert.equal(res.body.code, 'internal');
      assert.equal(res.headers.get('x-request-id'), res.body.request_id);
      assertNothingLeaks(res);
      const logged = app.logs.find((line) => line.level === 'error' && line.request_id === res.body.request_id);
      assert.ok(logged, 'the failure is logged under its request id');
      assert.match(String(logged.error), /remote_users/);
    } finally {
      app.ctx.db.exec('ALTER TABLE remote_users_gone RENAME TO remote_users');
    }
  });

  it('every response carries its request id', async () => {
    const res = await app.api.get('/users');
    assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });
});
