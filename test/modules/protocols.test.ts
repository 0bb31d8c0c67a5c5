// Every failure under a protocol's prefix answers in that protocol's shape, a path no route serves
// included: SCIM's error schema as application/scim+json under /scim/v2 (RFC 7644 §3.12) for an unknown
// path (404), a method a path lacks (405), a head too large (431) and a token refused before any route;
// the one JSON error shape under /v1 and elsewhere; the console's own page for an unknown console page.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app.ts';
import { cli } from '../helpers/cli.ts';
import { assertMatchesDocument } from '../helpers/api-document.ts';

const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** Sends `raw` on a socket of its own and answers all the server wrote back. */
function rawExchange(app: TestApp, raw: string): Promise<string> {
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(raw));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (err) => (chunks.length > 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(err)));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

describe('failures answer in the shape of the protocol owning the path', () => {
  let app: TestApp;
  let root: string;
  let scimToken: string;
  before(async () => {
    app = await startTestApp();
    root = app.url.replace(/\/v1$/, '');
    const made = await cli(['token', 'create', '--db', app.dbFile, '--email', 'admin@gatehouse.local', '--label', 'scim', '--scim']);
    assert.equal(made.code, 0, made.stderr);
    scimToken = made.stdout.trim();
  });
  after(() => app.close());

  /** A request to `path` under the root; its answer as the client sees it, checked against the API document. */
  async function call(method: string, path: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${root}${path}`, { method, headers });
    const text = await res.text();
    const body = text === '' ? undefined : JSON.parse(text);
    assertMatchesDocument(method, new URL(`${root}${path}`).pathname, res.status, body);
    return { status: res.status, type: res.headers.get('content-type') ?? '', allow: res.headers.get('allow'), body };
  }

  const assertScimError = (answer: { status: number; type: string; body: Record<string, unknown> }, status: number) => {
    assert.equal(answer.status, status);
    assert.match(answer.type, /^application\/scim\+json/);
    assert.deepEqual(answer.body.schemas, [SCIM_ERROR]);
    assert.equal(answer.body.status, String(status));
    assert.equal(typeof answer.body.detail, 'string');
    assert.equal(answer.body.code, undefined, 'no field of the /v1 error shape');
  };

  it('answers an unknown /scim/v2 path 404 in SCIM\'s error schema, with or without a token', async () => {
    assertScimError(await call('GET', '/scim/v2/Nope', { authorization: `Bearer ${scimToken}` }), 404);
    assertScimError(await call('GET', '/scim/v2/Users/x/y'), 404);
    assertScimError(await call('POST', '/SCIM/V2/Bulk', { authorization: `Bearer ${scimToken}` }), 404);
  });

  it('answers a method a /scim/v2 path lacks 405 in SCIM\'s error schema, with Allow', async () => {
    const answer = await call('DELETE', '/scim/v2/Users', { authorization: `Bearer ${scimToken}` });
    assertScimError(answer, 405);
    assert.deepEqual(answer.allow?.split(', ').sort(), ['GET', 'POST']);
    assertScimError(await call('PATCH', '/scim/v2/ServiceProviderConfig'), 405);
  });

  it('answers a /scim/v2 request head over the limit (96 KiB) 431 in SCIM\'s error schema', async () => {
    const text = await rawExchange(app, `GET /scim/v2/Users HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(120_000)}\r\n\r\n`);
    const [head, body = ''] = text.split('\r\n\r\n');
    assert.match(head!, /^HTTP\/1\.1 431 /);
    assert.match(head!, /content-type: application\/scim\+json/i);
    const parsed = JSON.parse(body);
    assert.deepEqual(parsed.schemas, [SCIM_ERROR]);
    assert.equal(parsed.status, '431');
  });

  it('answers a bad SCIM token 401 in SCIM\'s error schema, with the SCIM realm', async () => {
    const res = await fetch(`${root}/scim/v2/Users`, { headers: { authorization: 'Bearer nope' } });
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', /realm="scim"/);
    assertScimError({ status: res.status, type: res.headers.get('content-type') ?? '', body: await res.json() as Record<string, unknown> }, 401);
  });

  it('keeps the one JSON error shape under /v1 and outside every protocol', async () => {
    for (const [method, path, status] of [['GET', '/v1/nope', 401], ['GET', '/nope', 404], ['DELETE', '/healthz', 405], ['GET', '/scim/v20', 404]] as const) {
      const answer = await call(method, path);
      assert.equal(answer.status, status, `${method} ${path}`);
      assert.match(answer.type, /^application\/json/);
      assert.deepEqual(Object.keys(answer.body).sort(), ['code', 'details', 'message', 'request_id']);
    }
    const unknown = await call('GET', '/v1/nope', { authorization: `Bearer ${ADMIN_TOKEN}` });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'not_found');
  });

  it('answers an unknown console page with the console\'s page, and an unknown console file in JSON', async () => {
    const page = await fetch(`${root}/console/nope`);
    assert.equal(page.status, 404);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const file = await call('GET', '/console/assets/nope.js');
    assert.equal(file.status, 404);
    assert.equal(file.body.code, 'not_found');
  });
});
