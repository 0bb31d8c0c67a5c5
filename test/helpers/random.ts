// One seeded generator for every randomized test and bench seeding: the same seed gives the same
// sequence, so a failure (or a benchmark's database) can be reproduced from the seed alone.

/** mulberry32: a small, fast 32-bit generator; `random()` in [0, 1), `int(n)` in [0, n). */
export function seededRandom(seed: number): { random: () => number; int: (n: number) => number } {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { random, int: (n) => Math.floor(random() * n) };
}
