// Replication drills through a real Litestream (v0.3.13, from npm) around a real `gatehouse serve`
// (docs/replication.md): the primary killed with SIGKILL under a load of writes, then `gatehouse
// restore` elsewhere — what the replica lacks is the measured loss window; a clean stop loses
// nothing; `check` and `replication status` see a replica fall behind. Restored copies serve.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ApiClient } from '../helpers/client.ts';
import { litestreamBinary, parseGoDuration, ReplicationError, replicationStatus, restoreReplica } from '../../src/replication/litestream.ts';
import { cli } from '../helpers/cli.ts';
import { ROOT, ServiceProcess } from './helpers/gatehouse-process.ts';
import {
  assertRestoredServes, LITESTREAM, NO_LITESTREAM, servicePid, startReplicated, stopReplicated, tempDir, TOKEN, userIds, waitUntilReplicated, writeConfig, writeLoad,
} from './helpers/litestream.ts';

describe('replication through Litestream', { skip: NO_LITESTREAM }, () => {
  it('after SIGKILL under load, the restored replica lacks only the last moments of acknowledged writes', async (t) => {
    const dir = tempDir('replicate');
    const db = join(dir, 'primary.db');
    const config = writeConfig(dir, db, ['- type: file', `  path: ${join(dir, 'replica')}`]);
    const service = await startReplicated(config, db);
    const gatehousePid = await servicePid(service);
    const api = new ApiClient(service.url, TOKEN);

    // A barrier: writes, then a pause until Litestream says the replica is up to date — those must all survive.
    const first = writeLoad(api, 4, 'before');
    await delay(1500);
    first.stop();
    await first.done;
    await waitUntilReplicated(config, db);
    const barrier = new Set(first.acked.keys());
    assert.ok(barrier.size > 0);

    const load = writeLoad(api, 4, 'load');
    await delay(2500);
    const killedAt = Date.now();
    process.kill(gatehousePid, 'SIGKILL'); // the machine dies: both processes at once
    service.child.kill('SIGKILL');
    load.stop();
    await load.done;
    await service.exited;

    // Take-over, as docs/replication.md's standby does it: restore elsewhere, then serve.
    const standby = tempDir('standby');
    const restoredFile = join(standby, 'gatehouse.db');
    const restoreStarted = Date.now();
    const restore = await cli(['restore', '--from', `file://${join(dir, 'replica')}`, '--to', restoredFile], process.env);
    assert.equal(restore.code, 0, restore.stdout + restore.stderr);
    assert.match(restore.stdout, /^restored .* audit events intact/m);
    const restoredMs = Date.now() - restoreStarted;

    const restored = userIds(restoredFile);
    for (const id of barrier) assert.ok(restored.has(id), `user ${id} was replicated before the kill but is missing`);
    const acked = [...first.acked, ...load.acked];
    const missing = acked.filter(([id]) => !restored.has(id));
    // Nothing the restored copy holds was made up: every load user in it was sent by a client.
    const ours = new Set(acked.map(([id]) => id));
    const db0 = new Database(restoredFile, { readonly: true });
    const unacked = (db0.prepare("SELECT id FROM users WHERE email LIKE 'load-%' OR email LIKE 'before-%'").pluck().all() as string[]).filter((id) => !ours.has(id));
    db0.close();
    assert.ok(unacked.length <= 4, `at most one write in flight per client may have committed unacknowledged: ${unacked.length}`);
    const oldestMissing = Math.min(...missing.map(([, at]) => at));
    t.diagnostic(
      `RPO: ${missing.length} of ${acked.length} acknowledged writes missing after SIGKILL` +
        (missing.length ? `, acknowledged in the last ${killedAt - oldestMissing} ms before the kill` : '') +
        `; restore took ${restoredMs} ms`,
    );

    const serveStarted = Date.now();
    await assertRestoredServes(restoredFile, [...barrier][0]!);
    t.diagnostic(`take-over: restore ${restoredMs} ms + start, read, write, stop ${Date.now() - serveStarted} ms`);
  });

  it('loses nothing when stopped cleanly: Litestream forwards SIGTERM, Gatehouse drains, Litestream syncs last', async (t) => {
    const dir = tempDir('replicate-clean');
    const db = join(dir, 'primary.db');
    const config = writeConfig(dir, db, ['- type: file', `  path: ${join(dir, 'replica')}`]);
    const service = await startReplicated(config, db);
    const api = new ApiClient(service.url, TOKEN);
    const load = writeLoad(api, 4, 'clean');
    await delay(1500);
    const stopped = stopReplicated(service);
    load.stop();
    await load.done;
    await stopped;
    const stoppedLine = service.logs.find((r) => r.msg === 'stopped');
    assert.ok(Number(stoppedLine?.duration_ms) < 4000, `shutdown took ${String(stoppedLine?.duration_ms)} ms: it waited on Litestream's lock`);

    const restoredFile = join(tempDir('restore-clean'), 'gatehouse.db');
    const restore = await cli(['restore', '--from', `file://${join(dir, 'replica')}`, '--to', restoredFile], process.env);
    assert.equal(restore.code, 0, restore.stdout + restore.stderr);
    const restored = userIds(restoredFile);
    const missing = [...load.acked.keys()].filter((id) => !restored.has(id));
    assert.ok(load.acked.size > 0);
    assert.deepEqual(missing, [], 'a clean stop loses no acknowledged write');
    t.diagnostic(`clean stop: ${load.acked.size} acknowledged writes, 0 missing`);
    await assertRestoredServes(restoredFile, [...load.acked.keys()][0]!);
  });

  it('says a replica is up to date after a clean stop that follows a quiet spell, since nothing changed (issue 41.8)', async () => {
    const dir = tempDir('replicate-quiet');
    const db = join(dir, 'primary.db');
    const config = writeConfig(dir, db, ['- type: file', `  path: ${join(dir, 'replica')}`]);
    const service = await startReplicated(config, db);
    assert.equal((await new ApiClient(service.url, TOKEN).post('/users', { email: 'quiet@example.com', full_name: 'Quiet' })).status, 200);
    await waitUntilReplicated(config, db);
    await delay(2100); // quiet for longer than the limit below; Litestream dates in whole seconds
    await stopReplicated(service);
    // Litestream's own last checkpoint wrote the database file after the replica's last change: not a change.
    const status = await cli(['replication', 'status', '--db', db, '--litestream-config', config], { ...process.env, GATEHOUSE_REPLICATION_MAX_LAG_SECONDS: '1' });
    assert.equal(status.code, 0, status.stdout + status.stderr);
    assert.match(status.stdout, /^ok: replica file: generation [0-9a-f]{16}, up to date/m);
  });

  it('check and replication status report a replica that has fallen behind, and restore refuses to overwrite', async () => {
    const dir = tempDir('replicate-lag');
    const db = join(dir, 'primary.db');
    const config = writeConfig(dir, db, ['- type: file', `  path: ${join(dir, 'replica')}`]);
    const service = await startReplicated(config, db);
    const api = new ApiClient(service.url, TOKEN);
    assert.equal((await api.post('/users', { email: 'lag@example.com', full_name: 'Lag' })).status, 200);
    await waitUntilReplicated(config, db);
    const healthy = await cli(['replication', 'status', '--db', db, '--litestream-config', config], process.env);
    assert.equal(healthy.code, 0, healthy.stdout + healthy.stderr);
    assert.match(healthy.stdout, /^ok: replica file: generation [0-9a-f]{16}, up to date/m);
    const check = await cli(['check', '--db', db, '--litestream-config', config], process.env);
    assert.equal(check.code, 0, check.stdout);
    assert.match(check.stdout, /^replica file: .*up to date/m);

    // Litestream stops, then Gatehouse runs without it and writes: the lag grows past the limit.
    await stopReplicated(service);
    const direct = await ServiceProcess.start(['--db', db, '--port', '0'], {
      env: { ...process.env, GATEHOUSE_LOG_LEVEL: 'info', GATEHOUSE_LITESTREAM_CONFIG: config },
    });
    try {
      await delay(2100); // Litestream reports the lag in whole seconds
      assert.equal((await new ApiClient(direct.url, TOKEN).post('/users', { email: 'lag2@example.com', full_name: 'Lag 2' })).status, 200);
      const [replica] = await replicationStatus({ bin: LITESTREAM, config, dbFile: db, maxLagMs: 1000 });
      assert.equal(replica!.healthy, false, replica!.summary);
      assert.ok(replica!.lagMs! >= 2000, replica!.summary);
      const env = { ...process.env, GATEHOUSE_REPLICATION_MAX_LAG_SECONDS: '1' };
      const lagging = await cli(['check', '--db', db, '--litestream-config', config], env);
      assert.equal(lagging.code, 1, lagging.stdout);
      assert.match(lagging.stdout, /^replica file: generation \w+, [\d.]+ s behind .*: more than 1 s$/m);
      assert.match(lagging.stdout, /^FAILED: /m);
    } finally {
      await direct.stop();
    }

    await assert.rejects(restoreReplica(LITESTREAM, { url: `file://${join(dir, 'replica')}` }, db), /exists; restore never replaces a database/);
    const empty = await cli(['restore', '--from', `file://${join(dir, 'nothing-here')}`, '--to', join(dir, 'x.db')], process.env);
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /^gatehouse restore: litestream restore failed: .*no matching backups/m);
    assert.equal(existsSync(join(dir, 'x.db')), false);
    const unnamed = await cli(['restore', '--to', join(dir, 'y.db')], { ...process.env, GATEHOUSE_LITESTREAM_CONFIG: '' });
    assert.equal(unnamed.code, 2);
    assert.match(unnamed.stderr, /--from REPLICA_URL or --litestream-config FILE is required/);
  });
});

describe('Litestream\'s lag figures', () => {
  it('reads Go durations as Litestream prints them, and nothing else', () => {
    const cases: [string, number | undefined][] = [
      ['0s', 0], ['-55ms', -55], ['3s', 3000], ['1m2.5s', 62_500], ['1h0m1s', 3_601_000], ['750µs', 0.75],
      ['', undefined], ['3', undefined], ['3 s', undefined], ['s', undefined], ['1x', undefined],
    ];
    for (const [text, ms] of cases) assert.equal(parseGoDuration(text), ms, text);
  });
});

describe('finding Litestream', () => {
  /** A directory holding an executable named litestream (a script: only its place matters here). */
  function dirWithLitestream(name: string): string {
    const dir = tempDir(name);
    writeFileSync(join(dir, 'litestream'), '#!/bin/sh\necho v0.3.13\n');
    chmodSync(join(dir, 'litestream'), 0o755);
    return dir;
  }
  const nowhere = () => ({ setting: undefined, searchPath: '/no/such/dir', execPath: join(tempDir('exe'), 'gatehouse'), cwd: tempDir('cwd') });

  it('uses GATEHOUSE_LITESTREAM_BIN when set, and only that', () => {
    const dir = dirWithLitestream('setting');
    assert.equal(litestreamBinary({ ...nowhere(), setting: join(dir, 'litestream') }), join(dir, 'litestream'));
    assert.throws(() => litestreamBinary({ setting: '/no/such/litestream', searchPath: dir }), /GATEHOUSE_LITESTREAM_BIN is \/no\/such\/litestream, which is not an executable file/);
  });

  it('finds it beside the running executable, then on the PATH', () => {
    const beside = dirWithLitestream('beside');
    const onPath = dirWithLitestream('path');
    assert.equal(litestreamBinary({ ...nowhere(), execPath: join(beside, 'gatehouse'), searchPath: onPath }), join(beside, 'litestream'));
    assert.equal(litestreamBinary({ ...nowhere(), searchPath: `/no/such/dir:${onPath}` }), join(onPath, 'litestream'));
  });

  it('names every place it tried when none has it', () => {
    const lookup = nowhere();
    assert.throws(() => litestreamBinary(lookup), (err: Error) => {
      assert.ok(err instanceof ReplicationError);
      assert.ok(err.message.includes(`tried ${join(lookup.execPath, '..', 'litestream')} (beside the executable)`), err.message);
      assert.ok(err.message.includes(`npm's @flydotio/litestream-${process.platform}-${process.arch} from ${lookup.cwd}`), err.message);
      assert.ok(err.message.includes('litestream on the PATH (/no/such/dir)'), err.message);
      assert.match(err.message, /set GATEHOUSE_LITESTREAM_BIN/);
      return true;
    });
  });

  it('is on node_modules/.bin after npm ci, as `litestream`', { skip: NO_LITESTREAM }, async () => {
    const run = promisify(execFile);
    const { stdout } = await run(join(ROOT, 'node_modules', '.bin', 'litestream'), ['version']);
    assert.equal(stdout.trim(), 'v0.3.13');
  });
});
