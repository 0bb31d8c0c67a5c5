// Shared by the replication drills: a Litestream config, `gatehouse serve` under `litestream replicate
// -exec`, a load of writes, waiting for the replica, and what a restored copy must do.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { PATIENCE_MS } from '../../helpers/wait.ts';
import { after } from 'node:test';
import Database from 'better-sqlite3';
import { ApiClient } from '../../helpers/client.ts';
import { litestreamBinary, replicationStatus } from '../../../src/replication/litestream.ts';
import { ServiceProcess } from './gatehouse-process.ts';

export const TOKEN = 'gth_replication-test-admin-token-0123456789';
const found = (() => {
  try {
    return litestreamBinary({ setting: undefined });
  } catch {
    return undefined;
  }
})();
export const LITESTREAM = found ?? 'litestream';
export const NO_LITESTREAM = found !== undefined ? undefined : `no Litestream binary for ${process.platform}-${process.arch} (npm's @flydotio/litestream-linux-x64 ships linux-x64 only)`;

const dirs: string[] = [];
/** A temporary directory, removed when the test file ends. */
export function tempDir(name: string): string {
  if (dirs.length === 0) {
    after(() => {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    });
  }
  const dir = mkdtempSync(join(tmpdir(), `gatehouse-${name}-`));
  dirs.push(dir);
  return dir;
}

/** A Litestream config replicating `db` to one replica (YAML lines under `replicas:`), syncing every second as by default. */
export function writeConfig(dir: string, db: string, replica: string[]): string {
  const file = join(dir, 'litestream.yml');
  writeFileSync(file, ['dbs:', `  - path: ${db}`, '    replicas:', ...replica.map((line) => `      ${line}`), ''].join('\n'));
  return file;
}

/** `litestream replicate -config … -exec "gatehouse serve …"`: the way docs/replication.md runs Gatehouse. */
export function startReplicated(config: string, db: string): Promise<ServiceProcess> {
  const env = {
    ...process.env,
    GATEHOUSE_LOG_LEVEL: 'info',
    GATEHOUSE_BOOTSTRAP_TOKEN: TOKEN,
    GATEHOUSE_LITESTREAM_CONFIG: config,
    // The drills write as fast as one admin can, far past the per-user write limit meant for people.
    GATEHOUSE_WRITE_RATE_LIMIT: '0',
  };
  // Litestream splits -exec's string like a shell: every part is quoted.
  const quote = (part: string) => `'${part.replaceAll("'", "'\\''")}'`;
  return ServiceProcess.start(['--db', db, '--port', '0'], {
    env,
    wrap: (argv) => [LITESTREAM, 'replicate', '-config', config, '-exec', argv.map(quote).join(' ')],
  });
}

/** The pid of `gatehouse serve` itself (Litestream is its parent). */
export async function servicePid(service: ServiceProcess): Promise<number> {
  return Number((await service.waitFor((r) => r.msg === 'starting')).pid);
}

/** Clients creating users until `stop()`; `acked` maps user_id → the time its 200 arrived. */
export function writeLoad(api: ApiClient, clients: number, prefix: string) {
  const acked = new Map<string, number>();
  let stopping = false;
  let failures = 0;
  const run = async (n: number) => {
    for (let i = 0; !stopping; i++) {
      try {
        const res = await api.post('/users', { email: `${prefix}-${n}-${i}@example.com`, full_name: `Load ${n} ${i}` });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        acked.set(res.body.user_id, Date.now());
      } catch (err) {
        if (!stopping) throw err;
        failures += 1;
      }
    }
  };
  const done = Promise.all(Array.from({ length: clients }, (_, n) => run(n)));
  return {
    acked,
    done,
    /** Writes stop being sent; requests in flight may still be acknowledged or fail. */
    stop() {
      stopping = true;
    },
    failures: () => failures,
  };
}

/**
 * Polls the replica's status (in process: the CLI verb is tested once below) until it holds every
 * change made so far (Litestream syncs on its own clock). `lagMs` tolerates the 1 s resolution of
 * SFTP's file times; a file replica is exact.
 */
export async function waitUntilReplicated(config: string, db: string, lagMs = 0): Promise<void> {
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    const replicas = await replicationStatus({ bin: LITESTREAM, config, dbFile: db, maxLagMs: lagMs }).catch((err: Error) => [
      { healthy: false, summary: err.message },
    ]);
    if (replicas.every((r) => r.healthy)) return;
    if (Date.now() > deadline) assert.fail(`the replica did not catch up within ${PATIENCE_MS} ms: ${replicas.map((r) => r.summary).join('; ')}`);
    await delay(100);
  }
}

export function userIds(file: string): Set<string> {
  const db = new Database(file, { readonly: true });
  try {
    return new Set(db.prepare('SELECT id FROM users').pluck().all() as string[]);
  } finally {
    db.close();
  }
}

/**
 * A plain `serve` on the restored copy answers reads and takes writes. (`restore` itself ran the
 * checks of `check` and `audit verify`; the SFTP drill runs those verbs too.)
 */
export async function assertRestoredServes(file: string, someUser: string): Promise<void> {
  const service = await ServiceProcess.start(['--db', file, '--port', '0'], { env: { ...process.env, GATEHOUSE_LOG_LEVEL: 'info' } });
  try {
    const api = new ApiClient(service.url, TOKEN);
    assert.equal((await api.get(`/users/${someUser}`)).status, 200);
    const created = await api.post('/users', { email: 'after-restore@example.com', full_name: 'After Restore' });
    assert.equal(created.status, 200);
  } finally {
    assert.equal((await service.stop()).code, 0);
  }
}

/**
 * Stops Litestream and its Gatehouse with SIGTERM, as systemd does, and checks both stopped cleanly:
 * Gatehouse logged `stopped` without checkpointing, Litestream made its final sync. Litestream
 * 0.3.13 may then exit 1 with `error closing db … release read lock: context canceled` (its own
 * shutdown checkpoint runs on an already-canceled context, benbjohnson/litestream#601, after the
 * final sync; see docs/replication.md), or `error closing db … client write: stat ….wal.lz4.tmp: no
 * such file or directory` (its monitor and its closing sync write the same WAL segment through one
 * temporary file of the file replica, benbjohnson/litestream#503 and #229; seen once in a quiet CI run
 * after a large burst). Those exits are accepted, no other; the callers then restore the replica and
 * check no acknowledged write is missing, which is what the exit code cannot say.
 */
export async function stopReplicated(service: ServiceProcess): Promise<void> {
  const { code } = await service.stop('SIGTERM');
  const output = service.stdout.slice(-3000) + service.stderr;
  const stopped = service.logs.find((r) => r.msg === 'stopped');
  assert.equal(stopped?.checkpoint, 'left to litestream', `under Litestream, Gatehouse does not checkpoint at shutdown:\n${output}`);
  assert.match(service.stdout, /msg="litestream shut down"/, output);
  const knownQuirk =
    /level=ERROR msg="error closing db" .*release read lock: context canceled/.test(service.stdout) ||
    /level=ERROR msg="error closing db" .*client write: stat \S+\.wal\.lz4\.tmp: no such file or directory/.test(service.stdout);
  assert.ok(code === 0 || (code === 1 && knownQuirk), `litestream exited ${code}:\n${output}`);
}
