// The operator CLI as a user runs it: help, usage errors and exit codes, migrate, token create/revoke, user set-role, check.
// In process through runCli (test/helpers/cli.ts); one smoke test runs the real entry, src/main.ts.
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SETTINGS } from '../../src/config.ts';
import { ADMIN_TOKEN, startTestApp } from '../helpers/app.ts';
import { cli } from '../helpers/cli.ts';
import { NO_SUCH_ID } from '../helpers/fixtures.ts';
import { FROM_SOURCES, runGatehouse } from './helpers/gatehouse-process.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every source file `file` loads before it runs: its static imports, followed (`import type` and `import()` load nothing then). */
function staticImports(file: string, seen = new Set<string>()): Set<string> {
  seen.add(file);
  for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/^import (?!type )[^;]*?from '([^']+)';/gms)) {
    assert.ok(specifier!.startsWith('.') || specifier!.startsWith('node:'), `${relative(SRC, file)} imports ${specifier} up front`);
    const target = join(dirname(file), specifier!);
    if (specifier!.startsWith('.') && !seen.has(target)) staticImports(target, seen);
  }
  return seen;
}

const VERBS = ['serve', 'token create', 'token revoke', 'user set-role', 'migrate', 'backup', 'check', 'version'];

describe('cli', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lists every verb and every environment variable in `help`, and explains each verb with --help', async () => {
    const help = await cli(['help']);
    assert.equal(help.code, 0);
    for (const verb of VERBS) assert.match(help.stdout, new RegExp(`^  ${verb} `, 'm'), verb);
    for (const { env } of Object.values(SETTINGS)) assert.match(help.stdout, new RegExp(`^  ${env}\\b`, 'm'), env);
    const runs = await Promise.all([
      ...VERBS.map((verb) => cli([...verb.split(' '), '--help'])),
      cli(['token', '--help']),
      cli(['help', 'backup']),
    ]);
    VERBS.forEach((verb, i) => {
      assert.equal(runs[i]!.code, 0, verb);
      assert.match(runs[i]!.stdout, new RegExp(`^usage: gatehouse ${verb}`), verb);
    });
    assert.match(runs[VERBS.length]!.stdout, /token create[\s\S]*token revoke/);
    // Verbs that act on an existing database never create one, and their help says so.
    for (const verb of ['token create', 'token revoke', 'user set-role', 'backup', 'check']) {
      const { stdout } = runs[VERBS.indexOf(verb)]!;
      assert.doesNotMatch(stdout, /created on first start/, verb);
      assert.match(stdout, /--db FILE +the Gatehouse database file; it must exist/, verb);
    }
    assert.match(runs[VERBS.indexOf('serve')]!.stdout, /created on first start/);
    assert.match(runs[VERBS.length + 1]!.stdout, /--to FILE/);
  });

  it('refuses a `serve --admin-email` that is not an email, naming the flag (issue 41.2; test/service/first-start.test.ts starts one that is)', async () => {
    const refused = await cli(['serve', '--db', join(dir, 'admin-email.db'), '--port', '0', '--admin-email', 'not an email']);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /--admin-email must be an email address/);
  });

  it('runs as the real entry, src/main.ts: its exit status and streams are the ones runCli gave', async () => {
    const [help, mistake] = await Promise.all([runGatehouse(['help'], { command: FROM_SOURCES }), runGatehouse(['token'], { command: FROM_SOURCES })]);
    assert.equal(help.code, 0, help.stderr);
    assert.equal(help.stdout, (await cli(['help'])).stdout);
    assert.equal(mistake.code, 2);
    assert.match(mistake.stderr, /^gatehouse: token: which one\?/);
    assert.equal(mistake.stdout, '');
  });

  it('loads only the settings for `help`: nothing main.ts imports up front reaches the app, the database or SQLite', () => {
    // What `help` costs beyond Node's start is what main.ts imports statically (issue 22: under 1 s).
    const reached = staticImports(join(SRC, 'main.ts'));
    // lib/durations.ts is the one-year cap the settings' bounds share: pure constants and arithmetic.
    assert.deepEqual([...reached].map((file) => relative(SRC, file)).sort(), ['cli.ts', 'config.ts', 'http/client-address.ts', 'lib/durations.ts', 'main.ts']);
  });

  it('answers a --db that cannot be a database, or an export that is a directory, with one line and status 1, never a stack', async () => {
    const notDb = join(dir, 'not-a-database');
    const fd = openSync(notDb, 'w');
    writeSync(fd, 'hello, not SQLite at all, but long enough to have a header of sorts');
    closeSync(fd);
    const runs = await Promise.all([
      cli(['migrate', '--db', dir]),
      cli(['audit', 'verify', '--db', notDb]),
      cli(['audit', 'verify', '--file', dir]),
    ]);
    const expected = [/unable to open database file \(SQLITE_CANTOPEN\)/, /file is not a database \(SQLITE_NOTADB\)/, /EISDIR/];
    runs.forEach((run, i) => {
      assert.equal(run.code, 1, run.stderr);
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
      assert.match(run.stderr, /^gatehouse: /);
      assert.match(run.stderr, expected[i]!);
    });
  });

  it('acts on users and tokens only in an existing Gatehouse database: a wrong --db is refused and left as it was', async () => {
    const missing = join(dir, 'nowhere', 'gatehouse.db');
    const other = join(dir, 'other.db');
    const foreign = new Database(other);
    foreign.exec('CREATE TABLE notes (body TEXT)');
    foreign.close();
    const runs = await Promise.all([
      cli(['token', 'create', '--email', 'a@example.com', '--label', 'x', '--db', missing]),
      cli(['user', 'set-role', 'a@example.com', 'ADMIN', '--db', other]),
      cli(['token', 'revoke', '--label', 'x', '--db', other]),
    ]);
    assert.match(runs[0]!.stderr, /there is no database at .*nowhere/);
    assert.match(runs[1]!.stderr, /is not a Gatehouse database/);
    assert.match(runs[2]!.stderr, /is not a Gatehouse database/);
    for (const run of runs) assert.equal(run.code, 1, run.stderr);
    assert.throws(() => statSync(join(dir, 'nowhere')), 'no directory was made');
    const after = new Database(other, { readonly: true });
    assert.deepEqual(after.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all(), [{ name: 'notes' }]);
    assert.equal(after.pragma('journal_mode', { simple: true }), 'delete');
    after.close();
  });

  it('fails usage mistakes with status 2 and a message naming the mistake', async () => {
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /unknown command "frobnicate"/],
      [['help', 'nonsense'], /gatehouse help: there is no command "nonsense"/],
      [['token', 'create', '--email', 'a@example.com', '--label', '  '], /--label must not be empty/],
      [['token', 'create', '--email', 'a@example.com', '--label', 'two\nlines'], /--label must not contain control characters/],
      [['token', 'create', '--email', 'a@example.com', '--label', 'x'.repeat(101)], /--label must be at most 100 characters/],
      [['token'], /token: which one\?/],
      [['token', 'frobnicate'], /unknown command "token frobnicate"/],
      [['serve', '--bogus'], /Unknown option '--bogus'/],
      [['check', 'extra'], /unexpected argument "extra"/],
      [['backup'], /--to FILE is required/],
      [['token', 'create', '--email', 'a@example.com'], /--email and --label are required/],
      [['token', 'revoke'], /exactly one of --id and --label/],
      [['token', 'revoke', '--id', 'x', '--label', 'y'], /exactly one of --id and --label/],
      [['user', 'set-role'], /EMAIL\|USER_ID is required/],
      [['user', 'set-role', 'a@example.com'], /ADMIN\|MEMBER is required/],
      [['user', 'set-role', 'a@example.com', 'OWNER'], /the role must be ADMIN or MEMBER, not "OWNER"/],
      [['user', 'set-role', 'a@example.com', 'ADMIN', 'extra'], /unexpected argument "extra"/],
    ];
    // A mistake is refused before any database is opened; were one opened, it would be in the temp dir.
    const env = { GATEHOUSE_DB: join(dir, 'usage.db') };
    const runs = await Promise.all(cases.map(([args]) => cli(args, env)));
    cases.forEach(([args, message], i) => {
      assert.equal(runs[i]!.code, 2, args.join(' '));
      assert.match(runs[i]!.stderr, message, args.join(' '));
    });
  });

  it('fails bad settings and missing files with status 1', async () => {
    const [badPort, badEnv, noDb, emptyDb] = await Promise.all([
      cli(['serve', '--port', 'eighty', '--db', join(dir, 'never.db')]),
      cli(['serve', '--db', join(dir, 'never.db')], { GATEHOUSE_REQUEST_TIMEOUT_MS: 'x' }),
      cli(['check', '--db', join(dir, 'absent.db')]),
      cli(['check', '--db', '']),
    ]);
    assert.equal(emptyDb.code, 1);
    assert.match(emptyDb.stderr, /--db must not be empty \(leave it out for the default/, 'an empty --db never means the default');
    assert.equal(badPort.code, 1);
    assert.match(badPort.stderr, /port must be a whole number/);
    assert.equal(badEnv.code, 1);
    assert.match(badEnv.stderr, /GATEHOUSE_REQUEST_TIMEOUT_MS/);
    assert.equal(noDb.code, 1);
    assert.match(noDb.stderr, /there is no database at/);
  });

  it('migrates once, then has nothing to do; version names the schema it knows', async () => {
    const db = join(dir, 'migrate', 'g.db');
    const first = await cli(['migrate', '--db', db]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^applied 0001_foundation, /);
    const second = await cli(['migrate'], { GATEHOUSE_DB: db });
    assert.equal(second.stdout, 'already up to date\n', 'GATEHOUSE_DB is honoured');
    const version = await cli(['version']);
    assert.match(version.stdout, /^gatehouse \d+\.\d+\.\d+ \(schema \d+, node v\d+/);
  });

  it('creates and revokes tokens by id and by label; a revoked token is refused at once', async () => {
    const app = await startTestApp();
    try {
      const db = app.dbFile;
      const created = await cli(['token', 'create', '--db', db, '--email', 'admin@gatehouse.local', '--label', 'ops', '--read-only']);
      assert.equal(created.code, 0, created.stderr);
      const secret = created.stdout.trim();
      assert.equal((await app.api.as(secret).get('/users')).status, 200);
      assert.equal((await app.api.as(secret).post('/users', { email: 'ro@example.com', full_name: 'Read Only' })).status, 403);

      const unknownUser = await cli(['token', 'create', '--db', db, '--email', 'nobody@example.com', '--label', 'x']);
      assert.equal(unknownUser.code, 1);
      assert.match(unknownUser.stderr, /no user has the email/);

      const byLabel = await cli(['token', 'revoke', '--db', db, '--label', 'ops']);
      assert.equal(byLabel.code, 0, byLabel.stderr);
      assert.match(byLabel.stdout, /^revoked token [0-9a-f-]{36} \(ops\)$/m);
      assert.equal((await app.api.as(secret).get('/users')).status, 401);

      // Two tokens with one label: revoking by label is refused and lists the ids to choose from.
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await app.api.post('/tokens', { token_label: 'twin' });
        ids.push(res.body.token_id);
      }
      const ambiguous = await cli(['token', 'revoke', '--db', db, '--label', 'twin']);
      assert.equal(ambiguous.code, 1);
      for (const id of ids) assert.match(ambiguous.stderr, new RegExp(id));
      const byId = await cli(['token', 'revoke', '--db', db, '--id', ids[0]!.toUpperCase()]);
      assert.equal(byId.code, 0, byId.stderr);
      const remaining = await app.api.get('/tokens', { token_ids: ids });
      assert.deepEqual(remaining.body.results.map((t: { token_id: string }) => t.token_id), [ids[1]]);

      const events = await app.api.get('/events', { object_filter: ids[0] });
      assert.ok(events.body.results.some((e: { event_type: string }) => e.event_type === 'API_TOKENS_DELETED'), 'revocation is audited');

      const missing = await cli(['token', 'revoke', '--db', db, '--id', NO_SUCH_ID]);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /no token has the id/);
      assert.equal((await app.api.as(ADMIN_TOKEN).get('/users')).status, 200, 'the admin token was never touched');
    } finally {
      await app.close();
    }
  });

  it('sets a user\'s role by email or id, records it, and never demotes the last admin', async () => {
    const app = await startTestApp();
    try {
      const db = app.dbFile;
      const user = (await app.api.post('/users', { email: 'ops-lead@example.com', full_name: 'Ops Lead' })).body;
      assert.equal(user.organization_role, 'MEMBER');
      const member = app.api.as((await app.api.post('/tokens', { token_label: 'lead', user_id: user.user_id })).body.token);
      assert.equal((await member.post('/owners', { name: 'ops', user_ids: [] })).status, 403, 'a member may not create owners');

      const promoted = await cli(['user', 'set-role', '--db', db, 'ops-lead@example.com', 'ADMIN']);
      assert.equal(promoted.code, 0, promoted.stderr);
      assert.equal(promoted.stdout, `ops-lead@example.com (${user.user_id}) is now ADMIN, was MEMBER\n`);
      assert.equal((await app.api.get(`/users/${user.user_id}`)).body.organization_role, 'ADMIN');
      assert.equal((await member.post('/owners', { name: 'ops', user_ids: [] })).status, 200, 'the same token now acts as an admin');
      const [event] = (await app.api.get('/events', { event_type_filter: 'USERS_ROLE_UPDATED', object_filter: user.user_id })).body.results;
      assert.equal(event.actor_user_id, user.user_id);
      assert.equal(event.api_token_name, undefined, 'no token: the CLI did it');
      assert.deepEqual(event.sub_events, [{ sub_event_type: 'USERS_ROLE_UPDATED', user_id: user.user_id, user_name: 'Ops Lead',
        previous_organization_role: 'MEMBER', organization_role: 'ADMIN' }]);

      const again = await cli(['user', 'set-role', '--db', db, user.user_id.toUpperCase(), 'ADMIN']);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(again.stdout, 'ops-lead@example.com is already ADMIN\n');

      // Two admins: each may be demoted in turn until one is left.
      assert.equal((await cli(['user', 'set-role', '--db', db, 'ops-lead@example.com', 'MEMBER'])).code, 0);
      const last = await cli(['user', 'set-role', '--db', db, 'admin@gatehouse.local', 'MEMBER']);
      assert.equal(last.code, 1);
      assert.match(last.stderr, /last admin/);
      assert.equal((await app.api.get(`/users/${app.adminUserId}`)).body.organization_role, 'ADMIN');
      const roleEvents = (await app.api.get('/events', { event_type_filter: 'USERS_ROLE_UPDATED' })).body.results;
      assert.equal(roleEvents.length, 2, 'the refused demotion and the no-op record nothing');

      const nobody = await cli(['user', 'set-role', '--db', db, 'nobody@example.com', 'ADMIN']);
      assert.equal(nobody.code, 1);
      assert.match(nobody.stderr, /no user has the email nobody@example.com/);
    } finally {
      await app.close();
    }
  });

  describe('check', () => {
    it('passes a sound database', async () => {
      const db = join(dir, 'sound.db');
      assert.equal((await cli(['migrate', '--db', db])).code, 0);
      // A verb checks only the settings it reads: a bad port is serve's business, not check's.
      const res = await cli(['check', '--db', db], { GATEHOUSE_PORT: 'x', GATEHOUSE_LOG_LEVEL: 'loud' });
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /^ok: .*sound\.db \(schema version \d+\)$/m);
    });

    it('fails a broken foreign key, naming the table', async () => {
      const db = join(dir, 'fk.db');
      assert.equal((await cli(['migrate', '--db', db])).code, 0);
      const file = new Database(db);
      file.pragma('foreign_keys = OFF');
      file.prepare(
        `INSERT INTO api_tokens (id, lookup, secret_hash, preview, label, access_level, user_id, creator_user_id, created_at)
         VALUES ('t1', 'x', x'00', 'x', 'orphan', 'READ_ONLY', 'no-such-user', 'no-such-user', '2026-01-01T00:00:00.000Z')`,
      ).run();
      file.close();
      const res = await cli(['check', '--db', db]);
      assert.equal(res.code, 1);
      assert.match(res.stdout, /foreign key: api_tokens row \d+ refers to a missing users row/);
      assert.match(res.stdout, /^FAILED: /m);
    });

    it('fails a file whose pages were damaged', async () => {
      const db = join(dir, 'damaged.db');
      assert.equal((await cli(['migrate', '--db', db])).code, 0);
      const file = new Database(db);
      const insert = file.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
      file.transaction(() => {
        for (let i = 0; i < 2000; i++) insert.run(`key-${i}`, 'v'.repeat(100));
      })();
      file.pragma('wal_checkpoint(TRUNCATE)');
      file.close();
      // Scribble over the second half of the file (table and index pages), keeping the header.
      const size = statSync(db).size;
      const fd = openSync(db, 'r+');
      writeSync(fd, Buffer.alloc(size / 2, 0x5a), 0, size / 2, size / 2);
      closeSync(fd);
      const res = await cli(['check', '--db', db]);
      assert.equal(res.code, 1, res.stdout + res.stderr);
      assert.match(res.stdout, /FAILED/);
    });

    it('fails a file that is not a Gatehouse database', async () => {
      const db = join(dir, 'other.db');
      const file = new Database(db);
      file.exec('CREATE TABLE t (x)');
      file.close();
      const res = await cli(['check', '--db', db]);
      assert.equal(res.code, 1);
      assert.match(res.stdout, /not a Gatehouse database/);
    });
  });
});
