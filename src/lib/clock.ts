// Time as the service sees it: injected so tests can move it instead of sleeping.

export interface Clock {
  /** The current instant. */
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO 8601 UTC with milliseconds and a trailing Z: the one representation stored and returned. */
export function isoTimestamp(at: Date): string {
  return at.toISOString();
}

/** A clock that stands still until moved; for tests and reproducible fixtures. */
export class ManualClock implements Clock {
  #at: number;
  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.#at = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#at);
  }
  advance(ms: number): void {
    this.#at += ms;
  }
  set(at: Date | string): void {
    this.#at = new Date(at).getTime();
  }
}
