// What GET and the audit trail show of a connector's URLs: the password in the user info and the values
// of the query string masked (a token or `?password=` rides there), so no answer, event or log shows them.
import { maskSecret } from '../event-streams/secrets.ts';

/** PostgreSQL connection parameters that are settings, not secrets: shown as written. */
const PLAIN_PARAMETERS = new Set(['sslmode', 'ssl', 'connect_timeout', 'application_name', 'target_session_attrs', 'keepalives']);

/** `raw` with its user-info password and every query value (but the plain settings above) masked; `raw` unchanged when it is no URL. */
export function maskUrl(raw: string): string {
  if (!URL.canParse(raw)) return maskSecret(raw);
  const url = new URL(raw);
  if (url.password) url.password = maskSecret(decodeURIComponent(url.password));
  // Rebuilt only when something is masked, so a URL without secrets reads exactly as it was given.
  const masked = [...url.searchParams].map(([name, value]) => [name, PLAIN_PARAMETERS.has(name.toLowerCase()) || value === '' ? value : maskSecret(value)] as [string, string]);
  if (masked.some(([, value], i) => value !== [...url.searchParams][i]![1])) url.search = new URLSearchParams(masked).toString();
  return url.href;
}

/** Whether `raw` carries a mask as {@link maskUrl} writes it (twelve asterisks) in its password or a query value. */
export function carriesMask(raw: string): boolean {
  if (!URL.canParse(raw)) return false;
  const url = new URL(raw);
  return [decodeURIComponent(url.password), ...url.searchParams.values()].some((value) => /\*{12}/.test(value));
}
