// A second writer on the same file (the CLI's `token create` while serving): the service answers
// 200 or 503 + Retry-After, never 500 — write transactions start immediate, and SQLITE_BUSY* is "retry".
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, createUser, unique } from '../helpers/fixtures.ts';
import { runGatehouse } from './helpers/gatehouse-process.ts';

const CLI_RUNS = 3;
const WORKERS = 6;

describe('busy database', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('a write burst racing the CLI sees only 200s and 503s with Retry-After', async () => {
    const owner = await createOwner(app.api);
    const member = await createUser(app.api);
    const statuses = new Map<number, number>();
    let stop = false;
    let retryAfterMissing = 0;
    const cliFailures: string[] = [];
    // Writes that read before they write (owner users, a user's email check), the shape a stale
    // snapshot breaks, alternating so both kinds race the CLI.
    const worker = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const res = i % 2 === 0
          ? await app.api.put(`/owners/${owner.owner_id}/users`, { user_ids: i % 4 === 0 ? [member.user_id] : [] }, { expectServerError: true })
          : await app.api.post('/users', { email: `${unique(`busy${n}`)}@example.com`, full_name: 'Busy' }, { expectServerError: true });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 503 && res.headers.get('retry-after') === null) retryAfterMissing += 1;
      }
    };
    const burst = Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n)));
    try {
      for (let run = 0; run < CLI_RUNS; run++) {
        const created = await runGatehouse(['token', 'create', '--db', app.dbFile, '--email', 'admin@gatehouse.local', '--label', unique('cli')]);
        cliFailures.push(...(created.code === 0 ? [] : [created.stderr.trim()]));
      }
    } finally {
      stop = true;
      await burst;
    }
    const seen = Object.fromEntries(statuses);
    assert.deepEqual(Object.keys(seen).filter((s) => s !== '200' && s !== '503'), [], `statuses seen: ${JSON.stringify(seen)}`);
    assert.ok((statuses.get(200) ?? 0) > 0, `statuses seen: ${JSON.stringify(seen)}`);
    assert.equal(retryAfterMissing, 0, 'every 503 says when to retry');
    assert.deepEqual(cliFailures, [], `the CLI failed; statuses seen: ${JSON.stringify(seen)}`);
    assert.equal(app.logs.filter((line) => line.level === 'error').length, 0, 'nothing reached the unhandled-error path');
  });
});
