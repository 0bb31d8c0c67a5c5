// Runs every test/**/*.test.ts with node:test through tsx. `node --test` is given an explicit list (it
// neither expands globs nor finds .ts files in folders on its own); an empty list is an error, never a
// silent pass. Usage: node test/run.mjs [--groups N] [--isolation process|none] [--record] [--typecheck] [PART…]
// (PART: run only the files whose path contains it; --record: write what each file cost into
// test/costs.json, by which the files are dealt into groups; --typecheck: also run the type check, see
// below — `npm test` does, after `npm run console:types`.)
//
// How the files run, chosen by measurement (figures in docs/contributing.md, "Tests"): the files are
// dealt into GROUPS groups, each run by ONE node process with --test-isolation=none, side by side.
// Per file, a process of its own costs about a second of CPU before the first test (Node, tsx, the
// application's modules, the API document's schemas): more than most module files take to run. In
// one process per group that is paid once per group, and the groups keep both cores of the 2-core
// machine busy. --test-isolation=process runs each file in its own process, as Node does by default.
//
// Shared by the files of a group: the module registry and the process. A test file must therefore
// leave nothing behind (close its servers, restore what it changes in process.env) — as startTestApp()
// and the helpers do.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, constants as osConstants, setPriority, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

// A test that hangs fails after this long instead of holding CI to its 90-minute limit. Generous on
// purpose: on a loaded machine the suite's slowest tests take several times what they take quietly.
const TEST_TIMEOUT_MS = 600_000;

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: options, positionals: only } = parseArgs({
  allowPositionals: true,
  options: {
    // Two groups on two cores measured best (docs/contributing.md); more cores, more groups.
    groups: { type: 'string', default: String(Math.max(2, availableParallelism())) },
    isolation: { type: 'string', default: 'none' },
    // Writes each file's measured cost into test/costs.json, which deal() reads (see there).
    record: { type: 'boolean', default: false },
    typecheck: { type: 'boolean', default: false },
  },
});
const groupCount = Number(options.groups);
if (!Number.isInteger(groupCount) || groupCount < 1) fail(`--groups must be a whole number of at least 1, not "${options.groups}"`);
if (options.isolation !== 'none' && options.isolation !== 'process') fail(`--isolation must be none or process, not "${options.isolation}"`);

function fail(message) {
  console.error(`test/run.mjs: ${message}`);
  process.exit(1);
}

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'helpers' ? [] : find(path);
    return entry.name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

const files = find(join(root, 'test'))
  .filter((file) => only.length === 0 || only.some((part) => file.includes(part)))
  .sort();
if (files.length === 0) fail('no test files found');

// --test-force-exit: a group's process ends when its last test has, not when the last timer anything
// left behind fires. Without it, a group sat idle after its last test for as long as a forgotten timer
// ran (about 100 s at the end of each group in the runs measured in docs/contributing.md).
const nodeArgs = ['--import', 'tsx', '--import', './src/dev/register-sql.mjs', '--test', `--test-timeout=${TEST_TIMEOUT_MS}`, '--test-force-exit'];

// What each file cost when last recorded (node test/run.mjs --record): { file: { wallMs, cpuMs } },
// the wall and CPU time it took in a group's process (test/cost-reporter.mjs measures them).
const costsPath = join(root, 'test', 'costs.json');
let recordedCosts = {};
try {
  recordedCosts = JSON.parse(readFileSync(costsPath, 'utf8'));
} catch {
  // None recorded: every file is weighed by its size.
}

/**
 * Deals the files into `count` groups that end together: longest first, each onto the group with the
 * least work so far, so the short files even out the ends. A file's work is its recorded wall time
 * (test/costs.json), which counts what CPU time does not: a file waiting on Chromium or a child
 * process. Record on a quiet machine: on a busy one a file's wall time swings with its neighbours.
 * A file not recorded yet weighs what the recorded ones of its size do on average.
 */
function deal(list, count) {
  const size = (file) => statSync(join(root, file)).size;
  const total = (some, measure) => some.reduce((sum, file) => sum + measure(file), 0);
  const known = list.filter((file) => recordedCosts[file] !== undefined);
  const msPerByte = known.length === 0 ? 1 : total(known, (file) => recordedCosts[file].wallMs) / total(known, size);
  const weights = new Map(list.map((file) => [file, recordedCosts[file]?.wallMs ?? size(file) * msPerByte]));
  const groups = Array.from({ length: Math.min(count, list.length) }, () => ({ files: [], weight: 0 }));
  for (const file of [...list].sort((a, b) => weights.get(b) - weights.get(a))) {
    const lightest = groups.reduce((a, b) => (b.weight < a.weight ? b : a));
    lightest.files.push(file);
    lightest.weight += weights.get(file);
  }
  return groups.map((g) => g.files.sort());
}

/** Runs `node --test` over `list`; resolves with its exit status and what it printed. */
function runGroup(list, extra, stdio) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs, ...extra, ...list], { cwd: root, stdio });
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

/**
 * The type check (`tsc --noEmit` for the server and the tests, `tsc -p console --noEmit` for the
 * console: what `npm run typecheck` runs, its console types already made), beside the tests instead of
 * before them, at the lowest CPU priority: the test groups spend much of their time waiting (on
 * Chromium, PostgreSQL, child processes), and the type check takes those idle moments instead of
 * holding both cores for its own 10-15 s before the first test starts. Its verdict is printed and
 * counted when it ends (after the tests at the latest). Resolves with [name, exit status, output] each.
 */
function typecheckBesideTests() {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  return [['tsc --noEmit', ['--noEmit']], ['tsc -p console --noEmit', ['-p', 'console', '--noEmit']]].map(([name, args]) => new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      setPriority(child.pid, osConstants.priority.PRIORITY_LOW);
    } catch {
      // Not allowed here: it runs at normal priority, which is only slower.
    }
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => resolve([name, code ?? (signal ? 1 : 0), output]));
  }));
}
const typechecks = options.typecheck ? typecheckBesideTests() : [];

/**
 * The single executable, built by build.mjs once for the run when a chosen file spawns Gatehouse
 * (test/service/helpers/gatehouse-process.ts, which runs it by default): a spawned `serve` from the
 * sources through tsx cost about 0.85 s of CPU before it listened, the executable about 0.15 s, and the
 * suite spawns some 30 (docs/contributing.md, "Tests"). The build runs beside the first test files
 * (the spawning ones come late in their groups, and wait for it if they come sooner); the groups learn
 * the path from GATEHOUSE_TEST_EXECUTABLE, and `<path>.failed` holds build.mjs's output if it failed.
 * The temp dir goes when the run ends.
 */
function buildExecutable() {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-test-exe-'));
  const out = join(dir, 'gatehouse');
  const child = spawn(process.execPath, [join(root, 'build.mjs'), '--out', out], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  child.on('close', (code, signal) => {
    if (code !== 0) writeFileSync(`${out}.failed`, `exit ${code ?? signal}\n${output}`);
  });
  process.on('exit', () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  process.env.GATEHOUSE_TEST_EXECUTABLE = out;
}
const spawnsGatehouse = (file) => /helpers\/(gatehouse-process|litestream)\.ts'/.test(readFileSync(join(root, file), 'utf8'));
if (process.env.GATEHOUSE_TEST_EXECUTABLE === undefined && files.some(spawnsGatehouse)) buildExecutable();

/** Prints the type check's verdict; true when it passed (or did not run). */
async function typecheckPassed() {
  let passed = true;
  for (const [name, code, output] of await Promise.all(typechecks)) {
    process.stdout.write(`\n── type check (${name}): ${code === 0 ? 'ok' : 'FAILED'} ──\n${output}`);
    passed &&= code === 0;
  }
  return passed;
}

const started = Date.now();
if (options.isolation === 'process') {
  // Node's own scheduling: a process per file, `groups` of them at a time.
  const { code } = await runGroup(files, ['--test-isolation=process', `--test-concurrency=${groupCount}`, '--test-reporter=spec'], 'inherit');
  process.exit((await typecheckPassed()) ? code : 1);
}

// With --record, each group's process also runs test/cost-reporter.mjs into a file of its own.
const recordDir = options.record ? mkdtempSync(join(tmpdir(), 'gatehouse-test-costs-')) : null;
const reporters = (i) => [
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  ...(recordDir ? ['--test-reporter=./test/cost-reporter.mjs', `--test-reporter-destination=${join(recordDir, `${i}.json`)}`] : []),
];

/** Merges the groups' measured costs into test/costs.json (one line per file), dropping files that are gone. */
function saveCosts() {
  if (recordDir === null) return;
  const costs = { ...recordedCosts };
  for (const name of readdirSync(recordDir)) Object.assign(costs, JSON.parse(readFileSync(join(recordDir, name), 'utf8')));
  rmSync(recordDir, { recursive: true, force: true });
  const kept = find(join(root, 'test')).sort().filter((file) => costs[file] !== undefined);
  const lines = kept.map((file) => `  ${JSON.stringify(file)}: { "wallMs": ${costs[file].wallMs}, "cpuMs": ${costs[file].cpuMs} }`);
  writeFileSync(costsPath, `{\n${lines.join(',\n')}\n}\n`);
  process.stdout.write(`test/run.mjs: recorded what ${kept.length} files cost in test/costs.json\n`);
}

const groups = deal(files, groupCount);
if (groups.length === 1) {
  const { code } = await runGroup(groups[0], ['--test-isolation=none', ...reporters(0)], 'inherit');
  saveCosts();
  process.exit((await typecheckPassed()) ? code : 1);
}
// Several groups at once: each one's report is printed whole when it ends (interleaved lines from two
// spec reporters could not be read), then the totals of all of them.
process.stdout.write(`test/run.mjs: ${files.length} files in ${groups.length} groups, one process each; each group's report follows when it ends\n`);
const results = await Promise.all(
  groups.map(async (list, i) => {
    const result = await runGroup(list, ['--test-isolation=none', ...reporters(i)], ['ignore', 'pipe', 'pipe']);
    process.stdout.write(`\n── group ${i + 1} of ${groups.length}: ${list.length} files, ended after ${((Date.now() - started) / 1000).toFixed(0)} s ──\n`);
    process.stdout.write(result.output);
    return result;
  }),
);
const totals = {};
for (const { output } of results) {
  for (const [, name, value] of output.matchAll(/^ℹ (tests|pass|fail|cancelled|skipped|todo) (\d+)$/gm)) totals[name] = (totals[name] ?? 0) + Number(value);
}
const failed = results.filter((r) => r.code !== 0).length;
saveCosts();
const typed = await typecheckPassed();
process.stdout.write(
  `\n── all ${groups.length} groups (${files.length} files): ${Object.entries(totals).map(([k, v]) => `${k} ${v}`).join(', ')}; ` +
    `${((Date.now() - started) / 1000).toFixed(0)} s; ${failed === 0 ? 'ok' : `${failed} group(s) FAILED`}` +
    `${options.typecheck ? `; type check ${typed ? 'ok' : 'FAILED'}` : ''} ──\n`,
);
process.exit(failed === 0 && typed ? 0 : 1);
