// The whole admin journey in a real browser (issue 31 §7), from an empty database, nothing through the
// API: the admin signs in through an emailed link (a real SMTP server), creates a team, invites a
// person, who signs in by email; the admin creates an app with a PostgreSQL connector (a real
// throw-away cluster), tests and syncs it, names the team as reviewers; she requests a role, the admin
// approves, the role appears in PostgreSQL, and a revoke behind its confirmation takes it away there.
// Each step's page is checked with axe-core and photographed at 1280 and 375 px. A step whose console
// page is not there yet (the console's not-found page answers) is skipped, saying which page is
// missing, and so is every later step.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { tick as outboxTick } from '../../src/outbox/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { axeViolations, CHROMIUM, newPage as pageIn, noBrowser, pageSettled, WAIT } from '../helpers/browser.ts';
import { findPostgres, sqlOn, startPostgres, type PostgresServer } from '../helpers/postgres-server.ts';
import { SmtpReceiver } from '../helpers/smtp-receiver.ts';
import { PATIENCE_MS } from '../helpers/wait.ts';

const postgres = findPostgres();
const skip = noBrowser || ('reason' in postgres ? postgres.reason : false);
const SHOTS = process.env.GATEHOUSE_SCREENSHOTS ?? join(process.cwd(), 'test-output', 'screenshots');
const ADMIN_EMAIL = 'admin@gatehouse.local';
const DANA_EMAIL = 'dana@example.com';

describe('an admin sets Gatehouse up in the console alone, and a person gets a PostgreSQL role', { skip }, () => {
  let app: TestApp;
  let origin: string;
  let smtp: SmtpReceiver;
  let server: PostgresServer;
  let browser: Browser;
  let admin: Page;
  let dana: Page;
  let requestUrl = '';
  /** The first step that could not run, and why: every later step is skipped with it. */
  let missing: string | undefined;
  const problems: string[] = [];

  const sql = (text: string) => sqlOn(server, text);
  /** The roles Dana's login role is a member of, as PostgreSQL says. */
  const danaRoles = async () => (await sql(`SELECT g.rolname FROM pg_auth_members am JOIN pg_roles g ON g.oid = am.roleid
    JOIN pg_roles m ON m.oid = am.member WHERE m.rolname = 'dana' ORDER BY 1`)).map((r) => r.rolname as string);

  /** Runs the outbox (mail, propagation to PostgreSQL) until `done` holds. */
  async function carryUntil(done: () => Promise<boolean> | boolean, what: string): Promise<void> {
    const end = Date.now() + PATIENCE_MS;
    while (!(await done())) {
      if (Date.now() > end) throw new Error(`${what} did not happen within ${PATIENCE_MS} ms`);
      await outboxTick(app.ctx, app.clock.now());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const newPage = (width = 1280): Promise<Page> => pageIn(browser, width, problems);

  /** Checks the page with axe-core (WCAG A/AA) and photographs it at 1280 and at 375 px, none wider than the screen. */
  async function shoot(page: Page, name: string): Promise<void> {
    await pageSettled(page);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(SHOTS, `journey-${name}-${width === 375 ? '375' : 'desktop'}.png`), fullPage: true });
      assert.ok(await page.evaluate<number>('document.documentElement.scrollWidth') <= width, `journey ${name} is wider than ${width} px`);
      assert.deepEqual(await axeViolations(page), [], `accessibility problems on journey ${name} at ${width} px`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  /**
   * Opens a console page; when the console has no such page yet (its not-found page answers), marks
   * this and every later step as missing it, and skips.
   */
  async function open(t: TestContext, page: Page, path: string, step: string): Promise<boolean> {
    await page.goto(`${origin}${path}`);
    await page.locator('#page-title').waitFor(WAIT);
    if (await page.getByRole('heading', { name: 'Page not found' }).count() === 0) return true;
    missing = `${step}: the console has no page at ${path} yet`;
    t.skip(missing);
    return false;
  }
  /** Skips a step once an earlier one could not run. */
  function blocked(t: TestContext): boolean {
    if (missing) t.skip(`after "${missing}"`);
    return missing !== undefined;
  }

  /** Signs `email` in through the signed-out page's "Email me a sign-in link" and the link mailed to them. */
  async function signInByEmail(t: TestContext, page: Page, email: string, name: string, step: string): Promise<boolean> {
    await page.goto(`${origin}/console`);
    await page.getByRole('heading', { name: 'Sign in to Gatehouse' }).waitFor(WAIT);
    const ask = page.getByRole('button', { name: 'Email me a sign-in link' });
    if (await ask.count() === 0) {
      missing = `${step}: the signed-out page has no "Email me a sign-in link" yet`;
      t.skip(missing);
      return false;
    }
    const before = smtp.to(email).length;
    await page.getByLabel('Email', { exact: true }).fill(email);
    await ask.click();
    await page.getByRole('status').waitFor(WAIT);
    await carryUntil(() => smtp.to(email).length > before, `the sign-in link mailed to ${email}`);
    const link = /https?:\/\/\S+\/console\/sign-in\/[\w-]+/.exec(smtp.to(email).at(-1)!.text)?.[0];
    assert.ok(link, 'the mail carries a sign-in link');
    await page.goto(link.replace(/^https?:\/\/[^/]+/, origin));
    await page.getByRole('button', { name: `Sign in as ${name}` }).click();
    await page.locator('#page-title').waitFor(WAIT);
    return true;
  }

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    smtp = await SmtpReceiver.start();
    server = await startPostgres((postgres as { bin: string }).bin);
    // On the database: a role to grant (no LOGIN: what Gatehouse grants) and Dana's login role.
    await sql('CREATE ROLE reports_read NOLOGIN');
    await sql('CREATE ROLE dana LOGIN');
    app = await startTestApp({ env: { GATEHOUSE_SMTP_URL: smtp.url, GATEHOUSE_EMAIL_FROM: 'Gatehouse <gatehouse@example.test>' } });
    origin = new URL(app.url).origin;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await smtp?.stop();
    server?.destroy();
  });

  it('the admin signs in through a link emailed to them', async (t) => {
    admin = await newPage();
    if (!await signInByEmail(t, admin, ADMIN_EMAIL, 'Gatehouse Admin', 'signing in by email')) return;
    await admin.getByText(/Gatehouse Admin/).first().waitFor(WAIT);
    await shoot(admin, 'home');
  });

  it('creates a team', async (t) => {
    if (blocked(t) || !await open(t, admin, '/console/teams', 'creating a team')) return;
    await admin.getByLabel('Name', { exact: true }).fill('Data team');
    await admin.getByRole('button', { name: 'Create team' }).click();
    await admin.getByRole('heading', { name: 'Data team', exact: true }).waitFor(WAIT);
    // Its creator is its first member, so someone reviews what it owns.
    await admin.getByRole('link', { name: 'Gatehouse Admin' }).waitFor(WAIT);
    await shoot(admin, 'team');
  });

  it('adds a person and invites her by email', async (t) => {
    if (blocked(t) || !await open(t, admin, '/console/people', 'adding and inviting a person')) return;
    await admin.getByLabel('Email', { exact: true }).fill(DANA_EMAIL);
    await admin.getByLabel('Full name').fill('Dana Lee');
    await admin.getByRole('button', { name: 'Add person' }).click();
    await admin.getByRole('link', { name: 'Dana Lee' }).first().click();
    await admin.getByRole('heading', { name: 'Dana Lee', exact: true }).waitFor(WAIT);
    await admin.getByRole('button', { name: 'Invite Dana Lee by email' }).click();
    await admin.getByText(`Invitation sent to ${DANA_EMAIL}.`).waitFor(WAIT);
    await carryUntil(() => smtp.to(DANA_EMAIL).length > 0, 'the invitation');
    await shoot(admin, 'person');
  });

  it('she signs in through the link emailed to her', async (t) => {
    if (blocked(t)) return;
    dana = await newPage();
    if (!await signInByEmail(t, dana, DANA_EMAIL, 'Dana Lee', 'the invited person signing in by email')) return;
    await dana.getByText(/Dana Lee/).first().waitFor(WAIT);
  });

  it('creates an app with a PostgreSQL connector, tests it and syncs it', async (t) => {
    if (blocked(t) || !await open(t, admin, '/console/apps', 'creating an app')) return;
    await admin.getByLabel('Name', { exact: true }).fill('Reports database');
    await admin.getByLabel('Kind').selectOption({ label: 'PostgreSQL (built-in connector)' });
    await admin.getByLabel(/^Owner/).selectOption({ label: 'Data team' });
    await admin.getByRole('button', { name: 'Add app' }).click();
    await admin.getByRole('heading', { name: 'Reports database', exact: true }).waitFor(WAIT);
    await admin.getByLabel('Connection URL').fill(server.url);
    await admin.getByRole('button', { name: 'Set up the connector' }).click();
    await admin.getByRole('button', { name: 'Test the connector' }).click();
    await admin.getByText('The connector answered: it works.').waitFor(WAIT);
    // The connection URL is shown with its password masked.
    assert.doesNotMatch((await admin.locator('main').textContent())!, /not-checked-under-trust/);
    await admin.getByRole('button', { name: 'Sync now' }).click();
    await admin.getByText(/^Synced\. .*1 resource and 0 groups added/).waitFor(WAIT);
    await admin.reload();
    // The sync made the database a resource, named after it (the connection URL's /postgres).
    await admin.getByRole('link', { name: 'postgres', exact: true }).waitFor(WAIT);
    // Dana's login role is hers because the admin says so: Gatehouse never guesses by a role's name.
    await admin.getByLabel('Account', { exact: true }).selectOption('dana');
    await admin.getByLabel('Person\'s email').fill(DANA_EMAIL);
    await admin.getByRole('button', { name: 'Link the account' }).click();
    await admin.getByRole('status').filter({ hasText: `dana is now ${DANA_EMAIL}'s account.` }).waitFor(WAIT);
    await shoot(admin, 'app');
  });

  it('names the team as the reviewers of the synced database', async (t) => {
    if (blocked(t)) return;
    await admin.getByRole('link', { name: 'Settings of postgres' }).click();
    await admin.getByRole('heading', { name: 'Requests and reviewers' }).waitFor(WAIT);
    const everyone = admin.getByRole('group', { name: /^For everyone/ });
    await everyone.getByLabel('People may request it').check();
    if (await everyone.getByRole('group', { name: 'Stage 1' }).count() === 0) await everyone.getByRole('button', { name: 'Add a reviewer stage' }).click();
    await everyone.getByRole('group', { name: 'Stage 1' }).getByLabel('Data team').check();
    await admin.getByRole('button', { name: 'Save requests and reviewers' }).click();
    await admin.getByRole('status').filter({ hasText: 'Saved.' }).waitFor(WAIT);
    await shoot(admin, 'resource-settings');
  });

  it('she asks for the role', async (t) => {
    if (blocked(t)) return;
    await dana.getByRole('navigation').getByRole('link', { name: 'Request access' }).click();
    // The sync named the resource after the database (the connection URL's /postgres).
    await dana.getByLabel('Find a resource or group').fill('postgres');
    await dana.getByRole('button', { name: 'Add postgres' }).click();
    await dana.getByLabel(/^Level for /).selectOption('reports_read');
    await dana.getByLabel('Why you need it').fill('Quarterly report');
    await dana.getByText(/Gatehouse Admin — /).waitFor(WAIT);
    await shoot(dana, 'request-new');
    await dana.getByRole('button', { name: 'Send request' }).click();
    await dana.getByRole('heading', { name: 'Access request' }).waitFor(WAIT);
    requestUrl = dana.url();
  });

  it('the admin approves it, and the role appears in PostgreSQL', async (t) => {
    if (blocked(t)) return;
    await admin.goto(requestUrl);
    await admin.getByRole('button', { name: 'Approve', exact: true }).click();
    await admin.getByText('Approved', { exact: true }).first().waitFor(WAIT);
    await carryUntil(async () => (await danaRoles()).includes('reports_read'), 'GRANT "reports_read" TO "dana"');
    assert.deepEqual(await danaRoles(), ['reports_read']);
    await shoot(admin, 'request-approved');
  });

  it('a revoke, once confirmed, takes the role away in PostgreSQL', async (t) => {
    if (blocked(t)) return;
    await admin.getByRole('link', { name: /postgres/i }).first().click();
    await admin.getByRole('button', { name: 'Revoke Dana Lee' }).click();
    const dialog = admin.getByRole('alertdialog', { name: /^Revoke Dana Lee's access to / });
    await dialog.waitFor(WAIT);
    await shoot(admin, 'revoke-confirm');
    assert.deepEqual(await danaRoles(), ['reports_read'], 'nothing ends before confirming');
    await dialog.getByRole('button', { name: 'Revoke Dana Lee' }).click();
    await dialog.waitFor({ state: 'hidden', ...WAIT });
    await carryUntil(async () => (await danaRoles()).length === 0, 'REVOKE "reports_read" FROM "dana"');
    assert.deepEqual(problems, [], 'pages threw errors');
  });
});
