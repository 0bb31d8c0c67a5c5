// Rough networks, on real loopback sockets: an over-limit upload always gets a readable 413, and a
// burst past GATEHOUSE_MAX_CONNECTIONS, or past one address's share, gets answers (200, or 503 +
// Retry-After), never resets.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app.ts';
import { PATIENCE_MS } from '../helpers/wait.ts';

interface Exchange {
  /** Everything the server sent. */
  response: string;
  /** The socket error seen, if any (EPIPE, ECONNRESET). */
  error: string | null;
}

/** Sends `request` on a fresh connection (already open when `opened` resolves) and collects the answer until the server closes. */
function exchange(url: string): { opened: Promise<void>; send: (request: Buffer | string) => Promise<Exchange> } {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  let error: string | null = null;
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', (err: NodeJS.ErrnoException) => (error ??= err.code ?? err.message));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const opened = new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return {
    opened,
    async send(request) {
      socket.write(request);
      // Answers come with Connection: close, so the server ends every exchange; a hang fails the test by timeout.
      await closed;
      return { response: Buffer.concat(chunks).toString('latin1'), error };
    },
  };
}

/** Waits (up to PATIENCE_MS) until the server holds at least `count` open connections. */
async function accepted(app: TestApp, count: number): Promise<void> {
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    const open = await new Promise<number>((resolve, reject) => app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
    if (open >= count) return;
    if (Date.now() > deadline) throw new Error(`the server accepted ${open} of ${count} connections`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

/**
 * `count` GET /v1/users at once, each on a new connection from `localAddress` (any of 127.0.0.0/8 is
 * loopback), as an HTTP client sends them: each answer, or the socket error that took its place.
 */
function burst(url: string, count: number, localAddress = '127.0.0.1'): Promise<(Answer | { error: string })[]> {
  const { port } = new URL(url);
  return Promise.all(Array.from({ length: count }, () => new Promise<Answer | { error: string }>((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port: Number(port), localAddress, path: '/v1/users?page_size=1', agent: false, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end();
  })));
}

/** Fails unless every outcome is an answer: a 200, or a 503 with Retry-After in the one error shape. */
function assertAllAnswered(outcomes: (Answer | { error: string })[]): Answer[] {
  const errors = outcomes.filter((o): o is { error: string } => 'error' in o).map((o) => o.error);
  assert.deepEqual(errors, [], `${errors.length} of ${outcomes.length} requests got no answer`);
  const answers = outcomes as Answer[];
  for (const answer of answers) {
    if (answer.status === 200) continue;
    assert.equal(answer.status, 503, answer.body);
    assert.equal(answer.retryAfter, '1');
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'message', 'request_id']);
    assert.equal(body.code, 'unavailable');
    assert.match(String(body.message), /share of \d+ open connections/);
  }
  return answers;
}

/**
 * A request from `localAddress` as a client sends it (the head written on connect), with `Expect:
 * 100-continue`: `first` resolves when the server has either taken the request (its 100 Continue: the
 * connection is busy, so it is never shed) or answered it outright. `finish` sends the body if the server
 * asked for it and resolves with the final answer, or the socket error that took its place.
 */
function heldRequest(url: string, localAddress: string): { first: Promise<void>; finish: () => Promise<Answer | { error: string }> } {
  const { port } = new URL(url);
  const body = JSON.stringify({ email: `held-${randomUUID()}@example.com`, full_name: 'Held' });
  const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress }, () => {
    socket.write(`POST /v1/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nConnection: close\r\n`
      + `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`);
  });
  let received = '';
  let error: string | null = null;
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const first = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n\r\n')) resolve();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error ??= err.code ?? err.message;
      resolve();
    });
  });
  return {
    first,
    async finish() {
      if (received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) socket.end(body);
      await closed;
      if (error !== null) return { error };
      const answer = received.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
      const [head = '', text = ''] = answer.split('\r\n\r\n');
      return { status: statusOf(answer), retryAfter: /\r\nretry-after: (\S+)/i.exec(head)?.[1], body: text };
    },
  };
}

/** Waits (up to PATIENCE_MS) until the server holds no open connection. */
async function closedAll(app: TestApp): Promise<void> {
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    const open = await new Promise<number>((resolve, reject) => app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
    if (open === 0) return;
    if (Date.now() > deadline) throw new Error(`the server still holds ${open} connections`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3}) /.exec(response)?.[1] ?? 0);

describe('connections', () => {
  it('an upload over GATEHOUSE_MAX_BODY_BYTES always reads its 413 (the body is drained, not cut off)', async () => {
    const app = await startTestApp({ env: { GATEHOUSE_MAX_BODY_BYTES: '4096' } });
    try {
      // Larger than the loopback socket buffers, so the client is still sending when the server answers;
      // within the drain bound (8 MiB), so the server reads it to the end before closing.
      const body = Buffer.alloc(6 * 1024 * 1024, 'x');
      const head = `POST /v1/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      const outcomes: Exchange[] = [];
      for (let round = 0; round < 5; round++) {
        outcomes.push(...(await Promise.all(Array.from({ length: 4 }, async () => {
          const conn = exchange(app.url);
          await conn.opened;
          return conn.send(Buffer.concat([Buffer.from(head), body]));
        }))));
      }
      // A client that writes its whole body before reading (most do) reports a write error (EPIPE,
      // ECONNRESET) instead of the answer when the server closes early: so no error is allowed either.
      const failed = outcomes.filter((o) => statusOf(o.response) !== 413 || o.error !== null);
      assert.deepEqual(failed.map((o) => o.error ?? o.response.slice(0, 40)), [], `${failed.length} of ${outcomes.length} uploads did not end with a clean 413`);
      assert.ok(outcomes.every((o) => o.response.includes('"payload_too_large"')));
      const users = await app.api.get('/users');
      assert.equal(users.body.results.length, 1, 'nothing was created');
    } finally {
      await app.close();
    }
  });

  it('a burst past GATEHOUSE_MAX_CONNECTIONS gets 200s and 503s with Retry-After, and no resets', async () => {
    const limit = 20;
    const app = await startTestApp({ env: { GATEHOUSE_MAX_CONNECTIONS: String(limit) } });
    try {
      const clients = Array.from({ length: limit + limit / 2 }, () => exchange(app.url));
      // Every connection is accepted by the server before any request is sent (a client's connect
      // can complete in the kernel's backlog before the server has accepted it).
      await Promise.all(clients.map((c) => c.opened));
      await accepted(app, clients.length);
      const outcomes = await Promise.all(clients.map((client, i) => {
        const body = JSON.stringify({ email: `burst${i}@example.com`, full_name: `Burst ${i}` });
        return client.send(
          `POST /v1/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nConnection: close\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      }));
      const statuses = outcomes.map((o) => statusOf(o.response));
      assert.deepEqual(outcomes.filter((o) => o.error !== null).map((o) => o.error), [], 'no connection was reset');
      assert.deepEqual([...new Set(statuses)].sort(), [200, 503], `statuses: ${statuses.join(' ')}`);
      assert.equal(statuses.filter((s) => s === 200).length, limit, 'the connections within the limit were served');
      for (const o of outcomes.filter((x) => statusOf(x.response) === 503)) {
        assert.match(o.response, /\r\nretry-after: 1\r\n/i);
        assert.match(o.response, /"code":"unavailable"/);
      }
      const users = await app.api.get('/users', { page_size: 1000 });
      assert.equal(users.body.results.length, 1 + limit, 'a refused request wrote nothing');
    } finally {
      await app.close();
    }
  });

  it('400 requests at once from one address get 400 answers: 200s for its share, 503 with Retry-After for the rest, no resets', async () => {
    const app = await startTestApp();
    try {
      const share = app.ctx.config.maxConnectionsPerAddress;
      // Every request is sent, and held until all have been taken or answered: then all 400 are open at once.
      const requests = Array.from({ length: 400 }, () => heldRequest(app.url, '127.0.0.4'));
      await Promise.all(requests.map((r) => r.first));
      assert.equal((await app.api.get('/users', { page_size: 1 })).status, 200, 'another address is served meanwhile');
      const answers = assertAllAnswered(await Promise.all(requests.map((r) => r.finish())));
      assert.equal(answers.filter((a) => a.status === 200).length, share, 'the address is served within its share');
      assert.equal(answers.filter((a) => a.status === 503).length, 400 - share);
      const users = await app.api.get('/users', { page_size: 1000 });
      assert.equal(users.body.results.length, 1 + share, 'a refused request wrote nothing');
    } finally {
      await app.close();
    }
  });

  it('an address holding its whole share has every further connection answered 503 at once; other addresses are served, and so is it once a slot is free', async () => {
    const share = 10;
    const app = await startTestApp({ env: { GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS: String(share) } });
    try {
      const held = Array.from({ length: share }, () => heldRequest(app.url, '127.0.0.5'));
      await Promise.all(held.map((h) => h.first));
      const answers = assertAllAnswered(await burst(app.url, 400, '127.0.0.5'));
      assert.deepEqual([...new Set(answers.map((a) => a.status))], [503], 'past its share, every connection is answered 503');
      assertAllAnswered(await burst(app.url, 5, '127.0.0.6')).forEach((a) => assert.equal(a.status, 200, 'another address is served'));
      assert.deepEqual(assertAllAnswered(await Promise.all(held.map((h) => h.finish()))).map((a) => a.status), Array(share).fill(200), 'the held requests are answered');
      await closedAll(app);
      const [after] = assertAllAnswered(await burst(app.url, 1, '127.0.0.5'));
      assert.equal(after!.status, 200, 'with its slots free, the address is served again');
    } finally {
      await app.close();
    }
  });
});
