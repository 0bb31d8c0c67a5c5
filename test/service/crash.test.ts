// Crash safety: SIGKILL in the middle of a burst of concurrent writes loses no acknowledged write
// and leaves nothing half-written; the restarted service and `gatehouse check` find a sound file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ApiClient } from '../helpers/client.ts';
import { cli } from '../helpers/cli.ts';
import { ServiceProcess } from './helpers/gatehouse-process.ts';

const TOKEN = 'gth_crash-test-admin-token-0123456789abc';
const CLIENTS = 8;
/** Acknowledged writes to wait for before the kill; the clients keep writing past it. */
const ACKED_BEFORE_KILL = 200;

describe('crash safety', () => {
  it('keeps every acknowledged write and no partial one across a SIGKILL mid-burst', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-crash-'));
    const db = join(dir, 'crash.db');
    const env = { ...process.env, GATEHOUSE_LOG_LEVEL: 'info', GATEHOUSE_BOOTSTRAP_TOKEN: TOKEN };
    const service = await ServiceProcess.start(['--db', db, '--port', '0'], { env });
    try {
      const api = new ApiClient(service.url, TOKEN);
      const acked = new Map<string, string>(); // user_id → email
      let failedAfterKill = 0;
      let killed = false;
      let reachedTarget!: () => void;
      const target = new Promise<void>((resolve) => (reachedTarget = resolve));

      const client = async (n: number) => {
        for (let i = 0; ; i++) {
          const email = `burst-${n}-${i}@example.com`;
          try {
            const res = await api.post('/users', { email, full_name: `Burst ${n} ${i}` });
            assert.equal(res.status, 200, JSON.stringify(res.body));
            acked.set(res.body.user_id, email);
            if (acked.size >= ACKED_BEFORE_KILL) reachedTarget();
          } catch (err) {
            if (!killed) throw err;
            failedAfterKill += 1;
            return;
          }
        }
      };
      const clients = Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
      await Promise.race([target, clients]); // a client failing early must fail the test, not hang it
      killed = true;
      service.child.kill('SIGKILL');
      await clients;
      assert.equal((await service.exited).signal, 'SIGKILL');
      assert.ok(failedAfterKill > 0, 'requests were still in flight when the process died');

      // `check` before anything else touches the file: it must be sound as the crash left it.
      const check = await cli(['check', '--db', db]);
      assert.equal(check.code, 0, check.stdout + check.stderr);
      assert.match(check.stdout, /^ok: /m);

      const restarted = await ServiceProcess.start(['--db', db, '--port', '0'], { env });
      try {
        for (const [userId, email] of acked) {
          const res = await new ApiClient(restarted.url, TOKEN).get(`/users/${userId}`);
          assert.equal(res.status, 200, `acknowledged user ${email} is missing after the crash`);
          assert.equal(res.body.email, email);
        }

        // Each user and its USERS_CREATED event were written in one transaction: either both or neither.
        const file = new Database(db, { readonly: true });
        try {
          const usersWithoutEvent = file.prepare(
            `SELECT count(*) FROM users u WHERE NOT EXISTS (
               SELECT 1 FROM event_objects o JOIN events e ON e.seq = o.event_seq
               WHERE o.object_id = u.id AND e.event_type = 'USERS_CREATED')`,
          ).pluck().get();
          const eventsWithoutUser = file.prepare(
            `SELECT count(*) FROM events e, json_each(e.sub_events) s
             WHERE e.event_type = 'USERS_CREATED'
               AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = json_extract(s.value, '$.user_id'))`,
          ).pluck().get();
          assert.equal(usersWithoutEvent, 0);
          assert.equal(eventsWithoutUser, 0);
          const stored = file.prepare("SELECT count(*) FROM users WHERE email LIKE 'burst-%'").pluck().get() as number;
          assert.ok(stored >= acked.size, `${stored} burst users stored, ${acked.size} acknowledged`);
        } finally {
          file.close();
        }
      } finally {
        assert.equal((await restarted.stop('SIGTERM')).code, 0);
      }
    } finally {
      await service.stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
