// Console tests in a real browser: where Chromium is (skipped, saying how to get it, when it is missing),
// a page signed in as someone at a width, and axe-core's WCAG A/AA check of a page as it stands.
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
