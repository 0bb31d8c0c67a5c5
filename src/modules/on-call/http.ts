// One bounded GET to an on-call provider: its time, its answer's bytes and nesting capped, the private-address
// policy applied on the address connected to, redirects not followed. No database access here.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { AddressRefused, type AddressPolicy } from '../../http/outbound.ts';
import { withinJsonDepth } from '../../lib/json-depth.ts';
import { VERSION } from '../../version.ts';

/** Where and how a provider is called: its base URL, its headers (the credential among them), the bounds. */
export interface ProviderEndpoint {
  baseUrl: string;
  headers: Record<string, string>;
  timeoutMs: number;
  maxAnswerBytes: number;
  /** The private-address policy in effect (GATEHOUSE_PRIVATE_ADDRESSES). */
  addresses: AddressPolicy;
}

/** One call's result: an HTTP answer with its parsed JSON (undefined when not JSON), or no answer and why. */
export type ProviderAnswer =
  | { answered: true; status: number; json: unknown; retryAfterMs?: number }
  | { answered: false; error: string };

class AnswerTooLarge extends Error {}

/**
 * GETs `path` (with `query`; an array value repeats its key, as `schedule_ids[]=a&schedule_ids[]=b`)
 * from the endpoint. Never throws: a failure to get an answer is `{answered: false, error}` in words
 * that hold no secret. `stop` aborts the call (the service shutting down).
 */
export function getJson(endpoint: ProviderEndpoint, path: string, query: Record<string, string | string[]>, stop?: AbortSignal): Promise<ProviderAnswer> {
  const url = new URL(endpoint.baseUrl.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query)) {
    for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(name, one);
  }
  const refused = endpoint.addresses.refuses(url.hostname);
  if (refused) return Promise.resolve({ answered: false, error: refused.message });
  const timeout = AbortSignal.timeout(endpoint.timeoutMs);
  const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers = { 'user-agent': `Gatehouse/${VERSION}`, ...endpoint.headers };
  return new Promise<ProviderAnswer>((resolve) => {
    const fail = (err: unknown) => {
      if (timeout.aborted) resolve({ answered: false, error: `no answer within ${endpoint.timeoutMs} ms` });
      else if (stop?.aborted) resolve({ answered: false, error: 'stopped: the service is shutting down' });
      else if (err instanceof AddressRefused || err instanceof AnswerTooLarge) resolve({ answered: false, error: err.message });
      else {
        const code = (err as { code?: unknown }).code;
        resolve({ answered: false, error: `could not reach it${typeof code === 'string' ? ` (${code})` : ''}` });
      }
    };
    try {
      const req = send(url, { method: 'GET', headers, signal, ...(endpoint.addresses.lookup && { lookup: endpoint.addresses.lookup }) }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > endpoint.maxAnswerBytes) res.destroy(new AnswerTooLarge(`its answer was larger than ${endpoint.maxAnswerBytes} bytes`));
          else chunks.push(chunk);
        });
        res.on('error', fail);
        res.on('end', () => {
          let json: unknown;
          try {
            const text = Buffer.concat(chunks).toString('utf8');
            json = text === '' ? undefined : JSON.parse(text);
            // Remote JSON is input: nested past the bound it is no answer, before anything walks it.
            if (!withinJsonDepth(json)) json = undefined;
          } catch {
            json = undefined;
          }
          const retryAfter = Number(res.headers['retry-after']);
          resolve({ answered: true, status: res.statusCode ?? 0, json, ...(Number.isFinite(retryAfter) && retryAfter > 0 && { retryAfterMs: Math.min(retryAfter, 3600) * 1000 }) });
        });
      });
      req.on('error', fail);
      req.end();
    } catch (err) {
      resolve({ answered: false, error: `could not send the request: ${err instanceof Error ? err.message : String(err)}`.slice(0, 200) });
    }
  });
}
