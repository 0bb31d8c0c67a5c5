// docs/getting-started.md's shell blocks, run with bash and curl against a real server as a reader
// would (test/helpers/doc-shell.ts): a block that fails, or a step that leaves the service otherwise
// than the guide says, fails here.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { missingTools, runDoc, type BlockRun } from '../helpers/doc-shell.ts';

describe('docs/getting-started.md runs', { skip: missingTools(['bash', 'curl', 'jq']) }, () => {
  let app: TestApp;
  let runs: BlockRun[];
  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app?.close();
  });

  it('every shell block succeeds, in order, against the service (the skipped ones say why)', async () => {
    runs = await runDoc(app, 'docs/getting-started.md', { GATEHOUSE_DB: app.dbFile }, 3);
  });

  it('leaves what the guide says: Alex holds the staging database for a day, by an approved request; the CLI printed a sign-in link', async () => {
    assert.ok(runs, 'the blocks ran');
    const alex = (await app.api.get('/user', { email: 'alex@example.com' })).body;
    const resources = (await app.api.get('/resources', { page_size: 100 })).body.results as { resource_id: string; name: string }[];
    const staging = resources.find((r) => r.name === 'Staging database');
    assert.ok(staging, 'step 2 made the resource');
    const holders = (await app.api.get(`/resources/${staging.resource_id}/users`)).body.results as { user_id: string; expiration_date: string | null }[];
    assert.deepEqual(holders.map((h) => h.user_id), [alex.user_id]);
    assert.equal(holders[0]!.expiration_date, new Date(app.clock.now().getTime() + 24 * 3_600_000).toISOString());
    const requests = (await app.api.get('/requests', { page_size: 100 })).body.requests as { status: string; requester_id: string }[];
    assert.deepEqual(requests.map((r) => [r.status, r.requester_id]), [['APPROVED', alex.user_id]]);
    const link = runs.find((r) => r.block.code.includes('login-link'))!.stdout!;
    assert.match(link.trim(), /^http:\/\/\S+\/console\/\S+$/);
    const statuses = runs.find((r) => r.block.code.includes('/approve'))!.stdout!;
    assert.match(statuses, /"APPROVED"/, 'the approval printed the status the comment promises');
  });
});
