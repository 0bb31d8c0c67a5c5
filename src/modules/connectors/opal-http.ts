// The Opal connector protocol over HTTP (opalsecurity/opal-connector-spec), unchanged: signed calls,
// cursor paging, and what each answer means as a PropagationStatusEnum. No database access here.
import { createHmac } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { AddressRefused, type AddressPolicy } from '../../http/outbound.ts';
import { VERSION } from '../../version.ts';
import { withinJsonDepth } from '../../lib/json-depth.ts';
import type { SyncBudget } from './sync-budget.ts';
import { readOutcome, RemoteFailure } from './outcomes.ts';

/** `hex(HMAC-SHA256(secret, "v0:" + timestamp + ":" + body))`, an empty body signed as `{}` — Opal's signature. */
export function opalSignature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`v0:${timestamp}:${body === '' ? '{}' : body}`).digest('hex');
}

export interface OpalEndpoint {
  url: string;
  signingSecret: string;
  timeoutMs: number;
  /** The app_id every call carries (the Gatehouse app's id). */
  appId: string;
  /** The private-address policy in effect (GATEHOUSE_PRIVATE_ADDRESSES). */
  addresses: AddressPolicy;
  /** Seconds since the epoch for X-Opal-Request-Timestamp (from the injected clock). */
  nowSeconds: () => number;
  /** The largest answer read (GATEHOUSE_CONNECTOR_MAX_RESPONSE_BYTES): a connector cannot exhaust our memory. */
  maxAnswerBytes: number;
}

/** One call's result: an HTTP answer (any status) with its parsed JSON, or a failure to get one. */
export type CallResult =
  | { answered: true; status: number; json: unknown; bytes: number; retryAfterMs?: number }
  | { answered: false; timeout: boolean; error: string; tooLarge?: true };

// Keep-alive pools: pushes to one connector reuse their connections (10,000 pushes, not 10,000 handshakes).
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 64 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 64 });

class AnswerTooLarge extends Error {}

/** What every failure to get an answer reads as, timeouts apart (ERR_TIMEOUT, "no answer within …"). */
export const UNREACHABLE = 'could not reach the connector (refused, unreachable, or closed before answering)';

/**
 * Calls `method path` on the connector with `app_id` (query for GET/DELETE, body for POST), signed.
 * Never throws: every failure is a CallResult. Redirects are not followed.
 */
export function callOpal(endpoint: OpalEndpoint, method: 'GET' | 'POST' | 'DELETE', path: string, input: { query?: Record<string, string | undefined>; body?: Record<string, unknown> }, stop?: AbortSignal): Promise<CallResult> {
  const base = endpoint.url.endsWith('/') ? endpoint.url : `${endpoint.url}/`;
  const url = new URL(path.replace(/^\//, ''), base);
  const body = method === 'POST' ? JSON.stringify({ ...input.body, app_id: endpoint.appId }) : '';
  if (method !== 'POST') url.searchParams.set('app_id', endpoint.appId);
  for (const [name, value] of Object.entries(input.query ?? {})) if (value !== undefined && value !== '') url.searchParams.set(name, value);
  const refused = endpoint.addresses.refuses(url.hostname);
  if (refused) {
    return Promise.resolve({ answered: false, timeout: false, error: refused.message });
  }
  const timestamp = String(endpoint.nowSeconds());
  const headers: Record<string, string> = {
    'user-agent': `Gatehouse/${VERSION}`,
    accept: 'application/json',
    'x-opal-request-timestamp': timestamp,
    'x-opal-signature': opalSignature(endpoint.signingSecret, timestamp, body),
  };
  if (body !== '') {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  const timeout = AbortSignal.timeout(endpoint.timeoutMs);
  const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
  const https = url.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  return new Promise<CallResult>((resolve) => {
    const fail = (err: unknown) => {
      if (timeout.aborted) resolve({ answered: false, timeout: true, error: `no answer within ${endpoint.timeoutMs} ms` });
      else if (err instanceof AddressRefused) resolve({ answered: false, timeout: false, error: err.message });
      else if (err instanceof AnswerTooLarge) resolve({ answered: false, timeout: false, error: err.message, tooLarge: true });
      else {
        // Refused, unreachable, reset, hung up or not HTTP read alike, so a connector's test is no port
        // scanner; a certificate the connector's TLS fails on is named, as an admin needs it to fix the URL.
        const code = (err as { code?: unknown }).code;
        const tls = typeof code === 'string' && /CERT|TLS|SSL|SIGNATURE|ALTNAME/.test(code);
        resolve({ answered: false, timeout: false, error: tls ? `could not connect: ${code}` : UNREACHABLE });
      }
    };
    let req: ReturnType<typeof send>;
    try {
      req = send(url, { method, headers, signal, agent: https ? httpsAgent : httpAgent, ...(endpoint.addresses.lookup && { lookup: endpoint.addresses.lookup }) }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > endpoint.maxAnswerBytes) res.destroy(new AnswerTooLarge(`answer larger than ${endpoint.maxAnswerBytes} bytes`));
          else chunks.push(chunk);
        });
        res.on('error', fail);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text === '' ? undefined : JSON.parse(text);
            // Remote JSON is input: nested past the bound it is no answer, before anything walks it.
            if (!withinJsonDepth(json)) json = undefined;
          } catch {
            json = undefined;
          }
          const retryAfter = Number(res.headers['retry-after']);
          resolve({ answered: true, status: res.statusCode ?? 0, json, bytes: size, ...(Number.isFinite(retryAfter) && retryAfter > 0 && { retryAfterMs: Math.min(retryAfter, 3600) * 1000 }) });
        });
      });
    } catch (err) {
      resolve({ answered: false, timeout: false, error: `could not send the request: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300) });
      return;
    }
    req.on('error', fail);
    req.end(body);
  });
}

/**
 * Reads a list page by page (`cursor` → `next_cursor`, empty or null = done), yielding each page's items
 * under `field` as far as `budget` allows: a page past a bound stops the reading (the budget says which)
 * and the generator ends early. Throws a RemoteFailure naming the failure and its status (outcomes.ts; a sync
 * turns it into a sync error, a push into its propagation status).
 * Stops after 10,000 pages, so a connector repeating a cursor with empty pages cannot keep us either.
 */
export async function* readPages(endpoint: OpalEndpoint, path: string, field: string | string[], budget: SyncBudget, stop?: AbortSignal, options: { missingIsEmpty?: boolean } = {}): AsyncGenerator<unknown[]> {
  const fields = Array.isArray(field) ? field : [field];
  let cursor: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    if (!budget.mayRead()) return;
    const result = await callOpal(endpoint, 'GET', path, { query: { cursor } }, stop);
    if (!result.answered && result.tooLarge) return budget.stop('response_bytes');
    if (result.answered && result.status === 404 && options.missingIsEmpty && page === 0) return;
    const failed = readOutcome(result);
    if (!failed.ok || !result.answered) throw new RemoteFailure(failed.ok ? 'ERR_REMOTE_INTERNAL_ERROR' : failed.code, `${path}: ${failed.ok ? 'no answer' : failed.error}`);
    const json = result.json as Record<string, unknown> | undefined;
    const list = fields.map((f) => json?.[f]).find(Array.isArray) as unknown[] | undefined;
    if (!Array.isArray(list)) throw new RemoteFailure('ERR_REMOTE_UNRECOVERABLE_ERROR', `${path}: the answer has no "${fields.join('" or "')}" list`);
    const used = budget.take(list.length, result.bytes);
    if (used > 0) yield used === list.length ? list : list.slice(0, used);
    if (budget.stoppedAt !== null) return;
    const next = json?.next_cursor;
    if (next === undefined || next === null || next === '') return;
    if (typeof next !== 'string') throw new RemoteFailure('ERR_REMOTE_UNRECOVERABLE_ERROR', `${path}: next_cursor is not a string`);
    cursor = next;
  }
  throw new RemoteFailure('ERR_REMOTE_UNRECOVERABLE_ERROR', `${path}: more than 10000 pages`);
}
