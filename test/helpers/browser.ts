// Console tests in a real browser: where Chromium is (skipped, saying how to get it, when it is missing),
// a page signed in as someone at a width, opening an address and waiting for its data, and checking a page:
// axe-core's WCAG A/AA check as it stands, and no wider than the screen.
//
// Waiting: a page's state settles after the answer it waits for, the render after it, and sometimes an
// effect after that (focus moves after a dialog closes). A test waits for the state it means to read
// (`locator.waitFor`, `page.waitForFunction`, `settlesTo`) and reads it only then; never a sleep, and
// never a bound that assumes a quiet machine (CI has 2 cores, this machine is shared by many).
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { createLoginLink } from '../../src/modules/web-sessions/service.ts';
import type { TestApp } from './app.ts';

/**
 * Debian's Chromium for the tests: its headless shell (package chromium-headless-shell, the same Blink and
 * V8 as the browser, without the desktop browser around them; what Playwright itself runs headless) when
 * installed, else the browser. The shell took 18% less CPU over test/console/browser.test.ts (its browser
 * process 6.7 s instead of 11.7 s; docs/contributing.md, "Tests"). GATEHOUSE_CHROMIUM names another.
 */
export const CHROMIUM = process.env.GATEHOUSE_CHROMIUM ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ?? '/usr/bin/chromium';
/** `skip` for a describe needing the browser: false, or why it cannot run. */
export const noBrowser: false | string = existsSync(CHROMIUM) ? false : `no browser at ${CHROMIUM} (apt-get install chromium-headless-shell or chromium, or set GATEHOUSE_CHROMIUM)`;

/**
 * How long a page step may take before the test fails saying which (a bound that turns a hang into a
 * message, never a measure of speed): a page's data on a 2-core machine shared by a dozen busy processes.
 */
export const PAGE_PATIENCE_MS = 90_000;
/** `{ timeout }` for `locator.waitFor`, `page.waitForURL` and the like. */
export const WAIT = { timeout: PAGE_PATIENCE_MS };

let shared: Promise<Browser> | undefined;
/**
 * The one Chromium of this process, launched by the first file that asks: the files of a group share a
 * process (test/run.mjs) and each launch cost about 0.5 s of CPU and a second of wall. A file lends it
 * in its `before` and gives it back in its `after` (returnBrowser), which closes what the file opened;
 * the browser closes after the process's last test.
 */
export function borrowBrowser(): Promise<Browser> {
  shared ??= chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  return shared;
}
// Registered when this module loads, outside any test: a hook of the root test, run after the process's
// last file. Closing (not leaving it to the exit) reaps Chromium, so its CPU counts where it is measured.
after(async () => {
  await (await shared)?.close();
});

/** Closes every context the file in progress opened on the shared browser (files of a process run one at a time). */
export async function returnBrowser(): Promise<void> {
  if (shared === undefined) return;
  const browser = await shared;
  await Promise.all(browser.contexts().map((context) => context.close()));
}

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
 * A page in a fresh context (its own cookies) `width` px wide, signed in as the user with `email` through an
 * emailed sign-in link, its page errors pushed to `problems`, in the browser's time zone unless `timezoneId`
 * names one. CSP is bypassed only so axe can be injected.
 */
export async function signedInPage(browser: Browser, app: TestApp, email: string, width: number, problems: string[], timezoneId?: string): Promise<Page> {
  const page = await newPage(browser, width, problems, { timezoneId });
  await signIn(page, app, email);
  return page;
}

/** Signs `page` in as the user with `email` through an emailed sign-in link, and waits for the page it lands on. */
export async function signIn(page: Page, app: TestApp, email: string): Promise<void> {
  const user = app.ctx.stores.users.getByEmail(email);
  if (!user) throw new Error(`no user ${email}`);
  await page.goto(createLoginLink(app.ctx, user).replace(/^http:\/\/[^/]+/, new URL(app.url).origin));
  // Opening the link only shows whom it signs in; the button signs in.
  await page.getByRole('button', { name: `Sign in as ${user.full_name}` }).click();
  await page.locator('#page-title').waitFor(WAIT);
}

/**
 * A page in a fresh browser context (its own cookies) `width` px wide, its page errors pushed to `problems`,
 * every action and wait on it bounded by PAGE_PATIENCE_MS. CSP is bypassed only so axe can be injected.
 */
export async function newPage(browser: Browser, width: number, problems: string[], options: { timezoneId?: string; acceptDownloads?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: 900 }, bypassCSP: true,
    ...(options.timezoneId && { timezoneId: options.timezoneId }), ...(options.acceptDownloads && { acceptDownloads: true }),
  });
  context.setDefaultTimeout(PAGE_PATIENCE_MS);
  context.setDefaultNavigationTimeout(PAGE_PATIENCE_MS);
  await context.addInitScript(COUNT_REQUESTS);
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(error.message));
  return page;
}

/**
 * Counts, in every page of a context made by newPage, the console's requests under way: a fetch from its
 * start until its body has been read (json, text…), when the page has what it asked for. pageSettled reads it.
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
 * True once the page has been settled for three animation frames in a row: no "Loading…" anywhere and no
 * request under way (COUNT_REQUESTS). Three frames, because a request an effect starts after the paint
 * that drew the last answer starts within the next one. The count of quiet frames lives on the page
 * between polls (Playwright polls it every frame).
 */
const SETTLED = `(() => {
  const quiet = !document.body.textContent.includes('Loading…') && window.__requestsUnderWay === 0;
  window.__quietFrames = quiet ? (window.__quietFrames ?? 0) + 1 : 0;
  return window.__quietFrames >= 3;
})()`;

/**
 * Waits until every part of the page has its data: no "Loading…" anywhere (each part that loads by itself
 * says so while it does) and no request of the page under way, for three frames. Call it after the page's
 * heading is there, on a page made by newPage. Not Playwright's networkidle: that sits out 500 ms after
 * the last request on every page (about a third of the browser tests' time, some 100 pages a run).
 */
export async function pageSettled(page: Page): Promise<void> {
  if (!(await page.evaluate<boolean>(`'__requestsUnderWay' in window`))) throw new Error('pageSettled needs a page made by newPage()');
  await page.evaluate(`window.__quietFrames = 0`);
  await page.waitForFunction(SETTLED, undefined, { polling: 'raf', ...WAIT });
}

/** Opens a console address on `app` (or an origin) and waits for its heading and its data. */
export async function openPage(page: Page, app: TestApp | string, path: string): Promise<void> {
  await page.goto(`${typeof app === 'string' ? app : new URL(app.url).origin}${path}`);
  await page.locator('#page-title').waitFor(WAIT);
  await pageSettled(page);
}

/**
 * Waits until `read()` answers `expected` (deep equality), reading again after each answer, and fails
 * naming `what` and the last answer if it does not within PAGE_PATIENCE_MS. For a value no locator state
 * describes (an input's value, a list of texts, the focused element) that settles after an action.
 */
export async function settlesTo<T>(read: () => Promise<T>, expected: T, what: string): Promise<void> {
  const end = Date.now() + PAGE_PATIENCE_MS;
  let last: T = await read();
  while (!isDeepStrictEqual(last, expected)) {
    if (Date.now() > end) assert.deepEqual(last, expected, `${what}: not so within ${PAGE_PATIENCE_MS} ms`);
    // A poll, as Playwright's expect.poll: the answer is what is waited for, the pause only spares the
    // shared CPU a busy loop of round trips to the browser (correctness never depends on its length).
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
}

/** Waits until `locator`'s attribute `name` reads `value` (an aria-expanded after a click, say). */
export async function attributeSettles(locator: Locator, name: string, value: string | null, what: string): Promise<void> {
  await settlesTo(() => locator.getAttribute(name), value, what);
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
