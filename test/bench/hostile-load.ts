// Benchmark: issue 21's hostile mixes against the real service in its own process (loopback only; it
// stops by itself after BENCH_SECONDS per mix). A probe sends a simple authenticated GET every 20 ms
// while each mix runs; the run reports the probe's p50/p99, every status seen, and the server's peak RSS.
// Run: npm run bench:hostile   (BENCH_SECONDS=8 by default; BENCH_ONLY=<part of a mix name> runs the matching mixes;
// BENCH_EXE=<file> measures another executable than dist/gatehouse, which the npm script builds first; BENCH_EXE=sources
// measures the sources under tsx, with the executable's Node flags — tsx and per-file modules cost ~40 MB more)
//
// Targets (issue 21): probe p99 < 100 ms while any mix runs, no 5xx, server RSS < 300 MB.
// Figures are printed beside their targets; a miss sets the exit code (this is the check the issue asks for).
//
// The data is the issue's: 1,000 users in the bottom group of a 20-deep nesting chain whose top group
// holds 1,000 resources (a million effective holdings), plus requests with the largest records allowed.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { AREAS } from '../../src/app.ts';
import { createContext } from '../../src/context.ts';
import { migrate } from '../../src/db/migrate.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createLogger } from '../../src/lib/log.ts';
import { bootstrapAdmin } from '../../src/modules/tokens/service.ts';
import { openDatabase } from '../../src/db/open.ts';
import { ApiClient } from '../helpers/client.ts';
import { RUNTIME_FLAGS } from '../../src/dev/runtime-flags.mjs';
import { createMember, createToken, createUser } from '../helpers/fixtures.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const USERS = 1000;
const CHAIN = 20;
const RESOURCES = 1000;
/** What is measured: the executable people run (npm run bench:hostile builds it first), or with BENCH_EXE=sources the sources under tsx. */
const EXE = process.env.BENCH_EXE === 'sources' ? undefined : (process.env.BENCH_EXE ?? 'dist/gatehouse');
const TOKEN = `gth_bench-hostile-${randomUUID().replaceAll('-', '')}`;

/** Users whose whole access one review covers: 40 × (1,000 resources + 20 groups) = 40,800 rows, under the 50,000-row cap, so it is written. */
const REVIEWED_USERS = 40;
const reviewedUsers: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-hostile-'));
const dbFile = join(dir, 'gatehouse.db');

// --- Seed the graph straight into the file, before the service starts.
{
  const db = openDatabase(dbFile);
  const stamp = new Date().toISOString();
  migrate(db, new Date());
  // The admin first: the bootstrap token only takes on a database without users.
  bootstrapAdmin(createContext({ db, clock: systemClock, config: loadConfig({ GATEHOUSE_READ_WORKERS: '0' }), log: createLogger('silent') }, AREAS), TOKEN);
  const ownerId = randomUUID();
  const appId = randomUUID();
  db.transaction(() => {
    db.prepare(`INSERT INTO owners (id, name, created_at, updated_at) VALUES (?, 'hostile bench', ?, ?)`).run(ownerId, stamp, stamp);
    db.prepare(`INSERT INTO apps (id, name, app_type, admin_owner_id, created_at, updated_at) VALUES (?, 'hostile bench', 'CUSTOM', ?, ?, ?)`).run(appId, ownerId, stamp, stamp);
    const user = db.prepare('INSERT INTO users (id, email, full_name, first_name, last_name, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    const group = db.prepare(`INSERT INTO groups (id, app_id, name, admin_owner_id, group_type, created_at, updated_at) VALUES (?, ?, ?, ?, 'OPAL_GROUP', ?, ?)`);
    const resource = db.prepare(`INSERT INTO resources (id, app_id, name, description, admin_owner_id, resource_type, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'CUSTOM', ?, ?)`);
    const edge = (table: string, from: string, to: string) =>
      db.prepare(`INSERT INTO ${table} (${from}, ${to}, access_level_remote_id, access_level_name, expiration_date, created_at, updated_at) VALUES (?, ?, '', '', NULL, ?, ?)`);
    const member = edge('group_users', 'group_id', 'user_id');
    const nest = edge('group_groups', 'group_id', 'containing_group_id');
    const grant = edge('group_resources', 'group_id', 'resource_id');
    const chain = Array.from({ length: CHAIN }, () => randomUUID());
    chain.forEach((id, i) => group.run(id, appId, `chain ${i}`, ownerId, stamp, stamp));
    for (let i = 0; i + 1 < CHAIN; i++) nest.run(chain[i], chain[i + 1], stamp, stamp);
    for (let u = 0; u < USERS; u++) {
      const id = randomUUID();
      user.run(id, `hostile${u}@example.com`, `Hostile User ${u}`, 'Hostile', String(u), stamp);
      if (u < REVIEWED_USERS) reviewedUsers.push(id);
      member.run(chain[0], id, stamp, stamp);
    }
    for (let r = 0; r < RESOURCES; r++) {
      const id = randomUUID();
      resource.run(id, appId, `hostile resource ${r}`, 'd'.repeat(2000), ownerId, stamp, stamp);
      grant.run(chain[CHAIN - 1], id, stamp, stamp);
    }
  })();
  db.close();
}

// --- Start the service as its own process, as it runs in production.
const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address() as AddressInfo;
    probe.close(() => resolve(free));
  });
});
const serve = ['serve', '--db', dbFile, '--port', String(port)];
// The sources run with the flags the executable embeds (src/dev/runtime-flags.mjs).
const server = spawn(EXE ?? process.execPath, EXE ? serve : [...RUNTIME_FLAGS, '--import', 'tsx', '--import', './src/dev/register-sql.mjs', 'src/main.ts', ...serve], {
  env: { ...process.env, GATEHOUSE_BOOTSTRAP_TOKEN: TOKEN, GATEHOUSE_LOG_LEVEL: 'error', GATEHOUSE_KEEP_ALIVE_TIMEOUT_MS: '120000' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
// Whatever ends this run, the service ends with it.
process.on('exit', () => server.kill('SIGKILL'));
const base = `http://127.0.0.1:${port}/v1`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
  } catch {
    if (i > 300) throw new Error('the service did not start');
  }
  await new Promise((r) => setTimeout(r, 100));
}
const rssMb = () => {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

const admin = new ApiClient(base, TOKEN);
const probeUser = await createUser(admin);
const readOnly = await createToken(admin, { access_level: 'READ_ONLY' });
const writer = await createMember(admin);
// A requestable resource for the write flood: one the member can ask for.
const owner = (await admin.post('/owners', { name: 'bench owner', user_ids: [writer.user.user_id] })).body;
const appId = (await admin.post('/apps', { name: 'bench app', description: '', app_type: 'CUSTOM', admin_owner_id: owner.owner_id })).body.app_id;
const target = (await admin.post('/resources', { name: 'bench target', resource_type: 'CUSTOM', app_id: appId, admin_owner_id: owner.owner_id })).body.resource_id;

const statuses = new Map<number, number>();
let peakRss = 0;
const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);

async function call(method: string, path: string, token: string, body?: unknown): Promise<void> {
  try {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await res.arrayBuffer();
    count(res.status);
  } catch {
    count(0); // connection refused or reset
  }
}

/** Runs `load` in `workers` loops until `until`. */
const loops = (workers: number, until: number, load: () => Promise<void>) =>
  Promise.all(Array.from({ length: workers }, async () => {
    while (Date.now() < until) await load();
  }));

const bigRecord = () => ({
  resources: [{ id: target }], groups: [], duration_minutes: 60, reason: 'r'.repeat(5000),
  custom_metadata: [0, 1].map((i) => ({ name: `field ${i}`, type: 'LONG_TEXT', value: 'x'.repeat(10_000) })),
});

const MIXES: Record<string, (until: number) => Promise<unknown>> = {
  'node query, hasAccessTo all resources (READ_ONLY token, 2 at once)': (until) =>
    loops(2, until, () => call('POST', '/queries/run', readOnly.secret, { type: 'NODE', query: { accessFilters: { hasAccessTo: {} } }, first: 1 })),
  'node query, isAccessibleBy all users': (until) =>
    loops(2, until, () => call('POST', '/queries/run', readOnly.secret, { type: 'NODE', query: { accessFilters: { isAccessibleBy: {} } } })),
  'GET /resources?page_size=1000 (2 at once)': (until) => loops(2, until, () => call('GET', '/resources?page_size=1000', TOKEN)),
  'member write flood of the largest requests, then GET /requests?page_size=1000': (until) =>
    Promise.all([loops(2, until, () => call('POST', '/requests', writer.secret, bigRecord())), loops(1, until, () => call('GET', '/requests?page_size=1000', TOKEN))]),
  'whole-catalogue access review (UAR)': (until) =>
    loops(1, until, () => call('POST', '/uar', TOKEN, {
      name: `bench ${randomUUID()}`, reviewer_assignment_policy: 'MANUALLY', send_reviewer_assignment_notification: false,
      deadline: new Date(Date.now() + 86_400_000).toISOString(), time_zone: 'UTC', self_review_allowed: false,
    })),
  'access review of 40 users across the catalogue (40,800 rows written in slices)': (until) =>
    loops(1, until, () => call('POST', '/uar', TOKEN, {
      name: `bench ${randomUUID()}`, reviewer_assignment_policy: 'MANUALLY', send_reviewer_assignment_notification: false,
      deadline: new Date(Date.now() + 86_400_000).toISOString(), time_zone: 'UTC', self_review_allowed: false,
      uar_scope: { users: reviewedUsers },
    })),
  'one address holding 900 idle sockets': async (until) => {
    const sockets = Array.from({ length: 900 }, () => connect(port, '127.0.0.1').on('error', () => {}));
    await new Promise((r) => setTimeout(r, until - Date.now()));
    sockets.forEach((s) => s.destroy());
  },
};

let failed = false;
const results: string[] = [];
for (const [name, mix] of Object.entries(MIXES)) {
  if (process.env.BENCH_ONLY && !name.includes(process.env.BENCH_ONLY)) continue;
  statuses.clear();
  const until = Date.now() + SECONDS * 1000;
  const latencies: number[] = [];
  let mixRss = 0;
  const probe = (async () => {
    while (Date.now() < until) {
      const start = performance.now();
      await call('GET', `/users/${probeUser.user_id}`, TOKEN);
      latencies.push(performance.now() - start);
      mixRss = Math.max(mixRss, rssMb());
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  await Promise.all([mix(until), probe]);
  peakRss = Math.max(peakRss, mixRss);
  latencies.sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  const fives = [...statuses].filter(([s]) => s >= 500 || s === 0).reduce((n, [, c]) => n + c, 0);
  const ok = p(0.99) < 100 && fives === 0;
  failed ||= !ok;
  const line = `${name}: probe p50 ${p(0.5).toFixed(1)} ms, p99 ${p(0.99).toFixed(1)} ms (target < 100), ${latencies.length} probes; `
    + `statuses ${JSON.stringify(Object.fromEntries(statuses))}; peak RSS ${mixRss.toFixed(0)} MB; ${ok ? 'PASS' : 'MISS'}`;
  console.log(line);
  results.push(line);
}
const rssOk = peakRss < 300;
console.log(`server peak RSS: ${peakRss.toFixed(0)} MB (target < 300) ${rssOk ? 'PASS' : 'MISS'}`);
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
rmSync(dir, { recursive: true, force: true });
process.exitCode = failed || !rssOk ? 1 : 0;
