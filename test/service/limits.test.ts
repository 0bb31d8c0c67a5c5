// Abuse limits: body cap, slow clients, connection cap, failed-authentication throttling, and
// the settings that configure them.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { ConfigError, DEFAULTS, loadConfig } from '../../src/config.ts';
import { createFailureThrottle, MAX_TRACKED } from '../../src/http/throttle.ts';
import { ADMIN_TOKEN, startTestApp } from '../helpers/app.ts';
import { createMember } from '../helpers/fixtures.ts';

/** Opens a raw connection to the test server, so a test can misbehave the way a slow client does. */
async function rawSocket(url: string): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let data = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (data += chunk));
  socket.on('error', () => undefined); // a reset is one of the outcomes under test
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => data, closed };
}

describe('limits', () => {
  it('answers 413 to a body over GATEHOUSE_MAX_BODY_BYTES, before reading it all', async () => {
    const app = await startTestApp({ env: { GATEHOUSE_MAX_BODY_BYTES: '1024' } });
    try {
      const res = await app.api.post('/users', { email: 'big@example.com', full_name: 'x'.repeat(2000) });
      assert.equal(res.status, 413);
      assert.equal(res.body.code, 'payload_too_large');
      const small = await app.api.post('/users', { email: 'small@example.com', full_name: 'Small Body' });
      assert.equal(small.status, 200);
    } finally {
      await app.close();
    }
  });

  it('answers a request target that is not a path (OPTIONS *, absolute form) with 400 in the error shape, and keeps serving', async () => {
    const app = await startTestApp();
    try {
      for (const target of ['*', `http://x/v1/users`]) {
        const raw = await rawSocket(app.url);
        raw.socket.write(`OPTIONS ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n\r\n`);
        await raw.closed;
        const [head, body] = raw.received().split('\r\n\r\n');
        assert.match(head!, /^HTTP\/1\.1 400 /, target);
        assert.match(head!, /x-request-id: [0-9a-f-]{36}/i, target);
        assert.equal(JSON.parse(body!).code, 'validation_failed', target);
      }
      const raw = await rawSocket(app.url);
      raw.socket.write(`GET http://x/v1/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n\r\n`);
      await raw.closed;
      assert.match(raw.received(), /^HTTP\/1\.1 400 /);
      assert.equal((await app.api.get('/users')).status, 200, 'the process is still serving');
    } finally {
      await app.close();
    }
  });

  it('drops a client that sends its headers too slowly (GATEHOUSE_HEADERS_TIMEOUT_MS) with 408', async () => {
    const app = await startTestApp({ env: { GATEHOUSE_HEADERS_TIMEOUT_MS: '200', GATEHOUSE_REQUEST_TIMEOUT_MS: '5000' } });
    try {
      const raw = await rawSocket(app.url);
      raw.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'); // never the blank line that ends the headers
      await raw.closed;
      assert.match(raw.received(), /^HTTP\/1\.1 408 /);
    } finally {
      await app.close();
    }
  });

  it('drops a client that never finishes its body (GATEHOUSE_REQUEST_TIMEOUT_MS)', async () => {
    const app = await startTestApp({ env: { GATEHOUSE_HEADERS_TIMEOUT_MS: '200', GATEHOUSE_REQUEST_TIMEOUT_MS: '400' } });
    try {
      const raw = await rawSocket(app.url);
      raw.socket.write(
        `POST /v1/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
      );
      await raw.closed;
      assert.doesNotMatch(raw.received(), /^HTTP\/1\.1 200/, 'the request was not served');
      const users = await app.api.get('/users');
      assert.equal(users.body.results.length, 1, 'nothing was created');
    } finally {
      await app.close();
    }
  });

  it('answers connections past GATEHOUSE_MAX_CONNECTIONS with 503 + Retry-After, then closes them', async () => {
    const app = await startTestApp({ env: { GATEHOUSE_MAX_CONNECTIONS: '1' } });
    try {
      const first = await rawSocket(app.url);
      first.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      while (!first.received().includes('"ok"')) await new Promise((resolve) => setTimeout(resolve, 5));
      // The first connection is open (keep-alive): the second gets one answer, 503, and is closed.
      const second = await rawSocket(app.url);
      second.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await second.closed;
      assert.match(second.received(), /^HTTP\/1\.1 503 /);
      assert.match(second.received(), /\r\nretry-after: 1\r\n/i);
      first.socket.destroy();
      await first.closed;
      const health = await fetch(app.url.replace(/\/v1$/, '/healthz'));
      assert.equal(health.status, 200, 'a slot frees up when a connection closes');
    } finally {
      await app.close();
    }
  });

  describe('failed-authentication throttling', () => {
    it('blocks an address\'s bad tokens after GATEHOUSE_AUTH_FAILURE_LIMIT with 429 + Retry-After, until the window ends', async () => {
      const app = await startTestApp({ env: { GATEHOUSE_AUTH_FAILURE_LIMIT: '3', GATEHOUSE_AUTH_FAILURE_WINDOW_MS: '60000' } });
      try {
        // A missing header is a mistake, not a guess: it never counts.
        for (let i = 0; i < 5; i++) assert.equal((await app.api.as(undefined).get('/users')).status, 401);
        for (let i = 0; i < 3; i++) {
          assert.equal((await app.api.as(`gth_wrong-guess-${i}-0000000000000000`).get('/users')).status, 401);
        }
        const blocked = await app.api.as('gth_wrong-guess-4-0000000000000000').get('/users');
        assert.equal(blocked.status, 429);
        assert.equal(blocked.body.code, 'too_many_requests');
        assert.equal(blocked.headers.get('retry-after'), '60');
        assert.equal((await app.api.as(undefined).get('/users')).status, 429, 'no token from a blocked address: 429 too');
        const health = await fetch(app.url.replace(/\/v1$/, '/healthz'));
        assert.equal(health.status, 200, '/healthz is never throttled');
        assert.ok(app.logs.some((l) => l.msg === 'authentication throttled' && l.failures === 3));

        app.clock.advance(30_000);
        assert.equal((await app.api.as('gth_wrong-guess-5-0000000000000000').get('/users')).headers.get('retry-after'), '30');
        app.clock.advance(30_000);
        assert.equal((await app.api.as('gth_wrong-guess-6-0000000000000000').get('/users')).status, 401, 'the window has passed');
      } finally {
        await app.close();
      }
    });

    it('serves a valid token from an address whose bad tokens are blocked, without giving a guesser more verdicts than twice the limit per window', async () => {
      const app = await startTestApp({ env: { GATEHOUSE_AUTH_FAILURE_LIMIT: '3', GATEHOUSE_AUTH_FAILURE_WINDOW_MS: '60000' } });
      try {
        // Made before anything failed from here: no window yet, so none of these tokens is remembered.
        const memberToken = (await createMember(app.api)).secret;
        const otherToken = (await createMember(app.api)).secret;
        const guess = (i: number) => app.api.as(`gth_wrong-guess-${i}-0000000000000000`).get('/users');
        assert.equal((await guess(0)).status, 401);
        // Served from here in this window before the block: served during it at no cost.
        assert.equal((await app.api.as(memberToken).get('/users')).status, 200);
        for (let i = 1; i < 3; i++) assert.equal((await guess(i)).status, 401);
        assert.equal((await guess(3)).status, 429, 'blocked: a check spent (1 of 3)');

        // The admin's token, never seen from here: the valid token is served while bad ones are throttled.
        const admin = await app.api.get('/users');
        assert.equal(admin.status, 200, 'a valid token is served from a blocked address (2 of 3)');
        for (let i = 0; i < 3; i++) assert.equal((await app.api.as(memberToken).get('/users')).status, 200, 'a token served here costs nothing');
        assert.equal((await guess(4)).status, 429, 'serving a valid token resets nothing (3 of 3)');

        // The checks are spent: a token not yet served from here answers exactly as a wrong one does.
        const unseen = await app.api.as(otherToken).get('/users');
        const wrong = await guess(5);
        assert.deepEqual([unseen.status, unseen.body.code, unseen.headers.get('retry-after')], [429, 'too_many_requests', '60']);
        assert.deepEqual([wrong.status, wrong.body.message], [unseen.status, unseen.body.message], 'a guess learns nothing');
        assert.equal((await app.api.get('/users')).status, 200, 'the tokens served here still are');
        assert.equal((await app.api.as(memberToken).get('/users')).status, 200);

        app.clock.advance(60_000);
        assert.equal((await app.api.as(otherToken).get('/users')).status, 200, 'the window has passed');
      } finally {
        await app.close();
      }
    });

    it('is off with GATEHOUSE_AUTH_FAILURE_LIMIT=0', async () => {
      const app = await startTestApp({ env: { GATEHOUSE_AUTH_FAILURE_LIMIT: '0' } });
      try {
        for (let i = 0; i < 40; i++) assert.equal((await app.api.as('gth_wrong-guess-0000000000000000').get('/users')).status, 401);
        assert.equal((await app.api.get('/users')).status, 200);
      } finally {
        await app.close();
      }
    });

    it('keeps addresses apart and bounds its memory', () => {
      const throttle = createFailureThrottle(2, 1000);
      throttle.fail('a', 0);
      assert.equal(throttle.fail('a', 10), true, 'the failure that blocks is reported once');
      assert.equal(throttle.retryAfter('a', 10), 1);
      assert.equal(throttle.retryAfter('b', 10), 0);
      assert.equal(throttle.fail('a', 20), false);
      assert.equal(throttle.retryAfter('a', 1000), 0, 'the window ends');
      for (let i = 0; i < 2 * MAX_TRACKED; i++) throttle.fail(`addr-${i}`, 2000);
      assert.equal(throttle.tracked(), MAX_TRACKED, 'the oldest addresses were dropped to stay bounded');
      const newest = `addr-${2 * MAX_TRACKED - 1}`;
      throttle.fail(newest, 2001);
      assert.equal(throttle.retryAfter(newest, 2001), 1, 'the newest are still counted');
      throttle.fail('late', 5000);
      assert.equal(throttle.tracked(), 1, 'expired windows are swept as new ones start');
    });
  });

  describe('configuration', () => {
    it('has documented defaults', () => {
      const config = loadConfig({});
      assert.equal(config.authFailureLimit, DEFAULTS.authFailureLimit);
      assert.equal(config.headersTimeoutMs, DEFAULTS.headersTimeoutMs);
      assert.equal(config.shutdownTimeoutMs, DEFAULTS.shutdownTimeoutMs);
    });

    it('refuses bad values, naming the variable', () => {
      const cases: [Record<string, string>, RegExp][] = [
        [{ GATEHOUSE_AUTH_FAILURE_LIMIT: '-1' }, /GATEHOUSE_AUTH_FAILURE_LIMIT/],
        [{ GATEHOUSE_HEADERS_TIMEOUT_MS: 'soon' }, /GATEHOUSE_HEADERS_TIMEOUT_MS/],
        [{ GATEHOUSE_HEADERS_TIMEOUT_MS: '20000', GATEHOUSE_REQUEST_TIMEOUT_MS: '10000' }, /must not exceed GATEHOUSE_REQUEST_TIMEOUT_MS/],
        [{ GATEHOUSE_MAX_CONNECTIONS: '0' }, /GATEHOUSE_MAX_CONNECTIONS/],
        [{ GATEHOUSE_SHUTDOWN_TIMEOUT_MS: '1.5' }, /GATEHOUSE_SHUTDOWN_TIMEOUT_MS/],
      ];
      for (const [env, message] of cases) {
        assert.throws(() => loadConfig(env), (err: unknown) => err instanceof ConfigError && message.test(err.message), JSON.stringify(env));
      }
    });
  });
});
