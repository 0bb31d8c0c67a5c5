// The replication drill behind the figures in docs/replication.md: ROUNDS times, Gatehouse under
// Litestream (file replica, Litestream's default 1 s sync) takes CLIENTS concurrent writers for
// LOAD_MS, both processes are killed with SIGKILL, and the replica is restored elsewhere: the
// acknowledged writes it lacks are the loss window. Then a standby takes over a database grown to
// SEED_USERS rows: `gatehouse restore` + `gatehouse serve` until the first answered GET.
// Run (Node 24, as npm test does): npm exec -- node --import tsx --import ./src/dev/register-sql.mjs test/drills/replication.ts [ROUNDS] [SEED_USERS]
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { ApiClient } from '../helpers/client.ts';
import { runGatehouse, ServiceProcess } from '../service/helpers/gatehouse-process.ts';
import { servicePid, startReplicated, stopReplicated, TOKEN, userIds, waitUntilReplicated, writeConfig, writeLoad } from '../service/helpers/litestream.ts';

const ROUNDS = Number(process.argv[2] ?? 5);
const SEED_USERS = Number(process.argv[3] ?? 100_000);
const CLIENTS = 8;
const LOAD_MS = 5000;

const root = mkdtempSync(join(tmpdir(), 'gatehouse-drill-'));
try {
  const losses: { acked: number; missing: number; windowMs: number }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const dir = mkdtempSync(join(root, `round-${round}-`));
    const db = join(dir, 'primary.db');
    const replica = join(dir, 'replica');
    const config = writeConfig(dir, db, ['- type: file', `  path: ${replica}`]);
    const service = await startReplicated(config, db);
    const pid = await servicePid(service);
    const load = writeLoad(new ApiClient(service.url, TOKEN), CLIENTS, `r${round}`);
    await delay(LOAD_MS);
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    service.child.kill('SIGKILL');
    load.stop();
    await load.done;
    const restored = join(dir, 'restored.db');
    const restore = await runGatehouse(['restore', '--from', `file://${replica}`, '--to', restored]);
    assert.equal(restore.code, 0, restore.stderr);
    const present = userIds(restored);
    const missing = [...load.acked].filter(([id]) => !present.has(id));
    const windowMs = missing.length ? killedAt - Math.min(...missing.map(([, at]) => at)) : 0;
    losses.push({ acked: load.acked.size, missing: missing.length, windowMs });
    console.log(`round ${round}: ${load.acked.size} acknowledged writes in ${LOAD_MS} ms, ${missing.length} missing after SIGKILL (acknowledged in the last ${windowMs} ms)`);
  }
  const worst = Math.max(...losses.map((l) => l.windowMs));
  const rate = losses.reduce((n, l) => n + l.acked, 0) / (ROUNDS * LOAD_MS / 1000);
  if (ROUNDS > 0) console.log(`loss window: worst ${worst} ms; missing writes per round ${losses.map((l) => l.missing).join(', ')} at ~${rate.toFixed(0)} writes/s`);

  // Take-over: a primary with SEED_USERS users (seeded in SQL, then replicated), killed; the standby restores and serves.
  const dir = mkdtempSync(join(root, 'takeover-'));
  const db = join(dir, 'primary.db');
  const replica = join(dir, 'replica');
  const config = writeConfig(dir, db, ['- type: file', `  path: ${replica}`]);
  // A first start makes the database and its admin token; the rows are added while it is stopped.
  const first = await startReplicated(config, db);
  await stopReplicated(first);
  const seed = new Database(db);
  seed.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO users (id, email, full_name, first_name, last_name, created_at)
     SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
            'seed-' || i || '@example.com', 'Seed ' || i, 'Seed', 'User ' || i, '2026-01-01T00:00:00.000Z' FROM n`,
  ).run(SEED_USERS);
  seed.close();
  const service = await startReplicated(config, db);
  const pid = await servicePid(service);
  const api = new ApiClient(service.url, TOKEN);
  const last = await api.post('/users', { email: 'last-before-failover@example.com', full_name: 'Last' });
  assert.equal(last.status, 200);
  await waitUntilReplicated(config, db);
  process.kill(pid, 'SIGKILL');
  service.child.kill('SIGKILL');
  await service.exited;

  const standby = join(mkdtempSync(join(root, 'standby-')), 'gatehouse.db');
  const started = Date.now();
  const restore = await runGatehouse(['restore', '--from', `file://${replica}`, '--to', standby]);
  assert.equal(restore.code, 0, restore.stderr);
  const restoredAt = Date.now();
  const taken = await ServiceProcess.start(['--db', standby, '--port', '0'], { env: { ...process.env, GATEHOUSE_LOG_LEVEL: 'info' } });
  const read = await new ApiClient(taken.url, TOKEN).get(`/users/${last.body.user_id}`);
  const answeredAt = Date.now();
  assert.equal(read.status, 200);
  await taken.stop();
  console.log(
    `take-over: ${SEED_USERS + 2} users, ${statSync(standby).size} bytes: restore ${restoredAt - started} ms ` +
      `(${restore.stdout.trim().replace(/.*, (\d+ ms)$/, 'of which Litestream and the checks $1')}), ` +
      `serve to the first answered GET ${answeredAt - restoredAt} ms, total ${answeredAt - started} ms`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
