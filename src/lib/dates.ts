// The one reader of dates clients send (every date filter uses it): strict, so an impossible date is refused, never rolled over.

/** A date filter as read: the instant it starts, and whether it named a whole (UTC) day. */
export interface DateInput {
  at: Date;
  wholeDay: boolean;
}

// `2025-01-01`, or a date-time with a zone: `T` or a space between date and time (the reference's own
// example is `2025-01-01 00:00:00+00:00`), seconds and fractions optional, `Z` or ±HH:MM / ±HHMM.
// A `+` left unencoded in a query string arrives as a space, so ` 00:00` after the time reads as `+00:00`.
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+\- ])(\d{2}):?(\d{2}))$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

function validDay(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!);
}

/** Reads `raw` as described above; null when it is not one of those forms or names a date or time that does not exist. */
export function parseDateInput(raw: string): DateInput | null {
  const day = DATE.exec(raw);
  if (day) {
    const [year, month, date] = day.slice(1, 4).map(Number) as [number, number, number];
    if (!validDay(year, month, date)) return null;
    return { at: new Date(Date.UTC(year, month - 1, date)), wholeDay: true };
  }
  const m = DATE_TIME.exec(raw);
  if (!m) return null;
  const [year, month, date, hour, minute] = m.slice(1, 6).map(Number) as [number, number, number, number, number];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const millis = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  if (!validDay(year, month, date) || hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (m[8] === undefined) {
    const [offsetHours, offsetMins] = [Number(m[10]), Number(m[11])];
    if (offsetHours > 23 || offsetMins > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const utc = Date.UTC(year, month - 1, date, hour, minute, second, millis) - offsetMinutes * 60_000;
  return { at: new Date(utc), wholeDay: false };
}
