// A node:test reporter that writes what each test file cost, as JSON, when the run ends: wall time and
// CPU time (this process's plus its finished children's: spawned CLIs, PostgreSQL, Chromium) from the
// moment the file's first top-level suite starts to the moment the next file's does. Meant for
// --test-isolation=none, where files run one after another in this process; test/run.mjs --record uses it.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const CLOCK_TICKS_PER_SECOND = 100; // Linux's USER_HZ, the unit of /proc/self/stat's times

/** CPU milliseconds so far: this process's, and its children's that have ended and been waited for. */
function cpuMs() {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may contain spaces): state is [0], cutime [13], cstime [14].
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    children = ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    // Not Linux: children's time is not counted.
  }
  return (own.user + own.system) / 1000 + children;
}

export default async function* costReporter(source) {
  const costs = {};
  let open = null; // { file, wallMs, cpuMs } at the start of the running segment
  const close = () => {
    if (open === null) return;
    const cost = (costs[open.file] ??= { wallMs: 0, cpuMs: 0 });
    cost.wallMs += Date.now() - open.wallMs;
    cost.cpuMs += cpuMs() - open.cpuMs;
    open = null;
  };
  for await (const event of source) {
    if (event.type !== 'test:dequeue' || event.data.nesting !== 0 || !event.data.file) continue;
    close();
    open = { file: relative(process.cwd(), event.data.file), wallMs: Date.now(), cpuMs: cpuMs() };
  }
  close();
  for (const cost of Object.values(costs)) {
    cost.wallMs = Math.round(cost.wallMs);
    cost.cpuMs = Math.round(cost.cpuMs);
  }
  yield `${JSON.stringify(costs)}\n`;
}
