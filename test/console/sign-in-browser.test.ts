// Signing in without a shell, in a real browser: a notice's link opened signed out shows the sign-in
// page, whose "Email me a sign-in link" mails a link (real SMTP) that leads back to that page; the admin's
// Home shows the first-run checklist, ticked from the server as steps are done; axe-core on both pages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createLoginLink } from '../../src/modules/web-sessions/service.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { axeViolations, CHROMIUM, newPage as pageIn, noBrowser, WAIT } from '../helpers/browser.ts';
import { createOwner, createToken, createUser } from '../helpers/fixtures.ts';
import { makeRequest, requestableResource } from '../helpers/requests.ts';
import { SmtpReceiver } from '../helpers/smtp-receiver.ts';
import { until } from '../helpers/wait.ts';
import { tick as runOutbox } from '../../src/outbox/index.ts';


describe('signing in without a shell, in a browser', { skip: noBrowser }, () => {
  let app: TestApp;
  let smtp: SmtpReceiver;
  let origin: string;
  let browser: Browser;

  const problems: string[] = [];
  const newPage = (width = 1280): Promise<Page> => pageIn(browser, width, problems);

  before(async () => {
    smtp = await SmtpReceiver.start();
    app = await startTestApp({ env: { GATEHOUSE_SMTP_URL: smtp.url, GATEHOUSE_EMAIL_FROM: 'Gatehouse <gatehouse@example.test>' } });
    origin = new URL(app.url).origin;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await smtp?.stop();
    assert.deepEqual(problems, [], 'errors in the pages');
  });

  it('the admin\'s Home leads the way with a checklist, ticked from the server as steps are done', async () => {
    const page = await newPage();
    const admin = app.ctx.stores.users.getByEmail('admin@gatehouse.local')!;
    await page.goto(createLoginLink(app.ctx, admin));
    await page.getByRole('button', { name: `Sign in as ${admin.full_name}` }).click();
    const checklist = page.getByRole('region', { name: 'Set up Gatehouse' });
    await checklist.waitFor(WAIT);
    const state = () => page.locator('.steps li').evaluateAll((items) => items.map((li) => `${li.getAttribute('data-step')}:${li.getAttribute('data-done')}`));
    // In the getting-started guide's order: a team before the app it owns.
    assert.deepEqual(await state(), ['people:no', 'owners:no', 'apps:no', 'request:no']);
    assert.equal(await checklist.getByRole('link', { name: 'Invite people' }).getAttribute('href'), '/console/people');
    assert.equal(await checklist.getByRole('link', { name: 'Try a first request' }).getAttribute('href'), '/console/requests/new');
    assert.deepEqual(await axeViolations(page), []);
    // Shown whole, at either width: no scroll box clips the steps.
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      const box = await page.evaluate<{ overflow: string; cut: number }>(`(() => { const list = document.querySelector('.steps'); return { overflow: getComputedStyle(list).overflowY, cut: list.scrollHeight - list.clientHeight }; })()`);
      assert.deepEqual(box, { overflow: 'visible', cut: 0 }, `the checklist at ${width} px`);
      assert.ok(await checklist.getByRole('link', { name: 'Try a first request' }).isVisible());
      assert.ok(await page.evaluate<number>('document.documentElement.scrollWidth') <= width);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    const person = await createUser(app.api);
    const owner = await createOwner(app.api, { user_ids: [person.user_id] });
    await page.reload();
    await checklist.waitFor(WAIT);
    assert.deepEqual(await state(), ['people:yes', 'owners:yes', 'apps:no', 'request:no']);
    const resource = await requestableResource(app, owner.owner_id);
    const requester = await createUser(app.api);
    const token = await createToken(app.api, { user_id: requester.user_id });
    await makeRequest(app.api.as(token.secret), { resources: [{ id: resource.resource_id }] });
    await page.reload();
    await page.locator('[data-count="reviews"]').waitFor(WAIT);
    assert.equal(await page.locator('.steps').count(), 0, 'all four done: the checklist is gone');
    await page.context().close();
  });

  it('a notice\'s link opened signed out offers "Email me a sign-in link", whose link leads back to that page', async () => {
    const member = await createUser(app.api, { full_name: 'Mia Member' });
    const page = await newPage(375);
    // Where a notice about a review would send her.
    await page.goto(`${origin}/console/requests/new`);
    const field = page.getByLabel('Email');
    await field.waitFor(WAIT);
    assert.equal(await page.getByRole('link', { name: 'Sign in with single sign-on' }).count(), 0, 'no single sign-on here');
    assert.deepEqual(await axeViolations(page), []);
    assert.ok(await page.evaluate<number>('document.documentElement.scrollWidth') <= 375, 'fits a phone');

    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByText('Email must be an email address').waitFor(WAIT);
    await field.fill(member.email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByRole('status').filter({ hasText: 'Check your email' }).waitFor(WAIT);

    // The link asked for is mailed by the outbox, whose job does not run in tests.
    await runOutbox(app.ctx, app.clock.now());
    await until(() => smtp.to(member.email).length === 1, 'the sign-in email');
    const link = /(http:\/\/\S+\/console\/sign-in\/\S+)/.exec(smtp.to(member.email)[0]!.text)![1]!;
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in as Mia Member' }).click();
    await page.waitForURL(`${origin}/console/requests/new`, WAIT);
    await page.locator('#page-title').waitFor(WAIT);
    assert.equal(await page.locator('#page-title').textContent(), 'Request access');
    await page.context().close();
  });
});
