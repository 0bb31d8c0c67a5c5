// Console tests in a real browser: where Chromium is (skipped, saying how to get it, when it is missing),
// a page signed in as someone at a width, opening an address and waiting for its data, and checking a page:
// axe-core's WCAG A/AA check as it stands, and no wider than the screen.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createLoginLink } from '../../src/modules/web-sessions/service.ts';
import type { TestApp } from './app.ts';

export const CHROMIUM = process.env.GATEHOUSE_CHROMIUM ?? '/usr/bin/chromium';
/** `skip` for a describe needing the browser: false, or why it cannot run. */
export const noBrowser: false | string = existsSync(CHROMIUM) ? false : `no browser at ${CHROMIUM} (apt-get install chromium, or set GATEHOUSE_CHROMIUM)`;
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
  const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true, ...(timezoneId && { timezoneId }) });
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(error.message));
  const user = app.ctx.stores.users.getByEmail(email);
  if (!user) throw new Error(`no user ${email}`);
  await page.goto(createLoginLink(app.ctx, user).replace(/^http:\/\/[^/]+/, new URL(app.url).origin));
  await page.getByRole('button', { name: `Sign in as ${user.full_name}` }).click();
  await page.locator('#page-title').waitFor({ timeout: 30_000 });
  return page;
}

/** Opens a console address on `app` and waits for its heading and its data. */
export async function openPage(page: Page, app: TestApp, path: string): Promise<void> {
  await page.goto(`${new URL(app.url).origin}${path}`);
  await page.locator('#page-title').waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  assert.equal(await page.getByText('Loading…').count(), 0, `${path} is still loading`);
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
