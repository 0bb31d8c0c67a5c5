// GET /openapi.json and the /docs page: served without a token, the page and its files from the process itself.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';

describe('served API document', () => {
  let app: TestApp;
  let origin: string;
  before(async () => {
    app = await startTestApp();
    origin = new URL(app.url).origin;
  });
  after(() => app.close());

  it('serves /openapi.json without a token, describing /v1 with bearer auth and the error shape', async () => {
    const res = await fetch(`${origin}/openapi.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const doc = (await res.json()) as any;
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.security, [{ bearerAuth: [] }]);
    assert.equal(doc.components.securitySchemes.bearerAuth.scheme, 'bearer');
    assert.deepEqual(doc.components.schemas.Error.required, ['code', 'message', 'details', 'request_id']);
    assert.equal(doc.paths['/v1/owners/{owner_id}'].get.responses['404'].$ref, '#/components/responses/Error404');
    assert.equal(doc.paths['/v1/users'].post['x-gatehouse-extension'], true);
    assert.equal(doc.paths['/v1/users'].get['x-gatehouse-extension'], undefined);
    assert.deepEqual(doc.paths['/openapi.json'].get.security, []);
  });

  it('serves /docs and its two files without a token; the page loads nothing from elsewhere', async () => {
    const page = await fetch(`${origin}/docs`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    const html = await page.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.deepEqual(sources.sort(), ['/docs/viewer.css', '/docs/viewer.js', 'data:,']);
    const js = await fetch(`${origin}/docs/viewer.js`);
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /^text\/javascript/);
    const script = await js.text();
    assert.ok(script.length > 500_000 && script.includes('SwaggerUIBundle') && script.includes("url: '/openapi.json'"));
    const css = await fetch(`${origin}/docs/viewer.css`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    assert.ok((await css.text()).includes('.swagger-ui'));
  });

  it('answers other methods on them with 405', async () => {
    const res = await fetch(`${origin}/openapi.json`, { method: 'POST' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET');
  });
});
