// Issue 21's findings, each through HTTP or a raw socket: the work budget of a heavy read, pages bounded
// by bytes, record caps, the write limit, lone surrogates, and what Node would answer outside the one
// error shape (431, malformed framing, no Host), and client aborts kept out of the error log.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createMember, createResource, createToken, createUser } from '../helpers/fixtures.ts';
import { makeRequest, ownerOf, postRequest, requestableResource } from '../helpers/requests.ts';
import { until } from '../helpers/wait.ts';
import { limitWrites } from '../../src/http/write-rate.ts';

/** Sends `raw` on a new connection to the app and answers everything the server wrote until it closed. */
function rawExchange(app: TestApp, raw: string | Buffer): Promise<string> {
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(raw));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    // A reset after the whole answer arrived (the server closing on input it will not read) still leaves the answer.
    socket.on('error', (err) => (chunks.length > 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(err)));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** The status and JSON body of a raw HTTP/1.1 answer; fails when the body is not the one error shape. */
function errorAnswer(text: string): { status: number; body: { code: string; message: string; request_id: string } } {
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(text)?.[1]);
  const [head, body = ''] = text.split('\r\n\r\n');
  assert.match(head!, /content-type: application\/json/i, text);
  const parsed = JSON.parse(body);
  assert.deepEqual(Object.keys(parsed).sort(), ['code', 'details', 'message', 'request_id'], text);
  return { status, body: parsed };
}

describe('hostile input', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { GATEHOUSE_READ_BUDGET_ROWS: '5' } });
  });
  after(() => app.close());

  it('refuses a node query needing more work than one request may do, naming the filter to narrow', async () => {
    const appRecord = await createApp(app.api);
    for (let i = 0; i < 3; i++) await createResource(app.api, { app_id: appRecord.app_id });
    for (let i = 0; i < 3; i++) await createUser(app.api);
    const res = await app.api.post('/queries/run', { type: 'NODE', query: { accessFilters: { isAccessibleBy: {} } } });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.code, 'validation_failed');
    assert.deepEqual(res.body.details.map((d: { path: string }) => d.path), ['query.accessFilters.isAccessibleBy']);
    assert.match(res.body.message, /narrow it/);
    // A narrow one runs (on a read worker: the pool is on for a file database).
    assert.ok(app.ctx.reads.workers > 0);
    const narrow = await app.api.post('/queries/run', { type: 'NODE', query: { accessFilters: { isAccessibleBy: { entityIDs: [app.adminUserId] } } } });
    assert.equal(narrow.status, 200, JSON.stringify(narrow.body));
  });

  it('refuses a request whose custom fields together are over the cap, naming custom_metadata', async () => {
    const member = await createMember(app.api);
    const owner = await ownerOf(app, member.user);
    const resource = await requestableResource(app, owner.owner_id);
    const field = (i: number) => ({ name: `f${i}`, type: 'LONG_TEXT', value: 'x'.repeat(10_000) });
    const res = await postRequest(member.api, { resources: [{ id: resource.resource_id }], custom_metadata: [0, 1, 2].map(field) });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.deepEqual(res.body.details.map((d: { path: string }) => d.path), ['custom_metadata']);
  });

  it('refuses lone surrogates with 400 naming the field, and stores nothing', async () => {
    const ownersBefore = (await app.api.get('/owners', { page_size: 1000 })).body.results.length;
    for (const name of ['\\ud800', 'a\\udfffb', '\\ud83d']) {
      const res = await app.api.post('/owners', undefined, { rawBody: `{"name":"${name}"}`, headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(res.body.details.map((d: { path: string }) => d.path), ['name']);
    }
    const nested = await app.api.post('/tokens', undefined, { rawBody: '{"label":"ok","x":{"k\\udc00":1}}', headers: { 'content-type': 'application/json' } });
    assert.equal(nested.status, 400);
    assert.deepEqual(nested.body.details.map((d: { path: string }) => d.path), ['x.k\udc00']);
    assert.equal((await app.api.get('/owners', { page_size: 1000 })).body.results.length, ownersBefore);
    // A well-formed pair is text like any other.
    const pair = await app.api.post('/owners', undefined, { rawBody: '{"name":"smile \\ud83d\\ude00","user_ids":[]}', headers: { 'content-type': 'application/json' } });
    assert.equal(pair.status, 200, JSON.stringify(pair.body));
    assert.equal(pair.body.name, 'smile 😀');
  });

  it('answers a request head over the limit with 431 in the error shape, and takes the documented 1,000-id filter', async () => {
    const big = errorAnswer(await rawExchange(app, `GET /v1/users HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(200_000)}\r\n\r\n`));
    assert.equal(big.status, 431);
    assert.equal(big.body.code, 'headers_too_large');
    const ids = Array.from({ length: 1000 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const res = await app.api.get('/resources', { resource_ids: ids });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });

  it('answers malformed framing and a missing Host in the error shape', async () => {
    const framing = errorAnswer(await rawExchange(app, 'GET /v1/users HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n'));
    assert.equal(framing.status, 400);
    assert.equal(framing.body.code, 'validation_failed');
    const garbage = errorAnswer(await rawExchange(app, 'NOT HTTP AT ALL\r\n\r\n'));
    assert.equal(garbage.status, 400);
    const noHost = errorAnswer(await rawExchange(app, 'GET /v1/users HTTP/1.1\r\nConnection: close\r\n\r\n'));
    assert.equal(noHost.status, 400);
    assert.match(noHost.body.message, /Host/);
  });

  it('logs a client that aborts its upload at info level, not as an error', async () => {
    const before = app.logs.length;
    const { port } = new URL(app.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(`POST /v1/owners HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.api.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`);
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
    });
    // The server sees the close on its next turn; wait for its log line rather than a fixed time.
    await until(() => app.logs.slice(before).some((l) => l.msg === 'client aborted'), 'the aborted upload logged').catch(() => undefined);
    const lines = app.logs.slice(before);
    assert.ok(lines.some((l) => l.msg === 'client aborted' && l.level === 'info'), JSON.stringify(lines));
    assert.deepEqual(lines.filter((l) => l.level === 'error'), []);
  });
});

describe('pages bounded by bytes', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { GATEHOUSE_MAX_PAGE_BYTES: '16384' } });
  });
  after(() => app.close());

  for (const pageSize of [50, 500]) {
    it(`cuts a page of ${pageSize} at the byte bound and serves the rest through its cursor (${pageSize > 100 ? 'read worker' : 'main thread'})`, async () => {
      const appRecord = pageSize === 50 ? await createApp(app.api) : null;
      if (appRecord) for (let i = 0; i < 12; i++) await createResource(app.api, { app_id: appRecord.app_id, description: 'd'.repeat(2000) });
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const res = await app.api.get('/resources', { page_size: pageSize, cursor });
        assert.equal(res.status, 200);
        assert.ok(Buffer.byteLength(JSON.stringify(res.body)) <= 16384 + 4096, 'page over the bound');
        seen.push(...res.body.results.map((r: { resource_id: string }) => r.resource_id));
        cursor = res.body.next ?? undefined;
        pages++;
      } while (cursor);
      assert.ok(pages >= 2, `${pages} page(s)`);
      assert.equal(new Set(seen).size, seen.length);
      assert.ok(seen.length >= 12);
    });
  }

  it('cuts a page of events at the byte bound (each event\'s bytes kept), every event once through the cursors, in order', async () => {
    const appRecord = await createApp(app.api);
    for (let i = 0; i < 12; i++) await createResource(app.api, { app_id: appRecord.app_id, description: 'e'.repeat(2000) });
    const walk = async (pageSize: number) => {
      const seen: { event_id: string; event_type: string }[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const res = await app.api.get('/events', { page_size: pageSize, cursor });
        assert.equal(res.status, 200);
        assert.ok(Buffer.byteLength(JSON.stringify(res.body)) <= 16384, 'page over the bound');
        seen.push(...res.body.results);
        cursor = res.body.next ?? undefined;
        pages++;
      } while (cursor);
      return { seen, pages };
    };
    const big = await walk(100);
    assert.ok(big.pages >= 2, `${big.pages} page(s)`);
    assert.equal(new Set(big.seen.map((e) => e.event_id)).size, big.seen.length);
    assert.ok(big.seen.filter((e) => e.event_type === 'RESOURCES_CREATED').length >= 12);
    // Cut elsewhere (three a page: by count, never by bytes), the same events in the same order.
    assert.deepEqual((await walk(3)).seen, big.seen);
  });
});

describe('relay pages bounded by bytes', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { GATEHOUSE_MAX_PAGE_BYTES: '16384' } });
  });
  after(() => app.close());

  it('cuts GET /requests/relay at the byte bound, forward and backward, and serves the rest through its cursors', async () => {
    const member = await createMember(app.api);
    const owner = await ownerOf(app, member.user);
    const resource = await requestableResource(app, owner.owner_id);
    // Ten requests of ~5 KB each: 50 KB, over three times the bound.
    const made: string[] = [];
    for (let i = 0; i < 10; i++) made.push(await makeRequest(member.api, { resources: [{ id: resource.resource_id }], reason: `${i} ${'r'.repeat(4990)}` }));
    const walk = async (forward: boolean) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      for (;;) {
        const res = await app.api.get('/requests/relay', forward ? { first: 100, after: cursor } : { last: 100, before: cursor });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.ok(Buffer.byteLength(JSON.stringify(res.body)) <= 16384 + 4096, 'page over the bound');
        assert.ok(res.body.edges.length >= 1);
        // Each page newest first, whichever way it was paged.
        const ids = res.body.edges.map((e: { node: { id: string } }) => e.node.id);
        seen.push(...(forward ? ids : ids.reverse()));
        pages++;
        const more = forward ? res.body.pageInfo.hasNextPage : res.body.pageInfo.hasPreviousPage;
        if (!more) break;
        cursor = forward ? res.body.pageInfo.endCursor : res.body.pageInfo.startCursor;
      }
      return { seen, pages };
    };
    const forward = await walk(true);
    assert.ok(forward.pages >= 3, `${forward.pages} page(s)`);
    assert.deepEqual(forward.seen, [...made].reverse());
    const backward = await walk(false);
    assert.ok(backward.pages >= 3, `${backward.pages} page(s)`);
    assert.deepEqual(backward.seen, made);
  });
});

describe('write limit', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { GATEHOUSE_WRITE_RATE_LIMIT: '3', GATEHOUSE_WRITE_RATE_WINDOW_MS: '60000' } });
  });
  after(() => app.close());

  it('answers 429 with Retry-After past the limit per user, keeps reads, and lets writes again after the window', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await app.api.post('/owners', { name: `limited ${i}`, user_ids: [] })).status, 200);
    const refused = await app.api.post('/owners', { name: 'one too many', user_ids: [] });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'too_many_requests');
    assert.equal(refused.headers.get('retry-after'), '60');
    assert.equal((await app.api.get('/owners')).status, 200);
    // Nothing was written by the refused call.
    const owners = await app.api.get('/owners', { page_size: 100 });
    assert.ok(!owners.body.results.some((o: { name: string }) => o.name === 'one too many'));
    app.clock.advance(60_000);
    assert.equal((await app.api.post('/owners', { name: 'after the window', user_ids: [] })).status, 200);
  });

  it('holds windows only for users who wrote within the last window, however many wrote before (issue 42)', () => {
    const limiter = limitWrites(app.ctx, { limit: 3 });
    const write = (userId: string) => limiter({ method: 'POST', path: '/v1/owners', caller: { userId } } as never, {} as never, () => {});
    for (let i = 0; i < 500; i++) write(`user-${i}`);
    assert.equal(limiter.tracked(), 500);
    app.clock.advance(60_000);
    write('one more');
    assert.equal(limiter.tracked(), 1, 'the windows that ended are dropped as a new one opens');
    // A user writing again in a new window is counted afresh, in its place among the newest.
    write('user-1');
    app.clock.advance(30_000);
    write('user-2');
    assert.equal(limiter.tracked(), 3);
    app.clock.advance(30_000);
    write('user-3');
    assert.equal(limiter.tracked(), 2, 'one more and user-1 ended; user-2 and user-3 remain');
  });

  it('counts only writes that passed the policy: a READ_ONLY token\'s refused writes use none of its user\'s budget', async () => {
    app.clock.advance(60_000);
    const member = await createMember(app.api);
    app.clock.advance(60_000);
    const readOnly = app.api.as((await createToken(app.api, { user_id: member.user_id, access_level: 'READ_ONLY' })).secret);
    const owner = await ownerOf(app, member.user);
    app.clock.advance(60_000);
    const resource = await requestableResource(app, owner.owner_id);
    // Every window starts afresh: what follows is all the member does in one.
    app.clock.advance(60_000);
    for (let i = 0; i < 5; i++) assert.equal((await readOnly.post('/owners', { name: `refused ${i}`, user_ids: [] })).status, 403);
    // The same user's full token still has its three writes (POST /requests/relay does not exist: nor does it count).
    assert.equal((await member.api.post('/requests/relay', {})).status, 405);
    for (let i = 0; i < 3; i++) assert.equal((await postRequest(member.api, { resources: [{ id: resource.resource_id }] })).status, 200);
    assert.equal((await postRequest(member.api, { resources: [{ id: resource.resource_id }] })).status, 429);
  });
});

describe('connection slots', () => {
  /** A connection from `localAddress` (any of 127.0.0.0/8 is loopback) that sends nothing; resolves once the server has either kept or closed it. */
  function silentSocket(app: TestApp, localAddress: string) {
    const { port } = new URL(app.url);
    const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress });
    let closed = false;
    let received = '';
    socket.on('data', (chunk: Buffer) => void (received += chunk.toString('utf8')));
    socket.on('close', () => void (closed = true)).on('error', () => {});
    return { socket, isClosed: () => closed, received: () => received, opened: new Promise((resolve) => socket.once('connect', resolve)) };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

  it('gives each address its share: one past GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS is answered 503 at once and closed, other addresses are served', async () => {
    const app = await startTestApp({ env: { GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS: '5' } });
    try {
      const hog = Array.from({ length: 6 }, () => silentSocket(app, '127.0.0.2'));
      await Promise.all(hog.map((s) => s.opened));
      await until(() => hog.some((s) => s.isClosed()), 'a connection past the share is closed');
      await settle();
      const closed = hog.filter((s) => s.isClosed());
      assert.equal(closed.length, 1, 'the sixth connection of one address is closed');
      const answer = errorAnswer(closed[0]!.received());
      assert.equal(answer.status, 503);
      assert.equal(answer.body.code, 'unavailable');
      assert.match(closed[0]!.received(), /\r\nRetry-After: 1\r\n/i);
      const res = await app.api.get('/users');
      assert.equal(res.status, 200, 'another address is served');
      hog.forEach((s) => s.socket.destroy());
    } finally {
      await app.close();
    }
  });

  it('when the table is full, sheds a connection that never sent a request to serve a client that does', async () => {
    const app = await startTestApp({ env: { GATEHOUSE_MAX_CONNECTIONS: '5', GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS: '0' } });
    try {
      const hog = Array.from({ length: 5 }, () => silentSocket(app, '127.0.0.3'));
      await Promise.all(hog.map((s) => s.opened));
      // Only a connection silent for a while is shed (SHED_AFTER_MS, 1 s: network time, not the app's clock).
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const res = await app.api.get('/users');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await settle();
      assert.equal(hog.filter((s) => s.isClosed()).length, 1, 'one silent connection made room');
      hog.forEach((s) => s.socket.destroy());
    } finally {
      await app.close();
    }
  });
});

describe('the audit trail says why', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  /** The sub-events of `type` recorded for request `id`. */
  const subEvents = async (type: string, id: string) =>
    (await app.api.get('/events', { event_type_filter: type, page_size: 1000 })).body.results
      .flatMap((e: { sub_events: Record<string, unknown>[] }) => e.sub_events)
      .filter((sub: Record<string, unknown>) => sub.request_id === id && (sub.requester_id !== undefined || sub.comment_id !== undefined));

  it('records the reason, each decision\'s words and each comment in the chained events', async () => {
    const requester = await createMember(app.api);
    const reviewer = await createMember(app.api);
    const owner = await ownerOf(app, reviewer.user);
    const resource = await requestableResource(app, owner.owner_id);
    const approved = await makeRequest(requester.api, { resources: [{ id: resource.resource_id }], reason: 'on call this week for the billing service' });
    assert.equal((await reviewer.api.post(`/requests/${approved}/comments`, { comment: 'which incident?' })).status, 200);
    assert.equal((await reviewer.api.post(`/requests/${approved}/approve`, { level: 'REGULAR', comment: 'fine for the rotation' })).status, 200);
    const denied = await makeRequest(requester.api, { resources: [{ id: resource.resource_id }], reason: 'just curious' });
    assert.equal((await reviewer.api.post(`/requests/${denied}/deny`, { comment: 'not without a ticket' })).status, 200);

    assert.equal((await subEvents('REQUESTS_CREATED', approved))[0]?.reason, 'on call this week for the billing service');
    assert.equal((await subEvents('REQUEST_COMMENTS_CREATED', approved))[0]?.comment, 'which incident?');
    assert.equal((await subEvents('REQUESTS_APPROVED', approved))[0]?.comment, 'fine for the rotation');
    assert.equal((await subEvents('REQUESTS_DENIED', denied))[0]?.comment, 'not without a ticket');
  });
});
