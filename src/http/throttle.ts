// Throttling of repeated failed authentication, per client address, in memory.
//
// Each address gets a fixed window that opens at its first failure. Once it has failed `limit`
// times inside the window it is blocked until the window ends: every /v1 request from it gets
// 429 with Retry-After, a valid token included, so a guesser learns nothing from its last tries.
// State is per process and lost on restart, which is fine for a guard against guessing.

export interface FailureThrottle {
  /** Seconds until `address` may try again, or 0 when it is not blocked. */
  retryAfter(address: string, nowMs: number): number;
  /** Counts one failure; returns true when this failure is the one that blocks the address. */
  fail(address: string, nowMs: number): boolean;
  /** Addresses currently tracked (bounded by MAX_TRACKED). */
  tracked(): number;
}

interface Window {
  startedMs: number;
  failures: number;
}

/** Addresses tracked at once; past this, the oldest windows are dropped. */
export const MAX_TRACKED = 10_000;

/** A throttle allowing `limit` failures per `windowMs` per address; `limit` 0 never blocks. */
export function createFailureThrottle(limit: number, windowMs: number): FailureThrottle {
  const windows = new Map<string, Window>();

  const current = (address: string, nowMs: number): Window | undefined => {
    const w = windows.get(address);
    if (w && nowMs - w.startedMs >= windowMs) {
      windows.delete(address);
      return undefined;
    }
    return w;
  };

  // A Map iterates in insertion order and a window is only ever inserted when it starts, so the
  // first entries are the oldest: expired ones are all at the front, and dropping from the front
  // costs O(1) per insert however many addresses an attacker uses.
  const makeRoom = (nowMs: number) => {
    for (const [address, w] of windows) {
      if (windows.size < MAX_TRACKED && nowMs - w.startedMs < windowMs) break;
      windows.delete(address);
    }
  };

  return {
    retryAfter(address, nowMs) {
      if (limit === 0) return 0;
      const w = current(address, nowMs);
      if (!w || w.failures < limit) return 0;
      return Math.max(1, Math.ceil((w.startedMs + windowMs - nowMs) / 1000));
    },
    fail(address, nowMs) {
      if (limit === 0) return false;
      let w = current(address, nowMs);
      if (!w) {
        makeRoom(nowMs);
        w = { startedMs: nowMs, failures: 0 };
        windows.set(address, w);
      }
      w.failures += 1;
      return w.failures === limit;
    },
    tracked: () => windows.size,
  };
}
