// The benchmarks' measures: the median time of an operation, and a server process's CPU and memory.
import { readFileSync } from 'node:fs';

/** The median of `runs` runs of `run`, in milliseconds. */
export async function medianMs(runs: number, run: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** CPU time a process has used so far (user + system), in ms (/proc/<pid>/stat, 10 ms ticks). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** A process's resident set now (VmRSS) or at its peak so far (VmHWM), in MB. */
export function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}
