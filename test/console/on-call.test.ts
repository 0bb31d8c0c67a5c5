// On-call schedules in the console, in a real browser (Debian's chromium through playwright-core), against a
// PagerDuty stand-in: an admin adds a schedule on a group's page (checked with PagerDuty) and sees who is on
// call until when and the last sync, and a failing sync in words; a person on call sees their request
// "approved at once" because they are on call. Every page passes axe-core (WCAG A/AA) and fits the screen at
// 1280 and 375 px; screenshots go to test-output/screenshots/ as on-call-NAME-desktop/375.png.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ManualClock } from '../../src/lib/clock.ts';
import { syncOnCall } from '../../src/modules/on-call/sync.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { borrowBrowser, checkPage, noBrowser, openPage, returnBrowser, signedInPage, WAIT } from '../helpers/browser.ts';
import { createGroup, createMember, createOwner, type Signed } from '../helpers/fixtures.ts';
import { PAGERDUTY_TOKEN, PagerDutyStandIn } from '../helpers/on-call-stand-ins.ts';
import { config, postRequest, requestableResource } from '../helpers/requests.ts';

const SHOTS = process.env.GATEHOUSE_SCREENSHOTS ?? join(process.cwd(), 'test-output', 'screenshots');
const WIDTHS = [1280, 375] as const;
const HOUR = 3_600_000;

describe('on-call schedules in the console', { skip: noBrowser }, () => {
  let app: TestApp;
  let pd: PagerDutyStandIn;
  let browser: Browser;
  let oscar: Signed;
  let group: { group_id: string; name: string };
  let remote: string;
  const problems: string[] = [];
  // The service's clock starts at the real time, as the browser reads times with its own.
  const clock = new ManualClock(new Date().toISOString());

  const signedIn = (email: string, width: number): Promise<Page> => signedInPage(browser, app, email, width, problems);

  const open = (page: Page, path: string): Promise<void> => openPage(page, app, path);
  const check = (page: Page, name: string, width: number): Promise<void> => checkPage(page, SHOTS, `on-call-${name}`, width);

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    pd = await PagerDutyStandIn.start(() => clock.now());
    app = await startTestApp({ clock, env: { GATEHOUSE_PAGERDUTY_TOKEN: PAGERDUTY_TOKEN, GATEHOUSE_PAGERDUTY_API_URL: pd.url } });
    oscar = await createMember(app.api, { full_name: 'Oscar Oncall', email: 'oscar@example.com' });
    const person = pd.addPerson('Oscar Oncall', 'oscar@example.com');
    remote = pd.addSchedule('Payments primary');
    pd.shift(remote, person, new Date(clock.now().getTime() - HOUR).toISOString(), new Date(clock.now().getTime() + 5 * HOUR).toISOString());
    group = await createGroup(app.api, { name: 'Payments on call' });
    browser = await borrowBrowser();
  });
  after(async () => {
    await returnBrowser();
    await app?.close();
    await pd?.close();
    assert.deepEqual(problems, [], 'errors in the page');
    assert.deepEqual(pd.violations, [], 'every PagerDuty answer fits its public document');
  });

  it('an admin adds a PagerDuty schedule on the group\'s page and sees who is on call until when', async () => {
    for (const width of WIDTHS) {
      const page = await signedIn('admin@gatehouse.local', width);
      await open(page, `/console/groups/${group.group_id}`);
      const section = page.getByRole('region', { name: 'On call' });
      await section.waitFor(WAIT);
      if (width === 1280) {
        await section.getByText('Payments on call follows no on-call schedule.').waitFor(WAIT);
        await check(page, 'group-empty', width);
        // An id PagerDuty does not know is refused in words, and nothing is added.
        await section.getByLabel('Schedule id at the provider').fill('PNOSUCH');
        await section.getByRole('button', { name: 'Add and follow' }).click();
        await section.getByRole('alert').filter({ hasText: 'PagerDuty has no schedule with this id' }).waitFor(WAIT);
        await section.getByLabel('Provider', { exact: true }).selectOption('PAGER_DUTY');
        await section.getByLabel('Schedule id at the provider').fill(remote);
        await section.getByRole('button', { name: 'Add and follow' }).click();
      }
      await section.getByRole('heading', { name: /Payments primary/ }).waitFor(WAIT);
      // Synced when added: who is on call, until when, and when it was read.
      await section.getByText(/^Oscar Oncall, on call until /).waitFor(WAIT);
      await section.getByText(/^Last synced (?!never)/).waitFor(WAIT);
      await check(page, 'group', width);
      await page.context().close();
    }
    const members = await app.api.get(`/groups/${group.group_id}/users`);
    assert.deepEqual((members.body.results as { user_id: string }[]).map((m) => m.user_id), [oscar.user_id]);
  });

  it('a failing sync is said on the group\'s page, and it changes nobody\'s membership', async () => {
    pd.outage = 503;
    const page = await signedIn('admin@gatehouse.local', 1280);
    // The page's clock is the test's to move (Playwright's clock; time still flows by itself): see below.
    await page.clock.install();
    await open(page, `/console/groups/${group.group_id}`);
    const section = page.getByRole('region', { name: 'On call' });
    await section.getByRole('button', { name: 'Sync Payments primary now' }).click();
    await section.getByText(/The last sync failed: PagerDuty answered 503/).waitFor(WAIT);
    await check(page, 'group-failing', 1280);
    // The provider is back and the job syncs again once the back-off has passed: the section says so by
    // itself (it looks again while the last sync failed), without a reload.
    await page.evaluate('window.__notReloaded = true');
    pd.outage = null;
    clock.advance(HOUR);
    await syncOnCall(app.ctx, clock.now());
    // Its next look, due within the console's longest wait (15 s, console/ui.tsx), comes now instead of
    // being sat out in real time.
    await page.clock.fastForward(15_000);
    await section.getByText(/The last sync failed/).waitFor({ state: 'detached', ...WAIT });
    assert.equal(await page.evaluate<boolean>('window.__notReloaded === true'), true, 'the page was not reloaded');
    await page.context().close();
    const members = await app.api.get(`/groups/${group.group_id}/users`);
    assert.deepEqual((members.body.results as { user_id: string }[]).map((m) => m.user_id), [oscar.user_id]);
  });

  it('the person on call sees their request approved at once because they are on call', async () => {
    const team = await createOwner(app.api, { name: 'Payments team' });
    const resource = await requestableResource(app, team.owner_id, [
      config({ priority: 0, reviewer_stages: [{ stage: 1, operator: 'OR', require_manager_approval: false, owner_ids: [team.owner_id] }] }),
      config({ priority: 1, condition: { group_ids: [group.group_id] }, auto_approval: true }),
    ], { name: 'Payments production' });
    const made = await postRequest(oscar.api, { resources: [{ id: resource.resource_id }], duration_minutes: 8 * 60 });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    for (const width of WIDTHS) {
      const page = await signedIn('oscar@example.com', width);
      await open(page, `/console/requests/${made.body.id}`);
      await page.getByText(/Approved at once: you are on call for Payments primary until/).waitFor(WAIT);
      await check(page, 'request', width);
      await page.context().close();
    }
  });

  it('in a request that also waits for reviewers, the on-call item says it needs no review and ends with the shift', async () => {
    const team = await createOwner(app.api, { name: 'Ledger team' });
    const reviewed = [config({ priority: 0, reviewer_stages: [{ stage: 1, operator: 'OR', require_manager_approval: false, owner_ids: [team.owner_id] }] })];
    const ledger = await requestableResource(app, team.owner_id, [...reviewed, config({ priority: 1, condition: { group_ids: [group.group_id] }, auto_approval: true })], { name: 'Ledger production' });
    const reports = await requestableResource(app, team.owner_id, reviewed, { name: 'Ledger reports' });
    const made = await postRequest(oscar.api, { resources: [{ id: ledger.resource_id }, { id: reports.resource_id }], duration_minutes: 8 * 60 });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    for (const width of WIDTHS) {
      const page = await signedIn('oscar@example.com', width);
      await open(page, `/console/requests/${made.body.id}`);
      await page.getByRole('listitem').filter({ hasText: 'Ledger production' })
        .getByText(/needs no review, approved because you are on call for Payments primary until .*; that access ends no later than that/).waitFor(WAIT);
      await page.getByText('No review needed: the on-call rotation approved it.').waitFor(WAIT);
      await check(page, 'request-mixed', width);
      await page.context().close();
    }
  });
});
