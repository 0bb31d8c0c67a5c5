// Benchmark (issue 19 §3): how fast the console paints from the BUILT executable (dist/gatehouse) on
// loopback, in Debian's chromium. One person signs in with a one-time link printed by the executable's
// own `login-link`, then /console is loaded again and again (a new browser context each time, so
// nothing is cached); each load reports the browser's first contentful paint and the time until Home's
// heading is drawn with its data (the counts come from /v1).
// Run: npm run bench:console   (part of npm run bench; BENCH_RELOADS=10 by default)
//
// Target: first contentful paint under 1 s. Figures are printed beside it; a miss sets the exit code.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../helpers/ports.ts';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXE = process.env.BENCH_EXE ?? join(ROOT, 'dist/gatehouse');
const CHROMIUM = process.env.GATEHOUSE_CHROMIUM ?? '/usr/bin/chromium';
const RELOADS = Number(process.env.BENCH_RELOADS ?? 10);
const TOKEN = `gth_bench-console-${randomUUID().replaceAll('-', '')}`;
const TARGET_MS = 1000;

if (!existsSync(EXE)) throw new Error('dist/gatehouse is missing: run `npm run build` first (npm run bench does)');
if (!existsSync(CHROMIUM)) {
  console.log(`console paint: skipped, no browser at ${CHROMIUM} (apt-get install chromium, or set GATEHOUSE_CHROMIUM)`);
  process.exit(0);
}


const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-console-'));
const dbFile = join(dir, 'gatehouse.db');
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const env = { PATH: process.env.PATH, HOME: process.env.HOME, GATEHOUSE_BOOTSTRAP_TOKEN: TOKEN, GATEHOUSE_PUBLIC_URL: origin, GATEHOUSE_LOG_LEVEL: 'error' };
const server = spawn(EXE, ['serve', '--db', dbFile, '--host', '127.0.0.1', '--port', String(port)], { env, stdio: ['ignore', 'ignore', 'inherit'] });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'] });
try {
  // Up once it answers; then something for Home to count: a resource the admin holds until tomorrow.
  for (;;) {
    if (server.exitCode !== null) throw new Error(`gatehouse exited (${server.exitCode}) before answering`);
    const up = await fetch(`${origin}/v1/users`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.status === 200, () => false);
    if (up) break;
    await new Promise((done) => setTimeout(done, 20));
  }
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${origin}/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? null : JSON.stringify(body) })
      .then(async (r) => { const json = await r.json() as Record<string, unknown>; if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`); return json; });
  const admin = ((await api('GET', '/users')).results as { user_id: string; email: string }[])[0]!;
  const owner = await api('POST', '/owners', { name: 'Paint bench', user_ids: [admin.user_id] });
  const app = await api('POST', '/apps', { name: 'Paint bench', app_type: 'CUSTOM', admin_owner_id: owner.owner_id });
  const resource = await api('POST', '/resources', { name: 'Paint bench database', app_id: app.app_id, resource_type: 'CUSTOM', admin_owner_id: owner.owner_id });
  await api('POST', `/resources/${resource.resource_id}/users/${admin.user_id}`, { duration_minutes: 1440 });

  // The executable's own CLI prints the sign-in link (one line on stdout).
  const link = spawnSync(EXE, ['login-link', '--email', admin.email, '--db', dbFile], { env, encoding: 'utf8' });
  if (link.status !== 0) throw new Error(`login-link exited ${link.status}: ${link.stderr}`);
  const url = link.stdout.trim();
  const signIn = await browser.newContext();
  const first = await signIn.newPage();
  await first.goto(url);
  await first.getByRole('button', { name: /^Sign in as / }).click();
  await first.locator('#page-title').waitFor({ timeout: 60_000 });
  const cookies = await signIn.cookies();
  await signIn.close();

  const paints: number[] = [];
  const drawn: number[] = [];
  for (let i = 0; i < RELOADS; i++) {
    const context = await browser.newContext();
    await context.addCookies(cookies);
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(`${origin}/console`);
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 60_000 });
    // Home's counts come from /v1: the admin's one expiring holding shows once the data has arrived.
    await page.locator('[data-count="expiring"]', { hasText: /^1$/ }).waitFor({ timeout: 60_000 });
    drawn.push(performance.now() - started);
    paints.push(await page.evaluate<number>(`performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1`));
    await context.close();
  }
  const met = Math.max(...paints) < TARGET_MS && paints.every((p) => p > 0);
  const fmt = (values: number[]) => `median ${median(values).toFixed(0)} ms, min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)}`;
  console.log(`console paint (built executable, chromium, ${RELOADS} cold loads of /console; load average ${loadavg()[0]!.toFixed(1)}):`);
  console.log(`  first contentful paint: ${fmt(paints)} (target < ${TARGET_MS} ms: ${met ? 'met' : 'MISSED'})`);
  console.log(`  Home's heading drawn with its data: ${fmt(drawn)}`);
  if (!met) process.exitCode = 1;
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((done) => server.once('exit', done));
  rmSync(dir, { recursive: true, force: true });
}
