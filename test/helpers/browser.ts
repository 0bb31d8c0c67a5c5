// Console tests in a real browser: where Chromium is (skipped, saying how to get it, when it is missing),
// a page signed in as someone at a width, opening an address and waiting for its data, and checking a page:
// axe-core's WCAG A/AA check as it stands, and no wider than the screen.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { createLoginLink } from '../../src/modules/web-sessions/service.ts';
import type { TestApp } from './app.ts';
import { PATIENCE_MS } from './wait.ts';

export const CHROMIUM = process.env.GATEHOUSE_CHROMIUM ?? '/usr/bin/chromium';
/** `skip` for a describe needing the browser: false, or why it cannot run. */
export const noBrowser: false | string = existsSync(CHROMIUM) ? false : `no browser at ${CHROMIUM} (apt-get install chromium, or set GATEHOUSE_CHROMIUM)`;
/**
 * The bound on waiting for something on a page (`locator.waitFor(WAIT)`): what takes a second on a quiet
 * machine takes many on a loaded one, so the bound only turns a hang into a message (test/helpers/wait.ts).
 */
export const WAIT = { timeout: PATIENCE_MS };
const AXE = readFileSync(join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8');

/** WCAG 2 A and AA violations on the page as it is, as readable lines (the context must bypass CSP to inject axe). */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const result = await page.evaluate<{ id: string; nodes: { target: string[] }[] }[]>(
    `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then(r => r.violations.map(v => ({ id: v.id, nodes: v.nodes.map(n => ({ target: n.target })) })))`,
  );
  return result.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * A browser context whose every action and wait (click, fill, waitFor without a bound of its own) is
 * bounded by PATIENCE_MS instead of Playwright's 30 s, which a loaded machine can exceed.
 */
export async function newContext(browser: Browser, options: BrowserContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(PATIENCE_MS);
  context.setDefaultNavigationTimeout(PATIENCE_MS);
  await context.addInitScript(COUNT_REQUESTS);
  return context;
}

/**
 * Counts, in every page of a context, the console's requests still under way: a fetch from its start
 * until its body has been read (json/text), when the page has what it asked for. waitForData reads it.
 */
const COUNT_REQUESTS = `(() => {
  let open = 0;
  const done = () => { open -= 1; };
  const track = (promise) => { open += 1; promise.then(done, done); return promise; };
  const fetch = window.fetch.bind(window);
  window.fetch = (...args) => track(fetch(...args));
  for (const name of ['json', 'text', 'arrayBuffer', 'blob']) {
    const read = Response.prototype[name];
    Response.prototype[name] = function (...args) { return track(read.apply(this, args)); };
  }
  Object.defineProperty(window, '__requestsUnderWay', { get: () => open });
})()`;

/**
 * True once the page has shown its data for three animation frames in a row: no "Loading…" left
 * anywhere (every Pending and list has its answer) and no request under way (COUNT_REQUESTS), so a
 * request an effect starts after the paint that answered the last one is seen too. Kept on the page
 * between polls (Playwright polls it every frame).
 */
const SETTLED = `(() => {
  const loading = [...document.querySelectorAll('p')].some((p) => p.textContent === 'Loading…' || p.textContent === 'Loading Gatehouse…');
  const quiet = !loading && window.__requestsUnderWay === 0;
  window.__quietFrames = quiet ? (window.__quietFrames ?? 0) + 1 : 0;
  return window.__quietFrames >= 3;
})()`;

/**
 * Waits until the page shows its data: its heading, then every answer it asked for drawn (SETTLED).
 * Not Playwright's networkidle: that waits 500 ms after the last request on every page (most of a
 * browser test's time), and may come before a request an effect starts late.
 */
export async function waitForData(page: Page): Promise<void> {
  await page.locator('#page-title').waitFor(WAIT);
  if (!(await page.evaluate<boolean>(`'__requestsUnderWay' in window`))) throw new Error('waitForData needs a page of a context made by newContext()');
  await page.evaluate(`window.__quietFrames = 0`);
  await page.waitForFunction(SETTLED, undefined, { polling: 'raf', ...WAIT });
}

/**
 * A page in a fresh context (its own cookies) `width` px wide, signed in as the user with `email` through an
 * emailed sign-in link, its page errors pushed to `problems`, in the browser's time zone unless `timezoneId`
 * names one. CSP is bypassed only so axe can be injected.
 */
export async function signedInPage(browser: Browser, app: TestApp, email: string, width: number, problems: string[], timezoneId?: string): Promise<Page> {
  const context = await newContext(browser, { viewport: { width, height: 900 }, bypassCSP: true, ...(timezoneId && { timezoneId }) });
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(error.message));
  const user = app.ctx.stores.users.getByEmail(email);
  if (!user) throw new Error(`no user ${email}`);
  await page.goto(createLoginLink(app.ctx, user).replace(/^http:\/\/[^/]+/, new URL(app.url).origin));
  await page.getByRole('button', { name: `Sign in as ${user.full_name}` }).click();
  await page.locator('#page-title').waitFor(WAIT);
  return page;
}

/** Opens a console address on `app` and waits for its heading and its data. */
export async function openPage(page: Page, app: TestApp, path: string): Promise<void> {
  await page.goto(`${new URL(app.url).origin}${path}`);
  await waitForData(page);
}

/**
 * Photographs the page into `shots` as `<name>-desktop.png` or `<name>-375.png`, and checks it with
 * axe-core and that nothing is wider than the screen (`width`).
 */
export async function checkPage(page: Page, shots: string, name: string, width: number): Promise<void> {
  const file = `${name}-${width === 375 ? '375' : 'desktop'}.png`;
  await page.screenshot({ path: join(shots, file), fullPage: true });
  assert.deepEqual(await axeViolations(page), [], `accessibility problems on ${file}`);
  const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
  assert.ok(wide <= width, `${name} is ${wide} px wide at ${width} (see ${file})`);
}
