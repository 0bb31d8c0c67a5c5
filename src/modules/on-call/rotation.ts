// Who is on call at an instant and until when, from the shifts a provider stated: pure, no I/O.
import type { OnCallShift } from './provider.ts';

/** A shift the provider states no end for (PagerDuty's permanent on-call) is held this long, renewed while it lasts. */
export const OPEN_SHIFT_MS = 24 * 3_600_000;

/** One person on call at an instant: their shift as stated, its end joined to the next when that is theirs too. */
export interface Cover {
  /** Lower-cased, as matched to Gatehouse users. */
  email: string;
  name: string;
  startsAt: string | null;
  endsAt: string;
}

const covers = (shift: OnCallShift, at: string) =>
  (shift.starts_at === null || shift.starts_at <= at) && (shift.ends_at === null || shift.ends_at > at);

/**
 * The people on call at `now` (one entry per email), each until the end of their shift, carried on
 * through later shifts of theirs that start before (or as) it ends — "renewed when the next shift is theirs
 * too". A shift without a stated end lasts OPEN_SHIFT_MS from `now`. Shifts without an email are left out.
 */
export function onCallAt(shifts: readonly OnCallShift[], now: Date): Cover[] {
  const at = now.toISOString();
  const open = new Date(now.getTime() + OPEN_SHIFT_MS).toISOString();
  const byEmail = new Map<string, OnCallShift[]>();
  for (const shift of shifts) {
    if (shift.email === '') continue;
    const email = shift.email.toLowerCase();
    byEmail.set(email, [...(byEmail.get(email) ?? []), shift]);
  }
  const result: Cover[] = [];
  for (const [email, own] of byEmail) {
    const current = own.filter((shift) => covers(shift, at));
    if (current.length === 0) continue;
    let end = current.map((shift) => shift.ends_at ?? open).sort().at(-1)!;
    // Each pass can only move the end later, so at most one pass per shift.
    for (let pass = 0; pass < own.length; pass++) {
      const next = own.filter((shift) => shift.starts_at !== null && shift.starts_at <= end && (shift.ends_at ?? open) > end);
      if (next.length === 0) break;
      end = next.map((shift) => shift.ends_at ?? open).sort().at(-1)!;
    }
    const start = current.map((shift) => shift.starts_at).filter((s): s is string => s !== null).sort()[0] ?? null;
    result.push({ email, name: current[0]!.name, startsAt: start, endsAt: end });
  }
  return result.sort((a, b) => a.email.localeCompare(b.email));
}
