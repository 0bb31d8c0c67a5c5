// The first start of `gatehouse serve` (issue 36.9, 41.2): an interactive install prints a console link
// for the first admin that works an hour and says how to make another; an automated one
// (GATEHOUSE_BOOTSTRAP_TOKEN) prints none; --admin-email names the first admin.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ApiClient } from '../helpers/client.ts';
import { readEvents } from '../helpers/events.ts';
import { ServiceProcess } from './helpers/gatehouse-process.ts';

describe('the first start', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-first-start-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints a console link for the first admin (--admin-email) that works an hour, and how to make another', async () => {
    const env = { ...process.env, GATEHOUSE_LOG_LEVEL: 'info' };
    const service = await ServiceProcess.start(['--db', join(dir, 'interactive.db'), '--port', '0', '--admin-email', 'ops@example.com'], { env });
    try {
      const link = /^ {2}(http\S+\/console\/sign-in\/\S+)$/m.exec(service.stdout)?.[1];
      assert.ok(link, service.stdout);
      assert.match(service.stdout, /Sign in to the console as ops@example\.com/);
      assert.match(service.stdout, /gatehouse login-link --email ops@example\.com/);
      const api = new ApiClient(service.url, service.adminToken());
      const users = await api.get('/users');
      assert.deepEqual(users.body.results.map((u: { email: string }) => u.email), ['ops@example.com']);
      const [made] = await readEvents(api, { type: 'LOGIN_LINKS_CREATED' });
      assert.ok(made);
      const lasts = Date.parse(String(made.sub_events[0]!.expires_at)) - Date.parse(made.created_at);
      // The link's expiry is written from the same instant as the event: exactly an hour, not days.
      assert.ok(Math.abs(lasts - 3_600_000) < 1_000, `the first link lasts ${lasts} ms`);
    } finally {
      await service.stop();
    }
  });

  it('prints no link when GATEHOUSE_BOOTSTRAP_TOKEN is set (an automated install)', async () => {
    const token = 'gth_first-start-bootstrap-token-0123456789';
    const env = { ...process.env, GATEHOUSE_LOG_LEVEL: 'info', GATEHOUSE_BOOTSTRAP_TOKEN: token };
    const service = await ServiceProcess.start(['--db', join(dir, 'automated.db'), '--port', '0'], { env });
    try {
      assert.doesNotMatch(service.stdout, /\/console\/sign-in\//);
      assert.doesNotMatch(service.stdout, new RegExp(token));
      const api = new ApiClient(service.url, token);
      assert.equal((await api.get('/users')).status, 200);
      assert.deepEqual(await readEvents(api, { type: 'LOGIN_LINKS_CREATED' }), [], 'no link was made');
    } finally {
      await service.stop();
    }
  });
});
