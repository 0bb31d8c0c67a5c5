// `gatehouse serve --demo`: the example organisation seeded through the service's own /v1 (events recorded,
// the seeding's tokens gone), sign-in links a requester, a reviewer and an admin open in the console, and a
// file holding real data refused. The real process once, as a person starts it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkDemoFile, DEMO_DB_FILE, demoConfig, demoLinks, seedDemo } from '../../src/demo.ts';
import { loadConfig } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { cli } from '../helpers/cli.ts';
import { sessionClient, sessionCookieOf, useLink } from '../helpers/console.ts';
import { readEvents } from '../helpers/events.ts';
import { ServiceProcess } from '../service/helpers/gatehouse-process.ts';

describe('the demo organisation', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('is seeded through /v1 with its events, and its links sign in a requester, a reviewer and an admin who find work waiting', async () => {
    await seedDemo(app.ctx, app.url);
    assert.equal(checkDemoFile(app.ctx), false, 'seeded once: a restart starts on it as it is');

    const users = (await app.api.get('/users', { page_size: 100 })).body.results as { email: string }[];
    assert.equal(users.filter((u) => u.email.endsWith('@demo.example')).length, 6);
    assert.equal((await readEvents(app.api, { type: 'USERS_CREATED' })).length, 7, 'the admin and six people, each recorded');
    assert.equal((await readEvents(app.api, { type: 'REQUESTS_APPROVED' })).length, 1);
    assert.equal((await readEvents(app.api, { type: 'REQUESTS_DENIED' })).length, 1);
    const tokens = (await app.api.get('/tokens', { page_size: 100 })).body.results as { token_label: string }[];
    assert.deepEqual(tokens.filter((t) => t.token_label === 'demo seeding'), [], 'the seeding\'s tokens are revoked');
    const reviews = (await app.api.get('/uars')).body.results as { name: string }[];
    assert.deepEqual(reviews.map((r) => r.name), ['Quarterly production access review']);

    const links = demoLinks(app.ctx);
    const signedIn = async (url: string) => {
      const res = await useLink(url);
      assert.equal(res.status, 303);
      return sessionClient(app, sessionCookieOf(res)!);
    };
    const requester = await signedIn(links.requester.url);
    assert.deepEqual((await requester.get('/requests/counts')).body, { awaiting_my_review: 0, my_pending: 2 });
    const reviewer = await signedIn(links.reviewer.url);
    assert.deepEqual((await reviewer.get('/requests/counts')).body, { awaiting_my_review: 2, my_pending: 0 });
    const assignments = (await reviewer.get('/uar-assignments', { open_only: true })).body.results as { unanswered_items: number }[];
    assert.ok(assignments.some((a) => a.unanswered_items > 0), 'the access review waits for the platform team');
    const admin = await signedIn(links.admin.url);
    assert.equal((await admin.get('/events')).status, 200);
    // The admin is on the platform team: Priya's two requests wait for them too (issue 41.8).
    assert.deepEqual((await admin.get('/requests/counts')).body, { awaiting_my_review: 2, my_pending: 0 });
  });

  it('runs on a file of its own unless one is named, with nothing that reaches the network', () => {
    const config = loadConfig({ GATEHOUSE_SMTP_URL: 'smtp://mail.example.com', GATEHOUSE_LOG_LEVEL: 'silent' }, {});
    const demo = demoConfig(config, false);
    assert.equal(demo.dbFile, DEMO_DB_FILE);
    assert.equal(demo.smtpUrl, undefined);
    assert.equal(demoConfig(config, true).dbFile, config.dbFile);
  });

  it('refuses a file holding real data, writing nothing to it', async () => {
    const before = (await app.api.get('/users', { page_size: 100 })).body.results.length;
    const fresh = await startTestApp();
    try {
      const run = await cli(['serve', '--demo', '--db', fresh.dbFile, '--port', '0'], { GATEHOUSE_LOG_LEVEL: 'silent' });
      assert.notEqual(run.code, 0);
      assert.match(run.stderr, /not a demo/);
      assert.equal((await fresh.api.get('/users')).body.results.length, 1);
    } finally {
      await fresh.close();
    }
    assert.equal((await app.api.get('/users', { page_size: 100 })).body.results.length, before);
  });
});

/** This process's environment without GATEHOUSE_DB: the demo then picks its own file. */
const withoutDbSetting = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'GATEHOUSE_DB'));

describe('gatehouse serve --demo, the process', () => {
  let dir: string;
  let service: ServiceProcess | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-demo-'));
  });
  after(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints working sign-in links for the requester, the reviewer and the admin', { timeout: 300_000 }, async () => {
    service = await ServiceProcess.start(['--demo', '--port', '0', '--host', '127.0.0.1'], {
      cwd: dir, env: { ...withoutDbSetting(), GATEHOUSE_LOG_LEVEL: 'info', GATEHOUSE_SMTP_URL: 'smtp://unreachable.invalid' },
    });
    const origin = new URL(service.url).origin;
    const links = [...service.stdout.matchAll(/^ {2}(requester|reviewer|admin) .* (http:\S+)$/gm)].map((m) => [m[1], m[2]]);
    assert.deepEqual(links.map(([who]) => who), ['requester', 'reviewer', 'admin'], service.stdout);
    for (const [, url] of links) assert.ok(url!.startsWith(`${origin}/console/sign-in/ghl_`), url);
    const res = await useLink(links[1]![1]!);
    assert.equal(res.status, 303);
    assert.match(service.stdout, new RegExp(`Gatehouse demo on ${DEMO_DB_FILE}`));
    // Only the banner the docs show: no admin token block, no second admin link (issue 41.8).
    assert.doesNotMatch(service.stdout, /FULL_ACCESS API token|gth_/, service.stdout);
    assert.doesNotMatch(service.stdout, /Sign in to the console as/, service.stdout);
  });
});
