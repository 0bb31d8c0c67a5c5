// A new admin sets up SMTP, Slack and single sign-on on the console's Settings page, in a real browser, with
// a test message (or check) each and no restart: a real SMTP server receives the test email, the Slack
// stand-in the direct message, the real OpenID provider answers the check, and the signed-out page offers
// single sign-on at once. A setting the environment sets is shown read-only, saying so. axe-core checks the
// page at 1280 and 375 px, and at 375 it is no wider than the screen.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { axeViolations, CHROMIUM, noBrowser, signedInPage, WAIT } from '../helpers/browser.ts';
import { startTestProvider, type TestProvider } from '../helpers/oidc-provider.ts';
import { SLACK_TOKEN, SlackStandIn } from '../helpers/slack-stand-in.ts';
import { SmtpReceiver } from '../helpers/smtp-receiver.ts';
import { countEvents } from '../helpers/events.ts';
import { until } from '../helpers/wait.ts';

const SHOTS = process.env.GATEHOUSE_SCREENSHOTS ?? join(process.cwd(), 'test-output', 'screenshots');
const ADMIN_EMAIL = 'admin@gatehouse.local';

describe('the Settings page: a new admin sets up email, Slack and single sign-on', { skip: noBrowser }, () => {
  let app: TestApp;
  let origin: string;
  let browser: Browser;
  let mail: SmtpReceiver;
  let slack: SlackStandIn;
  let idp: TestProvider;
  const problems: string[] = [];

  async function adminPage(width: number): Promise<Page> {
    const page = await signedInPage(browser, app, ADMIN_EMAIL, width, problems);
    await page.goto(`${origin}/console/settings`);
    await page.getByRole('heading', { name: 'Email (SMTP)' }).waitFor(WAIT);
    return page;
  }

  /** Within one group's section of the page. */
  const group = (page: Page, title: string) => page.getByRole('region', { name: title });

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [mail, slack, idp] = await Promise.all([SmtpReceiver.start(), SlackStandIn.start(), startTestProvider()]);
    slack.addUser(ADMIN_EMAIL);
    // One setting from the environment: the page must leave it alone and say why.
    app = await startTestApp({ env: { GATEHOUSE_DIGEST_HOUR_UTC: '7' } });
    origin = new URL(app.url).origin;
    idp.allowRedirects([`${origin}/console/oidc/callback`]);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await Promise.all([mail?.stop(), slack?.close(), idp?.close()]);
  });

  it('sets SMTP and sends a test email, sets Slack and sends a test message, sets single sign-on and checks it, at 1280 px', async () => {
    const page = await adminPage(1280);
    await page.screenshot({ path: join(SHOTS, 'settings-empty.png'), fullPage: true });
    assert.deepEqual(await axeViolations(page), [], 'accessibility problems on the Settings page');

    const email = group(page, 'Email (SMTP)');
    await email.getByLabel('SMTP server URL').fill(mail.url);
    await email.getByLabel('From address').fill('Gatehouse <gatehouse@example.com>');
    await email.getByRole('button', { name: 'Save Email (SMTP)' }).click();
    await page.getByText('Saved: in effect now.').waitFor(WAIT);
    await group(page, 'Email (SMTP)').getByRole('button', { name: 'Send a test email to yourself' }).click();
    await group(page, 'Email (SMTP)').getByText(/^It worked: sent to admin@gatehouse\.local/).waitFor(WAIT);
    await until(() => mail.to(ADMIN_EMAIL).length === 1, 'the test email');
    assert.equal(mail.to(ADMIN_EMAIL)[0]!.subject, 'Gatehouse test email');
    // The page shows the URL with its password masked, never the password.
    const shown = await group(page, 'Email (SMTP)').getByLabel('SMTP server URL').inputValue();
    assert.match(shown, /^smtp:\/\/gatehouse:\*{8}@127\.0\.0\.1:/);

    const slackGroup = group(page, 'Slack');
    await slackGroup.getByLabel('Bot token').fill(SLACK_TOKEN);
    await slackGroup.getByLabel('Web API base URL').fill(slack.url);
    await slackGroup.getByRole('button', { name: 'Save Slack' }).click();
    await group(page, 'Slack').getByText('Saved: in effect now.').waitFor(WAIT);
    assert.equal(await group(page, 'Slack').getByLabel('Bot token').inputValue(), '', 'a stored secret is never put back in the page');
    assert.equal(await group(page, 'Slack').getByLabel('Bot token').getAttribute('placeholder'), 'set (type to replace it)');
    await group(page, 'Slack').getByRole('button', { name: 'Send a test Slack message to yourself' }).click();
    await group(page, 'Slack').getByText(/^It worked: sent to you/).waitFor(WAIT);
    assert.equal(slack.dmsTo(ADMIN_EMAIL).length, 1);

    const sso = group(page, 'Single sign-on (OpenID Connect)');
    // The provider wants the redirect URI before it gives a client id: the group names it first.
    await sso.locator('code').filter({ hasText: `${origin}/console/oidc/callback` }).waitFor(WAIT);
    await sso.getByLabel('Issuer URL').fill(idp.issuer);
    await sso.getByLabel('Client id').fill(idp.clientId);
    await sso.getByLabel('Client secret').fill(idp.clientSecret);
    await sso.getByRole('button', { name: 'Save Single sign-on (OpenID Connect)' }).click();
    await group(page, 'Single sign-on (OpenID Connect)').getByText('Saved: in effect now.').waitFor(WAIT);
    await group(page, 'Single sign-on (OpenID Connect)').getByRole('button', { name: 'Check single sign-on' }).click();
    await group(page, 'Single sign-on (OpenID Connect)').getByText(/^It worked: .* answered its discovery document/).waitFor(WAIT);

    // A setting the environment sets: read-only, saying the variable wins.
    const digest = group(page, 'Notification timings').getByLabel('Daily digest hour (UTC)');
    assert.equal(await digest.isDisabled(), true);
    assert.equal(await digest.inputValue(), '7');
    await group(page, 'Notification timings').getByText('Set by the environment variable GATEHOUSE_DIGEST_HOUR_UTC, which wins over this page.').waitFor(WAIT);

    await page.screenshot({ path: join(SHOTS, 'settings-set-up.png'), fullPage: true });
    assert.deepEqual(await axeViolations(page), [], 'accessibility problems on the Settings page, set up');

    // No restart: a signed-out browser is offered single sign-on now, and it goes to the provider.
    const visitor = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await visitor.goto(`${origin}/console`);
    await visitor.getByRole('link', { name: 'Sign in with single sign-on' }).click();
    await visitor.waitForURL((url) => url.origin === new URL(idp.issuer).origin, WAIT);
    const trail = (await app.api.get('/events', { event_type_filter: 'SETTINGS_TESTED' })).body.results as { sub_events: { group: string; ok: boolean }[] }[];
    assert.deepEqual(trail.map((e) => [e.sub_events[0]!.group, e.sub_events[0]!.ok]).sort(), [['email', true], ['single_sign_on', true], ['slack', true]]);
    assert.deepEqual(problems, []);
  });

  it('says in words, beside the field and after a test, when the private-address policy refuses a target', async () => {
    // A Gatehouse that connects to no private address: a URL naming one is refused when saved; one whose
    // name leads to one (localhost) is saved, and its test says why it did not work.
    const strict = await startTestApp({ env: { GATEHOUSE_PRIVATE_ADDRESSES: 'deny' } });
    try {
      const page = await signedInPage(browser, strict, ADMIN_EMAIL, 1280, problems);
      await page.goto(`${new URL(strict.url).origin}/console/settings`);
      const email = group(page, 'Email (SMTP)');
      await email.getByLabel('SMTP server URL').fill('smtp://10.0.0.5:25');
      await email.getByRole('button', { name: 'Save Email (SMTP)' }).click();
      await email.getByRole('alert').filter({ hasText: /^Not saved: SMTP server URL: address 10\.0\.0\.5 is not public.*GATEHOUSE_PRIVATE_ADDRESSES_ALLOWED.*Nothing was changed\.$/ }).waitFor(WAIT);
      assert.equal(await email.getByLabel('SMTP server URL').getAttribute('aria-invalid'), 'true');
      assert.equal(strict.ctx.config.smtpUrl, undefined, 'nothing was set');

      await email.getByLabel('SMTP server URL').fill(`smtp://localhost:${new URL(mail.url).port}`);
      await email.getByRole('button', { name: 'Save Email (SMTP)' }).click();
      await group(page, 'Email (SMTP)').getByText('Saved: in effect now.').waitFor(WAIT);
      await group(page, 'Email (SMTP)').getByRole('button', { name: 'Send a test email to yourself' }).click();
      await group(page, 'Email (SMTP)').getByText(/^It did not work: not sent: .*is not public/).waitFor(WAIT);
      assert.equal(mail.to(ADMIN_EMAIL).length, 1, 'only the first test\'s email arrived');
      assert.deepEqual(await axeViolations(page), [], 'accessibility problems on a refused target');
      await page.context().close();
    } finally {
      await strict.close();
    }
  });

  it('lists a SCIM token as SCIM on the Tokens page, not as full access (issue 41.8)', async () => {
    assert.equal((await app.api.post('/tokens', { token_label: 'okta-provisioning', scope: 'SCIM' })).status, 200);
    const page = await signedInPage(browser, app, ADMIN_EMAIL, 1280, problems);
    await page.goto(`${origin}/console/tokens`);
    const row = page.getByRole('row').filter({ hasText: 'okta-provisioning' });
    await row.getByText('SCIM (identity provider provisioning only)').waitFor(WAIT);
    assert.doesNotMatch(await row.innerText(), /full access/);
  });

  it('fits a 375 px screen, axe-clean, and says in words, beside the field, why a value is refused and when a test fails', async () => {
    const page = await adminPage(375);
    // A value the API refuses (here a URL of the wrong kind; the private-address policy's refusals come the
    // same way): the field says why under its label, the form says nothing was changed, and nothing was.
    const email = group(page, 'Email (SMTP)');
    const stored = (await app.api.get('/settings')).body.settings.find((s: { name: string }) => s.name === 'GATEHOUSE_SMTP_URL').value;
    const updates = await countEvents(app.api, { type: 'SETTINGS_UPDATED' });
    await email.getByLabel('SMTP server URL').fill('ftp://mail.example.com');
    await email.getByRole('button', { name: 'Save Email (SMTP)' }).click();
    await email.getByRole('alert').filter({ hasText: /^Not saved: SMTP server URL: must be an .*URL, not ftp:\/\/\. Nothing was changed\.$/ }).waitFor(WAIT);
    const field = email.getByLabel('SMTP server URL');
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.match(await email.locator(`#${await field.getAttribute('id')}-error`).innerText(), /^SMTP server URL: must be an .*URL, not ftp:\/\//);
    assert.deepEqual(await axeViolations(page), [], 'accessibility problems on a refused field');
    assert.equal((await app.api.get('/settings')).body.settings.find((s: { name: string }) => s.name === 'GATEHOUSE_SMTP_URL').value, stored);
    assert.equal(await countEvents(app.api, { type: 'SETTINGS_UPDATED' }), updates, 'a refused save records nothing');

    await mail.stop();
    try {
      await group(page, 'Email (SMTP)').getByRole('button', { name: 'Send a test email to yourself' }).click();
      await group(page, 'Email (SMTP)').getByText(/^It did not work: not sent: SMTP connection failed/).waitFor(WAIT);
    } finally {
      await mail.listen();
    }
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    assert.ok(width <= 375, `the page is ${width} px wide at 375`);
    await page.screenshot({ path: join(SHOTS, 'settings-375.png'), fullPage: true });
    assert.deepEqual(await axeViolations(page), [], 'accessibility problems on the Settings page at 375 px');
    assert.deepEqual(problems, []);
  });
});
