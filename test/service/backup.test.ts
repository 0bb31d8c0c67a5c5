// `gatehouse backup --to FILE` against a served database while writes keep coming, and its refusals.
// The copy under writes runs as a separate process, as an operator runs it beside the service (in
// process, the backup's one synchronous step could never overlap a write); the rest runs in process.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app.ts';
import { cli } from '../helpers/cli.ts';
import { runGatehouse } from './helpers/gatehouse-process.ts';

const WRITERS = 4;

describe('backup', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('copies a database that is being written to into a consistent, checked, usable file', async () => {
    const target = join(app.dir, 'copy.db');
    let running = true;
    let written = 0;
    const writer = async (n: number) => {
      for (let i = 0; running; i++) {
        const res = await app.api.post('/users', { email: `writer-${n}-${i}@example.com`, full_name: `Writer ${n} ${i}` });
        assert.equal(res.status, 200);
        written += 1;
      }
    };
    const writers = Promise.all(Array.from({ length: WRITERS }, (_, n) => writer(n)));
    // Let the writers get going, so the backup starts in the middle of them.
    while (written < 50) await new Promise((resolve) => setImmediate(resolve));
    const writtenBefore = written;
    const backup = await runGatehouse(['backup', '--db', app.dbFile, '--to', target]);
    const writtenDuring = written - writtenBefore;
    running = false;
    await writers;

    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /^backed up .* to .*copy\.db: \d+ pages, \d+ bytes/m);
    assert.ok(writtenDuring > 0, 'writes went on while the backup ran');
    assert.ok(!readdirSync(app.dir).some((f) => f.includes('.partial-')), 'no partial file is left behind');

    const check = await cli(['check', '--db', target]);
    assert.equal(check.code, 0, check.stdout);

    const copy = new Database(target, { readonly: true });
    try {
      assert.equal(copy.pragma('journal_mode', { simple: true }), 'delete', 'the copy is one self-contained file');
      const copied = copy.prepare("SELECT count(*) FROM users WHERE email LIKE 'writer-%'").pluck().get() as number;
      assert.ok(copied >= writtenBefore && copied <= written, `${copied} users copied; ${writtenBefore} before, ${written} after`);
      // A snapshot, not a smear: every copied user has its audit event, and no event lacks its user.
      const unmatched = copy.prepare(
        `SELECT (SELECT count(*) FROM users u WHERE NOT EXISTS (SELECT 1 FROM event_objects o WHERE o.object_id = u.id))
              + (SELECT count(*) FROM events e, json_each(e.sub_events) s WHERE e.event_type = 'USERS_CREATED'
                   AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = json_extract(s.value, '$.user_id')))`,
      ).pluck().get();
      assert.equal(unmatched, 0);
    } finally {
      copy.close();
    }

    // Restoring is starting on the copy: the admin token and the data come with it.
    const restored = await startTestApp({ dbFile: join(app.dir, 'copy.db'), bootstrapToken: ADMIN_TOKEN });
    try {
      const users = await restored.api.get('/users', { page_size: 1 });
      assert.equal(users.status, 200);
    } finally {
      await restored.close({ keepFiles: true });
    }
  });

  it('replaces an existing target file only with a complete copy', async () => {
    const target = join(app.dir, 'replace.db');
    writeFileSync(target, 'not a database');
    const backup = await cli(['backup', '--db', app.dbFile, '--to', target]);
    assert.equal(backup.code, 0, backup.stderr);
    assert.equal((await cli(['check', '--db', target])).code, 0);
  });

  it('refuses a missing directory, the database itself, and a missing --to, leaving nothing behind', async () => {
    const missingDir = await cli(['backup', '--db', app.dbFile, '--to', join(app.dir, 'no-such-dir', 'x.db')]);
    assert.equal(missingDir.code, 1);
    assert.match(missingDir.stderr, /does not exist/);
    assert.ok(!existsSync(join(app.dir, 'no-such-dir')));

    const itself = await cli(['backup', '--db', app.dbFile, '--to', app.dbFile]);
    assert.equal(itself.code, 1);
    assert.match(itself.stderr, /is the database itself/);

    const noTarget = await cli(['backup', '--db', app.dbFile]);
    assert.equal(noTarget.code, 2);
    assert.match(noTarget.stderr, /--to FILE is required/);

    const noDb = await cli(['backup', '--db', join(app.dir, 'absent.db'), '--to', join(app.dir, 'y.db')]);
    assert.equal(noDb.code, 1);
    assert.match(noDb.stderr, /there is no database at/);
    assert.ok(!existsSync(join(app.dir, 'absent.db')), 'backup must not create the database it was asked to copy');
  });
});
