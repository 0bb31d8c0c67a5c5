// The private-address policy reaches every outbound connection, set by variable or on the Settings page: the
// SMTP server, Slack and the OpenID provider (PATCH /v1/settings and the test buttons), and the ranges
// GATEHOUSE_PRIVATE_ADDRESSES_ALLOWED lets through — proved against real SMTP (STARTTLS), the Slack stand-in
// and oidc-provider on loopback.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { addressPolicy } from '../../src/http/outbound.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { errorPaths } from '../helpers/errors.ts';
import { countEvents } from '../helpers/events.ts';
import { startTestProvider, type TestProvider } from '../helpers/oidc-provider.ts';
import { SLACK_TOKEN, SlackStandIn } from '../helpers/slack-stand-in.ts';
import { SmtpReceiver } from '../helpers/smtp-receiver.ts';
import { until } from '../helpers/wait.ts';

const ADMIN_EMAIL = 'admin@gatehouse.local';
/** A loopback stand-in's URL with its address written as a name, so the refusal must come from resolving it. */
const byName = (url: string) => url.replace('127.0.0.1', 'localhost');

describe('the private-address policy on the Settings page\'s targets', () => {
  let mail: SmtpReceiver;
  let slack: SlackStandIn;
  let idp: TestProvider;
  before(async () => {
    [mail, slack, idp] = await Promise.all([SmtpReceiver.start(), SlackStandIn.start(), startTestProvider()]);
    slack.addUser(ADMIN_EMAIL);
    idp.allowRedirects(['http://127.0.0.1/console/oidc/callback']);
  });
  after(async () => {
    await Promise.all([mail.stop(), slack.close(), idp.close()]);
  });

  describe('with GATEHOUSE_PRIVATE_ADDRESSES=deny', () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ env: { GATEHOUSE_PRIVATE_ADDRESSES: 'deny' } });
    });
    after(() => app.close());

    it('refuses an SMTP, Slack or OpenID address written as a non-public IP, naming each setting, storing nothing', async () => {
      const events = await countEvents(app.api);
      const res = await app.api.patch('/settings', {
        settings: { GATEHOUSE_SMTP_URL: mail.url, GATEHOUSE_SLACK_API_URL: slack.url, GATEHOUSE_OIDC_ISSUER: 'http://169.254.169.254/latest', GATEHOUSE_EMAIL_FROM: 'gh@example.com' },
      });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(errorPaths(res.body), ['settings.GATEHOUSE_OIDC_ISSUER', 'settings.GATEHOUSE_SLACK_API_URL', 'settings.GATEHOUSE_SMTP_URL']);
      assert.match(res.body.message, /169\.254\.169\.254 is not public/);
      assert.ok(!JSON.stringify(res.body).includes('p%40ss'), 'the SMTP password is not echoed');
      assert.equal(await countEvents(app.api), events, 'nothing recorded');
      assert.equal(app.ctx.config.smtpUrl, undefined, 'nothing in effect');
    });

    it('refuses the connection when a name resolves to a non-public address: the test email, the Slack test and the OpenID check say so, and nothing reached the peers', async () => {
      const res = await app.api.patch('/settings', {
        settings: {
          GATEHOUSE_SMTP_URL: byName(mail.url), GATEHOUSE_SLACK_API_URL: byName(slack.url), GATEHOUSE_SLACK_BOT_TOKEN: SLACK_TOKEN,
          GATEHOUSE_OIDC_ISSUER: byName(idp.issuer), GATEHOUSE_OIDC_CLIENT_ID: idp.clientId, GATEHOUSE_OIDC_CLIENT_SECRET: idp.clientSecret,
        },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const email = await app.api.post('/settings/email/test', {});
      assert.equal(email.body.ok, false);
      assert.match(email.body.message, /not public, and GATEHOUSE_PRIVATE_ADDRESSES is deny/);
      const slackTest = await app.api.post('/settings/slack/test', {});
      assert.equal(slackTest.body.ok, false);
      assert.match(slackTest.body.message, /not public, and GATEHOUSE_PRIVATE_ADDRESSES is deny/);
      const sso = await app.api.post('/settings/single-sign-on/check', {});
      assert.equal(sso.body.ok, false);
      assert.match(sso.body.message, /not public, and GATEHOUSE_PRIVATE_ADDRESSES is deny/);
      assert.equal(mail.to(ADMIN_EMAIL).length, 0);
      assert.equal(slack.calls.length, 0);
    });
  });

  describe('with GATEHOUSE_PRIVATE_ADDRESSES=deny and loopback in GATEHOUSE_PRIVATE_ADDRESSES_ALLOWED', () => {
    let app: TestApp;
    before(async () => {
      // SMTP set by the environment: the policy applies to it as to what the page sets.
      app = await startTestApp({ env: { GATEHOUSE_PRIVATE_ADDRESSES: 'deny', GATEHOUSE_PRIVATE_ADDRESSES_ALLOWED: '127.0.0.0/8,::1', GATEHOUSE_SMTP_URL: mail.url } });
    });
    after(() => app.close());

    it('connects to the allowed addresses, by IP or by name: email over STARTTLS, Slack, the OpenID discovery', async () => {
      const res = await app.api.patch('/settings', {
        settings: { GATEHOUSE_SLACK_API_URL: slack.url, GATEHOUSE_SLACK_BOT_TOKEN: SLACK_TOKEN, GATEHOUSE_OIDC_ISSUER: idp.issuer, GATEHOUSE_OIDC_CLIENT_ID: idp.clientId, GATEHOUSE_OIDC_CLIENT_SECRET: idp.clientSecret },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const email = await app.api.post('/settings/email/test', {});
      assert.equal(email.body.ok, true, email.body.message);
      await until(() => mail.to(ADMIN_EMAIL).length === 1, 'the test email');
      assert.equal(mail.to(ADMIN_EMAIL)[0]!.user, 'gatehouse', 'logged in after STARTTLS over the policy\'s socket');
      const slackTest = await app.api.post('/settings/slack/test', {});
      assert.deepEqual(slackTest.body, { ok: true, message: `sent to you (${ADMIN_EMAIL}) as a direct message` });
      const sso = await app.api.post('/settings/single-sign-on/check', {});
      assert.equal(sso.body.ok, true, sso.body.message);

      // The same through names that resolve to loopback.
      assert.equal((await app.api.patch('/settings', { settings: { GATEHOUSE_SLACK_API_URL: byName(slack.url), GATEHOUSE_OIDC_ISSUER: byName(idp.issuer) } })).status, 200);
      assert.equal((await app.api.post('/settings/slack/test', { channel: 'C0REVIEWERS' })).body.ok, true);
    });
  });

  it('GATEHOUSE_PRIVATE_ADDRESSES_ALLOWED takes IP addresses and CIDR ranges, refusing anything else by name', () => {
    assert.deepEqual(loadConfig({ GATEHOUSE_PRIVATE_ADDRESSES_ALLOWED: ' 10.0.0.25, fd00::/8 ,10.0.0.25' }).privateAddressesAllowed, ['10.0.0.25', 'fd00::/8']);
    assert.throws(() => loadConfig({ GATEHOUSE_PRIVATE_ADDRESSES_ALLOWED: '10.0.0.0/8,mail.internal' }), /GATEHOUSE_PRIVATE_ADDRESSES_ALLOWED .*"mail\.internal"/);
    const policy = addressPolicy({ privateAddresses: 'deny', privateAddressesAllowed: ['10.0.0.0/8', '::ffff:192.168.1.5'] });
    assert.equal(policy.refuses('10.1.2.3'), undefined);
    assert.equal(policy.refuses('[::ffff:10.1.2.3]'), undefined, 'an IPv4-mapped form of an allowed address');
    assert.equal(policy.refuses('192.168.1.5'), undefined);
    assert.match(String(policy.refuses('192.168.1.6')?.message), /192\.168\.1\.6 is not public/);
    assert.match(String(policy.refuses('127.0.0.1')?.message), /not public/);
    assert.equal(policy.refuses('8.8.8.8'), undefined);
    assert.equal(addressPolicy({ privateAddresses: 'allow', privateAddressesAllowed: [] }).refuses('127.0.0.1'), undefined);
  });
});
