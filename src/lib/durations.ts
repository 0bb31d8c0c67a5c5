// Durations as the API counts them (whole minutes), in one place: the one-year cap every duration
// shares, and when something lasting so many minutes ends, with the reference's two spellings of
// "no expiry" (0 on access edges, the spec's "indefinite"; -1 on requests and their configurations).

/** The longest duration anything takes, in minutes: a year (365.25 days). */
export const MAX_MINUTES = 525960;

/** How a duration says "no expiry": 0 minutes on access edges and NHI grants, -1 on requests. */
export type NoExpiry = 0 | -1;

/** `at` moved `minutes` later (earlier for a negative count). */
export function addMinutes(at: Date, minutes: number): Date {
  return new Date(at.getTime() + minutes * 60_000);
}

/**
 * When something given at `now` for `minutes` ends, as stored (ISO 8601, UTC), or null when `minutes`
 * is `noExpiry`, the way this kind of duration spells "no expiry".
 */
export function expiryAfter(now: Date, minutes: number, noExpiry: NoExpiry): string | null {
  return minutes === noExpiry ? null : addMinutes(now, minutes).toISOString();
}
