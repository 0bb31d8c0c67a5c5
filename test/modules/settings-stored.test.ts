// Settings an admin sets through PATCH /v1/settings (the console's Settings page): checked as their variables
// are, stored with secrets encrypted, audited with secrets masked, applied without a restart (the next email,
// Slack message and OpenID discovery use them), the environment still winning; a backup restores with its key.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app.ts';
import { cli } from '../helpers/cli.ts';
import { errorPaths } from '../helpers/errors.ts';
import { countEvents, readEvents } from '../helpers/events.ts';
import { createMember, createToken } from '../helpers/fixtures.ts';
import { startTestProvider, type TestProvider } from '../helpers/oidc-provider.ts';
import { OPSGENIE_KEY, OpsgenieStandIn, PAGERDUTY_TOKEN, PagerDutyStandIn } from '../helpers/on-call-stand-ins.ts';
import { SLACK_TOKEN, SlackStandIn } from '../helpers/slack-stand-in.ts';
import { SMTP_PASSWORD, SmtpReceiver } from '../helpers/smtp-receiver.ts';
import { until } from '../helpers/wait.ts';

const ADMIN_EMAIL = 'admin@gatehouse.local';

interface ShownSetting { name: string; value: string | null; is_set: boolean; source: string; group: string | null; secret: boolean }
const settingOf = (body: { settings: ShownSetting[] }, name: string) => body.settings.find((s) => s.name === name)!;

/** Everything a client, the trail and the logs can see, as one text: no secret may appear in it. */
async function everythingSeen(app: TestApp): Promise<string> {
  const settings = await app.api.get('/settings');
  const events = await readEvents(app.api);
  return JSON.stringify([settings.body, events, app.logs]);
}

describe('settings set on the Settings page', () => {
  let app: TestApp;
  let mail: SmtpReceiver;
  let otherMail: SmtpReceiver;
  let slack: SlackStandIn;
  let idp: TestProvider;
  before(async () => {
    [app, mail, otherMail, slack, idp] = await Promise.all([
      startTestApp({ env: { GATEHOUSE_DIGEST_HOUR_UTC: '6' } }), SmtpReceiver.start(), SmtpReceiver.start(), SlackStandIn.start(), startTestProvider(),
    ]);
    slack.addUser(ADMIN_EMAIL);
    idp.allowRedirects([`${app.url.replace(/\/v1$/, '')}/console/oidc/callback`]);
  });
  after(async () => {
    await app.close();
    await Promise.all([mail.stop(), otherMail.stop(), slack.close(), idp.close()]);
  });

  it('sets SMTP, sends a test email to the admin through it, and keeps the password encrypted and out of every answer', async () => {
    const before = await app.api.post('/settings/email/test', {});
    assert.deepEqual(before.body, { ok: false, message: 'email is not set up: set the SMTP server URL' });

    const res = await app.api.patch('/settings', { settings: { GATEHOUSE_SMTP_URL: mail.url, GATEHOUSE_EMAIL_FROM: 'Gatehouse <gatehouse@example.com>' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const smtp = settingOf(res.body, 'GATEHOUSE_SMTP_URL');
    assert.equal(smtp.source, 'stored');
    assert.equal(smtp.group, 'email');
    assert.match(smtp.value!, /^smtp:\/\/gatehouse:\*{8}@127\.0\.0\.1:\d+\//);
    assert.equal(res.body.integrations.email, true, 'in effect at once, no restart');
    assert.deepEqual(res.body.secret_key, { source: 'file', file: `${app.dbFile}.key` });
    // The key file was made on first use, readable by its owner only.
    assert.equal(statSync(`${app.dbFile}.key`).mode & 0o777, 0o600);

    const sent = await app.api.post('/settings/email/test', {});
    assert.equal(sent.status, 200);
    assert.equal(sent.body.ok, true, sent.body.message);
    await until(() => mail.to(ADMIN_EMAIL).length === 1, 'the test email');
    const received = mail.to(ADMIN_EMAIL)[0]!;
    assert.equal(received.subject, 'Gatehouse test email');
    assert.match(received.from, /gatehouse@example\.com/);
    assert.equal(received.user, 'gatehouse', 'logged in with the stored password');

    // Encrypted at rest: the row holds an envelope, not the URL or its password.
    const file = new Database(app.dbFile, { readonly: true });
    try {
      const row = file.prepare("SELECT value, encrypted FROM stored_settings WHERE name = 'GATEHOUSE_SMTP_URL'").get() as { value: string; encrypted: number };
      assert.equal(row.encrypted, 1);
      assert.match(row.value, /^gh1\./);
      assert.ok(!row.value.includes(encodeURIComponent(SMTP_PASSWORD)) && !row.value.includes('127.0.0.1'));
    } finally {
      file.close();
    }
    const seen = await everythingSeen(app);
    for (const secret of [SMTP_PASSWORD, encodeURIComponent(SMTP_PASSWORD)]) assert.ok(!seen.includes(secret), 'the SMTP password shows somewhere');

    const [updated] = await readEvents(app.api, { type: 'SETTINGS_UPDATED' });
    assert.deepEqual(updated!.sub_events.map((e) => [e.setting, e.cleared]), [['GATEHOUSE_SMTP_URL', false], ['GATEHOUSE_EMAIL_FROM', false]]);
    assert.match(String(updated!.sub_events[0]!.value), /:\*{8}@/);
    const [tested] = await readEvents(app.api, { type: 'SETTINGS_TESTED' });
    assert.deepEqual(tested!.sub_events[0], { ...tested!.sub_events[0], group: 'email', ok: true });
  });

  it('uses the new SMTP server for the next email once it changes: no stale connection pool', async () => {
    // The URL sent back as the page shows it (password masked) keeps the password in effect.
    const masked = settingOf((await app.api.get('/settings')).body, 'GATEHOUSE_SMTP_URL').value!.replace(`:${mail.port}/`, `:${otherMail.port}/`);
    const res = await app.api.patch('/settings', { settings: { GATEHOUSE_SMTP_URL: masked } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const sent = await app.api.post('/settings/email/test', {});
    assert.equal(sent.body.ok, true, sent.body.message);
    await until(() => otherMail.to(ADMIN_EMAIL).length === 1, 'the test email at the new server');
    assert.equal(otherMail.to(ADMIN_EMAIL)[0]!.user, 'gatehouse', 'the kept password logged in');
    assert.equal(mail.to(ADMIN_EMAIL).length, 1, 'nothing more went to the old server');
  });

  it('sets Slack and posts a test message to the admin; a token changed later is the one used', async () => {
    const wrong = await app.api.patch('/settings', { settings: { GATEHOUSE_SLACK_BOT_TOKEN: 'xoxb-not-the-right-one', GATEHOUSE_SLACK_API_URL: slack.url } });
    assert.equal(wrong.status, 200, JSON.stringify(wrong.body));
    assert.deepEqual(settingOf(wrong.body, 'GATEHOUSE_SLACK_BOT_TOKEN'), { ...settingOf(wrong.body, 'GATEHOUSE_SLACK_BOT_TOKEN'), value: '********', is_set: true, secret: true });
    const refused = await app.api.post('/settings/slack/test', {});
    assert.equal(refused.body.ok, false);
    assert.match(refused.body.message, /invalid_auth/);

    assert.equal((await app.api.patch('/settings', { settings: { GATEHOUSE_SLACK_BOT_TOKEN: SLACK_TOKEN } })).status, 200);
    const sent = await app.api.post('/settings/slack/test', {});
    assert.deepEqual(sent.body, { ok: true, message: `sent to you (${ADMIN_EMAIL}) as a direct message` });
    assert.equal(slack.dmsTo(ADMIN_EMAIL).length, 1);
    assert.match(slack.dmsTo(ADMIN_EMAIL)[0]!.text, /Gatehouse test message/);
    const toChannel = await app.api.post('/settings/slack/test', { channel: 'C0REVIEWERS' });
    assert.deepEqual(toChannel.body, { ok: true, message: 'sent to C0REVIEWERS' });

    const seen = await everythingSeen(app);
    assert.ok(!seen.includes(SLACK_TOKEN) && !seen.includes('xoxb-not-the-right-one'), 'a Slack token shows somewhere');
    const events = await readEvents(app.api, { type: 'SETTINGS_UPDATED' });
    assert.ok(events.some((e) => e.sub_events.some((s) => s.setting === 'GATEHOUSE_SLACK_BOT_TOKEN' && s.value === 'set')));
  });

  it('sets single sign-on and checks it against the provider; a wrong issuer is said to fail', async () => {
    const res = await app.api.patch('/settings', { settings: { GATEHOUSE_OIDC_ISSUER: idp.issuer, GATEHOUSE_OIDC_CLIENT_ID: idp.clientId, GATEHOUSE_OIDC_CLIENT_SECRET: idp.clientSecret } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.integrations.single_sign_on, true);
    const checked = await app.api.post('/settings/single-sign-on/check', {});
    assert.equal(checked.body.ok, true, checked.body.message);
    assert.match(checked.body.message, new RegExp(`sign-in at ${idp.issuer}/`));
    assert.match(checked.body.message, /\/console\/oidc\/callback as the redirect URI/);
    // The console's sign-in now goes to the provider, without a restart.
    const start = await fetch(`${app.url.replace(/\/v1$/, '')}/console/oidc/start`, { redirect: 'manual' });
    assert.equal(start.status, 303);
    assert.ok(start.headers.get('location')!.startsWith(idp.issuer), start.headers.get('location')!);

    assert.equal((await app.api.patch('/settings', { settings: { GATEHOUSE_OIDC_ISSUER: `${idp.issuer}/nowhere` } })).status, 200);
    const failed = await app.api.post('/settings/single-sign-on/check', {});
    assert.equal(failed.body.ok, false);
    assert.match(failed.body.message, /discovery failed/);
    assert.ok(!(await everythingSeen(app)).includes(idp.clientSecret));
    assert.equal((await app.api.patch('/settings', { settings: { GATEHOUSE_OIDC_ISSUER: idp.issuer } })).status, 200);
  });

  it('sets the on-call providers and checks their keys against PagerDuty and Opsgenie stand-ins', async () => {
    const [pagerDuty, opsgenie] = await Promise.all([PagerDutyStandIn.start(() => app.clock.now()), OpsgenieStandIn.start(() => app.clock.now())]);
    try {
      const unset = await app.api.post('/settings/on-call/check', {});
      assert.deepEqual(unset.body, { ok: false, message: 'no on-call provider is set up: set the PagerDuty or the Opsgenie API key' });
      const wrong = await app.api.patch('/settings', { settings: { GATEHOUSE_PAGERDUTY_TOKEN: 'not-the-key', GATEHOUSE_PAGERDUTY_API_URL: pagerDuty.url } });
      assert.equal(wrong.status, 200, JSON.stringify(wrong.body));
      const refused = await app.api.post('/settings/on-call/check', {});
      assert.equal(refused.body.ok, false);
      assert.match(refused.body.message, /PagerDuty refused the credential \(401\)/);

      const right = await app.api.patch('/settings', {
        settings: { GATEHOUSE_PAGERDUTY_TOKEN: PAGERDUTY_TOKEN, GATEHOUSE_OPSGENIE_API_KEY: OPSGENIE_KEY, GATEHOUSE_OPSGENIE_API_URL: opsgenie.url, GATEHOUSE_ONCALL_SYNC_SECONDS: '120' },
      });
      assert.equal(right.status, 200, JSON.stringify(right.body));
      assert.equal(settingOf(right.body, 'GATEHOUSE_OPSGENIE_API_KEY').group, 'on_call');
      assert.equal(app.ctx.config.onCallSyncSeconds, 120);
      const checked = await app.api.post('/settings/on-call/check', {});
      assert.equal(checked.body.ok, true, checked.body.message);
      assert.match(checked.body.message, /Opsgenie took the API key/);
      assert.match(checked.body.message, /PagerDuty took the API key/);
      const seen = await everythingSeen(app);
      assert.ok(!seen.includes(PAGERDUTY_TOKEN) && !seen.includes(OPSGENIE_KEY) && !seen.includes('not-the-key'), 'an on-call key shows somewhere');
    } finally {
      await app.api.patch('/settings', { settings: { GATEHOUSE_PAGERDUTY_TOKEN: null, GATEHOUSE_OPSGENIE_API_KEY: null, GATEHOUSE_ONCALL_SYNC_SECONDS: null } });
      await Promise.all([pagerDuty.close(), opsgenie.close()]);
    }
  });

  it('sets the public URL and the notification timings, in effect at once; clearing one brings its default back', async () => {
    const res = await app.api.patch('/settings', { settings: { GATEHOUSE_PUBLIC_URL: 'https://gatehouse.example.com/', GATEHOUSE_EXPIRY_WARNING_MINUTES: '60,2880' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.public_url, 'https://gatehouse.example.com');
    assert.deepEqual(app.ctx.config.expiryWarningMinutes, [2880, 60]);
    // Links made now use it: an admin's sign-in link for a person.
    const member = await createMember(app.api);
    const link = await app.api.post(`/users/${member.user_id}/sign-in-link`, { send_email: false });
    assert.equal(link.status, 200, JSON.stringify(link.body));
    assert.ok(String(link.body.url).startsWith('https://gatehouse.example.com/console/sign-in/'), link.body.url);
    const cleared = await app.api.patch('/settings', { settings: { GATEHOUSE_PUBLIC_URL: null, GATEHOUSE_EXPIRY_WARNING_MINUTES: null } });
    assert.equal(settingOf(cleared.body, 'GATEHOUSE_PUBLIC_URL').source, 'default');
    assert.deepEqual(app.ctx.config.expiryWarningMinutes, [1440, 60]);
    assert.equal(cleared.body.public_url, app.url.replace(/\/v1$/, ''));
  });

  it('leaves a setting the environment sets to the environment, and says so', async () => {
    const shown = settingOf((await app.api.get('/settings')).body, 'GATEHOUSE_DIGEST_HOUR_UTC');
    assert.deepEqual(shown, { ...shown, source: 'environment', value: '6', group: 'notifications' });
    const events = await countEvents(app.api);
    const res = await app.api.patch('/settings', { settings: { GATEHOUSE_DIGEST_HOUR_UTC: '9', GATEHOUSE_EMAIL_FROM: 'x@example.com' } });
    assert.equal(res.status, 400);
    assert.deepEqual(errorPaths(res.body), ['settings.GATEHOUSE_DIGEST_HOUR_UTC']);
    assert.match(res.body.message, /set by the environment variable GATEHOUSE_DIGEST_HOUR_UTC, which wins/);
    assert.equal(await countEvents(app.api), events, 'all or none: nothing recorded');
    assert.equal(app.ctx.config.digestHourUtc, 6);
    assert.equal(app.ctx.config.emailFrom, 'Gatehouse <gatehouse@example.com>', 'the other change was not made either');
  });

  it('refuses what its variable would refuse, what is not a setting, and what only a variable sets, naming each, writing nothing', async () => {
    const events = await countEvents(app.api);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ GATEHOUSE_SMTP_URL: 'ftp://mail.example.com' }, ['settings.GATEHOUSE_SMTP_URL']],
      [{ GATEHOUSE_NOTIFY_INTERVAL_MS: '5' }, ['settings.GATEHOUSE_NOTIFY_INTERVAL_MS']],
      [{ GATEHOUSE_NO_SUCH_THING: 'x', GATEHOUSE_PORT: '9000', GATEHOUSE_SECRET_KEY: 'k'.repeat(40) }, ['settings.GATEHOUSE_NO_SUCH_THING', 'settings.GATEHOUSE_PORT', 'settings.GATEHOUSE_SECRET_KEY']],
      [{ GATEHOUSE_OIDC_CREATE_USERS: 'on' }, ['settings.GATEHOUSE_OIDC_ALLOWED_DOMAINS']],
      [{ GATEHOUSE_EMAIL_FROM: 7 }, ['settings.GATEHOUSE_EMAIL_FROM']],
      [{ GATEHOUSE_EMAIL_FROM: 'x'.repeat(5000) }, ['settings.GATEHOUSE_EMAIL_FROM']],
      [{}, ['settings']],
    ];
    for (const [settings, paths] of cases) {
      const res = await app.api.patch('/settings', { settings });
      assert.equal(res.status, 400, JSON.stringify(settings));
      assert.deepEqual(errorPaths(res.body), paths, JSON.stringify(res.body));
      assert.doesNotMatch(JSON.stringify(res.body), /\\n\s+at |Error:|SQLITE/);
    }
    assert.equal((await app.api.patch('/settings', { settings: 'x' })).status, 400);
    assert.equal(await countEvents(app.api), events);
  });

  it('lets only a full-access admin change settings or send tests; READ_ONLY and members get 403', async () => {
    const readOnly = await createToken(app.api, { access_level: 'READ_ONLY' });
    const member = await createMember(app.api);
    for (const api of [app.api.as(readOnly.secret), member.api]) {
      assert.equal((await api.patch('/settings', { settings: { GATEHOUSE_EMAIL_FROM: 'x@example.com' } })).status, 403);
      for (const path of ['/settings/email/test', '/settings/slack/test', '/settings/single-sign-on/check', '/settings/on-call/check']) {
        assert.equal((await api.post(path, {})).status, 403, path);
      }
    }
    assert.equal(app.ctx.config.emailFrom, 'Gatehouse <gatehouse@example.com>');
  });

  it('restores from a backup with its key, secrets and all; without the key it says which settings it cannot read', async () => {
    const backup = join(app.dir, 'backup.db');
    const made = await cli(['backup', '--db', app.dbFile, '--to', backup]);
    assert.equal(made.code, 0, made.stderr);
    // The backup says plainly that its secrets need the key it does not hold, and which.
    assert.match(made.stderr, new RegExp(`^warning: the backup holds \\d+ stored secrets \\(Settings page\\) encrypted with the key file ${app.dbFile}\\.key, which is not in it: keep a copy`));
    assert.ok(!existsSync(`${backup}.key`), 'the key is not copied unless asked');
    const key = readFileSync(`${app.dbFile}.key`, 'utf8').trim();
    const withKey = join(app.dir, 'with-key.db');
    const both = await cli(['backup', '--db', app.dbFile, '--to', withKey, '--with-key']);
    assert.equal(both.code, 0, both.stderr);
    assert.equal(both.stderr, '');
    assert.match(both.stdout, new RegExp(`copied the key file ${app.dbFile}\\.key to ${withKey}\\.key`));
    assert.equal(readFileSync(`${withKey}.key`, 'utf8').trim(), key);
    assert.equal(statSync(`${withKey}.key`).mode & 0o777, 0o600);
    // The two restored together, the key beside the copy and named after it: every secret reads.
    const pair = await startTestApp({ dbFile: withKey });
    try {
      const res = await pair.api.as(ADMIN_TOKEN).get('/settings');
      assert.deepEqual(res.body.problems, []);
      assert.equal(res.body.integrations.slack, true);
    } finally {
      await pair.close({ keepFiles: true });
    }

    // The key given as GATEHOUSE_SECRET_KEY (the file's text): everything reads, and mail goes out.
    const restored = await startTestApp({ dbFile: backup, env: { GATEHOUSE_SECRET_KEY: key } });
    try {
      const res = await restored.api.as(ADMIN_TOKEN).get('/settings');
      assert.deepEqual(res.body.problems, []);
      assert.equal(res.body.integrations.email, true);
      assert.equal(res.body.integrations.slack, true);
      assert.deepEqual(res.body.secret_key, { source: 'environment', file: null });
      const sent = await restored.api.post('/settings/email/test', {});
      assert.equal(sent.body.ok, true, sent.body.message);
      await until(() => otherMail.to(ADMIN_EMAIL).length === 2, 'the restored service\'s test email');
    } finally {
      await restored.close({ keepFiles: true });
    }

    // Without it: the secrets are not in effect, and the page says which, and why.
    const lost = join(app.dir, 'lost.db');
    copyFileSync(backup, lost);
    const keyless = await startTestApp({ dbFile: lost });
    try {
      const res = await keyless.api.get('/settings');
      assert.equal(res.body.integrations.email, false);
      assert.equal(res.body.integrations.slack, false);
      assert.ok(res.body.problems.some((p: string) => /^GATEHOUSE_SMTP_URL cannot be read \(there is no key/.test(p)), res.body.problems.join('\n'));
      assert.equal(settingOf(res.body, 'GATEHOUSE_EMAIL_FROM').value, 'Gatehouse <gatehouse@example.com>', 'what was never secret still reads');
    } finally {
      await keyless.close({ keepFiles: true });
    }
    // Another key: named as another key.
    const wrong = await startTestApp({ dbFile: lost, env: { GATEHOUSE_SECRET_KEY: 'w'.repeat(43) } });
    try {
      const res = await wrong.api.get('/settings');
      assert.ok(res.body.problems.some((p: string) => /GATEHOUSE_SLACK_BOT_TOKEN cannot be read \(it was encrypted with another key/.test(p)), res.body.problems.join('\n'));
    } finally {
      await wrong.close({ keepFiles: true });
    }
  });
});
