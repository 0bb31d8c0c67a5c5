// In a real browser at 1280 and 375 px, axe-core clean: a PostgreSQL database's request form and its
// Grant form offer its roles, never the "Default" level that grants nothing there (issue 41.1), and an
// admin closes an access review early from its page, behind a confirmation (issue 41.8).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { axeViolations, CHROMIUM, noBrowser, pageSettled, signedInPage, WAIT } from '../helpers/browser.ts';
import { createApp, createMember, createResource, type Signed } from '../helpers/fixtures.ts';

const ROLES = [{ access_level_name: 'orders_read', access_level_remote_id: 'orders_read' }, { access_level_name: 'orders_write', access_level_remote_id: 'orders_write' }];

describe('levels that carry access, and closing a review early, in the console', { skip: noBrowser }, () => {
  let app: TestApp;
  let browser: Browser;
  let origin: string;
  let member: Signed;
  let database: string;
  const problems: string[] = [];

  const signedIn = (email: string, width: number) => signedInPage(browser, app, email, width, problems);

  async function checked(page: Page, width: number, what: string): Promise<void> {
    await pageSettled(page);
    assert.deepEqual(await axeViolations(page), [], `accessibility problems on ${what} at ${width} px`);
    const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
    assert.ok(wide <= width, `${what} is ${wide} px wide at ${width}`);
  }

  const options = (page: Page, select: string) => page.locator(`${select} option`).allTextContents();

  before(async () => {
    app = await startTestApp();
    origin = new URL(app.url).origin;
    member = await createMember(app.api, { full_name: 'Pat Postgres', email: 'pat@example.com' });
    const pgApp = (await createApp(app.api, { app_type: 'POSTGRES', name: 'Orders database' })).app_id;
    assert.equal((await app.api.put(`/apps/${pgApp}/connector`, { connection_url: 'postgres://gatehouse@db.example.com:5432/orders' })).status, 200);
    database = (await createResource(app.api, { app_id: pgApp, resource_type: 'POSTGRES_INSTANCE', name: 'orders', access_levels: ROLES })).resource_id;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    assert.deepEqual(problems, [], 'errors in the pages');
  });

  for (const width of [1280, 375]) {
    it(`the request form and the Grant form offer the database's roles, not the default level (${width} px)`, async () => {
      const page = await signedIn('pat@example.com', width);
      await page.goto(`${origin}/console/requests/new?resource_id=${database}`);
      const level = page.getByLabel('Level for orders');
      await level.waitFor(WAIT);
      assert.deepEqual(await options(page, '#level-0'), ['orders_read', 'orders_write']);
      assert.equal(await level.inputValue(), 'orders_read', 'the first role is chosen');
      await page.getByRole('heading', { name: 'orders (orders_read)' }).waitFor(WAIT);
      assert.equal(await page.getByText('grants nothing').count(), 0);
      await checked(page, width, 'the request form');

      const admin = await signedIn('admin@gatehouse.local', width);
      await admin.goto(`${origin}/console/resources/${database}`);
      await admin.getByRole('heading', { name: 'Grant access' }).waitFor(WAIT);
      assert.deepEqual(await options(admin, '#grant-level'), ['orders_read', 'orders_write']);
      await admin.getByLabel("Person's email").fill('pat@example.com');
      await admin.getByLabel('Level').selectOption('orders_write');
      await admin.getByRole('button', { name: 'Grant', exact: true }).click();
      await admin.getByRole('cell', { name: 'orders_write' }).first().waitFor(WAIT);
      const held = (await app.api.get(`/resources/${database}/users`)).body.results.map((r: { access_level: { access_level_remote_id: string } }) => r.access_level.access_level_remote_id);
      assert.ok(held.includes('orders_write') && !held.includes(''), JSON.stringify(held));
      assert.equal((await app.api.delete(`/resources/${database}/users/${member.user_id}`, undefined, { query: { access_level_remote_id: 'orders_write' } })).status, 200);
      await checked(admin, width, 'the item page');
      await page.context().close();
      await admin.context().close();
    });

    it(`an admin closes a review before its deadline from its page, after a confirmation (${width} px)`, async () => {
      const target = await createResource(app.api, { name: `wiki-${width}` });
      assert.equal((await app.api.post(`/resources/${target.resource_id}/users/${member.user_id}`, { duration_minutes: 0 })).status, 200);
      const uar = await app.api.post('/uar', {
        name: `Wiki review ${width}`, reviewer_assignment_policy: 'MANUALLY', send_reviewer_assignment_notification: false, time_zone: 'UTC',
        self_review_allowed: false, deadline: new Date(app.clock.now().getTime() + 7 * 86_400_000).toISOString(), uar_scope: { entities: [target.resource_id] },
      });
      assert.equal(uar.status, 200, JSON.stringify(uar.body));
      const items = (await app.api.get(`/uar/${uar.body.uar_id}/items`)).body.results;
      assert.equal((await app.api.post(`/uar/${uar.body.uar_id}/decisions`, { decisions: [{ uar_item_id: items[0].uar_item_id, decision: 'REVOKE' }] })).status, 200);

      const admin = await signedIn('admin@gatehouse.local', width);
      await admin.goto(`${origin}/console/reviews/${uar.body.uar_id}`);
      const close = admin.getByRole('button', { name: 'Close the review now' });
      await close.waitFor(WAIT);
      await checked(admin, width, 'the review page');
      // Cancel changes nothing, and gives focus back to the button.
      await close.click();
      const dialog = admin.getByRole('alertdialog');
      await dialog.waitFor(WAIT);
      await checked(admin, width, 'the close confirmation');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      assert.equal((await app.api.get(`/uar/${uar.body.uar_id}/items`)).body.closed_at, null);
      await close.click();
      await admin.getByRole('alertdialog').getByRole('button', { name: 'Close the review' }).click();
      await admin.getByText(/Closed /).waitFor(WAIT);
      assert.equal(await admin.getByRole('button', { name: 'Close the review now' }).count(), 0);
      const after = await app.api.get(`/uar/${uar.body.uar_id}/items`);
      assert.notEqual(after.body.closed_at, null);
      const holders = (await app.api.get(`/resources/${target.resource_id}/users`)).body.results.map((r: { user_id: string }) => r.user_id);
      assert.ok(!holders.includes(member.user_id), 'the decided revoke was carried out at the close');
      await checked(admin, width, 'the closed review');
      await admin.context().close();
    });
  }
});
