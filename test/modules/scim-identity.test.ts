// Identity that no provider can hand out (issue 36): SCIM never renames, offboards or deletes an admin or
// a service user, brings nobody back above MEMBER; an email change (SCIM's, an admin's over /v1) is told
// to both addresses and ends the person's sessions and links; links end with an offboarding. Issue 37.8:
// a shared address's bad tokens do not lock out a good one, and SCIM has its own write budget.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tick as runOutbox } from '../../src/outbox/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { openLink, sessionCookieOf, useLink } from '../helpers/console.ts';
import { errorPaths } from '../helpers/errors.ts';
import { countEvents, readEvents } from '../helpers/events.ts';
import { createAdmin, createUser, unique } from '../helpers/fixtures.ts';
import { scimClientFor, type ScimClient } from '../helpers/scim-client.ts';
import { SmtpReceiver } from '../helpers/smtp-receiver.ts';
import { until } from '../helpers/wait.ts';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

const oktaUser = (email: string, extra: Record<string, unknown> = {}) => ({
  schemas: [USER], userName: email, name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [{ primary: true, value: email, type: 'work' }], displayName: 'Ada Lovelace', active: true, ...extra,
});
const patch = (...operations: Record<string, unknown>[]) => ({ schemas: [PATCH], Operations: operations });

describe('identity the provider cannot take (issue 36)', () => {
  let app: TestApp;
  let smtp: SmtpReceiver;
  let scim: ScimClient;

  before(async () => {
    smtp = await SmtpReceiver.start();
    app = await startTestApp({ env: { GATEHOUSE_SMTP_URL: smtp.url, GATEHOUSE_EMAIL_FROM: 'Gatehouse <gatehouse@example.test>' } });
    scim = await scimClientFor(app);
  });
  after(async () => {
    await app.close();
    await smtp.stop();
  });

  /** Runs the outbox (its job does not run in tests), then waits for `address` to have `count` mails matching `subject`. */
  const mailed = async (address: string, subject: RegExp, count = 1) => {
    await runOutbox(app.ctx, app.clock.now());
    await until(() => smtp.to(address).filter((m) => subject.test(m.subject)).length >= count, `${count} mail(s) "${subject.source}" to ${address}`);
    return smtp.to(address).filter((m) => subject.test(m.subject));
  };
  /** A console session for `userId` through a link an admin was shown (send_email false). */
  const sessionOf = async (userId: string) => {
    const shown = await app.api.post(`/users/${userId}/sign-in-link`, { send_email: false });
    assert.equal(shown.status, 200);
    const cookie = sessionCookieOf(await useLink(shown.body.url));
    assert.ok(cookie);
    return cookie;
  };
  const sessionWorks = async (cookie: string) =>
    (await fetch(`${new URL(app.url).origin}/console/session`, { headers: { cookie: `gatehouse_session=${cookie}` } })).status === 200;
  const unusedLink = async (userId: string, kind: 'SIGN_IN' | 'INVITATION') => {
    const shown = await app.api.post(`/users/${userId}/sign-in-link`, { kind, send_email: false });
    assert.equal(shown.status, 200);
    return shown.body.url as string;
  };

  it('refuses to rename, deactivate or delete an admin, the first admin included (403 in SCIM\'s shape), and tells the other admins of a deactivation', async () => {
    const second = await createAdmin(app.api);
    for (const id of [app.adminUserId, second.user_id]) {
      const before = (await app.api.get(`/users/${id}`)).body;
      const events = await countEvents(app.api);
      const shown = (await scim.get(`/Users/${id}`)).body;
      const attempts = [
        await scim.patch(`/Users/${id}`, patch({ op: 'replace', path: 'userName', value: 'me@attacker.test' })),
        await scim.put(`/Users/${id}`, { ...shown, userName: 'me@attacker.test' }),
        await scim.patch(`/Users/${id}`, patch({ op: 'replace', value: { active: false } })),
        await scim.patch(`/Users/${id}`, patch({ op: 'Replace', path: 'active', value: 'False' })),
        await scim.delete(`/Users/${id}`),
      ];
      for (const refused of attempts) {
        assert.equal(refused.status, 403, JSON.stringify(refused.body));
        assert.deepEqual(refused.body.schemas, [ERROR]);
        assert.equal(refused.body.status, '403');
        assert.match(refused.body.detail, /ADMIN/);
      }
      assert.deepEqual((await app.api.get(`/users/${id}`)).body, before, 'the admin is as they were');
      assert.equal(await countEvents(app.api), events, 'a refusal records nothing');
    }
    // The attacker's address has no account to be mailed a link for.
    assert.equal(app.ctx.stores.users.getByEmail('me@attacker.test'), undefined);
    // Each admin hears that the provider asked to offboard the other; once a day however often it asks.
    const toSecond = await mailed(second.user.email, /asked to offboard/);
    assert.equal(toSecond.length, 1);
    assert.match(toSecond[0]!.text, /admin@gatehouse\.local/);
    const toFirst = await mailed('admin@gatehouse.local', /asked to offboard/);
    assert.equal(toFirst.length, 1);
    assert.match(toFirst[0]!.text, new RegExp(second.user.email.replace(/[.]/g, '\\.')));
  });

  it('refuses the same for a service user (a record for a script or system)', async () => {
    const service = await createUser(app.api, { position: 'Service user' });
    const renamed = await scim.patch(`/Users/${service.user_id}`, patch({ op: 'replace', path: 'userName', value: 'robot@attacker.test' }));
    assert.equal(renamed.status, 403);
    assert.match(renamed.body.detail, /service user/);
    assert.equal((await scim.delete(`/Users/${service.user_id}`)).status, 403);
    assert.equal((await scim.patch(`/Users/${service.user_id}`, patch({ op: 'replace', value: { active: false } }))).status, 403);
    const now = (await app.api.get(`/users/${service.user_id}`)).body;
    assert.deepEqual([now.email, now.hr_idp_status], [service.email, 'ACTIVE']);
  });

  it('renames a person it provisioned: both addresses are told, their sessions and unused links and invitations end', async () => {
    const oldEmail = `${unique('ada')}@example.com`;
    const created = await scim.post('/Users', oktaUser(oldEmail));
    assert.equal(created.status, 201);
    const id = created.body.id as string;
    const cookie = await sessionOf(id);
    const link = await unusedLink(id, 'SIGN_IN');
    const invitation = await unusedLink(id, 'INVITATION');
    assert.ok(await sessionWorks(cookie));

    const newEmail = `${unique('ada-new')}@example.com`;
    const renamed = await scim.patch(`/Users/${id}`, patch({ op: 'replace', path: 'userName', value: newEmail }));
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.userName, newEmail);
    assert.equal(await sessionWorks(cookie), false, 'the session ended');
    for (const url of [link, invitation]) assert.equal((await openLink(url)).status, 401, 'a link sent to the old address no longer works');
    const [toOld] = await mailed(oldEmail, /email of your Gatehouse account changed/);
    const [toNew] = await mailed(newEmail, /email of your Gatehouse account changed/);
    for (const mail of [toOld!, toNew!]) assert.match(mail.text, new RegExp(`from ${oldEmail} to ${newEmail}`));
    const [event] = await readEvents(app.api, { type: 'USERS_UPDATED', object: id }).then((all) => all.filter((e) => e.sub_events[0]!.updated_fields === 'email'));
    assert.deepEqual([event!.sub_events[0]!.previous_email, event!.sub_events[0]!.user_email], [oldEmail, newEmail]);
    const ended = await readEvents(app.api, { type: 'WEB_SESSIONS_ENDED', object: id });
    assert.equal(ended[0]!.sub_events[0]!.end_reason, 'EMAIL_CHANGED');
  });

  it('changes an email over PUT /v1/users (an extension): audited, told to both, sessions end; a taken email is 409 and changes nothing', async () => {
    const person = await createUser(app.api);
    const other = await createUser(app.api);
    const cookie = await sessionOf(person.user_id);
    const link = await unusedLink(person.user_id, 'INVITATION');
    const events = await countEvents(app.api);
    const taken = await app.api.put(`/users/${person.user_id}`, { email: other.email.toUpperCase(), full_name: 'Should Not Land' });
    assert.equal(taken.status, 409);
    assert.deepEqual(errorPaths(taken.body), ['email']);
    const bad = await app.api.put(`/users/${person.user_id}`, { email: 'not an address' });
    assert.equal(bad.status, 400);
    assert.deepEqual(errorPaths(bad.body), ['email']);
    assert.equal(await countEvents(app.api), events);
    assert.equal((await app.api.get(`/users/${person.user_id}`)).body.full_name, person.full_name);
    assert.ok(await sessionWorks(cookie));

    const newEmail = `${unique('moved')}@example.com`;
    const changed = await app.api.put(`/users/${person.user_id}`, { email: newEmail, full_name: 'Moved Person' });
    assert.equal(changed.status, 200);
    assert.deepEqual([changed.body.email, changed.body.full_name], [newEmail, 'Moved Person']);
    assert.equal(await sessionWorks(cookie), false);
    assert.equal((await openLink(link)).status, 401);
    await mailed(person.email, /email of your Gatehouse account changed/);
    const [toNew] = await mailed(newEmail, /email of your Gatehouse account changed/);
    assert.match(toNew!.text, /Gatehouse Admin changed the email/);
    const recorded = (await readEvents(app.api, { type: 'USERS_UPDATED', object: person.user_id })).flatMap((e) => e.sub_events);
    assert.ok(recorded.some((s) => s.updated_fields === 'email' && s.previous_email === person.email && s.user_email === newEmail));
    assert.equal(app.ctx.stores.users.getByEmail(person.email), undefined, 'the old address finds nobody');
  });

  it('brings a deleted or offboarded admin back as a MEMBER, never an ADMIN (issue 36.4)', async () => {
    const deleted = await createAdmin(app.api);
    assert.equal((await app.api.put(`/users/${deleted.user_id}`, { hr_idp_status: 'DELETED' })).status, 200);
    const back = await scim.post('/Users', oktaUser(deleted.user.email));
    assert.equal(back.status, 201);
    assert.equal(back.body.id, deleted.user_id);
    const after = (await app.api.get(`/users/${deleted.user_id}`)).body;
    assert.deepEqual([after.hr_idp_status, after.organization_role], ['ACTIVE', 'MEMBER']);

    const suspended = await createAdmin(app.api);
    assert.equal((await app.api.put(`/users/${suspended.user_id}`, { hr_idp_status: 'DEPROVISIONED' })).status, 200);
    const active = await scim.patch(`/Users/${suspended.user_id}`, patch({ op: 'replace', value: { active: true } }));
    assert.equal(active.status, 200);
    assert.equal(active.body.active, true);
    const revived = (await app.api.get(`/users/${suspended.user_id}`)).body;
    assert.deepEqual([revived.hr_idp_status, revived.organization_role], ['ACTIVE', 'MEMBER']);
  });

  it('ends sign-in links and invitations at an offboarding: none works after re-activation (issue 36.7)', async () => {
    const person = await createUser(app.api);
    const link = await unusedLink(person.user_id, 'SIGN_IN');
    const invitation = await unusedLink(person.user_id, 'INVITATION');
    assert.equal((await openLink(link)).status, 200, 'the link works before');
    const offboarded = await scim.patch(`/Users/${person.user_id}`, patch({ op: 'replace', value: { active: false } }));
    assert.equal(offboarded.status, 200);
    assert.equal((await scim.patch(`/Users/${person.user_id}`, patch({ op: 'replace', value: { active: true } }))).status, 200);
    for (const url of [link, invitation]) assert.equal((await openLink(url)).status, 401);
  });
});

describe('SCIM from an address it shares, and a first import (issue 37.8)', () => {
  let app: TestApp;
  let scim: ScimClient;
  before(async () => {
    app = await startTestApp({ env: { GATEHOUSE_WRITE_RATE_LIMIT: '5', GATEHOUSE_SCIM_WRITE_RATE_LIMIT: '12', GATEHOUSE_AUTH_FAILURE_LIMIT: '30' } });
    scim = await scimClientFor(app);
  });
  after(() => app.close());

  it('throttles bad tokens from an address without locking out the good one', async () => {
    const bad = scim.as('gth_someone-elses-wrong-token-0123456789');
    for (let i = 0; i < 30; i++) assert.equal((await bad.get('/Users')).status, 401);
    const throttled = await bad.get('/Users');
    assert.equal(throttled.status, 429);
    assert.ok(Number(throttled.headers.get('retry-after')) > 0);
    assert.equal((await scim.as(undefined).get('/Users')).status, 429, 'no token from a throttled address is throttled too');
    assert.equal((await scim.get('/Users')).status, 200, 'the valid token still works');
    assert.equal((await scim.post('/Users', oktaUser(`${unique('shared')}@example.com`))).status, 201);
    assert.equal((await bad.get('/Users')).status, 429, 'and bad ones stay throttled');
  });

  it('has a write budget of its own (GATEHOUSE_SCIM_WRITE_RATE_LIMIT), above /v1\'s, still bounded', async () => {
    // One write already spent above; the /v1 limit (5) is far below what follows.
    for (let i = 0; i < 11; i++) assert.equal((await scim.post('/Users', oktaUser(`${unique('import')}@example.com`))).status, 201, `create ${i + 2}`);
    const over = await scim.post('/Users', oktaUser(`${unique('import')}@example.com`));
    assert.equal(over.status, 429);
    assert.ok(Number(over.headers.get('retry-after')) > 0);
    app.clock.advance(61_000);
    assert.equal((await scim.post('/Users', oktaUser(`${unique('import')}@example.com`))).status, 201, 'a new window, a new budget');
  });
});
