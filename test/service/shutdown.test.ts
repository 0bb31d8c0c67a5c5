// SIGTERM/SIGINT on a real child process: stop accepting, let requests in flight finish within the
// grace period, checkpoint and close the database, log it, exit 0.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../src/db/migrations.ts';
import { ServiceProcess } from './helpers/gatehouse-process.ts';

const TOKEN = 'gth_shutdown-test-admin-token-0123456789';

interface HeldRequest {
  req: ClientRequest;
  response: Promise<{ status: number; body: string }>;
  /** The rest of the body: the server cannot answer before it gets it. */
  finish(): void;
}

/**
 * Starts POST /v1/users and holds it open inside the server: the headers ask for
 * `100 Continue`, which the server sends once it has taken the request in, so when this resolves
 * the request is provably in flight. The body is sent only when finish() is called.
 */
async function holdRequest(url: string, body: unknown): Promise<HeldRequest> {
  const text = JSON.stringify(body);
  const req = request(`${url}/users`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      expect: '100-continue',
    },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res: IncomingMessage) => {
      let data = '';
      res.setEncoding('utf8').on('data', (c: string) => (data += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  response.catch(() => undefined); // observed by the tests that expect a failure
  req.flushHeaders();
  await new Promise<void>((resolve) => req.once('continue', resolve));
  return { req, response, finish: () => req.end(text) };
}

describe('shutdown', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-shutdown-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const env = (extra: Record<string, string> = {}) => ({
    ...process.env,
    GATEHOUSE_LOG_LEVEL: 'info',
    GATEHOUSE_BOOTSTRAP_TOKEN: TOKEN,
    ...extra,
  });

  it('on SIGTERM refuses new connections, finishes the request in flight, checkpoints, closes and exits 0', async () => {
    const db = join(dir, 'term.db');
    const service = await ServiceProcess.start(['--db', db, '--port', '0'], { env: env() });
    try {
      const starting = service.logs.find((r) => r.msg === 'starting');
      assert.ok(starting, 'a start-up line');
      assert.equal(starting.schema_version, MIGRATIONS.length);
      assert.ok(Array.isArray(starting.migrations_applied) && starting.migrations_applied.length > 0);

      const held = await holdRequest(service.url, { email: 'late@example.com', full_name: 'Late Comer' });
      service.child.kill('SIGTERM');
      const shuttingDown = await service.waitFor((r) => r.msg === 'shutting down');
      assert.equal(shuttingDown.signal, 'SIGTERM');
      assert.equal(shuttingDown.in_flight, 1);

      await assert.rejects(fetch(`${service.url.replace(/\/v1$/, '')}/healthz`), 'no new connections once shutting down');

      held.finish();
      const answer = await held.response;
      assert.equal(answer.status, 200, answer.body);
      const created = JSON.parse(answer.body) as { user_id: string };

      assert.deepEqual(await service.exited, { code: 0, signal: null });
      const stopped = service.logs.find((r) => r.msg === 'stopped');
      assert.ok(stopped, 'a shutdown line');
      assert.equal(stopped.abandoned_requests, 0);
      assert.equal((stopped.checkpoint as { busy: number }).busy, 0);
      // Checkpointed and closed: everything is in the main file, no WAL left to replay.
      assert.ok(!existsSync(`${db}-wal`) || statSync(`${db}-wal`).size === 0);

      const file = new Database(db, { readonly: true });
      try {
        assert.equal(file.prepare('SELECT email FROM users WHERE id = ?').pluck().get(created.user_id), 'late@example.com');
      } finally {
        file.close();
      }
    } finally {
      await service.stop('SIGKILL');
    }
  });

  it('cuts a request that outlives GATEHOUSE_SHUTDOWN_TIMEOUT_MS and still exits 0', async () => {
    const db = join(dir, 'grace.db');
    const service = await ServiceProcess.start(['--db', db, '--port', '0'], { env: env({ GATEHOUSE_SHUTDOWN_TIMEOUT_MS: '200' }) });
    try {
      const held = await holdRequest(service.url, { email: 'never@example.com', full_name: 'Never Finishes' });
      service.child.kill('SIGTERM');
      await assert.rejects(held.response, 'the stalled request is cut off');
      assert.deepEqual(await service.exited, { code: 0, signal: null });
      const stopped = service.logs.find((r) => r.msg === 'stopped');
      assert.equal(stopped?.abandoned_requests, 1);
    } finally {
      await service.stop('SIGKILL');
    }
  });

  it('stops the same way on SIGINT', async () => {
    const service = await ServiceProcess.start(['--db', join(dir, 'int.db'), '--port', '0'], { env: env() });
    try {
      const health = await fetch(`${service.url.replace(/\/v1$/, '')}/healthz`);
      assert.equal(health.status, 200);
      assert.deepEqual(await service.stop('SIGINT'), { code: 0, signal: null });
      assert.deepEqual(
        service.logs.filter((r) => r.msg === 'shutting down' || r.msg === 'stopped').map((r) => [r.msg, r.signal]),
        [['shutting down', 'SIGINT'], ['stopped', 'SIGINT']],
      );
    } finally {
      await service.stop('SIGKILL');
    }
  });
});
