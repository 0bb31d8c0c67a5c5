// The console's admin pages in a real browser (Debian's chromium through playwright-core), issue 31 §2:
// People (search, add, change a role, end a token), Teams (create, members, reviewer channel, what it owns,
// delete), Tokens (made for a service user, shown once, revoked after a confirmation), Settings (no secret,
// the check), Event streams (create, a test event to a real receiver) and Access rules (create from tags).
// Each page passes axe-core (WCAG 2.0/2.1 A and AA) and is no wider than the screen at 1280 and 375 px;
// screenshots go to test-output/screenshots/ (GATEHOUSE_SCREENSHOTS) as admin-NAME-desktop/375.png.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { axeViolations, CHROMIUM, newPage as pageIn, noBrowser, openPage, signIn, WAIT } from '../helpers/browser.ts';
import { createApp, createMember, createMessageChannel, createOwner, createResource, createTag, createToken, type Signed } from '../helpers/fixtures.ts';
import { until } from '../helpers/wait.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

const skip = noBrowser;
const SHOTS = process.env.GATEHOUSE_SCREENSHOTS ?? join(process.cwd(), 'test-output', 'screenshots');
const SMTP_PASSWORD = 'smtp-password-never-shown-7c2e';

describe('the console\'s admin pages in a browser', { skip }, () => {
  let app: TestApp;
  let origin: string;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let member: Signed;
  let page: Page;
  const problems: string[] = [];

  async function newPage(width: number): Promise<Page> {
    const opened = await pageIn(browser, width, problems);
    await opened.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    return opened;
  }


  /** Opens a console address and waits for its heading and its data. */
  const open = (into: Page, path: string): Promise<void> => openPage(into, origin, path);

  /** Photographs the page, and checks it with axe-core and that nothing is wider than the screen. */
  async function check(into: Page, name: string, width: number): Promise<void> {
    const file = `admin-${name}-${width === 375 ? '375' : 'desktop'}.png`;
    await into.screenshot({ path: join(SHOTS, file), fullPage: true });
    assert.deepEqual(await axeViolations(into), [], `accessibility problems on ${file}`);
    const wide = await into.evaluate<number>('document.documentElement.scrollWidth');
    assert.ok(wide <= width, `${name} is ${wide} px wide at ${width} (see ${file})`);
  }

  /** The confirmation dialog: it names what ends, and nothing happens until its button is pressed. */
  async function confirmDialog(into: Page, title: RegExp, button: string): Promise<void> {
    const dialog = into.getByRole('alertdialog', { name: title });
    await dialog.waitFor(WAIT);
    await dialog.getByRole('button', { name: button }).click();
    await dialog.waitFor({ state: 'detached', ...WAIT });
  }

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await startTestApp({ env: { GATEHOUSE_SMTP_URL: `smtp://gatehouse:${SMTP_PASSWORD}@127.0.0.1:2525` } });
    origin = new URL(app.url).origin;
    receiver = await WebhookReceiver.start();
    member = await createMember(app.api, { full_name: 'Morgan Member', email: 'morgan@example.com' });
    await createMessageChannel(app.api, { name: '#access-reviews' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await newPage(1280);
    await signIn(page, app, 'admin@gatehouse.local');
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
    await app?.close();
    assert.deepEqual(problems, [], 'errors in the page');
  });

  it('names People, Teams, Tokens and Settings in the navigation, for admins only', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['People', 'Teams', 'Tokens', 'Settings']) await nav.getByRole('link', { name, exact: true }).waitFor(WAIT);
    const memberPage = await newPage(1280);
    await signIn(memberPage, app, 'morgan@example.com');
    assert.equal(await memberPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'People' }).count(), 0);
    await memberPage.goto(`${origin}/console/settings`);
    await memberPage.getByText('This page is for organization admins').waitFor(WAIT);
    await memberPage.context().close();
  });

  it('People: adds a person with a manager, finds them by part of their name, and makes them an admin', async () => {
    await open(page, '/console/people');
    await page.getByLabel('Email', { exact: true }).fill('sasha.new@example.com');
    await page.getByLabel('Full name').fill('Sasha Newcomer');
    await page.getByLabel('Manager\'s email (optional)').fill('morgan@example.com');
    await page.getByRole('button', { name: 'Add person' }).click();
    await page.getByRole('status').getByRole('link', { name: 'Sasha Newcomer' }).waitFor(WAIT);
    const sasha = app.ctx.stores.users.getByEmail('sasha.new@example.com')!;
    assert.equal(sasha.manager_id, member.user.user_id);

    await page.getByLabel('Name or email contains').fill('NEWCOM');
    await page.getByRole('button', { name: 'Search' }).click();
    const table = page.getByRole('table', { name: /contains “NEWCOM”/ });
    await table.waitFor(WAIT);
    assert.equal(await table.getByRole('row').count(), 2, 'the header and Sasha');
    await table.getByRole('link', { name: 'Sasha Newcomer' }).click();
    await page.getByRole('heading', { name: 'Sasha Newcomer' }).waitFor(WAIT);
    await page.getByLabel('Role').selectOption('ADMIN');
    await page.getByRole('button', { name: 'Change role' }).click();
    // The button is disabled while the change is on its way too: wait for the change itself.
    await until(() => app.ctx.stores.users.get(sasha.user_id)!.organization_role === 'ADMIN', 'Sasha made an admin');
    await page.getByRole('button', { name: 'Change role' }).and(page.locator(':disabled')).waitFor(WAIT);
  });

  it('People: a person\'s tokens end only after a confirmation naming them', async () => {
    const laptop = await createToken(app.api, { user_id: member.user.user_id, token_label: 'laptop script' });
    await open(page, `/console/users/${member.user.user_id}`);
    await page.getByRole('button', { name: 'Revoke token laptop script' }).waitFor(WAIT);
    await check(page, 'person', 1280);
    await page.getByRole('button', { name: 'Revoke token laptop script' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Revoke Morgan Member\'s token laptop script?' });
    await dialog.waitFor(WAIT);
    // Cancel changes nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await app.api.as(laptop.secret).get('/tokens')).status, 200, 'the token still works');
    await page.getByRole('button', { name: 'Revoke token laptop script' }).click();
    await confirmDialog(page, /laptop script/, 'Revoke laptop script');
    await page.getByRole('button', { name: 'Revoke token laptop script' }).waitFor({ state: 'detached', ...WAIT });
    assert.equal((await app.api.as(laptop.secret).get('/tokens')).status, 401, 'the token is refused');
    // Their other token stays.
    assert.equal((await member.api.get('/tokens')).status, 200);
  });

  it('People: ends a person\'s sign-in session after a confirmation, and that browser is signed out', async () => {
    // Ten minutes on, so this session's button names a later time than the one the first test left.
    app.clock.advance(10 * 60_000);
    const theirs = await newPage(1280);
    await signIn(theirs, app, 'morgan@example.com');
    const live = async () => (await app.api.get('/web-sessions', { user_id: member.user.user_id })).body.results.length;
    assert.equal(await live(), 2, 'the first test\'s session and this one');

    await open(page, `/console/users/${member.user.user_id}`);
    const ends = page.getByRole('button', { name: /^End session from / });
    await ends.nth(1).waitFor(WAIT);
    assert.equal(await ends.count(), 2);
    await ends.last().click();
    await confirmDialog(page, /End Morgan Member's session from/, 'End session');
    await page.getByRole('button', { name: /^End session from / }).nth(1).waitFor({ state: 'detached', ...WAIT });
    assert.equal(await live(), 1);
    // That browser's next step finds it signed out; the other session is untouched.
    await theirs.goto(`${origin}/console/access`);
    await theirs.getByRole('heading', { name: 'Sign in to Gatehouse' }).waitFor(WAIT);
    await theirs.context().close();
  });

  it('Teams: creates a team, adds a member, sets its reviewer channel, shows what it owns, and deletes an empty one', async () => {
    await open(page, '/console/teams');
    await page.getByLabel('Name', { exact: true }).fill('Platform team');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('heading', { name: 'Platform team', exact: true }).waitFor(WAIT);
    await page.getByLabel('Add a member by email').fill('morgan@example.com');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('link', { name: 'Morgan Member' }).waitFor(WAIT);
    await page.getByLabel('Where new requests for Platform team are posted').selectOption({ label: '#access-reviews (Slack)' });
    await page.getByRole('button', { name: 'Save channel' }).click();
    // The page says so once the save is answered and the team read again: only then is it stored.
    await page.getByText('New requests for Platform team are posted to #access-reviews (Slack)').waitFor(WAIT);
    const team = (await app.api.get('/owners/name/Platform team')).body;
    assert.ok(team.reviewer_message_channel_id, 'the channel is saved');
    const teamMembers = (await app.api.get(`/owners/${team.owner_id}/users`)).body.users.map((u: { user_id: string }) => u.user_id);
    assert.deepEqual(teamMembers, [app.adminUserId, member.user.user_id], 'its creator first, then the member added');

    // Issue 41.4: a new Slack channel added and linked on the team's page, no API call by hand.
    await page.getByLabel('Slack channel ID').fill('platform reviews');
    await page.getByRole('button', { name: 'Add and use this channel' }).click();
    await page.getByRole('alert').filter({ hasText: 'The Slack channel ID starts with C' }).waitFor(WAIT);
    assert.equal((await app.api.get('/message-channels')).body.channels.length, 1, 'nothing was written');
    await page.getByLabel('Slack channel ID').fill('c0platform7');
    await page.getByLabel(/^Channel name/).fill('platform-reviews');
    await page.getByRole('button', { name: 'Add and use this channel' }).click();
    await page.getByRole('status').filter({ hasText: '#platform-reviews (Slack) is now where requests for Platform team are posted.' }).waitFor(WAIT);
    await page.getByText('New requests for Platform team are posted to #platform-reviews (Slack)').waitFor(WAIT);
    const linked = (await app.api.get(`/owners/${team.owner_id}`)).body.reviewer_message_channel_id;
    const channel = (await app.api.get(`/message-channels/${linked}`)).body;
    assert.deepEqual([channel.third_party_provider, channel.remote_id, channel.name], ['SLACK', 'C0PLATFORM7', '#platform-reviews']);
    assert.equal(await page.getByLabel('Where new requests for Platform team are posted').inputValue(), linked, 'the list offers it, chosen');
    await check(page, 'team', 1280);
    await page.setViewportSize({ width: 375, height: 900 });
    await check(page, 'team', 375);
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('button', { name: 'Remove Morgan Member' }).click();
    await confirmDialog(page, /Remove Morgan Member from Platform team/, 'Remove Morgan Member');
    await page.getByRole('link', { name: 'Morgan Member' }).waitFor({ state: 'detached', ...WAIT });

    const owned = await createApp(app.api, { name: 'Billing', admin_owner_id: team.owner_id });
    await createResource(app.api, { name: 'Billing database', app_id: owned.app_id, admin_owner_id: team.owner_id });
    await open(page, `/console/teams/${team.owner_id}`);
    await page.getByRole('link', { name: 'Billing database' }).waitFor(WAIT);
    await page.getByText('App: Billing').waitFor(WAIT);
    await page.getByText('cannot be deleted while it owns something').waitFor(WAIT);

    const empty = await createOwner(app.api, { name: 'Old team' });
    await open(page, `/console/teams/${empty.owner_id}`);
    await page.getByRole('button', { name: 'Delete Old team' }).click();
    await confirmDialog(page, /Delete Old team/, 'Delete Old team');
    await page.getByRole('heading', { name: 'Teams' }).waitFor(WAIT);
    assert.equal((await app.api.get(`/owners/${empty.owner_id}`)).status, 404);
  });

  it('Tokens: makes a READ_ONLY token for a new service user, shows it once with a copy button, and revokes it after a confirmation', async () => {
    await open(page, '/console/tokens');
    await page.getByLabel('A new service user (a script or system)').check();
    await page.getByLabel('Service user\'s name').fill('CI deploys');
    await page.getByLabel(/Service user's email/).fill('ci@example.com');
    await page.getByLabel('Label').fill('deploy pipeline');
    await page.getByRole('button', { name: 'Make token' }).click();
    const secretField = page.getByLabel('Secret of the token deploy pipeline');
    await secretField.waitFor(WAIT);
    const secret = await secretField.inputValue();
    await page.getByRole('button', { name: 'Copy token' }).click();
    await page.getByText('Copied.').waitFor(WAIT);
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), secret);
    const asService = app.api.as(secret);
    assert.equal((await asService.get('/users', { page_size: 1 })).status, 200, 'the token works');
    assert.equal((await asService.post('/owners', { name: 'nope', user_ids: [] })).status, 403, 'and only reads');
    await page.getByRole('row', { name: /deploy pipeline CI deploys read only/ }).waitFor(WAIT);

    await page.getByRole('button', { name: 'Revoke deploy pipeline' }).click();
    await confirmDialog(page, /Revoke the token deploy pipeline/, 'Revoke deploy pipeline');
    await page.getByRole('row', { name: /deploy pipeline/ }).waitFor({ state: 'detached', ...WAIT });
    assert.equal((await asService.get('/users')).status, 401);
  });

  it('Tokens: makes a SCIM token for the identity provider, which works on /scim/v2 and nowhere else', async () => {
    await open(page, '/console/tokens');
    await page.getByLabel('Yourself').check();
    await page.getByLabel('Label').fill('okta provisioning');
    await page.getByLabel('Access').selectOption('SCIM');
    await page.getByRole('button', { name: 'Make token' }).click();
    const secretField = page.getByLabel('Secret of the token okta provisioning');
    await secretField.waitFor(WAIT);
    const secret = await secretField.inputValue();
    const root = app.url.replace(/\/v1$/, '');
    const scim = await fetch(`${root}/scim/v2/Users?count=1`, { headers: { authorization: `Bearer ${secret}` } });
    assert.equal(scim.status, 200, 'it provisions');
    await scim.arrayBuffer();
    assert.equal((await app.api.as(secret).get('/users')).status, 401, 'and is refused on /v1');
  });

  it('Settings: the version, what is set up, every setting with no secret shown, and what gatehouse check says', async () => {
    await open(page, '/console/settings');
    await page.getByText('OK: the database file is sound').waitFor(WAIT);
    await page.getByRole('cell', { name: 'GATEHOUSE_SMTP_URL' }).waitFor(WAIT);
    const text = await page.locator('main').innerText();
    assert.ok(!text.includes(SMTP_PASSWORD), 'the page shows the SMTP password');
    assert.match(text, /smtp:\/\/gatehouse:\*{8}@127\.0\.0\.1:2525/);
    assert.match(text, /Email \(SMTP\)\s+set up/);
  });

  it('Event streams: creates a signed stream, shows its secret once, and sends the receiver a test event', async () => {
    await open(page, '/console/event-streams');
    await page.getByLabel('Name').fill('SIEM');
    // A refusal names the field in words, not as the API spells it, and nothing is made.
    await page.getByLabel('Receiver URL').fill('ftp://receiver.example.com/hook');
    await page.getByRole('button', { name: 'Create event stream' }).click();
    await page.getByRole('alert').filter({ hasText: 'Not accepted: receiver URL: must be an http or https URL.' }).waitFor(WAIT);
    assert.equal((await app.api.get('/event-streams')).body.event_streams.length, 0, 'nothing was made');
    await page.getByLabel('Receiver URL').fill(`${receiver.url}/hook`);
    await page.getByRole('button', { name: 'Create event stream' }).click();
    await page.getByLabel('Signing secret of SIEM').waitFor(WAIT);
    assert.match(await page.getByLabel('Signing secret of SIEM').inputValue(), /^whsec_/);
    await page.getByRole('button', { name: 'Send a test event to SIEM' }).click();
    await page.getByText('SIEM: the receiver took the test event.').waitFor(WAIT);
    assert.equal(receiver.deliveries.at(-1)!.payload.type, 'EVENT_STREAM_TEST');
  });

  it('Access rules: creates a rule from tags, and its members follow', async () => {
    const tag = await createTag(app.api, { tag_key: 'team', tag_value: 'finance' });
    assert.equal((await app.api.post(`/tags/${tag.tag_id}/users/${member.user.user_id}`)).status, 200);
    await open(page, '/console/access-rules');
    await page.getByLabel('Name', { exact: true }).fill('Finance people');
    await page.getByRole('group', { name: 'Members are people tagged' }).getByLabel('team=finance').check();
    await page.getByRole('button', { name: 'Create access rule' }).click();
    await page.getByRole('row', { name: /Finance people team=finance/ }).waitFor(WAIT);
    const rule = (await app.api.get('/access-rules')).body.results.find((r: { name: string }) => r.name === 'Finance people');
    const members = await app.api.get(`/groups/${rule.access_rule_id}/users`);
    assert.deepEqual(members.body.results.map((u: { user_id: string }) => u.user_id), [member.user.user_id]);
  });

  it('Account: a person changes their own name; an admin changes anyone\'s name and email on their page, which asks first and signs them out (issue 41.2)', async () => {
    const theirs = await newPage(375);
    await signIn(theirs, app, 'morgan@example.com');
    await open(theirs, '/console/account');
    await theirs.getByLabel('The name people see').fill('  Morgan Moreno ');
    await theirs.getByRole('button', { name: 'Save name' }).click();
    await theirs.getByRole('status').filter({ hasText: 'Saved: people now see you as Morgan Moreno.' }).waitFor(WAIT);
    // The header says the new name at once, without a reload.
    await theirs.locator('.who').getByText('Morgan Moreno (member)').waitFor(WAIT);
    assert.equal(app.ctx.stores.users.get(member.user.user_id)!.full_name, 'Morgan Moreno');
    const renamed = (await app.api.get('/events', { event_type_filter: 'USERS_UPDATED', object_filter: member.user.user_id })).body.results[0];
    assert.deepEqual([renamed.actor_user_id, renamed.api_token_name, renamed.sub_events[0].updated_fields], [member.user.user_id, 'console', 'full_name']);
    await check(theirs, 'account', 375);

    // The admin, on the person's page: the name and the email.
    await open(page, `/console/users/${member.user.user_id}`);
    await page.getByLabel('Full name').fill('Morgan M. Moreno');
    await page.getByLabel('Email', { exact: true }).fill('morgan.moreno@example.com');
    await page.getByRole('button', { name: 'Save name and email' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Change Morgan Moreno\'s email to morgan.moreno@example.com?' });
    await ask.waitFor(WAIT);
    assert.match((await ask.textContent())!, /Both morgan@example\.com and morgan\.moreno@example\.com are told.*signed out/);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(app.ctx.stores.users.get(member.user.user_id)!.email, 'morgan@example.com', 'Cancel changes nothing');
    await page.getByRole('button', { name: 'Save name and email' }).click();
    await confirmDialog(page, /Change Morgan Moreno's email/, 'Change the email');
    await page.getByRole('status').filter({ hasText: 'Saved: the name is Morgan M. Moreno, and the email is morgan.moreno@example.com.' }).waitFor(WAIT);
    await page.getByRole('heading', { name: 'Morgan M. Moreno', level: 1 }).waitFor(WAIT);
    const now = app.ctx.stores.users.get(member.user.user_id)!;
    assert.deepEqual([now.full_name, now.email], ['Morgan M. Moreno', 'morgan.moreno@example.com']);
    await check(page, 'person-renamed', 1280);
    // Their browser was signed out by the email change.
    await theirs.goto(`${origin}/console/access`);
    await theirs.getByRole('heading', { name: 'Sign in to Gatehouse' }).waitFor(WAIT);
    await theirs.context().close();
    // An email someone else has is refused in words, and nothing changes.
    await page.getByLabel('Email', { exact: true }).fill('admin@gatehouse.local');
    await page.getByRole('button', { name: 'Save name and email' }).click();
    const refused = page.getByRole('alertdialog', { name: /Change Morgan M\. Moreno's email/ });
    await refused.getByRole('button', { name: 'Change the email' }).click();
    await refused.getByRole('alert').filter({ hasText: 'already exists' }).waitFor(WAIT);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    assert.equal(app.ctx.stores.users.get(member.user.user_id)!.email, 'morgan.moreno@example.com');
  });
});
