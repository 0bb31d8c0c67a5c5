// The auth matrix: which tokens get in, which are turned away, and what READ_ONLY may do.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createToken, createUser, NO_SUCH_ID, unique } from '../helpers/fixtures.ts';

describe('authentication', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const turnedAway: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['a Basic credential', { authorization: 'Basic YWRtaW46YWRtaW4=' }],
    ['"Bearer" with no token', { authorization: 'Bearer ' }],
    ['a token with spaces inside', { authorization: 'Bearer abc def' }],
    ['an unknown token', { authorization: 'Bearer gth_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['a prefix of the real token', { authorization: 'Bearer gth_test-admin-token' }],
  ];
  for (const [what, headers] of turnedAway) {
    it(`turns away ${what} with 401`, async () => {
      const res = await app.api.as(undefined).request('GET', '/users', undefined, { headers });
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'unauthenticated');
      assert.equal(res.headers.get('www-authenticate'), 'Bearer');
    });
  }

  it('guards every /v1 path, including unknown ones, before routing', async () => {
    const anonymous = app.api.as(undefined);
    assert.equal((await anonymous.get('/events')).status, 401);
    assert.equal((await anonymous.post('/users', { email: 'x@example.com', full_name: 'X' })).status, 401);
    assert.equal((await anonymous.get('/no-such-route')).status, 401);
  });

  it('guards /v1 in any case, as the router matches paths in any case: every route, with no token, is 401', async () => {
    const root = app.url.replace(/\/v1$/, '');
    const doc = (await (await fetch(`${root}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const id = NO_SUCH_ID;
    const problems: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!path.startsWith('/v1')) continue;
      const filled = path.replace(/\{\w+\}/g, id);
      for (const variant of [filled.replace(/^\/v1/, '/V1'), filled.toUpperCase().replaceAll(id.toUpperCase(), id)]) {
        for (const method of Object.keys(operations)) {
          const res = await fetch(root + variant, { method: method.toUpperCase() });
          await res.arrayBuffer();
          if (res.status !== 401) problems.push(`${method.toUpperCase()} ${variant} → ${res.status}`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  it('accepts the scheme name in any case', async () => {
    const res = await app.api.request('GET', '/users', undefined, { headers: { authorization: `bearer ${app.api.token}` } });
    assert.equal(res.status, 200);
  });

  it('leaves /healthz open', async () => {
    const res = await fetch(app.url.replace(/\/v1$/, '/healthz'));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ok' });
  });

  it('a revoked token stops working at once', async () => {
    const { secret, tokenId } = await createToken(app.api);
    assert.equal((await app.api.as(secret).get('/users')).status, 200);
    assert.equal((await app.api.delete(`/tokens/${tokenId}`)).status, 200);
    assert.equal((await app.api.as(secret).get('/users')).status, 401);
  });

  it('a token can revoke itself', async () => {
    const { secret, tokenId } = await createToken(app.api);
    assert.equal((await app.api.as(secret).delete(`/tokens/${tokenId}`)).status, 200);
    assert.equal((await app.api.as(secret).get('/users')).status, 401);
  });

  describe('READ_ONLY tokens', () => {
    let reader: ReturnType<TestApp['api']['as']>;
    before(async () => {
      reader = app.api.as((await createToken(app.api, { access_level: 'READ_ONLY' })).secret);
    });

    it('may read', async () => {
      assert.equal((await reader.get('/users')).status, 200);
      assert.equal((await reader.get('/tokens')).status, 200);
      assert.equal((await reader.get('/events')).status, 200);
    });

    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      it(`may not ${method}, and the attempt changes nothing`, async () => {
        const usersBefore = (await app.api.get('/users', { page_size: 1000 })).body.results.length;
        const eventsBefore = (await app.api.get('/events', { page_size: 1000 })).body.results.length;
        const res = await reader.request(method, '/users', { email: `${unique('ro')}@example.com`, full_name: 'Read Only' });
        assert.equal(res.status, 403);
        assert.equal(res.body.code, 'forbidden');
        assert.equal((await app.api.get('/users', { page_size: 1000 })).body.results.length, usersBefore);
        assert.equal((await app.api.get('/events', { page_size: 1000 })).body.results.length, eventsBefore);
      });
    }
  });

  it('acts as the token\'s own user, and the trail says so', async () => {
    const user = await createUser(app.api, { organization_role: 'ADMIN' });
    const { secret } = await createToken(app.api, { user_id: user.user_id, token_label: 'ci-bot' });
    const made = await app.api.as(secret).post('/users', { email: `${unique('by-bot')}@example.com`, full_name: 'Made By Bot' });
    assert.equal(made.status, 200);
    const events = await app.api.get('/events', { object_filter: made.body.user_id });
    assert.equal(events.body.results.length, 1);
    const [event] = events.body.results;
    assert.equal(event.actor_user_id, user.user_id);
    assert.equal(event.actor_email, user.email);
    assert.equal(event.api_token_name, 'ci-bot');
    assert.match(event.api_token_preview, /^\*+.{4}$/);
    assert.equal(event.api_token_preview.slice(-4), secret.slice(-4));
  });

  it('records last use, at most once a minute', async () => {
    const { secret, tokenId } = await createToken(app.api);
    const lastUsed = async () => (await app.api.get('/tokens', { token_ids: tokenId })).body.results[0].last_used_at;
    assert.equal(await lastUsed(), null);
    await app.api.as(secret).get('/users');
    const first = await lastUsed();
    assert.equal(first, app.clock.now().toISOString());
    app.clock.advance(30_000);
    await app.api.as(secret).get('/users');
    assert.equal(await lastUsed(), first, 'a use within the minute is not written');
    app.clock.advance(31_000);
    await app.api.as(secret).get('/users');
    assert.equal(await lastUsed(), app.clock.now().toISOString());
  });

  it('keeps only a hash of each secret in the database file', async () => {
    const { secret } = await createToken(app.api);
    app.ctx.db.pragma('wal_checkpoint(TRUNCATE)');
    const file = readFileSync(app.dbFile);
    assert.equal(file.includes(Buffer.from(secret)), false, 'the secret is in the database file');
    assert.equal(file.includes(Buffer.from(app.api.token!)), false, 'the bootstrap secret is in the database file');
  });
});
