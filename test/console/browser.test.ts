// The console in a real browser (Debian's chromium through playwright-core) against a real OpenID
// provider on loopback: sign in, request with the dry-run preview, approve in a second context, see it on
// My access, deny with a comment, decide a review that revokes, a member kept off admin pages, CSRF and a
// replayed sign-in link refused, an ended session leading to sign-in; axe-core checks each page (WCAG A/AA)
// and every page is photographed at desktop width and 375 px into test-output/screenshots/
// (GATEHOUSE_SCREENSHOTS to choose), the folder named in the test's output so CI's log says where.
// Also: a request template's custom fields on the request form, a reviewer approving for less, and a
// manager reading a report's person page (a non-manager refused).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createLoginLink } from '../../src/modules/web-sessions/service.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { attributeSettles, axeViolations, borrowBrowser, newPage as pageIn, noBrowser, openPage, returnBrowser, signedInPage, signIn, WAIT } from '../helpers/browser.ts';
import { createApp, createGroup, createMember, createOwner, createResource, type Signed } from '../helpers/fixtures.ts';
import { startTestProvider, type TestProvider } from '../helpers/oidc-provider.ts';
import { config, stage } from '../helpers/requests.ts';

const skip = noBrowser;
const SHOTS = process.env.GATEHOUSE_SCREENSHOTS ?? join(process.cwd(), 'test-output', 'screenshots');

describe('the console in a browser', { skip }, () => {
  let idp: TestProvider;
  let app: TestApp;
  let origin: string;
  let browser: Browser;
  let requester: Signed;
  let reviewer: Signed;
  let payroll: { resource_id: string; name: string };
  let wiki: { resource_id: string; name: string };
  let requesterPage: Page;
  let reviewerPage: Page;
  const problems: string[] = [];

  /** A fresh browser context (its own cookies), watching for page errors. CSP is bypassed only so axe can be injected. */
  const newPage = (width = 1280): Promise<Page> => pageIn(browser, width, problems, { acceptDownloads: true });

  async function shoot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    assert.deepEqual(await axeViolations(page), [], `accessibility problems on ${name}`);
  }

  const signInWithLink = (page: Page, email: string): Promise<void> => signIn(page, app, email);

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    idp = await startTestProvider();
    app = await startTestApp({ env: { GATEHOUSE_OIDC_ISSUER: idp.issuer, GATEHOUSE_OIDC_CLIENT_ID: idp.clientId, GATEHOUSE_OIDC_CLIENT_SECRET: idp.clientSecret } });
    origin = new URL(app.url).origin;
    idp.allowRedirects([`${origin}/console/oidc/callback`]);
    requester = await createMember(app.api, { full_name: 'Rowan Requester', email: 'rowan@example.com' });
    reviewer = await createMember(app.api, { full_name: 'Rita Reviewer', email: 'rita@example.com' });
    idp.accounts.set('rowan@example.com', { email: 'rowan@example.com', email_verified: true, name: 'Rowan Requester' });
    const owner = await createOwner(app.api, { user_ids: [reviewer.user.user_id] });
    // Rita is Rowan's manager: she may open his person page.
    assert.equal((await app.api.put(`/users/${requester.user.user_id}`, { manager_id: reviewer.user.user_id })).status, 200);
    const questions = await app.api.post('/request-templates', {
      name: 'Finance questions',
      custom_fields: [
        { name: 'Change ticket', type: 'SHORT_TEXT', required: true, description: 'The ticket this work is tracked in' },
        { name: 'Environment', type: 'MULTI_CHOICE', required: true, metadata: { multi_choice_data: { options: ['Staging', 'Production'] } } },
        { name: 'On call this week', type: 'BOOLEAN', required: false },
        { name: 'Anything else', type: 'LONG_TEXT', required: false },
      ],
    });
    assert.equal(questions.status, 200, JSON.stringify(questions.body));
    const reviewed = [config({ max_duration_minutes: 7 * 1440, extensions_duration_in_minutes: 120, reviewer_stages: [stage({ owner_ids: [owner.owner_id] })] })];
    payroll = await createResource(app.api, {
      name: 'Payroll database', admin_owner_id: owner.owner_id, request_configurations: reviewed, request_template_id: questions.body.request_template_id,
    });
    wiki = await createResource(app.api, { name: 'Finance wiki', admin_owner_id: owner.owner_id, request_configurations: reviewed });
    browser = await borrowBrowser();
  });
  after(async () => {
    await returnBrowser();
    await app?.close();
    await idp?.close();
  });

  it('signs in through the OpenID provider and lands on Home', async () => {
    requesterPage = await newPage();
    await requesterPage.goto(`${origin}/console`);
    const button = requesterPage.getByRole('link', { name: 'Sign in with single sign-on' });
    await button.waitFor(WAIT);
    await shoot(requesterPage, 'sign-in');
    await button.click();
    await requesterPage.getByLabel('Email').fill('rowan@example.com');
    await requesterPage.getByRole('button', { name: 'Sign in' }).click();
    await requesterPage.getByRole('heading', { name: 'Welcome, Rowan Requester' }).waitFor(WAIT);
    assert.equal(new URL(requesterPage.url()).pathname, '/console');
    // It painted; how fast is npm run bench's (test/bench/console-paint.ts), never a timed assertion here.
    // The paint entry is queued after the frame is presented, which can be after the heading is
    // in the DOM on a busy machine: wait for it instead of reading it once.
    await requesterPage.waitForFunction(`performance.getEntriesByName('first-contentful-paint').length > 0`, undefined, WAIT);
    const paint = await requesterPage.evaluate<number>(`performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1`);
    assert.ok(paint > 0, 'the page painted');
    await shoot(requesterPage, 'home');
  });

  it('requests access with a live dry-run preview of who must approve, answering the item\'s custom fields', async () => {
    await requesterPage.getByRole('navigation').getByRole('link', { name: 'Request access' }).click();
    await requesterPage.getByLabel('Find a resource or group').fill('Payroll');
    await requesterPage.getByRole('button', { name: 'Add Payroll database' }).click();
    await requesterPage.getByText(/Rita Reviewer — /).waitFor(WAIT);
    // The item allows at most 7 days: longer choices are not offered.
    const durations = await requesterPage.getByLabel('For how long').locator('option').allTextContents();
    assert.ok(!durations.includes('30 days') && durations.includes('7 days'), durations.join());
    await requesterPage.getByLabel('For how long').selectOption({ label: '1 day' });
    await requesterPage.getByLabel('Why you need it').fill('Month-end close');
    // The request template's questions, each a labelled control of its type.
    const ticket = requesterPage.getByLabel(/^Change ticket/);
    await ticket.waitFor(WAIT);
    assert.equal(await ticket.getAttribute('aria-required'), 'true');
    assert.equal(await requesterPage.getByLabel(/^On call this week/).getAttribute('type'), 'checkbox');
    assert.equal(await requesterPage.getByLabel(/^Anything else/).evaluate((e) => e.tagName), 'TEXTAREA');
    assert.deepEqual(await requesterPage.getByLabel(/^Environment/).locator('option').allTextContents(), ['Choose…', 'Staging', 'Production']);
    // Left unanswered: the API's refusal, in words, beside the form and the questions.
    await requesterPage.getByRole('button', { name: 'Send request' }).click();
    await requesterPage.getByRole('alert').filter({ hasText: /must answer "Change ticket" \(asked for Payroll database\), "Environment"/ }).waitFor(WAIT);
    assert.equal(await ticket.getAttribute('aria-invalid'), 'true');
    await shoot(requesterPage, 'request-new-refused');
    await ticket.fill('FIN-42');
    await requesterPage.getByLabel(/^Environment/).selectOption('Production');
    await requesterPage.getByLabel(/^On call this week/).check();
    await shoot(requesterPage, 'request-new');
    await requesterPage.getByRole('button', { name: 'Send request' }).click();
    await requesterPage.getByRole('heading', { name: 'Access request' }).waitFor(WAIT);
    await requesterPage.getByText('Pending', { exact: true }).first().waitFor(WAIT);
    assert.match(new URL(requesterPage.url()).pathname, /^\/console\/requests\/[0-9a-f-]{36}$/);
    // The answers are on the request.
    await requesterPage.getByText('FIN-42').waitFor(WAIT);
    const answers = (await app.api.get(`/requests/${requesterPage.url().split('/').pop()}`)).body.custom_fields_responses;
    assert.deepEqual(answers.map((a: { field_name: string; field_value: unknown }) => [a.field_name, a.field_value]),
      [['Change ticket', 'FIN-42'], ['Environment', 'Production'], ['On call this week', true]]);
  });

  it('is approved by the reviewer in a second browser context, for less time than asked', async () => {
    reviewerPage = await newPage();
    await signInWithLink(reviewerPage, 'rita@example.com');
    assert.equal(await reviewerPage.locator('[data-count="reviews"]').textContent(), '1');
    await reviewerPage.getByRole('link', { name: /Payroll database/ }).click();
    await reviewerPage.getByRole('button', { name: 'Approve', exact: true }).waitFor(WAIT);
    // Only shorter durations are offered.
    const offered = await reviewerPage.getByLabel('Grant for').locator('option').allTextContents();
    assert.deepEqual(offered, ['1 day, as asked', '1 hour', '4 hours']);
    await reviewerPage.getByLabel('Grant for').selectOption({ label: '4 hours' });
    await shoot(reviewerPage, 'request-review');
    const approvedAt = app.clock.now().getTime();
    await reviewerPage.getByRole('button', { name: 'Approve', exact: true }).click();
    await reviewerPage.getByText('Approved', { exact: true }).first().waitFor(WAIT);
    await reviewerPage.getByText(/for 4 hours \(shortened by a reviewer from 1 day\)/).waitFor(WAIT);
    const held = (await app.api.get(`/resources/${payroll.resource_id}/users`)).body.results.find((r: { user_id: string }) => r.user_id === requester.user.user_id);
    assert.equal(held.expiration_date, new Date(approvedAt + 4 * 3_600_000).toISOString(), 'the grant lasts the shortened time');
  });

  it('shows the access on My access, with its path and expiry', async () => {
    await requesterPage.getByRole('navigation').getByRole('link', { name: 'My access' }).click();
    const row = requesterPage.getByRole('row', { name: /Payroll database/ });
    await row.waitFor(WAIT);
    assert.match((await row.textContent())!, /direct/);
    await shoot(requesterPage, 'my-access');
    // Extending is a new request for the same item and level, for at most the item's extension duration.
    await requesterPage.getByRole('link', { name: 'Extend Payroll database' }).click();
    await requesterPage.getByText('Extending your access to Payroll database').waitFor(WAIT);
    assert.deepEqual(await requesterPage.getByLabel('For how long').locator('option').allTextContents(), ['1 hour', '2 hours (the most allowed)']);
    assert.equal(await requesterPage.getByLabel('Level for Payroll database').inputValue(), '');
    await requesterPage.getByText(/Rita Reviewer — /).waitFor(WAIT);
    await shoot(requesterPage, 'request-extend');
  });

  it('denies a request with a comment, and says in words that a denial needs one', async () => {
    const ask = await requester.api.post('/requests', { resources: [{ id: wiki.resource_id }], groups: [], reason: 'Reading the wiki', duration_minutes: 60 });
    assert.equal(ask.status, 200);
    await reviewerPage.goto(`${origin}/console/requests/${ask.body.id}`);
    await reviewerPage.getByRole('button', { name: 'Deny' }).click();
    await reviewerPage.getByRole('alert').filter({ hasText: 'Write a comment saying why you deny it.' }).waitFor(WAIT);
    await reviewerPage.getByLabel(/^Comment/).fill('Use the public handbook instead');
    await reviewerPage.getByRole('button', { name: 'Deny' }).click();
    await reviewerPage.getByText('Denied', { exact: true }).first().waitFor(WAIT);
    await reviewerPage.getByText('Use the public handbook instead').waitFor(WAIT);
    assert.equal((await app.api.get(`/requests/${ask.body.id}`)).body.status, 'DENIED');
  });

  it('lets a manager see a report\'s access on their person page, and keeps anyone else off it', async () => {
    await reviewerPage.goto(`${origin}/console`);
    await reviewerPage.getByRole('heading', { name: 'Your reports' }).waitFor(WAIT);
    await reviewerPage.getByRole('link', { name: 'Rowan Requester' }).click();
    await reviewerPage.getByRole('heading', { name: 'Rowan Requester' }).waitFor(WAIT);
    await reviewerPage.getByRole('row', { name: /Payroll database/ }).waitFor(WAIT);
    assert.equal(await reviewerPage.getByRole('button', { name: /^Offboard/ }).count(), 0, 'offboarding stays with admins');
    await shoot(reviewerPage, 'person-as-manager');
    await requesterPage.goto(`${origin}/console/users/${reviewer.user.user_id}`);
    await requesterPage.getByText('This page is for organization admins and Rita Reviewer\'s manager.').waitFor(WAIT);
    assert.equal(await requesterPage.getByRole('table').count(), 0);
  });

  it('keeps a member off admin pages, and the API refuses them anyway', async () => {
    assert.equal(await requesterPage.getByRole('link', { name: 'Audit trail' }).count(), 0);
    await requesterPage.goto(`${origin}/console/events`);
    await requesterPage.getByText('This page is for organization admins').waitFor(WAIT);
    const status = await requesterPage.evaluate<number>(`fetch('/v1/events').then(r => r.status)`);
    assert.equal(status, 403);
    // Access reviews: only what is assigned to them (nothing here), and no way to start one.
    await requesterPage.getByRole('navigation').getByRole('link', { name: 'Access reviews' }).click();
    await requesterPage.getByText('No access review asks you to review anything.').waitFor(WAIT);
    assert.equal(await requesterPage.getByRole('button', { name: 'Start review' }).count(), 0);
    assert.equal(await requesterPage.evaluate<number>(`fetch('/v1/uars').then(r => r.status)`), 403);
  });

  it('an admin starts an access review; the reviewer, not an admin, decides her items there: a revoke asks first, waits for the close, and Keep undoes it', async () => {
    // Rowan also holds the wiki directly, so the review has two items for Rita (a user of both items' admin owner).
    assert.equal((await app.api.post(`/resources/${wiki.resource_id}/users/${requester.user.user_id}`, { duration_minutes: 0 })).status, 200);
    const adminPage = await newPage();
    await signInWithLink(adminPage, 'admin@gatehouse.local');
    await adminPage.getByRole('navigation').getByRole('link', { name: 'Access reviews' }).click();
    await adminPage.getByLabel('Name').fill('Finance access, Q1');
    await adminPage.getByLabel('Deadline').fill('2026-12-31');
    // The date field's calendar button is a Tab stop inside the field: the focus ring shows there too.
    await adminPage.getByLabel('Deadline').focus();
    for (let i = 0; i < 3; i++) await adminPage.keyboard.press('Tab');
    assert.deepEqual(await adminPage.evaluate<[string, string]>(`[document.activeElement.id, getComputedStyle(document.activeElement).outlineStyle]`), ['uar-deadline', 'solid']);
    await adminPage.getByLabel('Who reviews each item').selectOption('BY_OWNING_TEAM_ADMIN_ALL');
    await adminPage.getByRole('button', { name: 'Start review' }).click();
    await adminPage.getByText('Choose what happens to items nobody answers by the deadline.').waitFor(WAIT);
    await adminPage.getByLabel('revoked').check();
    await shoot(adminPage, 'reviews');
    await adminPage.getByRole('button', { name: 'Start review' }).click();
    await adminPage.getByRole('heading', { name: 'Finance access, Q1' }).waitFor(WAIT);
    await adminPage.getByRole('row').filter({ hasText: 'Payroll database' }).getByText('1 other', { exact: true }).waitFor(WAIT);

    // Rita signs in again (a fresh context): Home counts her review items; she decides them on the review's page.
    const ritaPage = await newPage();
    await signInWithLink(ritaPage, 'rita@example.com');
    assert.equal(await ritaPage.locator('[data-count="review-items"]').textContent(), '2');
    assert.equal(await ritaPage.locator('[data-count="reviews"]').textContent(), '2');
    await ritaPage.getByRole('link', { name: 'Access review: Finance access, Q1' }).click();
    await ritaPage.getByRole('heading', { name: 'Finance access, Q1' }).waitFor(WAIT);
    const decision = ritaPage.getByRole('group', { name: 'Decision for Rowan Requester on Payroll database' });
    // A revoke asks first, naming what ends and when; Cancel changes nothing.
    await decision.getByRole('button', { name: 'Revoke' }).click();
    const confirmRevoke = ritaPage.getByRole('alertdialog', { name: 'Revoke Rowan Requester\'s access to Payroll database?' });
    await confirmRevoke.waitFor(WAIT);
    assert.match((await confirmRevoke.textContent())!, /ends when the review closes .*choosing Keep undoes the revoke/);
    await shoot(ritaPage, 'review-confirm-revoke');
    await confirmRevoke.getByRole('button', { name: 'Cancel' }).click();
    await confirmRevoke.waitFor({ state: 'hidden', ...WAIT });
    // Cancel gives focus back to the button that opened the dialog.
    await ritaPage.waitForFunction(`document.activeElement?.closest('[role=group]')?.getAttribute('aria-label') + ' / ' + document.activeElement?.textContent === 'Decision for Rowan Requester on Payroll database / Revoke'`, undefined, WAIT);
    assert.equal(await decision.getByRole('button', { name: 'Revoke', pressed: true }).count(), 0, 'cancelled: nothing decided');
    await decision.getByRole('button', { name: 'Revoke' }).click();
    await confirmRevoke.getByRole('button', { name: 'Revoke', exact: true }).click();
    await decision.getByRole('button', { name: 'Revoke', pressed: true }).waitFor(WAIT);
    await ritaPage.getByRole('checkbox', { name: 'Select Rowan Requester on Finance wiki' }).check();
    await ritaPage.getByRole('button', { name: 'Keep selected (1)' }).click();
    await ritaPage.getByRole('group', { name: 'Decision for Rowan Requester on Finance wiki' }).getByRole('button', { name: 'Keep', pressed: true }).waitFor(WAIT);
    await ritaPage.getByText('0 of your 2 items wait for your answer.').waitFor(WAIT);
    await shoot(ritaPage, 'review');

    const heldNow = async () => (await app.api.get(`/resources/users/${requester.user.user_id}`)).body.results.map((r: { resource_id: string }) => r.resource_id);
    assert.ok((await heldNow()).includes(payroll.resource_id), 'the revoke waits for the review to close');
    assert.ok((await heldNow()).includes(wiki.resource_id), 'the kept item is still held');
    const decisionsBy = (await app.api.get('/events', { event_type_filter: 'UAR_REVIEWS_DECIDED', actor_filter: reviewer.user.user_id })).body.results;
    assert.deepEqual(decisionsBy.map((e: { api_token_name?: string; sub_events: { sub_event_type: string }[] }) => [e.api_token_name, e.sub_events[0]!.sub_event_type]),
      [['console', 'UAR_ITEM_KEEP'], ['console', 'UAR_ITEM_REVOKE']]);
    // She changes her mind before the close: Keep undoes the revoke (no dialog: nothing ends).
    await decision.getByRole('button', { name: 'Keep' }).click();
    await decision.getByRole('button', { name: 'Keep', pressed: true }).waitFor(WAIT);
    const payrollRow = (await app.api.get(`/uar/${new URL(ritaPage.url()).pathname.split('/').pop()}/items`)).body.results
      .find((r: { item_name: string; user_id: string }) => r.item_name === 'Payroll database' && r.user_id === requester.user.user_id);
    assert.equal(payrollRow.decision, 'KEEP');
    assert.equal((await app.api.get('/events', { event_type_filter: 'RESOURCE_USERS_REMOVED', object_filter: requester.user.user_id })).body.results.length, 0, 'nothing was taken away');
    await ritaPage.getByRole('navigation').getByRole('link', { name: 'Access reviews' }).click();
    await ritaPage.getByText(/0 of 2 items waiting/).waitFor(WAIT);
    await ritaPage.context().close();

    // The admin hands an item to someone else: never to the person whose access it is (said in words).
    await adminPage.reload();
    await adminPage.getByRole('heading', { name: 'Finance access, Q1' }).waitFor(WAIT);
    await adminPage.getByRole('checkbox', { name: 'Select Rowan Requester on Finance wiki' }).check();
    await adminPage.getByLabel('Assign selected items to (email)').fill('rowan@example.com');
    await adminPage.getByRole('button', { name: 'Assign' }).click();
    await adminPage.getByRole('alert').filter({ hasText: 'nobody reviews their own access' }).waitFor(WAIT);
    await adminPage.getByLabel('Assign selected items to (email)').fill('admin@gatehouse.local');
    await adminPage.getByRole('button', { name: 'Assign' }).click();
    await adminPage.getByRole('row').filter({ hasText: 'Finance wiki' }).getByText('you', { exact: true }).waitFor(WAIT);
    await shoot(adminPage, 'review-admin');

    // An admin revokes on the item's page: the dialog names who and what; only confirming acts, once.
    await adminPage.goto(`${origin}/console/resources/${wiki.resource_id}`);
    await adminPage.getByRole('button', { name: 'Revoke Rowan Requester' }).click();
    const confirmWiki = adminPage.getByRole('alertdialog', { name: 'Revoke Rowan Requester\'s access to Finance wiki?' });
    await confirmWiki.waitFor(WAIT);
    // Escape closes it and gives focus back to the button that opened it.
    await adminPage.keyboard.press('Escape');
    await confirmWiki.waitFor({ state: 'hidden', ...WAIT });
    await adminPage.waitForFunction(`document.activeElement?.textContent === 'Revoke Rowan Requester'`, undefined, WAIT);
    await adminPage.getByRole('button', { name: 'Revoke Rowan Requester' }).click();
    await confirmWiki.waitFor(WAIT);
    await shoot(adminPage, 'resource-confirm-revoke');
    await confirmWiki.getByRole('button', { name: 'Revoke Rowan Requester' }).dblclick();
    await confirmWiki.waitFor({ state: 'hidden', ...WAIT });
    await adminPage.getByText(/^Nobody (in Gatehouse )?holds it\./).waitFor(WAIT);
    // Granting directly lasts a day unless the admin chooses otherwise; "indefinitely" is offered last.
    const grantFor = adminPage.getByLabel('For how long');
    assert.equal(await grantFor.locator('option:checked').textContent(), '1 day');
    assert.equal((await grantFor.locator('option').allTextContents()).at(-1), 'indefinitely (no expiry)');
    const wikiRemoved = (await app.api.get('/events', { event_type_filter: 'RESOURCE_USERS_REMOVED', object_filter: wiki.resource_id })).body.results;
    assert.equal(wikiRemoved.length, 1, 'one removal, however often the button was pressed');

    for (const [path, name] of [[`/console/resources/${payroll.resource_id}`, 'resource'], [`/console/users/${requester.user.user_id}`, 'person'], ['/console/events', 'events'], ['/console/account', 'account']] as const) {
      await openPage(adminPage, origin, path);
      await shoot(adminPage, name);
    }
  });

  it('exports the audit trail the filters match, as JSON Lines', async () => {
    const page = await newPage();
    await signInWithLink(page, 'admin@gatehouse.local');
    await page.goto(`${origin}/console/events?event_type_filter=REQUESTS_CREATED`);
    await page.getByRole('table').waitFor(WAIT);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export all matching events' }).click()]);
    const lines = readFileSync((await download.path())!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { event_type: string });
    const expected = (await app.api.get('/events', { event_type_filter: 'REQUESTS_CREATED', page_size: 1000 })).body.results.length;
    assert.ok(expected >= 2);
    assert.equal(lines.length, expected);
    assert.ok(lines.every((event) => event.event_type === 'REQUESTS_CREATED'));

    // Filtered by a person and an item chosen by name, never an id; events name what they concern in words.
    await page.goto(`${origin}/console/events`);
    await page.getByLabel('Who did it').fill('Rita Reviewer <rita@example.com>');
    await page.getByLabel('About a person or item').fill('Payroll database (resource)');
    await page.locator('#f-object-choices option[value="Payroll database (resource)"]').waitFor({ state: 'attached', ...WAIT });
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/actor_filter=/, WAIT);
    const query = new URL(page.url()).searchParams;
    assert.equal(query.get('actor_filter'), reviewer.user.user_id);
    assert.equal(query.get('object_filter'), payroll.resource_id);
    const approved = page.getByRole('row').filter({ hasText: 'Requests approved' });
    await approved.waitFor(WAIT);
    assert.match((await approved.textContent())!, /Rita Reviewer.*request by Rowan Requester.*Payroll database/);
    assert.doesNotMatch((await page.getByRole('table').textContent())!, /request request|REQUESTS_|[0-9a-f]{8}-[0-9a-f]{4}/);
    await shoot(page, 'events-filtered');
  });

  it('preselects an item\'s suggested duration on the request form and the Grant form alike; says who reviews in words; a reviewer no longer asked reads "Not needed"; times carry their zone', async () => {
    const omar = await createMember(app.api, { full_name: 'Omar Other', email: 'omar@example.com' });
    const buildTeam = await createOwner(app.api, { name: 'Build reviewers', user_ids: [reviewer.user.user_id, omar.user.user_id] });
    const keepers = await createOwner(app.api, { name: 'Build keepers', user_ids: [omar.user.user_id] });
    const logs = await createResource(app.api, {
      name: 'Build logs', admin_owner_id: keepers.owner_id,
      request_configurations: [config({ max_duration_minutes: 7 * 1440, recommended_duration_minutes: 240, reviewer_stages: [stage({ operator: 'OR', owner_ids: [buildTeam.owner_id] })] })],
    });
    // Item 7: the request form preselects the suggested 4 hours (not a day) and says so.
    await requesterPage.goto(`${origin}/console/requests/new?resource_id=${logs.resource_id}`);
    const duration = requesterPage.getByLabel('For how long');
    await requesterPage.getByText('Build logs suggests 4 hours.').waitFor(WAIT);
    assert.equal(await duration.locator('option:checked').textContent(), '4 hours (suggested)');
    const requestChoices = await duration.locator('option').allTextContents();
    assert.deepEqual(requestChoices, ['1 hour', '4 hours (suggested)', '1 day', '7 days']);
    // The preview names the team in plain words.
    await requesterPage.getByText('Rita Reviewer — a member of the team "Build reviewers"').waitFor(WAIT);
    await requesterPage.getByLabel('Why you need it').fill('Reading a failed build');
    await requesterPage.getByRole('button', { name: 'Send request' }).click();
    await requesterPage.getByRole('heading', { name: 'Access request' }).waitFor(WAIT);
    const id = requesterPage.url().split('/').pop()!;
    assert.equal((await app.api.get(`/requests/${id}`)).body.duration_minutes, 240);

    // The admin's Grant form offers the same durations, the same one preselected, and "indefinitely" last.
    const berlin = await signedInPage(browser, app, 'admin@gatehouse.local', 375, problems, 'Europe/Berlin');
    await berlin.goto(`${origin}/console/resources/${logs.resource_id}`);
    const grantFor = berlin.getByLabel('For how long');
    await grantFor.waitFor(WAIT);
    assert.deepEqual(await grantFor.locator('option').allTextContents(), [...requestChoices, 'indefinitely (no expiry)']);
    assert.equal(await grantFor.locator('option:checked').textContent(), '4 hours (suggested)');
    // Who reviews, in words: no "stage(s)", no count of owners.
    await berlin.getByText('For everyone: reviewed in one stage:').waitFor(WAIT);
    await berlin.getByText('A member of Build reviewers approves.').waitFor(WAIT);
    assert.doesNotMatch((await berlin.locator('main').textContent())!, /\(s\)/);
    assert.deepEqual(await axeViolations(berlin), []);

    // Rita approves: the stage wanted any one of its team, so Omar is no longer asked.
    assert.equal((await reviewer.api.post(`/requests/${id}/approve`, { level: 'REGULAR' })).status, 200);
    await berlin.goto(`${origin}/console/requests/${id}`);
    const stageList = berlin.locator('.stages');
    await stageList.getByText('Rita Reviewer: Approved').waitFor(WAIT);
    await stageList.getByText('Omar Other: Not needed').waitFor(WAIT);
    assert.doesNotMatch((await stageList.textContent())!, /Pending/);
    // Times say their zone (the browser's: Berlin here).
    assert.match((await berlin.locator('main').textContent())!, /Asked by Rowan Requester on .*\d{1,2}:\d{2}\D*(GMT\+1|CET)/);
    assert.ok(await berlin.evaluate<number>('document.documentElement.scrollWidth') <= 375);
    assert.deepEqual(await axeViolations(berlin), []);
    await berlin.context().close();
  });

  it('photographs every page at desktop width and at 375 px, none wider than the screen', async (t) => {
    const request = await requester.api.post('/requests', { resources: [{ id: wiki.resource_id }], groups: [], reason: 'Photographed', duration_minutes: 60 });
    assert.equal(request.status, 200, JSON.stringify(request.body));
    const group = await createGroup(app.api, { name: 'Finance team' });
    assert.equal((await app.api.post(`/groups/${group.group_id}/users/${requester.user.user_id}`, { duration_minutes: 0 })).status, 200);
    const review = (await app.api.get('/uars')).body.results[0];
    // An item whose app has a connector (nobody answers on port 9, and the outbox is not run here: the grant stays PENDING).
    const connected = await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR', name: 'Ledger app' });
    assert.equal((await app.api.put(`/apps/${connected.app_id}/connector`, { url: 'http://127.0.0.1:9', signing_secret: 'a-long-enough-signing-secret' })).status, 200);
    // A team whose name is one long unbroken word owns it: the page still fits 375 px.
    const longNamed = await createOwner(app.api, { name: 'Platform-17959317514201795931751420179593' });
    const ledger = await createResource(app.api, { name: 'Ledger', app_id: connected.app_id, admin_owner_id: longNamed.owner_id });
    assert.equal((await app.api.post(`/resources/${ledger.resource_id}/users/${requester.user.user_id}`, { duration_minutes: 0 })).status, 200);
    const team = await createOwner(app.api, { name: 'Finance reviewers', user_ids: [reviewer.user.user_id] });
    // Every console page: each is photographed, checked with axe-core and for width at 1280 and 375 px.
    // A new page is checked by adding it here.
    const pages: [string, string][] = [
      ['/console', 'home'],
      ['/console/requests/new', 'request-new'],
      [`/console/requests/${request.body.id}`, 'request'],
      ['/console/access', 'my-access'],
      [`/console/resources/${payroll.resource_id}`, 'resource'],
      [`/console/resources/${ledger.resource_id}`, 'resource-with-connector'],
      [`/console/groups/${group.group_id}`, 'group'],
      [`/console/users/${requester.user.user_id}`, 'person'],
      ['/console/events', 'events'],
      ['/console/reviews', 'reviews'],
      ...(review ? [[`/console/reviews/${review.uar_id}`, 'review'] as [string, string]] : []),
      ['/console/account', 'account'],
      // The admin pages (their own journeys: test/console/admin-pages.test.ts).
      ['/console/people', 'people'],
      ['/console/teams', 'teams'],
      [`/console/teams/${team.owner_id}`, 'team'],
      ['/console/tokens', 'tokens'],
      ['/console/settings', 'settings'],
      ['/console/event-streams', 'event-streams'],
      ['/console/access-rules', 'access-rules'],
      // The Apps pages (test/console/apps.test.ts drives them): an app with an Opal-protocol connector, an item's settings.
      ['/console/apps', 'apps'],
      [`/console/apps/${connected.app_id}`, 'app-with-connector'],
      [`/console/resources/${ledger.resource_id}/settings`, 'resource-settings'],
      ['/console/request-templates', 'request-templates'],
      ['/console/no-such-page', 'not-found'],
    ];
    const written: string[] = [];
    for (const width of [1280, 375]) {
      const page = await newPage(width);
      await signInWithLink(page, 'admin@gatehouse.local');
      for (const [path, name] of pages) {
        await openPage(page, origin, path);
        if (name === 'resource-with-connector') await page.getByRole('row', { name: /Rowan Requester.*grant.*being carried to the system/ }).waitFor(WAIT);
        if (name === 'not-found') await page.getByRole('heading', { name: 'Page not found' }).waitFor(WAIT);
        if (name === 'resource') await page.getByText('No connector: access is in effect the moment it is written.').waitFor(WAIT);
        const file = `${name}-${width === 375 ? '375' : 'desktop'}.png`;
        await page.screenshot({ path: join(SHOTS, file), fullPage: true });
        written.push(file);
        const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
        const culprits = wide <= width ? '' : await page.evaluate<string>(`[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > ${width} + 1).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 8).join(', ')`);
        assert.ok(wide <= width, `${path} is ${wide} px wide at ${width} (see ${file}): ${culprits}`);
        // Every action is reachable: no control of the page lies beyond the screen's edge (a table that
        // scrolls inside its own box would hide its buttons there without widening the page).
        const cut = await page.evaluate<string[]>(`[...document.querySelectorAll('main a, main button, main input, main select, main textarea')]
          .filter(e => e.getClientRects().length > 0 && e.getBoundingClientRect().width > 1)
          .filter(e => { const r = e.getBoundingClientRect(); return r.right > ${width} + 1 || r.left < -1; })
          .map(e => (e.getAttribute('aria-label') || e.textContent || e.id || e.tagName).trim() + ' ' + Math.round(e.getBoundingClientRect().right))`);
        assert.deepEqual(cut, [], `${path} at ${width} px has controls off-screen (see ${file})`);
        assert.deepEqual(await axeViolations(page), [], `accessibility problems on ${path} at ${width} px`);
      }
      const signIn = await newPage(width);
      await signIn.goto(`${origin}/console`);
      await signIn.getByRole('heading', { name: 'Sign in to Gatehouse' }).waitFor(WAIT);
      await signIn.screenshot({ path: join(SHOTS, `sign-in-${width === 375 ? '375' : 'desktop'}.png`), fullPage: true });
      written.push(`sign-in-${width === 375 ? '375' : 'desktop'}.png`);
    }
    for (const file of written) assert.ok(statSync(join(SHOTS, file)).size > 1000, `${file} is written`);
    t.diagnostic(`console screenshots: ${written.length} pages (desktop and 375 px) in ${SHOTS}`);
  });

  it('is usable 375 px wide', async () => {
    const narrow = await newPage(375);
    await signInWithLink(narrow, 'rita@example.com');
    for (const path of ['/console', '/console/requests/new', '/console/access', '/console/account']) {
      await narrow.goto(`${origin}${path}`);
      await narrow.locator('#page-title').waitFor(WAIT);
      const width = await narrow.evaluate<number>('document.documentElement.scrollWidth');
      assert.ok(width <= 375, `${path} is ${width} px wide at 375`);
    }
    await narrow.screenshot({ path: join(SHOTS, 'home-375.png'), fullPage: true });
    await narrow.keyboard.press('Tab');
    await narrow.waitForFunction(`document.activeElement?.textContent === 'Skip to content'`, undefined, WAIT);
    // The navigation folds behind Menu on a phone; choosing a page folds it again. Each state is waited
    // for: it settles in the render after the click, not in the click.
    const menu = narrow.getByRole('button', { name: 'Menu' });
    const myAccess = narrow.getByRole('navigation').getByRole('link', { name: 'My access' });
    await attributeSettles(menu, 'aria-expanded', 'false', 'the menu starts folded');
    await myAccess.waitFor({ state: 'hidden', ...WAIT });
    await menu.click();
    await attributeSettles(menu, 'aria-expanded', 'true', 'Menu unfolds the links');
    await myAccess.waitFor({ state: 'visible', ...WAIT });
    await shoot(narrow, 'menu-375');
    await myAccess.click();
    await narrow.getByRole('heading', { name: 'My access' }).waitFor(WAIT);
    await attributeSettles(menu, 'aria-expanded', 'false', 'choosing a page folds the menu');
    await myAccess.waitFor({ state: 'hidden', ...WAIT });
  });

  it('refuses a forged write from another origin, a write without the CSRF token, and a replayed sign-in link', async () => {
    // Another page on this machine (the provider's origin: same site, so the cookie goes along).
    await requesterPage.goto(`${idp.issuer}/.well-known/openid-configuration`);
    await requesterPage.evaluate(`fetch('${origin}/v1/tokens', { method: 'POST', credentials: 'include', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ token_label: 'forged' }) }).catch(() => undefined)`);
    await requesterPage.goto(`${origin}/console`);
    await requesterPage.locator('#page-title').waitFor(WAIT);
    const noToken = await requesterPage.evaluate<number>(`fetch('/v1/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token_label: 'no csrf' }) }).then(r => r.status)`);
    assert.equal(noToken, 403);
    const labels = (await app.api.get('/tokens', { user_id: requester.user.user_id })).body.results.map((t: { token_label: string }) => t.token_label);
    assert.ok(!labels.includes('forged') && !labels.includes('no csrf'), labels.join());

    const page = await newPage();
    const link = createLoginLink(app.ctx, app.ctx.stores.users.getByEmail('rita@example.com')!).replace(/^http:\/\/[^/]+/, origin);
    await page.goto(link);
    await page.getByRole('button', { name: /^Sign in as / }).click();
    await page.locator('#page-title').waitFor(WAIT);
    const replay = await (await newPage()).goto(link);
    assert.equal(replay?.status(), 401);
    assert.match(await replay!.text(), /already used/);
  });

  it('leads an ended session back to sign-in, saying why', async () => {
    app.clock.advance(2 * 3_600_000);
    await reviewerPage.goto(`${origin}/console/access`);
    await reviewerPage.getByRole('heading', { name: 'Sign in to Gatehouse' }).waitFor(WAIT);
    await reviewerPage.getByText(/idle too long/).waitFor(WAIT);
    await shoot(reviewerPage, 'session-ended');
    assert.deepEqual(problems, [], 'pages threw errors');
  });
});
