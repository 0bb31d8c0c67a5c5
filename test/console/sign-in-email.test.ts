// Signing in without a shell: "Email me a sign-in link" on the signed-out page (the same answer for any
// address, mail only to active people, throttled), an admin sending a link or an invitation, and
// `gatehouse login-link` making links to the running service; mail through a real SMTP server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { cli } from '../helpers/cli.ts';
import { ApiClient } from '../helpers/client.ts';
import { sessionCookieOf, useLink } from '../helpers/console.ts';
import { errorPaths } from '../helpers/errors.ts';
import { readEvents } from '../helpers/events.ts';
import { createMember, createUser, NO_SUCH_ID } from '../helpers/fixtures.ts';
import { SmtpReceiver, type ReceivedMail } from '../helpers/smtp-receiver.ts';
import { until } from '../helpers/wait.ts';
import { SIGN_IN_EMAIL_KIND } from '../../src/modules/web-sessions/emailed-links.ts';
import { tick as runOutbox } from '../../src/outbox/index.ts';

const MINUTE = 60_000;
const linkIn = (mail: ReceivedMail): string => /(http:\/\/\S+\/console\/sign-in\/ghl_[\w-]+(?:\?return_to=\S+)?)/.exec(mail.text)![1]!;

describe('sign-in links by email', () => {
  let app: TestApp;
  let smtp: SmtpReceiver;
  let origin: string;
  let consoleApi: ApiClient;
  before(async () => {
    smtp = await SmtpReceiver.start();
    // Trusting loopback as a proxy lets each ask come from the client address its X-Forwarded-For names.
    app = await startTestApp({ env: { GATEHOUSE_SMTP_URL: smtp.url, GATEHOUSE_EMAIL_FROM: 'Gatehouse <gatehouse@example.test>', GATEHOUSE_TRUSTED_PROXIES: '127.0.0.1' } });
    origin = new URL(app.url).origin;
    consoleApi = new ApiClient(origin, undefined);
  });
  after(async () => {
    await app.close();
    await smtp.stop();
  });

  const ask = (email: unknown, headers: Record<string, string> = {}) => consoleApi.post('/console/sign-in/email', { email }, { headers });
  /** A link asked for on the page is mailed by the outbox (whose job does not run in tests): run it, then wait for the mail. */
  const delivered = async (test: () => boolean, what: string) => {
    await runOutbox(app.ctx, app.clock.now(), undefined, { [SIGN_IN_EMAIL_KIND]: app.ctx.registry.outbox[SIGN_IN_EMAIL_KIND]! });
    await until(test, what);
  };

  it('mails an active person a one-time link to the running service, which signs them in; the answer reveals nothing', async () => {
    const member = await createUser(app.api);
    const known = await ask(member.email.toUpperCase(), { 'x-forwarded-for': '203.0.113.1' });
    assert.equal(known.status, 200);
    await delivered(() => smtp.to(member.email).length === 1, 'the sign-in email');
    const [mail] = smtp.to(member.email);
    assert.equal(mail!.subject, 'Your Gatehouse sign-in link');
    assert.match(mail!.text, /works once, within 15 minutes/);
    // Made from the address the service recorded when it started listening, not from anything the asker sent.
    const link = linkIn(mail!);
    assert.ok(link.startsWith(`${origin}/console/sign-in/ghl_`), link);
    const signedIn = await useLink(link);
    assert.equal(signedIn.status, 303);
    assert.equal(signedIn.headers.get('location'), '/console');
    assert.ok(sessionCookieOf(signedIn));

    const unknown = await ask('nobody-here@example.com');
    const offboarded = await createUser(app.api);
    assert.equal((await app.api.put(`/users/${offboarded.user_id}`, { hr_idp_status: 'DEPROVISIONED' })).status, 200);
    const gone = await ask(offboarded.email);
    assert.deepEqual([unknown.status, gone.status], [200, 200]);
    assert.deepEqual(unknown.body, known.body, 'the same words whether or not the address is known');
    assert.deepEqual(gone.body, known.body);
    // Another known address's mail, asked for after the unknown ones, arrives: by then theirs would have too.
    const later = await createUser(app.api);
    await consoleApi.post('/console/sign-in/email', { email: later.email, return_to: '/console/requests/new' });
    await delivered(() => smtp.to(later.email).length === 1, 'the later sign-in email');
    // Asked for on the page a notice linked to, the link leads back there once used.
    const back = await useLink(linkIn(smtp.to(later.email)[0]!));
    assert.equal(back.status, 303);
    assert.equal(back.headers.get('location'), '/console/requests/new');
    assert.deepEqual(smtp.to('nobody-here@example.com'), []);
    assert.deepEqual(smtp.to(offboarded.email), []);

    const made = await readEvents(app.api, { type: 'LOGIN_LINKS_CREATED', object: member.user_id });
    assert.equal(made.length, 1);
    assert.equal(made[0]!.actor_user_id, member.user_id);
    assert.equal(made[0]!.sub_events[0]!.delivery, 'EMAILED_ON_REQUEST');
  });

  it('handles a known and an unknown address the same way: one queued ask each, no link until the outbox runs (issue 36.6)', async () => {
    const member = await createUser(app.api);
    const stranger = `nobody-${member.user_id.slice(0, 8)}@example.com`;
    const pending = () => app.ctx.stores.outbox.counts(SIGN_IN_EMAIL_KIND).PENDING ?? 0;
    const before = pending();
    assert.equal((await ask(member.email, { 'x-forwarded-for': '203.0.113.60' })).status, 200);
    await until(() => pending() === before + 1, 'the known address\'s ask queued');
    assert.equal((await ask(stranger, { 'x-forwarded-for': '203.0.113.61' })).status, 200);
    await until(() => pending() === before + 2, 'the unknown address\'s ask queued');
    // Nothing about the person was written while the answers went out: the link is the outbox's to make.
    assert.equal((await readEvents(app.api, { type: 'LOGIN_LINKS_CREATED', object: member.user_id })).length, 0);
    await delivered(() => smtp.to(member.email).length === 1, 'the sign-in email');
    assert.equal(pending(), 0);
    assert.deepEqual(smtp.to(stranger), []);
    assert.equal((await readEvents(app.api, { type: 'LOGIN_LINKS_CREATED', object: member.user_id })).length, 1);
  });

  it('takes a form without JavaScript and answers a page; refuses a bad address naming the field, mailing nobody', async () => {
    const member = await createUser(app.api);
    const form = await fetch(`${origin}/console/sign-in/email`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.2' }, body: new URLSearchParams({ email: member.email, return_to: '//evil.example/console' }).toString(),
    });
    assert.equal(form.status, 200);
    assert.match(form.headers.get('content-type')!, /^text\/html/);
    assert.match(await form.text(), /Check your email/);
    await delivered(() => smtp.to(member.email).length === 1, 'the form\'s sign-in email');
    assert.doesNotMatch(smtp.to(member.email)[0]!.text, /return_to|evil/, 'a page outside the console is never returned to');

    const before = smtp.mails.length;
    const bad = await ask('not an address');
    assert.equal(bad.status, 400);
    assert.deepEqual(errorPaths(bad.body), ['email']);
    const missing = await consoleApi.post('/console/sign-in/email', {});
    assert.deepEqual(errorPaths(missing.body), ['email']);
    const badForm = await fetch(`${origin}/console/sign-in/email`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=%3Cscript%3E' });
    assert.equal(badForm.status, 400);
    const page = await badForm.text();
    assert.match(page, /must be an email address/);
    assert.doesNotMatch(page, /<script>/);
    assert.equal(smtp.mails.length, before);
  });

  it('throttles per client address and per email address, with Retry-After, known or not', async () => {
    const member = await createUser(app.api);
    const fromOne = { 'x-forwarded-for': '198.51.100.7' };
    // Per email address: three links in 15 minutes, from anywhere.
    for (let i = 0; i < 3; i++) assert.equal((await ask(member.email, { 'x-forwarded-for': `198.51.100.${20 + i}` })).status, 200);
    const flooded = await ask(member.email, { 'x-forwarded-for': '198.51.100.30' });
    assert.equal(flooded.status, 429);
    assert.ok(Number(flooded.headers.get('retry-after')) > 0);
    const floodedUnknown = [0, 1, 2].map(() => ask('nobody-else@example.com', { 'x-forwarded-for': '198.51.100.40' }));
    await Promise.all(floodedUnknown);
    assert.equal((await ask('nobody-else@example.com', { 'x-forwarded-for': '198.51.100.41' })).status, 429, 'an unknown address is limited the same way');
    await delivered(() => smtp.to(member.email).length === 3, 'three sign-in emails');

    // Per client address: ten asks, whatever the addresses.
    for (let i = 0; i < 10; i++) assert.equal((await ask(`someone-${i}@example.com`, fromOne)).status, 200);
    const tooMany = await ask('someone-else@example.com', fromOne);
    assert.equal(tooMany.status, 429);
    assert.match(tooMany.body.message, /try again in/);
    app.clock.advance(16 * MINUTE);
    assert.equal((await ask('someone-else@example.com', fromOne)).status, 200);
    assert.equal((await ask(member.email, { 'x-forwarded-for': '198.51.100.31' })).status, 200);
  });

  it('lets an admin send a sign-in link or an invitation, recorded as theirs; a member may not', async () => {
    const invited = await createUser(app.api, { full_name: 'Invited Person' });
    const sent = await app.api.post(`/users/${invited.user_id}/sign-in-link`, { kind: 'INVITATION' });
    assert.equal(sent.status, 200);
    assert.equal(sent.body.kind, 'INVITATION');
    assert.equal(sent.body.email, invited.email);
    assert.equal(sent.body.url, undefined, 'a mailed link is never shown');
    assert.equal(Date.parse(sent.body.expires_at) - app.clock.now().getTime(), 72 * 60 * MINUTE);
    await until(() => smtp.to(invited.email).length === 1, 'the invitation');
    const [invitation] = smtp.to(invited.email);
    assert.equal(invitation!.subject, 'You are invited to Gatehouse');
    assert.match(invitation!.text, /Hello Invited Person/);
    assert.match(invitation!.text, /invited you/);
    assert.match(invitation!.text, /within 3 days/);

    const plain = await app.api.post(`/users/${invited.user_id}/sign-in-link`);
    assert.equal(plain.status, 200);
    assert.equal(plain.body.kind, 'SIGN_IN');
    await until(() => smtp.to(invited.email).length === 2, 'the sign-in link');

    const shown = await app.api.post(`/users/${invited.user_id}/sign-in-link`, { send_email: false });
    assert.match(shown.body.url, new RegExp(`^${origin}/console/sign-in/ghl_`));
    assert.equal((await useLink(shown.body.url)).status, 303);

    const events = await readEvents(app.api, { type: 'LOGIN_LINKS_CREATED', object: invited.user_id });
    assert.deepEqual(events.map((e) => String(e.sub_events[0]!.delivery)).sort(), ['EMAILED_BY_ADMIN', 'INVITATION', 'PRINTED']);
    assert.ok(events.every((e) => e.actor_user_id === app.adminUserId));

    const member = await createMember(app.api);
    assert.equal((await member.api.post(`/users/${invited.user_id}/sign-in-link`)).status, 403);
    assert.equal((await app.api.post(`/users/${NO_SUCH_ID}/sign-in-link`)).status, 404);
    const wrong = await app.api.post(`/users/${invited.user_id}/sign-in-link`, { kind: 'MAGIC', send_email: 'yes' });
    assert.equal(wrong.status, 400);
    assert.deepEqual(errorPaths(wrong.body), ['kind', 'send_email']);
    assert.equal((await app.api.put(`/users/${invited.user_id}`, { hr_idp_status: 'SUSPENDED' })).status, 200);
    assert.equal((await app.api.post(`/users/${invited.user_id}/sign-in-link`)).status, 403);
    assert.equal((await readEvents(app.api, { type: 'LOGIN_LINKS_CREATED', object: invited.user_id })).length, 3, 'refusals record nothing');
  });
});

describe('sign-in links without email set up', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('the page says sign-in is through single sign-on or an admin; an admin is shown the link to pass on', async () => {
    const shell = await (await fetch(`${new URL(app.url).origin}/console`)).text();
    assert.match(shell, /data-email="off"/);
    const asked = await new ApiClient(new URL(app.url).origin, undefined).post('/console/sign-in/email', { email: 'admin@gatehouse.local' }, { expectServerError: true });
    assert.equal(asked.status, 503);
    assert.match(asked.body.message, /single sign-on, or ask an administrator/);

    const member = await createUser(app.api);
    const mailed = await app.api.post(`/users/${member.user_id}/sign-in-link`);
    assert.equal(mailed.status, 400);
    assert.deepEqual(errorPaths(mailed.body), ['send_email']);
    const shown = await app.api.post(`/users/${member.user_id}/sign-in-link`, { send_email: false });
    assert.equal(shown.status, 200);
    assert.equal((await useLink(shown.body.url)).status, 303);
  });

  it('login-link makes its link to the running service, whatever port it listens on; GATEHOUSE_PUBLIC_URL wins', async () => {
    const member = await createUser(app.api);
    const run = await cli(['login-link', '--email', member.email, '--db', app.dbFile], { GATEHOUSE_LOG_LEVEL: 'silent' });
    assert.equal(run.code, 0, run.stderr);
    const link = run.stdout.trim();
    assert.ok(link.startsWith(`${new URL(app.url).origin}/console/sign-in/ghl_`), link);
    assert.equal((await useLink(link)).status, 303);
    const proxied = await cli(['login-link', '--email', member.email, '--db', app.dbFile], { GATEHOUSE_LOG_LEVEL: 'silent', GATEHOUSE_PUBLIC_URL: 'https://gatehouse.example.com' });
    assert.match(proxied.stdout, /^https:\/\/gatehouse\.example\.com\/console\/sign-in\/ghl_/);
  });
});
