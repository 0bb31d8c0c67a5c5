// A preload that logs where a Gatehouse process's memory is, every few seconds: the process's RSS split
// (smaps_rollup: anonymous vs file-backed), the main thread's V8 heap by space, each read worker's heap
// (captured as the pool starts them), and the largest anonymous mappings (V8's pages, malloc arenas).
// Works on the executable: BENCH_NODE_OPTIONS="--require $PWD/test/bench/memory-probe.cjs" (bench) or
// NODE_OPTIONS=... dist/gatehouse serve …; one JSON line per sample to /tmp/gatehouse-memory-<pid>.log
// (MEMORY_PROBE_MS, default 2000, apart). docs/performance.md ("Memory") reads these.
'use strict';
const { isMainThread } = require('node:worker_threads');
if (isMainThread) {
  const fs = require('node:fs');
  const v8 = require('node:v8');
  const threads = require('node:worker_threads');
  const out = `/tmp/gatehouse-memory-${process.pid}.log`;
  const every = Number(process.env.MEMORY_PROBE_MS ?? 2000);
  const workers = new Set();
  const Original = threads.Worker;
  threads.Worker = class extends Original {
    constructor(...args) {
      super(...args);
      workers.add(this);
      this.once('exit', () => workers.delete(this));
    }
  };
  const mb = (n) => Math.round(n / 1048576);
  const rollup = () => {
    const text = fs.readFileSync('/proc/self/smaps_rollup', 'utf8');
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) / 1024;
    return { rss: field('Rss'), anon: field('Anonymous'), file: field('Rss') - field('Anonymous') - field('Shmem'), swap: field('Swap') };
  };
  // Anonymous mappings by resident size (the biggest few), and how many there are of 60-64 MB (glibc's per-thread arenas).
  const anonMaps = () => {
    const text = fs.readFileSync('/proc/self/smaps', 'utf8');
    const maps = [];
    let current = null;
    for (const line of text.split('\n')) {
      const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
      if (head) {
        current = { start: head[1], size: (parseInt(head[2], 16) - parseInt(head[1], 16)) / 1048576, inode: head[3], name: head[4] || '', rss: 0 };
        maps.push(current);
      } else if (current && line.startsWith('Rss:')) current.rss = Number(/(\d+)/.exec(line)[1]) / 1024;
    }
    const anon = maps.filter((m) => m.inode === '0' && !m.name.startsWith('/'));
    // By kind: [heap] (the main thread's malloc arena), glibc's per-thread arenas (64 MiB-aligned), V8's
    // pages (256 KiB mappings each, at random addresses), anything else (stacks, bigger V8 spaces, SQLite's
    // larger blocks).
    const kinds = { heap: 0, arenas: 0, v8pages: 0, other: 0 };
    let arenas = 0;
    for (const m of anon) {
      if (m.name === '[heap]') kinds.heap += m.rss;
      else if (m.name === '' && BigInt(`0x${m.start}`) % 0x4000000n === 0n) {
        kinds.arenas += m.rss;
        arenas += 1;
      } else if (m.name === '' && Math.abs(m.size - 0.25) < 1e-9) kinds.v8pages += m.rss;
      else kinds.other += m.rss;
    }
    return `${Object.entries(kinds).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')} (${arenas} arenas)`;
  };
  // Garbage collections on the main thread since the last sample: count and pause time, by kind.
  const { PerformanceObserver, constants } = require('node:perf_hooks');
  let gc = { minor: 0, minorMs: 0, major: 0, majorMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const major = entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR || entry.detail?.kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL;
      gc[major ? 'major' : 'minor'] += 1;
      gc[major ? 'majorMs' : 'minorMs'] += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  let lastCpu = process.cpuUsage();
  let peak = 0;
  const sample = async () => {
    const mem = process.memoryUsage();
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name.replace('_space', ''), mb(s.space_size)]));
    const worker = [];
    for (const w of workers) {
      try {
        const h = await w.getHeapStatistics();
        worker.push({ heap: mb(h.total_heap_size), used: mb(h.used_heap_size), ext: mb(h.external_memory), malloced: mb(h.malloced_memory) });
      } catch {
        // stopped meanwhile
      }
    }
    const r = rollup();
    const cpu = process.cpuUsage(lastCpu);
    lastCpu = process.cpuUsage();
    const gcNow = { ...gc, minorMs: Math.round(gc.minorMs), majorMs: Math.round(gc.majorMs), cpuMs: Math.round((cpu.user + cpu.system) / 1000) };
    gc = { minor: 0, minorMs: 0, major: 0, majorMs: 0 };
    const line = { t: Math.round(process.uptime()), gc: gcNow, rss: Math.round(r.rss), anon: Math.round(r.anon), file: Math.round(r.file), heap: mb(mem.heapTotal), used: mb(mem.heapUsed), external: mb(mem.external), arrayBuffers: mb(mem.arrayBuffers), spaces, workers: worker };
    // The mappings at every new peak (MEMORY_PROBE_MAPS=all: at every sample).
    if (r.rss > peak + 4 || process.env.MEMORY_PROBE_MAPS === 'all') {
      peak = Math.max(peak, r.rss);
      line.maps = anonMaps();
    }
    fs.appendFileSync(out, `${JSON.stringify(line)}\n`);
  };
  setInterval(() => void sample().catch(() => {}), every).unref();
}
