// Times and durations as notices write them: an instant in words with its zone, a span of time in
// days, hours and minutes. Pure; the same words in email and Slack.

/** The zone notices write times in. Users carry no time zone (the reference's User has none), so UTC for everyone. */
export const NOTICE_TIME_ZONE = 'UTC';

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * `iso` in words with its zone, e.g. "Friday, November 27, 2026 at 16:43 UTC". en-US because every
 * Node build carries it (a small-ICU executable has no other locale). Throws RangeError for a zone
 * the runtime does not know.
 */
export function instantInWords(iso: string, timeZone: string = NOTICE_TIME_ZONE): string {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone, timeZoneName: 'short',
    });
    formatters.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * A span of `minutes` in words: "45 minutes", "3 hours 59 minutes", "1 day 2 hours" (from a day up,
 * to the nearest hour). Whole minutes, rounded; under half a minute is "less than a minute".
 */
export function spanInWords(minutes: number): string {
  const whole = Math.round(minutes);
  if (whole < 1) return 'less than a minute';
  if (whole < 60) return plural(whole, 'minute');
  if (whole < 1440) {
    const rest = whole % 60;
    return rest === 0 ? plural(whole / 60, 'hour') : `${plural(Math.floor(whole / 60), 'hour')} ${plural(rest, 'minute')}`;
  }
  const hours = Math.round(whole / 60);
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? plural(days, 'day') : `${plural(days, 'day')} ${plural(hours % 24, 'hour')}`;
}

/** A setting's length of time (a duration, a warning), exact: "1 day", "90 minutes"; -1 is "until revoked". */
export function durationInWords(minutes: number): string {
  if (minutes === -1) return 'until revoked';
  if (minutes % 1440 === 0) return plural(minutes / 1440, 'day');
  if (minutes % 60 === 0) return plural(minutes / 60, 'hour');
  return plural(minutes, 'minute');
}
