// A page built on a read worker reaches the socket as the worker's own UTF-8 bytes (a transferred
// buffer, never a string copied onto the main heap), and those bytes are freed as soon as the response
// has been sent rather than when the main heap next collects (issue 21: RSS under big pages).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { parse } from '../../src/http/parse.ts';
import { sendJson } from '../../src/http/router.ts';
import { ListResourcesQuery } from '../../src/modules/resources/schemas.ts';
import { PAGES_IN_FLIGHT } from '../../src/reads/pool.ts';
import type { JsonText } from '../../src/http/json-text.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createResource } from '../helpers/fixtures.ts';
import { until } from '../helpers/wait.ts';

describe('pages from read workers', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
    const appId = (await createApp(app.api)).app_id;
    for (let i = 0; i < 5; i++) await createResource(app.api, { app_id: appId, description: 'd'.repeat(1000) });
  });
  after(() => app.close());

  it('arrive as transferred bytes, are sent as they are, and are freed once sent', async () => {
    assert.ok(app.ctx.reads.workers > 0, 'the pool runs workers for a file database');
    const query = parse(ListResourcesQuery, { page_size: '500' }, 'query');
    const page = await app.ctx.reads.answer('resources.list', { query, viewer: null }, app.adminUserId, app.clock.now());
    assert.ok(page.text instanceof Uint8Array, 'the worker answered a string: the main thread holds a copy of the page');
    const bytes = page.text;
    const length = bytes.byteLength;
    const expected = JSON.parse(Buffer.from(bytes).toString('utf8'));
    assert.equal(expected.results.length, 5);

    const server: Server = createServer((_req, res) => sendJson(res, 200, page));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      assert.equal(res.headers.get('content-length'), String(length));
      assert.deepEqual(await res.json(), expected);
      // Detached (byteLength 0) once the socket has sent it: its memory went back at once.
      await until(() => bytes.byteLength === 0, 'the page bytes freed after the response was sent');
      assert.equal(app.ctx.reads.unsentBytes, 0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('are counted as gone when the reply arrives after the response was already sent', async () => {
    const query = parse(ListResourcesQuery, { page_size: '500' }, 'query');
    const page = await app.ctx.reads.answer('resources.list', { query, viewer: null }, app.adminUserId, app.clock.now());
    assert.ok(app.ctx.reads.unsentBytes > 0);
    let late: unknown;
    // Something else answered first (a timeout, an error answer); then the router's reply arrives.
    const server: Server = createServer((_req, res) => {
      res.writeHead(503, { 'Content-Length': 0 }).end();
      try {
        sendJson(res, 200, page);
      } catch (err) {
        late = err;
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      assert.equal(res.status, 503);
      await res.arrayBuffer();
      assert.equal((late as { code?: string } | undefined)?.code, 'ERR_HTTP_HEADERS_SENT', 'the late reply is refused as before');
      assert.equal(app.ctx.reads.unsentBytes, 0, 'the late page is still counted as waiting for its client');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('pages answered but not yet read by their clients', () => {
  const MAX_PAGE_BYTES = 16 * 1024;
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { GATEHOUSE_MAX_PAGE_BYTES: String(MAX_PAGE_BYTES) } });
    const appId = (await createApp(app.api)).app_id;
    // Enough for a full page: each answer is about MAX_PAGE_BYTES.
    for (let i = 0; i < 20; i++) await createResource(app.api, { app_id: appId, description: 'd'.repeat(1000) });
  });
  after(() => app.close());

  it('are bounded all together: past PAGES_IN_FLIGHT pages\' bytes a big page answers 503 until one is sent', async () => {
    const query = parse(ListResourcesQuery, { page_size: '500' }, 'query');
    const ask = () => app.ctx.reads.answer('resources.list', { query, viewer: null }, app.adminUserId, app.clock.now());
    const held: JsonText[] = [];
    let refused: unknown;
    // Pages nobody reads, as from clients that ask and never read.
    while (held.length < 4 * PAGES_IN_FLIGHT) {
      try {
        held.push(await ask());
      } catch (err) {
        refused = err;
        break;
      }
    }
    assert.ok(refused, 'pages were answered without bound');
    assert.equal((refused as { code: string }).code, 'unavailable');
    assert.ok(held.length >= PAGES_IN_FLIGHT / 2 && held.length <= 2 * PAGES_IN_FLIGHT, `${held.length} pages held`);
    assert.ok(app.ctx.reads.unsentBytes > PAGES_IN_FLIGHT * MAX_PAGE_BYTES);
    // One client reads its page (or leaves): room again.
    held.shift()!.release();
    held.shift()!.settle();
    held.push(await ask());
    for (const page of held) page.settle();
    assert.equal(app.ctx.reads.unsentBytes, 0);
  });
});
