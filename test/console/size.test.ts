// The console's JavaScript stays under its budget (issue 19: 150 KB gzipped), measured on what the
// server sends for /console/assets/console.js, gzipped at the default level.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const BUDGET_BYTES = 150 * 1024;

describe('the console\'s size', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('sends all of its JavaScript in one script under 150 KB gzipped', async (t) => {
    const res = await fetch(new URL('/console/assets/console.js', app.url));
    assert.equal(res.status, 200);
    const script = Buffer.from(await res.arrayBuffer());
    assert.ok(script.length > 10_000, 'the bundle is really there');
    const gzipped = gzipSync(script).length;
    t.diagnostic(`console.js: ${(script.length / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(1)} KB gzipped (budget ${BUDGET_BYTES / 1024} KB)`);
    assert.ok(gzipped < BUDGET_BYTES, `console.js is ${gzipped} bytes gzipped`);
  });
});
