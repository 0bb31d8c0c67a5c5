// Summarises a V8 CPU profile (`--cpu-prof`, BENCH_CPU_PROF in http.ts): where the busy time went, by
// function (self time) and by part of the stack (the service's own code, Node's HTTP, SQLite, JSON, the
// collector), for docs/performance.md.
// Run: node --import tsx test/bench/profile-summary.ts <file.cpuprofile> [top=25]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Which part of the stack a frame belongs to, by its file and name (first match wins). */
const PARTS: Array<[string, (frame: ProfileNode['callFrame']) => boolean]> = [
  ['idle', (f) => f.functionName === '(idle)'],
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
  ['SQLite (better-sqlite3, native)', (f) => /^(get|all|run|iterate|pluck|raw|prepare|exec)$/.test(f.functionName) && f.url === ''],
  ['JSON', (f) => /^(stringify|parse)$/.test(f.functionName) && f.url === ''],
  ['Node HTTP and sockets', (f) => /^node:(_http|http|net|stream|internal\/(http|streams|stream_base|net|timers|process\/task_queues|async_hooks))/.test(f.url)],
  ['other Node internals', (f) => f.url.startsWith('node:')],
  ['native / program', (f) => f.url === ''],
];

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

const total = [...self.values()].reduce((a, b) => a + b, 0);
const idle = [...self].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)').reduce((a, [, t]) => a + t, 0);
const busy = total - idle;
const functions = new Map<string, number>();
const parts = new Map<string, number>();
for (const [id, time] of self) {
  const frame = byId.get(id)!.callFrame;
  if (frame.functionName === '(idle)') continue;
  const where = frame.url ? `${frame.url.replace(/^.*\//, '')}:${frame.lineNumber + 1}` : '(native)';
  const name = `${frame.functionName || '(anonymous)'} ${where}`;
  functions.set(name, (functions.get(name) ?? 0) + time);
  const part = PARTS.find(([, test]) => test(frame))?.[0] ?? 'Gatehouse and its libraries (JS)';
  parts.set(part, (parts.get(part) ?? 0) + time);
}
const pct = (t: number) => `${((100 * t) / busy).toFixed(1)}%`.padStart(6);
console.log(`${file}: ${(busy / 1e6).toFixed(2)} s busy of ${(total / 1e6).toFixed(2)} s sampled`);
console.log('\nby part of the stack (self time, share of busy time):');
for (const [part, time] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(time)}  ${part}`);
// Inclusive time: a function's samples and its callees' (each sample counted once per function, however deep the recursion).
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const inclusive = new Map<string, number>();
for (const [id, time] of self) {
  if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)!.callFrame;
    const name = `${frame.functionName || '(anonymous)'} ${frame.url ? `${frame.url.replace(/^.*\//, '')}:${frame.lineNumber + 1}` : '(native)'}`;
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + time);
  }
}
console.log(`\ntop ${topArg ?? 25} functions by inclusive time:`);
for (const [name, time] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 25))) console.log(`  ${pct(time)}  ${name}`);
console.log(`\ntop ${topArg ?? 25} functions by self time:`);
for (const [name, time] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 25))) console.log(`  ${pct(time)}  ${name}`);
