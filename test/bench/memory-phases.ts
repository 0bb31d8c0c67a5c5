// Memory by phase (issue 42): one Gatehouse process on a copy of the seeded file, driven through a few
// loads in a row (autocannon) with idle spells between, printing its RSS and CPU per request after each.
// RSS follows throughput and what ran before, so comparing two builds means the same phases back to back.
// Run: node --import tsx test/bench/memory-phases.ts <executable> [phases]   phases: comma-separated of
// byid, pages, users, nested, members, puts, mixed, idle<seconds> (default pages,idle40,mixed).
// Env: BENCH_SEEDED=<dir> (a seeded dir, as http.ts keeps it; required), MEMORY_PHASE_SECONDS (8),
// MEMORY_PHASE_NODE_OPTIONS (e.g. "--require $PWD/test/bench/memory-probe.cjs"), MEMORY_PHASE_ENV (JSON,
// more environment for the server).
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../helpers/ports.ts';
import type { Seeded } from './seed.ts';
import { cpuMs, rssMb } from './timing.ts';

const [exe, phases = 'pages,idle40,mixed'] = process.argv.slice(2);
const seededDir = process.env.BENCH_SEEDED;
if (!exe || !seededDir) throw new Error('usage: BENCH_SEEDED=<dir> node --import tsx test/bench/memory-phases.ts <executable> [phases]');
const seeded = JSON.parse(readFileSync(join(seededDir, 'seeded.json'), 'utf8')) as Seeded;
const work = mkdtempSync(join(tmpdir(), 'gatehouse-memory-phases-'));
copyFileSync(seeded.file, join(work, 'g.db'));
const port = await freePort();
const child = spawn(exe, ['serve', '--db', join(work, 'g.db'), '--host', '127.0.0.1', '--port', String(port)], {
  env: {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GATEHOUSE_LOG_LEVEL: 'error',
    GATEHOUSE_WRITE_RATE_LIMIT: '0',
    NODE_OPTIONS: process.env.MEMORY_PHASE_NODE_OPTIONS ?? '',
    ...(JSON.parse(process.env.MEMORY_PHASE_ENV ?? '{}') as Record<string, string>),
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const pid = child.pid!;
const url = `http://127.0.0.1:${port}`;
const memory = () => `${rssMb(pid).toFixed(0)} MB (peak ${rssMb(pid, 'VmHWM').toFixed(0)})`;
for (let up = false; !up; await new Promise((done) => setTimeout(done, 50))) up = await fetch(`${url}/healthz`).then((res) => res.ok, () => false);

const admin = { authorization: `Bearer ${seeded.adminToken}`, 'content-type': 'application/json' };
const member = { ...admin, authorization: `Bearer ${seeded.memberToken}` };
let turn = 0;
const pick = <T>(list: readonly T[]) => list[turn++ % list.length]!;
type Context = { reader?: string };
const get = (path: () => string, headers: (context: Context) => Record<string, string> = () => ({ ...admin })): autocannon.Request => ({
  method: 'GET',
  setupRequest: (req, context) => {
    const { body: _body, ...rest } = req;
    return { ...rest, method: 'GET', path: path(), headers: headers(context as Context) };
  },
});
let readers = 0;
// Big pages as one of the seeded page-reading admins, at most eight connections each (a caller's heavy-read cap).
const pageReader = (context: Context) => {
  context.reader ??= seeded.pageReaderTokens[Math.floor(readers++ / 8) % seeded.pageReaderTokens.length]!;
  return { ...admin, authorization: `Bearer ${context.reader}` };
};
let written = 0;
const put: autocannon.Request = { method: 'PUT', setupRequest: (req) => ({ ...req, path: `/v1/groups/${seeded.memberships[written++ % seeded.memberships.length]}`, headers: { ...admin }, body: '{"duration_minutes":60}' }) };
const loads: Record<string, { connections: number; requests: autocannon.Request[] }> = {
  byid: { connections: 32, requests: [get(() => `/v1/resources/${pick(seeded.readableResourceIds)}`)] },
  pages: { connections: 16, requests: [get(() => '/v1/resources?page_size=200', pageReader)] },
  users: { connections: 32, requests: [get(() => '/v1/users?page_size=200')] },
  nested: { connections: 32, requests: [get(() => `/v1/groups/users/${pick(seeded.nestedUserIds)}`)] },
  members: { connections: 32, requests: [get(() => `/v1/groups/${pick(seeded.memberships).split('/')[0]}/users`)] },
  puts: { connections: 32, requests: [put] },
  mixed: {
    connections: 32,
    requests: [
      get(() => `/v1/resources/${pick(seeded.readableResourceIds)}`),
      get(() => `/v1/resources/${pick(seeded.readableResourceIds)}`, () => ({ ...member })),
      get(() => `/v1/groups/users/${pick(seeded.nestedUserIds)}`),
      get(() => `/v1/events?object_filter=${pick(seeded.eventObjectIds)}`),
      put,
    ],
  },
};
const seconds = Number(process.env.MEMORY_PHASE_SECONDS ?? 8);
console.log(`pid ${pid}; started: ${memory()}`);
try {
  for (const phase of phases.split(',')) {
    if (phase.startsWith('idle')) {
      await new Promise((done) => setTimeout(done, Number(phase.slice(4) || 35) * 1000));
      console.log(`after ${phase}: ${memory()}`);
      continue;
    }
    const load = loads[phase];
    if (!load) throw new Error(`no phase ${phase}: ${Object.keys(loads).join(', ')}, idle<seconds>`);
    const before = cpuMs(pid);
    const result = await autocannon({ url, duration: seconds, ...load });
    const perRequest = ((cpuMs(pid) - before) * 1000) / Math.max(1, result.requests.total);
    console.log(`after ${phase}: ${result.requests.average.toFixed(0)} req/s, ${perRequest.toFixed(0)} µs CPU/req, non-2xx ${result.non2xx}: ${memory()}`);
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((done) => child.once('exit', done));
  rmSync(work, { recursive: true, force: true });
}
