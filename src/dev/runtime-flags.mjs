// Node/V8 flags Gatehouse runs with: build.mjs embeds them in the executable (SEA execArgv), and the
// benches start the sources with the same, so what they measure is what ships.
// --max-semi-space-size=16: V8 otherwise grows the young generation to 64 MB semi-spaces under a flood
// of requests. 16, not the 8 issue 21 chose: with 8, a request alive across two scavenges (50 ms apart
// at 4,000 reads/s) is promoted, and the old generation then grew by ~25 MB/s and collected 5–10 times
// a second; with 16, less than half as much is promoted and each read costs less CPU, for 16 MB more
// young generation (docs/performance.md, "Memory"). The old generation's growth is bounded at run time
// (src/serve.ts, HEAP_GROWING_PERCENT): that flag cannot be here, see there.
export const RUNTIME_FLAGS = ['--max-semi-space-size=16'];
