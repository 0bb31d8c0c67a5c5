// The database file across restarts and upgrades: nothing lost, nothing re-created, newer files refused.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { migrate, schemaVersion, SchemaTooNewError } from '../../src/db/migrate.ts';
import { MIGRATIONS } from '../../src/db/migrations.ts';
import { openDatabase } from '../../src/db/open.ts';
import { ADMIN_TOKEN, startTestApp } from '../helpers/app.ts';
import { createToken, createUser } from '../helpers/fixtures.ts';

describe('persistence', () => {
  it('a restart on the same file keeps users, tokens, remote users, events and cursors', async () => {
    const first = await startTestApp();
    const user = await createUser(first.api);
    await first.api.post('/users/remote_users', { user_id: user.user_id, third_party_provider: 'SLACK', remote_id: 'U1' });
    const { secret } = await createToken(first.api, { user_id: user.user_id });
    const snapshot = {
      users: (await first.api.get('/users')).body,
      tokens: (await first.api.get('/tokens')).body,
      remote: (await first.api.get('/users/remote_users')).body,
      events: (await first.api.get('/events')).body,
    };
    const cursor = (await first.api.get('/events', { page_size: 1 })).body.next;
    await first.close({ keepFiles: true });

    // A different bootstrap token is ignored: the database already has users.
    const second = await startTestApp({ dbFile: first.dbFile, bootstrapToken: 'gth_a-different-bootstrap-token-000000000' });
    try {
      const admin = second.api.as(ADMIN_TOKEN);
      assert.equal((await second.api.get('/users')).status, 401, 'the new bootstrap token must not have been created');
      assert.deepEqual((await admin.get('/users')).body, snapshot.users);
      assert.deepEqual((await admin.get('/users/remote_users')).body, snapshot.remote);
      assert.deepEqual((await admin.get('/events')).body, snapshot.events);
      // Tokens list last_used_at, which the admin's own reads just moved; the set of tokens is the same.
      const ids = (body: { results: { token_id: string }[] }) => body.results.map((t) => t.token_id);
      assert.deepEqual(ids((await admin.get('/tokens')).body), ids(snapshot.tokens));
      assert.equal((await admin.as(secret).get('/users')).status, 200, 'a token issued before the restart still works');
      assert.equal((await admin.get('/events', { page_size: 1, cursor })).status, 200, 'a cursor issued before the restart still works');
    } finally {
      await second.close();
    }
  });

  it('upgrades an older file in place, keeping its rows', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-migrate-'));
    try {
      const file = join(dir, 'old.db');
      const db = openDatabase(file);
      migrate(db, new Date(), MIGRATIONS.slice(0, 1));
      db.prepare("INSERT INTO users (id, email, full_name, first_name, last_name, created_at) VALUES ('u1', 'old@example.com', 'Old Timer', 'Old', 'Timer', '2020-01-01T00:00:00.000Z')").run();
      assert.equal(schemaVersion(db), 1);

      const applied = migrate(db, new Date());
      assert.deepEqual(applied.map((m) => m.version), MIGRATIONS.slice(1).map((m) => m.version));
      assert.equal(schemaVersion(db), MIGRATIONS.at(-1)!.version);
      assert.equal(db.prepare("SELECT email FROM users WHERE id = 'u1'").pluck().get(), 'old@example.com');
      assert.deepEqual(migrate(db, new Date()), [], 'a second run has nothing to do');
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file from a newer Gatehouse, and changes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-migrate-'));
    try {
      const db = openDatabase(join(dir, 'new.db'));
      migrate(db, new Date());
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '0999_future', '2030-01-01T00:00:00.000Z')").run();
      assert.throws(() => migrate(db, new Date()), (err: unknown) => err instanceof SchemaTooNewError && /999/.test(err.message));
      assert.equal(schemaVersion(db), 999);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a failing migration leaves the file as it was', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-migrate-'));
    try {
      const db = openDatabase(join(dir, 'x.db'));
      migrate(db, new Date(), MIGRATIONS.slice(0, 1));
      const broken = [...MIGRATIONS.slice(0, 1), { version: 2, name: '0002_broken', sql: 'CREATE TABLE half_done (x INTEGER); SELECT * FROM no_such_table;' }];
      assert.throws(() => migrate(db, new Date(), broken));
      assert.equal(schemaVersion(db), 1);
      assert.equal(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half_done'").pluck().get(), 0);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
