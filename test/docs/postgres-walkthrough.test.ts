// docs/connectors.md's PostgreSQL walkthrough, run with bash, curl and psql against a real server and a
// throw-away PostgreSQL cluster (test/helpers/doc-shell.ts; skipped with the reason where the cluster
// cannot start, as the other PostgreSQL tests are): the membership appears in pg_auth_members and expiry revokes it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { missingTools, runDoc, type BlockRun } from '../helpers/doc-shell.ts';
import { findPostgres, startPostgres, type PostgresServer } from '../helpers/postgres-server.ts';

const found = findPostgres();
const skip = 'reason' in found ? found.reason : missingTools(['bash', 'curl', 'jq', 'psql']);

describe('docs/connectors.md: the PostgreSQL walkthrough runs', { skip }, () => {
  let app: TestApp;
  let server: PostgresServer;
  let runs: BlockRun[];
  before(async () => {
    server = await startPostgres((found as { bin: string }).bin);
    app = await startTestApp();
  });
  after(async () => {
    await app?.close();
    server?.destroy();
  });

  it('every shell block succeeds, in order, with the clock moved where the guide waits', async () => {
    runs = await runDoc(app, 'docs/connectors.md', { PG: server.url }, 7);
  });

  it('printed what its comments say: the password masked, the roles as levels, the membership, then none', () => {
    assert.ok(runs, 'the blocks ran');
    const out = (needle: string) => runs.filter((r) => r.block.code.includes(needle)).map((r) => r.stdout!.trim().split('\n'));
    const [connector] = out('/connector | jq -r .connection_url');
    assert.ok(!connector!.join('\n').includes('not-checked-under-trust'), 'the password is masked');
    assert.equal(connector!.at(-1), 'true', 'the connector test passed');
    assert.equal(out('access_levels[]')[0]!.at(-1), '["","orders_read","orders_write"]');
    const [granted, expired] = out('pg_auth_members');
    assert.deepEqual(granted, ['["orders_read","SUCCESS"]', 'orders_read']);
    assert.deepEqual(expired, ['0', '0']);
  });
});
