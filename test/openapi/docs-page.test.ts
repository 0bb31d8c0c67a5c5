// The /docs page in a real browser (Debian's chromium through playwright-core): it renders the document
// and every request it makes goes to Gatehouse itself. Skipped where no chromium is installed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { borrowBrowser, noBrowser, returnBrowser } from '../helpers/browser.ts';
import { PATIENCE_MS } from '../helpers/wait.ts';

const skip = noBrowser;

describe('the /docs page in a browser', { skip }, () => {
  let app: TestApp;
  let browser: Browser;
  let shots: string;
  before(async () => {
    app = await startTestApp();
    browser = await borrowBrowser();
    shots = process.env.GATEHOUSE_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'gatehouse-docs-'));
  });
  after(async () => {
    await returnBrowser();
    await app?.close();
    if (!process.env.GATEHOUSE_SCREENSHOTS) rmSync(shots, { recursive: true, force: true });
  });

  it('renders every operation from Gatehouse alone, with no request elsewhere and no error', async () => {
    const origin = new URL(app.url).origin;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`${res.status()} for ${res.url()}`);
    });

    const response = await page.goto(`${origin}/docs`, { waitUntil: 'networkidle' });
    assert.equal(response?.status(), 200);
    await page.locator('.opblock-summary').first().waitFor({ timeout: PATIENCE_MS });
    // Every operation of the document is on the page (Swagger UI draws one block per operation).
    // The viewer draws only the blocks near the viewport, so walk the page and collect what it drew,
    // letting it paint after each scroll; on a busy machine a block may appear only on a later walk.
    const doc = (await (await fetch(`${origin}/openapi.json`)).json()) as { paths: Record<string, object> };
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    const drawn = new Set<string>();
    // (Page scripts as strings: this project's TypeScript has no DOM library.)
    const deadline = Date.now() + PATIENCE_MS;
    while (!operations.every((op) => drawn.has(op)) && Date.now() < deadline) {
      for (let y = 0; y <= (await page.evaluate<number>('document.body.scrollHeight')); y += 600) {
        await page.evaluate(`window.scrollTo(0, ${y})`);
        await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
        // A deprecated operation's path is drawn struck through, under another class.
        const blocks = await page.$$eval('.opblock-summary', (els) => els.map((el) =>
          `${el.querySelector('.opblock-summary-method')?.textContent ?? ''} ${el.querySelector('.opblock-summary-path, .opblock-summary-path__deprecated')?.getAttribute('data-path') ?? ''}`));
        for (const block of blocks) drawn.add(block);
      }
    }
    assert.deepEqual([...drawn].sort(), operations.sort());
    await page.evaluate('window.scrollTo(0, 0)');
    // The viewer redraws the blocks near the viewport after the scroll: wait for it (a busy machine is slow).
    const first = page.getByText('Create a user').first();
    await first.waitFor({ state: 'visible', timeout: PATIENCE_MS }).catch(() => undefined);
    assert.ok(await first.isVisible(), 'the first operation is not drawn back at the top');
    await page.screenshot({ path: join(shots, 'docs.png') });

    const elsewhere = requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'));
    assert.deepEqual(elsewhere, [], 'the page asked for something outside Gatehouse');
    assert.ok(requests.includes(`${origin}/openapi.json`), 'the page did not load the document');
    assert.deepEqual(problems, [], 'the page logged errors');
  });
});
