// How the console talks to Gatehouse: /v1 with the sign-in session's cookie (sent by the browser) and,
// on writes, the CSRF token; every failure becomes an ApiError whose message is a sentence for people.

export interface Me {
  user: { user_id: string; email: string; full_name: string; organization_role: 'ADMIN' | 'MEMBER'; manager_user_id?: string };
  web_session_id: string;
  expires_at: string;
  csrf_token: string;
}

export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly details: { path: string; message: string }[] = []) {
    super(message);
  }
}

/** Called when a request finds the session gone (401): the app shows the sign-in page with the reason. */
let onSignedOut: (reason: string) => void = () => undefined;
let csrf = '';

export function setSession(token: string, signedOut: (reason: string) => void): void {
  csrf = token;
  onSignedOut = signedOut;
}

function describe(status: number, body: { message?: string; details?: { path: string; message: string }[] } | undefined): string {
  const base = body?.message ?? `Gatehouse answered ${status}`;
  const fields = (body?.details ?? []).filter((d) => !base.includes(d.message)).map((d) => `${d.path}: ${d.message}`);
  return fields.length > 0 ? `${base} (${fields.join('; ')})` : base;
}

export type Query = Record<string, string | number | boolean | undefined | string[]>;

/** Calls `path` (under /v1 unless it starts with /console). Throws ApiError with a readable message. */
export async function call<T = any>(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
  const url = new URL(path.startsWith('/console') ? path : `/v1${path}`, location.origin);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value === undefined || value === '') continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrf;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'Gatehouse could not be reached. Check your connection and try again.');
  }
  const text = await res.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (res.status === 401) {
    onSignedOut(body?.message ?? 'Your session has ended; sign in again.');
    throw new ApiError(401, body?.message ?? 'You are signed out.');
  }
  if (!res.ok) throw new ApiError(res.status, describe(res.status, body), body?.details);
  return body as T;
}

export const get = <T = any>(path: string, query?: Query) => call<T>('GET', path, { query });
export const post = <T = any>(path: string, body?: unknown, query?: Query) => call<T>('POST', path, { body, query });
export const put = <T = any>(path: string, body?: unknown) => call<T>('PUT', path, { body });
export const del = <T = any>(path: string) => call<T>('DELETE', path);

/** Every page of a cursor-paged list (up to `max` rows). */
export async function all<T = any>(path: string, query: Query = {}, max = 2000): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await get<{ results: T[]; next?: string | null }>(path, { ...query, page_size: 200, cursor });
    rows.push(...page.results);
    cursor = page.next ?? undefined;
  } while (cursor && rows.length < max);
  return rows;
}
