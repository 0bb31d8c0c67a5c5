// GET /v1/settings and GET /v1/settings/check through HTTP: what an admin's Settings page shows, never a secret.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SETTINGS } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createMember, createToken } from '../helpers/fixtures.ts';

// Each secret is distinct and long, so its appearance anywhere in an answer is unmistakable.
const SECRETS = {
  GATEHOUSE_OIDC_CLIENT_SECRET: 'oidc-client-secret-d1b5f0c2a9e84c7',
  GATEHOUSE_SLACK_BOT_TOKEN: 'xoxb-slack-bot-token-8c3e2a1f7b6d',
  GATEHOUSE_SLACK_SIGNING_SECRET: 'slack-signing-secret-5e9a0b4c2d71',
  SMTP_PASSWORD: 'smtp-password-6f1c9e2b8a4d',
  // Read into the settings though the test harness bootstraps its admin another way.
  GATEHOUSE_BOOTSTRAP_TOKEN: 'bootstrap-token-3a7c1e9f5b2d8c4a6e0f',
  GATEHOUSE_SECRET_KEY: 'settings-secret-key-7d2c9a4e1b8f3065aa',
  GATEHOUSE_PAGERDUTY_TOKEN: 'pagerduty-token-2b7e4c9d1a6f',
  GATEHOUSE_OPSGENIE_API_KEY: 'opsgenie-key-9c4a2e7b1d5f',
};

describe('settings', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({
      env: {
        GATEHOUSE_OIDC_ISSUER: 'http://127.0.0.1:9/issuer',
        GATEHOUSE_OIDC_CLIENT_ID: 'gatehouse',
        GATEHOUSE_OIDC_CLIENT_SECRET: SECRETS.GATEHOUSE_OIDC_CLIENT_SECRET,
        GATEHOUSE_SLACK_BOT_TOKEN: SECRETS.GATEHOUSE_SLACK_BOT_TOKEN,
        GATEHOUSE_SLACK_SIGNING_SECRET: SECRETS.GATEHOUSE_SLACK_SIGNING_SECRET,
        GATEHOUSE_SMTP_URL: `smtp://mailer:${SECRETS.SMTP_PASSWORD}@127.0.0.1:2525`,
        GATEHOUSE_BOOTSTRAP_TOKEN: SECRETS.GATEHOUSE_BOOTSTRAP_TOKEN,
        GATEHOUSE_SECRET_KEY: SECRETS.GATEHOUSE_SECRET_KEY,
        GATEHOUSE_PAGERDUTY_TOKEN: SECRETS.GATEHOUSE_PAGERDUTY_TOKEN,
        GATEHOUSE_OPSGENIE_API_KEY: SECRETS.GATEHOUSE_OPSGENIE_API_KEY,
        GATEHOUSE_TRUSTED_PROXIES: '127.0.0.1,10.0.0.0/8',
      },
    });
  });
  after(() => app.close());

  it('shows the version, schema, integrations and every setting in effect, and no secret anywhere', async () => {
    const res = await app.api.get('/settings');
    assert.equal(res.status, 200);
    const text = JSON.stringify(res.body);
    for (const secret of Object.values(SECRETS)) assert.ok(!text.includes(secret), `the answer shows a secret: ${secret}`);
    // Every secret SETTINGS declares is set above: a new one must be added to SECRETS.
    for (const setting of Object.values(SETTINGS)) if (setting.secret) assert.ok(setting.env in SECRETS, `${setting.env} is a secret this test does not set`);

    assert.match(res.body.version, /^\d+\.\d+\.\d+/);
    assert.ok(res.body.schema_version > 0);
    assert.equal(res.body.schema_version, res.body.known_schema_version);
    assert.deepEqual(res.body.integrations, { email: true, slack: true, slack_interactivity: true, single_sign_on: true, replication: false });

    const byName = new Map<string, { value: string | null; is_default: boolean; secret: boolean }>(
      res.body.settings.map((s: { name: string; value: string | null; is_default: boolean; secret: boolean }) => [s.name, s]),
    );
    assert.deepEqual(byName.get('GATEHOUSE_OIDC_CLIENT_SECRET'), { ...byName.get('GATEHOUSE_OIDC_CLIENT_SECRET'), value: '********', secret: true, is_default: false });
    assert.equal(byName.get('GATEHOUSE_SLACK_BOT_TOKEN')!.value, '********');
    assert.equal(byName.get('GATEHOUSE_SMTP_URL')!.value, 'smtp://mailer:********@127.0.0.1:2525');
    assert.equal(byName.get('GATEHOUSE_SMTP_URL')!.secret, false);
    assert.equal(byName.get('GATEHOUSE_OIDC_CLIENT_ID')!.value, 'gatehouse');
    assert.equal(byName.get('GATEHOUSE_TRUSTED_PROXIES')!.value, '127.0.0.1,10.0.0.0/8');
    assert.deepEqual(byName.get('GATEHOUSE_DIGEST_HOUR_UTC'), { ...byName.get('GATEHOUSE_DIGEST_HOUR_UTC'), value: '8', is_default: true });
    assert.deepEqual(byName.get('GATEHOUSE_BOOTSTRAP_TOKEN'), { ...byName.get('GATEHOUSE_BOOTSTRAP_TOKEN'), value: '********', secret: true });
    assert.equal(byName.get('GATEHOUSE_LITESTREAM_CONFIG')!.value, null);
  });

  it('says what gatehouse check says: a sound file, not replicated', async () => {
    const res = await app.api.get('/settings/check');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true, schema_version: res.body.schema_version, problems: [], replicas: null });
    assert.ok(res.body.schema_version > 0);
  });

  it('is for admins, a READ_ONLY admin token included; members get 403', async () => {
    const readOnly = await createToken(app.api, { access_level: 'READ_ONLY' });
    assert.equal((await app.api.as(readOnly.secret).get('/settings')).status, 200);
    const member = await createMember(app.api);
    for (const path of ['/settings', '/settings/check']) {
      const res = await member.api.get(path);
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 'forbidden');
    }
  });
});

describe('settings check with a replica Litestream cannot read', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
    await app.close({ keepFiles: true });
    // A config naming no replica of this file: check reports the replication problem, as the CLI does.
    const config = join(app.dir, 'litestream.yml');
    writeFileSync(config, 'dbs:\n  - path: /nonexistent/other.db\n    replicas:\n      - path: /nonexistent/replica\n');
    app = await startTestApp({ dbFile: app.dbFile, env: { GATEHOUSE_LITESTREAM_CONFIG: config } });
  });
  after(() => app.close());

  it('fails, naming the replication problem', async () => {
    const settings = await app.api.get('/settings');
    assert.equal(settings.body.integrations.replication, true);
    assert.equal(settings.body.integrations.email, false);
    // An unset secret says so (null), rather than a mask that would claim it is set.
    const bot = settings.body.settings.find((s: { name: string }) => s.name === 'GATEHOUSE_SLACK_BOT_TOKEN');
    assert.deepEqual(bot, { ...bot, value: null, secret: true, is_default: true });
    const res = await app.api.get('/settings/check');
    assert.equal(res.status, 200);
    assert.equal(res.body.ok, false);
    assert.deepEqual(res.body.replicas, []);
    assert.equal(res.body.problems.length, 1);
    assert.match(res.body.problems[0], /^replication: /);
  });
});
