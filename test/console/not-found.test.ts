// An address under /console that no page has: the console's own not-found page (404 with the shell,
// whose script says so in words, signed in or not), never raw JSON; other misses keep the JSON 404.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';

describe('console addresses no page has', () => {
  let app: TestApp;
  let origin: string;
  before(async () => {
    app = await startTestApp();
    origin = new URL(app.url).origin;
  });
  after(() => app.close());

  it('answers 404 with the console shell, for anyone, with the pages\' security headers', async () => {
    for (const path of ['/console/nope', '/console/requests/new/extra', '/console/resources']) {
      const res = await fetch(`${origin}${path}`);
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get('content-type')!, /^text\/html/);
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'self'/);
      const body = await res.text();
      assert.match(body, /<script src="\/console\/assets\/console.js"/);
      assert.doesNotMatch(body, /"code"/);
    }
  });

  it('keeps the JSON 404 for a missing file, other methods and addresses outside the console', async () => {
    for (const [method, path] of [['GET', '/console/assets/nope.js'], ['POST', '/console/nope'], ['GET', '/nope']] as const) {
      const res = await fetch(`${origin}${path}`, { method, headers: { origin } });
      assert.match(res.headers.get('content-type')!, /^application\/json/, `${method} ${path}`);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(typeof ((await res.json()) as { message?: unknown }).message, 'string');
    }
  });
});
