// Throttling of repeated failed authentication, per client address, in memory.
//
// Each address gets a fixed window that opens at its first failure. Once it has failed `limit`
// times inside the window it is blocked until the window ends: bad (or missing) tokens from it get 429
// with Retry-After. A valid token is still served (an address may be a NAT or an identity provider's
// egress shared with whoever sends the bad ones), without handing a guesser more verdicts: a token
// already served from that address in the window is served at no cost; one not seen there yet is
// checked only while the address's checks during the block stay within another `limit` (bad tokens
// during the block spend them too), after which anything not seen there answers 429 whether it is
// valid or not. So an address gets at most twice `limit` verdicts on unknown tokens per window, and a
// success never resets the count. State is per process and lost on restart, which is fine for a guard
// against guessing.

export interface FailureThrottle {
  /** Seconds until `address` may try again, or 0 when it is not blocked. */
  retryAfter(address: string, nowMs: number): number;
  /** Counts one failure; returns true when this failure is the one that blocks the address. */
  fail(address: string, nowMs: number): boolean;
  /**
   * Whether a valid token (`tokenId`) presented from `address` is served: always when the address is not
   * blocked; while it is, when the token was served from there in this window, or else while the checks
   * made during the block stay within `limit` (then it is remembered). Remembers it in any case when served.
   */
  admit(address: string, nowMs: number, tokenId: string): boolean;
  /** Addresses currently tracked (bounded by MAX_TRACKED). */
  tracked(): number;
}

interface Window {
  startedMs: number;
  failures: number;
  /** Checks of tokens not yet served from here, made while blocked (bad ones included). */
  probes: number;
  /** Tokens served from this address in this window (at most MAX_KNOWN_TOKENS). */
  known: Set<string>;
}

/** Tokens remembered per address: a NAT's few clients, not a guesser's many. */
const MAX_KNOWN_TOKENS = 32;

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
        w = { startedMs: nowMs, failures: 0, probes: 0, known: new Set() };
        windows.set(address, w);
      }
      if (w.failures >= limit) w.probes += 1;
      w.failures += 1;
      return w.failures === limit;
    },
    admit(address, nowMs, tokenId) {
      if (limit === 0) return true;
      const w = current(address, nowMs);
      // No window: nothing failed from here lately, so nothing to remember either.
      if (!w) return true;
      if (w.failures >= limit && !w.known.has(tokenId)) {
        if (w.probes >= limit) return false;
        w.probes += 1;
      }
      if (w.known.size < MAX_KNOWN_TOKENS) w.known.add(tokenId);
      return true;
    },
    tracked: () => windows.size,
  };
}
