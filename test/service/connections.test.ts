// Rough networks, on real loopback sockets: an over-limit upload always gets a readable 413, and a
// burst past GATEHOUSE_MAX_CONNECTIONS gets answers (200, or 503 + Retry-After), never resets.
import assert from 'node:assert/strict';
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
});
