// Pages that show propagation update themselves (issue 41.5): an item's page, its app's connector panel and
// My access, in a real browser against a loopback Opal-protocol connector. The state moves on the server
// (the outbox carries the change) and the page changes without a reload; at 1280 and 375 px, axe-core clean.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { tick as runOutbox } from '../../src/outbox/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { axeViolations, borrowBrowser, noBrowser, returnBrowser, signedInPage, WAIT } from '../helpers/browser.ts';
import { createApp, createMember, createOwner, type Signed } from '../helpers/fixtures.ts';
import { OpalConnector } from '../helpers/opal-connector.ts';
import { config, makeRequest, stage } from '../helpers/requests.ts';

const SECRET = 'connector-signing-secret-0123456789';
/** The longest a page not settled waits before it looks again (POLL_MOST_MS in console/ui.tsx, a browser module). */
const LONGEST_LOOK_MS = 15_000;

describe('pages that show propagation update themselves', { skip: noBrowser }, () => {
  let app: TestApp;
  let remote: OpalConnector;
  let browser: Browser;
  let origin: string;
  let member: Signed;
  let appId: string;
  let resourceId: string;
  const problems: string[] = [];

  /**
   * A signed-in page whose clock the test moves (Playwright's clock: time still flows by itself): a page
   * not settled looks again after 1 s, then 2, 4, 8, at most 15 (console/ui.tsx), and the test brings its
   * next look forward instead of waiting it out (sitting out those waits was most of this file's time).
   */
  const signedIn = async (email: string, width: number): Promise<Page> => {
    const page = await signedInPage(browser, app, email, width, problems);
    await page.clock.install();
    return page;
  };
  /** The pages' next look comes now: every timer due within the longest wait fires (at most once). */
  const lookAgain = (...pages: Page[]) => Promise.all(pages.map((page) => page.clock.fastForward(LONGEST_LOOK_MS)));

  /** Marks the page so a reload would show: the mark lives only as long as this document. */
  const mark = (page: Page) => page.evaluate(`window.__notReloaded = true`);
  const stillMarked = async (page: Page) => assert.equal(await page.evaluate<boolean>(`window.__notReloaded === true`), true, 'the page was not reloaded');

  before(async () => {
    app = await startTestApp();
    origin = new URL(app.url).origin;
    remote = await new OpalConnector(SECRET).start();
    remote.resources.set('r-warehouse', { name: 'Warehouse', levels: [], users: new Map() });
    member = await createMember(app.api, { full_name: 'Lee Live', email: 'lee@example.com' });
    remote.users.set('u-lee', 'lee@example.com');
    appId = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR', name: 'Warehouse app' })).app_id;
    assert.equal((await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: SECRET })).status, 200);
    assert.equal((await app.api.post(`/apps/${appId}/connector/sync`)).status, 200);
    const resources = (await app.api.get('/resources', { page_size: 1000 })).body.results as { resource_id: string; app_id: string }[];
    resourceId = resources.find((r) => r.app_id === appId)!.resource_id;
    browser = await borrowBrowser();
  });
  after(async () => {
    await returnBrowser();
    await app?.close();
    await remote?.stop();
    assert.deepEqual(problems, [], 'errors in the pages');
  });

  for (const width of [1280, 375]) {
    it(`a grant and a revoke being carried show on the item's page and the app's page, which change by themselves once carried (${width} px)`, async () => {
      const admin = await signedIn('admin@gatehouse.local', width);
      const appPage = await signedIn('admin@gatehouse.local', width);
      const mine = await signedIn('lee@example.com', width);
      assert.equal((await app.api.post(`/resources/${resourceId}/users/${member.user.user_id}`, { duration_minutes: 60 })).status, 200);

      await admin.goto(`${origin}/console/resources/${resourceId}`);
      await admin.getByText('Changes are on their way: this page updates itself until they are carried.').waitFor(WAIT);
      await admin.getByRole('row', { name: /Lee Live.*grant.*being carried to the system/ }).waitFor(WAIT);
      await appPage.goto(`${origin}/console/apps/${appId}`);
      await appPage.getByRole('row', { name: /Lee Live.*grant.*being carried to the system/ }).waitFor(WAIT);
      await mine.goto(`${origin}/console/access`);
      await mine.getByRole('row', { name: /Warehouse.*being carried to the system/ }).waitFor(WAIT);
      assert.deepEqual(await axeViolations(admin), [], 'the item page while a change is on its way');
      for (const page of [admin, appPage, mine]) await mark(page);

      // The outbox carries the grant: every page says so without being reloaded.
      await runOutbox(app.ctx, app.clock.now());
      assert.deepEqual(remote.edges(), ['resource_user:u-lee:r-warehouse:']);
      await lookAgain(admin, appPage, mine);
      await admin.getByText('Every change to Warehouse has reached the connector.').waitFor(WAIT);
      await admin.getByRole('row', { name: /Lee Live.*in effect/ }).waitFor(WAIT);
      await appPage.getByText('Every access change has reached the system.').waitFor(WAIT);
      await mine.getByRole('row', { name: /Warehouse/ }).filter({ hasNotText: 'being carried' }).waitFor(WAIT);
      for (const page of [admin, appPage, mine]) await stillMarked(page);
      assert.ok(await admin.evaluate<number>('document.documentElement.scrollWidth') <= width);

      // A revoke from the page: "removal" on its way, then gone, again without a reload. (The settled app page
      // stopped looking: it is watched only while something moves.)
      await admin.getByRole('button', { name: 'Revoke Lee Live' }).click();
      await admin.getByRole('alertdialog').getByRole('button', { name: 'Revoke Lee Live' }).click();
      await admin.getByRole('row', { name: /Lee Live.*removal.*being carried to the system/ }).waitFor(WAIT);
      await runOutbox(app.ctx, app.clock.now());
      assert.deepEqual(remote.edges(), []);
      await lookAgain(admin);
      await admin.getByText('Every change to Warehouse has reached the connector.').waitFor(WAIT);
      await stillMarked(admin);
      assert.deepEqual(await axeViolations(admin), [], 'the item page once settled');
      for (const page of [admin, appPage, mine]) await page.context().close();
    });
  }

  for (const width of [1280, 375]) {
    it(`the requester's page of a request changes by itself: decided, then its access on its way, then in effect (${width} px)`, async () => {
      const reviewers = await createOwner(app.api, { name: `Warehouse reviewers ${width}`, user_ids: [app.adminUserId] });
      const opened = await app.api.put('/resources', { resources: [{ resource_id: resourceId, request_configurations: [config({ reviewer_stages: [stage({ owner_ids: [reviewers.owner_id] })] })] }] });
      assert.equal(opened.status, 200, JSON.stringify(opened.body));
      const id = await makeRequest(member.api, { resources: [{ id: resourceId }] });
      const mine = await signedIn('lee@example.com', width);
      await mine.goto(`${origin}/console/requests/${id}`);
      await mine.getByText('Pending', { exact: true }).first().waitFor(WAIT);
      await mark(mine);

      // Decided elsewhere (an admin, through the API): the page says so, and that the grant is on its way.
      assert.equal((await app.api.post(`/requests/${id}/approve`, { level: 'ADMIN' })).status, 200);
      await lookAgain(mine);
      await mine.getByText('Approved', { exact: true }).first().waitFor(WAIT);
      await mine.locator('.item-access').filter({ hasText: 'being carried to the system' }).waitFor(WAIT);
      assert.deepEqual(await axeViolations(mine), [], 'the approved request while its access is on its way');
      // Carried: the page says it is in effect, still without a reload.
      await runOutbox(app.ctx, app.clock.now());
      assert.deepEqual(remote.edges(), ['resource_user:u-lee:r-warehouse:']);
      await lookAgain(mine);
      await mine.locator('.item-access').filter({ hasText: 'in effect' }).waitFor(WAIT);
      await stillMarked(mine);
      assert.ok(await mine.evaluate<number>('document.documentElement.scrollWidth') <= width);
      assert.deepEqual(await axeViolations(mine), [], 'the approved request once in effect');
      await mine.context().close();

      // Leave Lee holding nothing, as the next test expects.
      assert.equal((await app.api.delete(`/resources/${resourceId}/users/${member.user.user_id}`)).status, 200);
      await runOutbox(app.ctx, app.clock.now());
      assert.deepEqual(remote.edges(), []);
    });
  }
});
