// Node/V8 flags Gatehouse runs with: build.mjs embeds them in the executable (SEA execArgv), and the
// benches start the sources with the same, so what they measure is what ships.
// --max-semi-space-size=8: V8 otherwise grows the young generation to 64 MB semi-spaces under a flood
// of requests, most of the service's memory; 8 MB keeps scavenges short and RSS under issue 21's
// 300 MB (measured in docs/performance.md, "Memory").
export const RUNTIME_FLAGS = ['--max-semi-space-size=8'];
