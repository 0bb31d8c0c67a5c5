// Soak (issue 42): the BUILT executable on a copy of the seeded database under a long mixed load, to find
// what builds up inside the running process. Prints, per interval: requests/s, server CPU per request,
// RSS, the WAL's size and non-2xx answers; then whether the last interval's throughput (and CPU per
// request, which a busy machine moves much less) is within 10% of the second's; then restarts the
// executable on the database the soak grew and measures it again (after one interval's warm-up), so what the data added is
// told apart from what the process accumulated. Between the two, the first process idles one interval and
// its RSS is printed: what it keeps once nothing asks for it.
// Run: npm run bench:soak (builds first; also part of npm run bench with the short default).
// Env: BENCH_SOAK_SECONDS (120; the issue's soak is 1800), BENCH_SOAK_INTERVAL (60, or a quarter of a
// shorter soak), BENCH_CONNECTIONS (32), BENCH_SEEDED and BENCH_EXE as for http.ts.
//
// The mix, per connection, cycles through 20 requests: 12 reads (60%: a resource by id as admin and as
// a member, a user's groups, a group's users, a resource's events), 5 writes (25%: membership PUTs,
// a request and its approval), 2 SCIM calls (10%: a filtered Users list, a PATCH of a user) and one
// heavy read (5%: a 200-row page of resources).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { loadConfig } from '../../src/config.ts';
import { AREAS } from '../../src/app.ts';
import { createContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/open.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createLogger } from '../../src/lib/log.ts';
import { issueToken } from '../../src/modules/tokens/service.ts';
import { freePort } from '../helpers/ports.ts';
import { seededCopy } from './seed.ts';
import { cpuMs, rssMb } from './timing.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 120);
const INTERVAL = Number(process.env.BENCH_SOAK_INTERVAL ?? Math.min(60, Math.max(5, Math.floor(SECONDS / 4))));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const EXE = process.env.BENCH_EXE ?? join(ROOT, 'dist/gatehouse');
if (!existsSync(EXE)) throw new Error('dist/gatehouse is missing: run `npm run build` first (npm run bench:soak does)');

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const workDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-soak-'));
const dbFile = join(workDir, 'gatehouse.db');
const seeded = seededCopy(dbFile, (line) => console.log(`  ${line}`), ROOT);

// A SCIM token for the admin (SCIM calls need one of that scope), issued on the copy before the start.
const scimToken = (() => {
  const db = openDatabase(dbFile, { mustExist: true });
  const ctx = createContext({ db, clock: systemClock, config: loadConfig({ GATEHOUSE_LOG_LEVEL: 'silent' }, { db: dbFile }), log: createLogger('silent') }, AREAS);
  const admin = ctx.stores.users.getByEmail('admin@gatehouse.local')!;
  const actor = { userId: admin.user_id, name: admin.full_name, email: admin.email, tokenLabel: 'soak', tokenPreview: '****', ip: null };
  const token = issueToken(ctx, actor, { userId: admin.user_id, label: 'soak scim', accessLevel: 'FULL_ACCESS', scope: 'SCIM' }).secret;
  db.close();
  return token;
})();

const walMb = () => (existsSync(`${dbFile}-wal`) ? statSync(`${dbFile}-wal`).size / 2 ** 20 : 0);

async function start(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(EXE, ['serve', '--db', dbFile, '--host', '127.0.0.1', '--port', String(port)], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      GATEHOUSE_LOG_LEVEL: 'info',
      // The soak loads one admin far past the per-user write limits on purpose (see http.ts).
      GATEHOUSE_WRITE_RATE_LIMIT: '0',
      GATEHOUSE_SCIM_WRITE_RATE_LIMIT: '0',
      NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS ?? '',
    },
    stdio: ['ignore', openSync(join(workDir, 'gatehouse.log'), 'a'), 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gatehouse exited (${child.exitCode}) before answering`);
    try {
      const res = await fetch(`${url}/v1/resources/${seeded.readableResourceIds[0]}`, { headers: { authorization: `Bearer ${seeded.adminToken}` } });
      await res.arrayBuffer();
      if (res.status === 200) return { child, url };
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
}
const stop = async (child: ChildProcess) => {
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
};

// --- the mix -------------------------------------------------------------------------------------
type Req = autocannon.Request;
const admin = { authorization: `Bearer ${seeded.adminToken}`, 'content-type': 'application/json' };
const member = { authorization: `Bearer ${seeded.memberToken}`, 'content-type': 'application/json' };
const scim = { authorization: `Bearer ${scimToken}`, 'content-type': 'application/scim+json' };
let turn = 0;
const pick = <T>(list: readonly T[]) => list[turn++ % list.length]!;
const get = (path: () => string, headers: Record<string, string> | (() => Record<string, string>) = admin): Req => ({
  method: 'GET',
  setupRequest: (req) => {
    const { body: _body, ...rest } = req;
    return { ...rest, method: 'GET', path: path(), headers: typeof headers === 'function' ? headers() : { ...headers } };
  },
});
const write = (method: NonNullable<Req['method']>, path: () => string, body: () => string, headers: Record<string, string> = admin): Req => ({
  method,
  setupRequest: (req) => ({ ...req, method, path: path(), headers: { ...headers }, body: body() }),
});
const membership = () => pick(seeded.memberships);
const groupOf = (m: string) => m.split('/')[0]!;
const userOf = (m: string) => m.split('/')[2]!;
// Heavy reads spread over the page-reading admins (at most eight heavy reads per caller at once).
let pageReads = 0;
const pageReader = () => ({ ...admin, authorization: `Bearer ${seeded.pageReaderTokens[pageReads++ % seeded.pageReaderTokens.length]}` });
let named = 0;

const requests = (): Req[] => [
  get(() => `/v1/resources/${pick(seeded.readableResourceIds)}`),
  write('PUT', () => `/v1/groups/${membership()}`, () => `{"duration_minutes":${60 + (turn++ % 600)}}`),
  get(() => `/v1/resources/${pick(seeded.readableResourceIds)}`, member),
  get(() => `/v1/groups/users/${pick(seeded.nestedUserIds)}`),
  get(() => `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "bench${named++ % 10_000}@example.com"`)}`, scim),
  get(() => `/v1/resources/${pick(seeded.readableResourceIds)}`),
  get(() => `/v1/groups/${groupOf(membership())}/users`),
  write('PUT', () => `/v1/groups/${membership()}`, () => `{"duration_minutes":${60 + (turn++ % 600)}}`),
  get(() => `/v1/resources/${pick(seeded.readableResourceIds)}`, member),
  get(() => `/v1/events?object_filter=${pick(seeded.eventObjectIds)}`),
  get(() => '/v1/resources?page_size=200', pageReader),
  get(() => `/v1/resources/${pick(seeded.readableResourceIds)}`),
  {
    method: 'POST',
    path: '/v1/requests',
    setupRequest: (req) => ({ ...req, method: 'POST', path: '/v1/requests', headers: { ...member }, body: JSON.stringify({ resources: [{ id: pick(seeded.requestableResourceIds) }], groups: [], reason: 'soak', duration_minutes: 60 }) }),
    onResponse: (status, body, context) => {
      (context as { id?: string }).id = status === 200 ? (JSON.parse(body) as { id: string }).id : undefined;
    },
  },
  {
    method: 'POST',
    setupRequest: (req, context) => ({ ...req, method: 'POST', path: `/v1/requests/${(context as { id?: string }).id ?? '00000000-0000-0000-0000-000000000000'}/approve`, headers: { ...admin }, body: '{"level":"ADMIN"}' }),
  },
  get(() => `/v1/groups/users/${pick(seeded.nestedUserIds)}`, member),
  write('PATCH', () => `/scim/v2/Users/${userOf(membership())}`, () => JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: `department ${turn++ % 1000}` }] }), scim),
  get(() => `/v1/resources/${pick(seeded.readableResourceIds)}`, member),
  write('PUT', () => `/v1/groups/${membership()}`, () => `{"duration_minutes":${60 + (turn++ % 600)}}`),
  get(() => `/v1/users/${userOf(membership())}`),
  get(() => `/v1/resources/${pick(seeded.readableResourceIds)}`),
];

interface Interval {
  rps: number;
  cpuUs: number;
  rss: number;
  wal: number;
  bad: number;
}

/** Runs the mix for `seconds`, reporting every `every` seconds. */
async function soak(child: ChildProcess, url: string, seconds: number, every: number, label: (i: number) => string): Promise<Interval[]> {
  const pid = child.pid!;
  const intervals: Interval[] = [];
  let answered = 0;
  let bad = 0;
  let finished = () => {};
  const done = new Promise<void>((resolve) => (finished = resolve));
  const instance = autocannon({ url, connections: CONNECTIONS, duration: seconds, requests: requests() }, () => finished());
  instance.on('response', (_client: unknown, status: number) => {
    answered += 1;
    if (status >= 300) {
      bad += 1;
      nonOkByStatus.set(status, (nonOkByStatus.get(status) ?? 0) + 1);
    }
  });
  let cpu = cpuMs(pid);
  let at = Date.now();
  for (let i = 0; i < Math.floor(seconds / every); i++) {
    await Promise.race([sleep(every * 1000), done]);
    const nowCpu = cpuMs(pid);
    const now = Date.now();
    const interval = { rps: answered / ((now - at) / 1000), cpuUs: ((nowCpu - cpu) * 1000) / Math.max(1, answered), rss: rssMb(pid), wal: walMb(), bad };
    intervals.push(interval);
    console.log(`${label(i).padEnd(12)} ${interval.rps.toFixed(0).padStart(7)} ${interval.cpuUs.toFixed(0).padStart(7)} ${interval.rss.toFixed(0).padStart(7)} ${interval.wal.toFixed(1).padStart(7)} ${String(bad).padStart(6)}   load ${loadavg()[0]!.toFixed(1)}`);
    answered = 0;
    bad = 0;
    cpu = nowCpu;
    at = now;
  }
  await done;
  return intervals;
}

/** Every non-2xx answer of the whole run by status, printed at the end: a shed read (503), a refused write (409) and a bug (500) mean different things. */
const nonOkByStatus = new Map<number, number>();
console.log(`soak: ${SECONDS} s, ${CONNECTIONS} connections, reported every ${INTERVAL} s; ${EXE}`);
console.log(`${'interval'.padEnd(12)} ${'req/s'.padStart(7)} ${'µs/req'.padStart(7)} ${'RSS MB'.padStart(7)} ${'WAL MB'.padStart(7)} ${'non2xx'.padStart(6)}`);
const first = await start();
const intervals = await soak(first.child, first.url, SECONDS, INTERVAL, (i) => `${((i + 1) * INTERVAL) / 60 >= 1 ? `${(((i + 1) * INTERVAL) / 60).toFixed(1)} min` : `${(i + 1) * INTERVAL} s`}`);
const peak = rssMb(first.child.pid!, 'VmHWM');
// Idle for one interval (a minute in the long soak): what the process keeps once nothing asks for it.
await sleep(INTERVAL * 1000);
const idleRss = rssMb(first.child.pid!);
console.log(`${'idle'.padEnd(12)} ${'0'.padStart(7)} ${'-'.padStart(7)} ${idleRss.toFixed(0).padStart(7)} ${walMb().toFixed(1).padStart(7)}`);
await stop(first.child);

// The same mix on the grown database, in a fresh process: what the data alone costs now.
const second = await start();
// Two intervals: the first warms the fresh process (JIT, SQLite's cache), the second is compared.
const [, restarted] = await soak(second.child, second.url, 2 * INTERVAL, INTERVAL, (i) => (i === 0 ? 'restart, warm-up' : 'restarted'));
await stop(second.child);

if (intervals.length >= 3 && restarted) {
  const [, early] = intervals;
  const last = intervals.at(-1)!;
  const within = (a: number, b: number) => Math.abs(a - b) / b <= 0.1;
  console.log(`\nlast / second interval: throughput ${(last.rps / early!.rps).toFixed(2)} (${within(last.rps, early!.rps) ? 'within 10%' : 'NOT within 10%'}), CPU per request ${(last.cpuUs / early!.cpuUs).toFixed(2)} (${within(last.cpuUs, early!.cpuUs) ? 'within 10%' : 'NOT within 10%'})`);
  console.log(`last interval / a fresh process on the grown database: throughput ${(last.rps / restarted.rps).toFixed(2)}, CPU per request ${(last.cpuUs / restarted.cpuUs).toFixed(2)} (near 1: nothing builds up in the process)`);
  console.log(`RSS: second interval ${early!.rss.toFixed(0)} MB, last ${last.rss.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, after ${INTERVAL} s idle ${idleRss.toFixed(0)} MB; after a restart ${restarted.rss.toFixed(0)} MB`);
}
console.log(`non-2xx answers by status: ${[...nonOkByStatus].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(', ') || 'none'}`);
console.log(`load average at the end: ${loadavg().map((n) => n.toFixed(1)).join(' ')} (absolute figures move with it; the ratios much less)`);
rmSync(workDir, { recursive: true, force: true });
