// Shutting down with heavy reads still on a read worker: the server drains its requests first — their
// handlers included, even when the client already left — and only then stops the read workers, so no read
// in flight is answered 500 "read worker stopped" or left counted as bytes waiting for a client (a read
// still waiting whose client has left is dropped unrun: src/reads/pool.ts).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { before, describe, it } from 'node:test';
import type { ReadPool } from '../../src/reads/pool.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createResource } from '../helpers/fixtures.ts';
import { PATIENCE_MS } from '../helpers/wait.ts';

/**
 * The shutdown's grace period (GATEHOUSE_SHUTDOWN_TIMEOUT_MS, 10 s by default) is wall time: on a loaded
 * machine the gated read can take longer than that, the grace runs out and the connection is cut ("other
 * side closed"), which is not what these tests are about. Here it only turns a hang into a failure.
 */
const env = { GATEHOUSE_SHUTDOWN_TIMEOUT_MS: String(PATIENCE_MS) };

/** Heavy reads (more rows than are built on the main thread) go to a read worker. */
const HEAVY_READ = '/resources?page_size=200';

/**
 * Holds every heavy read at the door of the real pool until `open()`: the test then knows a read is in
 * its handler, and decides when it goes on. `order` records what happened, in order.
 */
function gatePool(reads: ReadPool, order: string[]): { reached: Promise<void>; open(): void } {
  let reachedNow = () => {};
  const reached = new Promise<void>((resolve) => (reachedNow = resolve));
  let openNow = () => {};
  const gate = new Promise<void>((resolve) => (openNow = resolve));
  const answer = reads.answer.bind(reads);
  const stop = reads.stop.bind(reads);
  reads.answer = (async (...args: Parameters<ReadPool['answer']>) => {
    reachedNow();
    await gate;
    try {
      const page = await answer(...args);
      order.push('read answered');
      return page;
    } catch (err) {
      order.push(`read refused: ${(err as { code?: string }).code}`);
      throw err;
    }
  }) as ReadPool['answer'];
  reads.stop = async () => {
    order.push('read workers stopped');
    await stop();
  };
  return { reached, open: () => openNow() };
}

describe('shutdown with heavy reads on a read worker', () => {
  let app: TestApp;
  let readsBefore: ReadPool;
  before(async () => {
    app = await startTestApp({ env });
    readsBefore = app.ctx.reads;
    const appId = (await createApp(app.api)).app_id;
    for (let i = 0; i < 3; i++) await createResource(app.api, { app_id: appId });
  });

  it('answers a read whose client is still there, then stops the workers', async () => {
    assert.ok(readsBefore.workers > 0, 'the pool runs workers for a file database');
    const order: string[] = [];
    const gate = gatePool(app.ctx.reads, order);
    const answer = fetch(`${app.url}${HEAVY_READ}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    await gate.reached;
    const closed = app.close();
    gate.open();
    const res = await answer;
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { results: unknown[] }).results.length, 3);
    await closed;
    assert.deepEqual(order, ['read answered', 'read workers stopped']);
    assert.deepEqual(app.logs.filter((line) => line.level === 'error'), []);
  });
});

describe('shutdown with a heavy read whose client has left', () => {
  it('drops the read unrun (nobody to answer), ends its handler, then stops the workers; no bytes left counted', async () => {
    const app = await startTestApp({ env });
    const appId = (await createApp(app.api)).app_id;
    for (let i = 0; i < 3; i++) await createResource(app.api, { app_id: appId });
    const order: string[] = [];
    const gate = gatePool(app.ctx.reads, order);
    const req = request(`${app.url}${HEAVY_READ}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    req.on('error', () => undefined); // destroyed below, on purpose
    req.end();
    await gate.reached;
    // The client leaves while its read waits: once the server has seen it go, no connection is left.
    req.destroy();
    const closed = app.close();
    // Only once the connections have drained does the read go on: its client is gone, so the pool drops it
    // rather than run it for nobody (a read already running would finish on its worker first: the test above).
    app.server.once('close', () => {
      order.push('connections drained');
      gate.open();
    });
    await closed;
    assert.deepEqual(order, ['connections drained', 'read refused: unavailable', 'read workers stopped']);
    assert.equal(app.ctx.reads.unsentBytes, 0, 'the page of a client who left is not counted as waiting for it');
    assert.deepEqual(app.logs.filter((line) => line.level === 'error'), []);
  });
});
