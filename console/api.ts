// How the console talks to Gatehouse: /v1 with the sign-in session's cookie (sent by the browser) and,
// on writes, the CSRF token; every failure becomes an ApiError whose message is a sentence for people.

/** Every operation's types, generated from Gatehouse's API document (`npm run console:types`). */
import type { components, paths } from './api-types.ts';

/** A component of the API document by name: `Schema<'Resource'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** Who is signed in, and the CSRF token their writes carry (`GET /console/session`). */
export type Me = Schema<'ConsoleSession'>;

/** The API's routes as the console writes them: /v1 paths without the /v1, /console paths whole. */
type Api = { [P in keyof paths as P extends `/v1${infer Rest}` ? Rest : P]: paths[P] };
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The paths that have `method`, as path templates: `/requests/{id}`. */
export type PathWith<M extends Method> = { [P in keyof Api]: Api[P][M & keyof Api[P]] extends undefined ? never : P }[keyof Api];
type Operation<P extends keyof Api, M extends Method> = NonNullable<Api[P][M & keyof Api[P]]>;

type Present<T> = [NonNullable<T>] extends [never] ? false : true;
type PathParams<O> = O extends { parameters: { path?: infer T } } ? T : never;
type QueryParams<O> = O extends { parameters: { query?: infer T } } ? T : never;
type Body<O> = O extends { requestBody?: { content: { 'application/json': infer T } } } ? T : never;
type BodyRequired<O> = O extends { requestBody: object } ? true : false;

/** What a call of operation `O` gives: its path parameters (required), its query and its body (required when the document says so). */
type Input<O> = (Present<PathParams<O>> extends true ? { path: NonNullable<PathParams<O>> } : { path?: never })
  & (Present<QueryParams<O>> extends true ? { query?: NonNullable<QueryParams<O>> } : { query?: never })
  & (Present<Body<O>> extends true ? (BodyRequired<O> extends true ? { body: Body<O> } : { body?: Body<O> }) : { body?: never });
/** The input argument, optional when nothing in it is required. */
type Args<O> = {} extends Input<O> ? [input?: Input<O>] : [input: Input<O>];

/** What a success of operation `O` answers (its 200 or 201 JSON body). */
type Answer<O> = O extends { responses: infer R }
  ? R[Extract<keyof R, 200 | 201>] extends infer S ? S extends { content: { 'application/json': infer T } } ? T : never : never
  : never;

/** What `GET path` answers: `Answered<'/resources/{resource_id}'>`. */
export type Answered<P extends PathWith<'get'>> = Answer<Operation<P, 'get'>>;

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

type ErrorBody = Partial<Schema<'Error'>>;

/** Words an API field name spells in capitals. */
const CAPITALS: Record<string, string> = { url: 'URL', uri: 'URI', id: 'ID', ids: 'IDs', smtp: 'SMTP', oidc: 'OIDC', api: 'API' };

/** API fields the console's forms call by another name (their label there). */
const FIELD_NAMES: Record<string, string> = {
  webhook_url: 'receiver URL', custom_metadata: 'answers', access_level_remote_id: 'level', duration_minutes: 'duration',
  admin_owner_id: 'owner', reviewer_message_channel_id: 'reviewer channel', remote_id: 'ID at the provider',
};

/** An API field as people read it: `token_label` → "token label", `webhook_url` → "receiver URL", `owners.2.name` → "owners, item 3, name". */
export function fieldWords(path: string): string {
  return path.split('.').map((part) => (/^\d+$/.test(part)
    ? `item ${Number(part) + 1}`
    : FIELD_NAMES[part] ?? part.split('_').map((word) => CAPITALS[word] ?? word).join(' '))).join(', ');
}

/**
 * A refusal in words. A validation failure names each field in words, not as the API's "invalid body:
 * webhook_url: …"; anything else is the API's message, with the fields it does not already name.
 */
function describe(status: number, body: ErrorBody | undefined): string {
  const details = body?.details ?? [];
  if (body?.code === 'validation_failed' && details.length > 0) {
    return `Not accepted: ${details.map((d) => `${fieldWords(d.path)}: ${d.message}`).join('; ')}${/[.!?)]$/.test(details.at(-1)!.message) ? '' : '.'}`;
  }
  const base = body?.message ?? `Gatehouse answered ${status}`;
  const fields = (body?.details ?? []).filter((d) => !base.includes(d.message)).map((d) => `${d.path}: ${d.message}`);
  return fields.length > 0 ? `${base} (${fields.join('; ')})` : base;
}

/** A path template with its parameters filled in: `/requests/{id}` → `/requests/3f…`. */
function fill(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

type Query = Record<string, string | number | boolean | undefined | null | readonly string[]>;

/** Calls `path` (under /v1 unless it starts with /console). Throws ApiError with a readable message. */
async function call(method: string, template: string, input: { path?: Record<string, string>; query?: Query; body?: unknown } = {}): Promise<unknown> {
  const path = fill(template, input.path);
  const url = new URL(path.startsWith('/console') ? path : `/v1${path}`, location.origin);
  for (const [key, value] of Object.entries(input.query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    for (const item of typeof value === 'object' ? value : [value]) url.searchParams.append(key, String(item));
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrf;
  if (input.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: input.body === undefined ? undefined : JSON.stringify(input.body), credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'Gatehouse could not be reached. Check your connection and try again.');
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    // Every refusal comes in the one error shape (the Error component).
    const error = (typeof body === 'object' && body !== null ? body : undefined) as ErrorBody | undefined;
    if (res.status === 401) {
      onSignedOut(error?.message ?? 'Your session has ended; sign in again.');
      throw new ApiError(401, error?.message ?? 'You are signed out.');
    }
    throw new ApiError(res.status, describe(res.status, error), error?.details);
  }
  return body;
}

/** The calls, typed by the API document: the path template, its parameters, query and body, and the answer. */
type Caller<M extends Method> = <P extends PathWith<M>>(path: P, ...input: Args<Operation<P, M>>) => Promise<Answer<Operation<P, M>>>;
const caller = <M extends Method>(method: M): Caller<M> =>
  ((path: string, input?: { path?: Record<string, string>; query?: Query; body?: unknown }) => call(method.toUpperCase(), path, input)) as Caller<M>;

export const get = caller('get');
export const post = caller('post');
export const put = caller('put');
export const patch = caller('patch');
export const del = caller('delete');

/** The row of a cursor-paged list (`{ results: Row[], next }`). */
type Row<P extends PathWith<'get'>> = Answered<P> extends { results?: (infer R)[] } ? R : never;

/** Every page of a cursor-paged list (up to `max` rows). */
export async function all<P extends PathWith<'get'>>(path: P, ...args: [...Args<Operation<P, 'get'>>, max?: number]): Promise<Row<P>[]> {
  const [input = {}, max = 2000] = args as unknown as [{ path?: Record<string, string>; query?: Query } | undefined, number | undefined];
  const rows: Row<P>[] = [];
  let cursor: string | undefined;
  do {
    const page = (await call('GET', path, { ...input, query: { ...input.query, page_size: 200, cursor } })) as { results: Row<P>[]; next?: string | null };
    rows.push(...page.results);
    cursor = page.next ?? undefined;
  } while (cursor && rows.length < max);
  return rows;
}
