// Adding many people at once on People (issue 41.6), in a real browser with a real SMTP receiver: pasted
// `email, name` lines and a CSV file, a preview saying what each line would do (added, already there,
// skipped and why), invitations optional, and each line's result — a line refused at the last moment says
// so in words and the rest still go in. axe-core clean and no wider than the screen at 1280 and 375 px.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { tick as runOutbox } from '../../src/outbox/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { axeViolations, CHROMIUM, noBrowser, signedInPage, WAIT } from '../helpers/browser.ts';
import { createUser } from '../helpers/fixtures.ts';
import { readEvents } from '../helpers/events.ts';
import { SmtpReceiver } from '../helpers/smtp-receiver.ts';
import { until } from '../helpers/wait.ts';


describe('adding many people at once', { skip: noBrowser }, () => {
  let app: TestApp;
  let smtp: SmtpReceiver;
  let browser: Browser;
  let origin: string;
  const problems: string[] = [];

  async function adminPage(width: number): Promise<Page> {
    const page = await signedInPage(browser, app, 'admin@gatehouse.local', width, problems);
    await page.goto(`${origin}/console/people`);
    await page.getByRole('heading', { name: 'Add many people' }).waitFor(WAIT);
    return page;
  }

  async function fits(page: Page, width: number, what: string): Promise<void> {
    assert.ok(await page.evaluate<number>('document.documentElement.scrollWidth') <= width, `${what} fits ${width} px`);
    assert.deepEqual(await axeViolations(page), [], `${what} at ${width} px`);
  }

  /** The preview's or result's last column, line by line. */
  const column = (page: Page) => page.locator('section[aria-labelledby="add-many"] tbody tr').evaluateAll((rows) => rows.map((r) => `${r.children[0]!.textContent}: ${r.children[3]!.textContent}`));

  before(async () => {
    smtp = await SmtpReceiver.start();
    app = await startTestApp({ env: { GATEHOUSE_SMTP_URL: smtp.url, GATEHOUSE_EMAIL_FROM: 'Gatehouse <gatehouse@example.test>' } });
    origin = new URL(app.url).origin;
    await createUser(app.api, { email: 'kim@example.com', full_name: 'Kim Already' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await smtp?.stop();
    assert.deepEqual(problems, [], 'errors in the pages');
  });

  it('pastes lines, previews each, adds the new ones and emails each an invitation (1280 px)', async () => {
    const page = await adminPage(1280);
    await page.getByLabel('People, one a line: email, name').fill([
      'alex@example.com, Alex Doe',
      '"Lovelace, Ada", ada@example.com',
      'not-an-email, Someone',
      'KIM@example.com, Kim Again',
      '',
      'alex@example.com, Alex Twice',
      'bo@example.com',
    ].join('\n'));
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('table', { name: 'What each line would do: 2 to add' }).waitFor(WAIT);
    assert.deepEqual(await column(page), [
      '1: will be added',
      '2: will be added',
      '3: skipped: "not-an-email" is not an email address',
      '4: already in Gatehouse, as Kim Already: left as is',
      '6: skipped: the same email as line 1',
      '7: skipped: no name on this line (write it after the email and a comma)',
    ]);
    assert.equal(await page.getByRole('row', { name: /Lovelace, Ada/ }).locator('td').nth(1).textContent(), 'ada@example.com', 'name first, read the right way round');
    assert.equal(await page.getByLabel('Email each new person an invitation').isChecked(), true);
    await fits(page, 1280, 'the preview');
    assert.equal(app.ctx.stores.users.getByEmail('alex@example.com'), undefined, 'a preview writes nothing');

    await page.getByRole('button', { name: 'Add 2 people' }).click();
    await page.getByRole('status').filter({ hasText: 'Done: 2 added, 2 invited. Each line\'s result is below.' }).waitFor(WAIT);
    assert.deepEqual((await column(page)).slice(0, 2), ['1: added as Alex Doe, invitation sent', '2: added as Lovelace, Ada, invitation sent']);
    const alex = app.ctx.stores.users.getByEmail('alex@example.com')!;
    assert.equal(alex.full_name, 'Alex Doe');
    assert.equal(app.ctx.stores.users.getByEmail('ada@example.com')!.full_name, 'Lovelace, Ada');
    assert.equal(app.ctx.stores.users.getByEmail('bo@example.com'), undefined);
    // Each addition is the API's own, recorded with the admin acting through the console.
    const created = await readEvents<{ api_token_name?: string; sub_events: { user_email?: string }[] }>(app.api, { type: 'USERS_CREATED', object: alex.user_id });
    assert.equal(created[0]!.api_token_name, 'console');
    await runOutbox(app.ctx, app.clock.now());
    for (const address of ['alex@example.com', 'ada@example.com']) await until(() => smtp.to(address).length === 1, `the invitation to ${address}`);
    assert.match(smtp.to('alex@example.com')[0]!.text, /\/console\/sign-in\//);
    // Each added line links to the person's page.
    await page.getByRole('region', { name: 'Add many people' }).getByRole('link', { name: 'Alex Doe' }).click();
    await page.getByRole('heading', { name: 'Alex Doe' }).waitFor(WAIT);
    await page.context().close();
  });

  it('takes a CSV file with a header, invitations off, and says which line was refused at the last moment (375 px)', async () => {
    const page = await adminPage(375);
    const csv = 'email,name\r\n"cy@example.com","Cy Example"\r\ndee@example.com,"Dee ""DJ"" Jones"\r\n';
    await page.getByLabel('Or choose a CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('table', { name: 'What each line would do: 2 to add' }).waitFor(WAIT);
    assert.deepEqual(await column(page), ['2: will be added', '3: will be added']);
    await page.getByLabel('Email each new person an invitation').uncheck();
    await fits(page, 375, 'the preview from a file');
    // Someone adds Cy meanwhile: that line is refused in words, the other still goes in.
    await createUser(app.api, { email: 'cy@example.com', full_name: 'Cy Elsewhere' });
    const mailsBefore = smtp.mails.length;
    await page.getByRole('button', { name: 'Add 2 people' }).click();
    await page.getByRole('status').filter({ hasText: 'Done: 1 added, 1 not added.' }).waitFor(WAIT);
    assert.deepEqual(await column(page), ['2: not added: a user with email cy@example.com already exists (email: already in use)', '3: added as Dee "DJ" Jones']);
    assert.equal(app.ctx.stores.users.getByEmail('dee@example.com')!.full_name, 'Dee "DJ" Jones');
    await runOutbox(app.ctx, app.clock.now());
    assert.equal(smtp.mails.length, mailsBefore, 'invitations off: nobody was mailed');
    await fits(page, 375, 'the results');
    await page.context().close();
  });
});
