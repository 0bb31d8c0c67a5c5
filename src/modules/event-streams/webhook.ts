// One delivery as HTTP: the Standard Webhooks payload, headers and signatures, and the POST itself.
// Pure but for `post`, which does the network and never touches the database.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { AddressRefused, type AddressPolicy } from '../../http/outbound.ts';
import { VERSION } from '../../version.ts';
import type { ApiEvent } from '../events/mappers.ts';
import type { CredentialRow, StreamRow } from './store.ts';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * The request delivering `event`: a JSON body `{ type, timestamp, data }` (Standard Webhooks' payload
 * shape; `data` is the event as GET /v1/events/{id} shows it), `webhook-id` the event id (the same on
 * every retry, so a receiver can drop duplicates), `webhook-timestamp` the attempt's time in seconds,
 * and with HMAC `webhook-signature` signed with every secret the stream has (`v1,<sig> v1,<sig>`).
 * API keys go in their header or query parameter.
 */
export function webhookRequest(stream: Pick<StreamRow, 'webhook_url' | 'auth_type'>, credentials: CredentialRow[], event: ApiEvent, at: Date): WebhookRequest {
  const body = JSON.stringify({ type: event.event_type, timestamp: event.created_at, data: event });
  const url = new URL(stream.webhook_url);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': `Gatehouse/${VERSION}`,
    'webhook-id': event.event_id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
  };
  if (stream.auth_type === 'HMAC') {
    const secrets = credentials.filter((c) => c.kind === 'HMAC').sort((a, b) => a.slot - b.slot);
    headers['webhook-signature'] = secrets.map((c) => new Webhook(c.secret).sign(event.event_id, at, body)).join(' ');
  }
  if (stream.auth_type === 'API_KEY') {
    for (const key of credentials.filter((c) => c.kind === 'API_KEY')) {
      if (key.location === 'QUERY_PARAM') url.searchParams.append(key.name!, key.secret);
      else headers[key.name!.toLowerCase()] = key.secret;
    }
  }
  return { url: url.href, headers, body };
}

export type PostOutcome = { ok: true } | { ok: false; error: string } | { ok: false; stopped: true };

export interface PostOptions {
  timeoutMs: number;
  /** The private-address policy in effect (GATEHOUSE_PRIVATE_ADDRESSES). */
  addresses: AddressPolicy;
}

/** A short, secret-free account of why a POST failed. */
function describeFailure(err: unknown): string {
  if (err instanceof AddressRefused) return err.message;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code !== 'ABORT_ERR') return `could not connect: ${code}`;
  return `request failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300);
}

/**
 * POSTs the request. Any 2xx is success; anything else (3xx included: redirects are not followed),
 * a network error or no answer within `timeoutMs` is a failure. `stop` aborting (shutdown) is neither.
 * The answer's body is read and dropped.
 */
export function post(request: WebhookRequest, options: PostOptions, stop?: AbortSignal): Promise<PostOutcome> {
  const url = new URL(request.url);
  // An address written in the URL is never looked up, so it is checked here.
  const refused = options.addresses.refuses(url.hostname);
  if (refused) return Promise.resolve({ ok: false, error: refused.message });
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PostOutcome>((resolve) => {
    const settle = (outcome: PostOutcome) => resolve(outcome);
    const fail = (err: unknown) => {
      if (stop?.aborted) settle({ ok: false, stopped: true });
      else if (timeout.aborted) settle({ ok: false, error: `no answer within ${options.timeoutMs} ms` });
      else settle({ ok: false, error: describeFailure(err) });
    };
    let req: ReturnType<typeof send>;
    try {
      req = send(
        url,
        {
          method: 'POST',
          headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
          signal,
          ...(options.addresses.lookup && { lookup: options.addresses.lookup }),
        },
        (res) => {
          const status = res.statusCode ?? 0;
          res.on('error', fail);
          res.on('end', () =>
            settle(status >= 200 && status < 300 ? { ok: true } : { ok: false, error: `receiver answered ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}` }),
          );
          res.resume();
        },
      );
    } catch (err) {
      // Node refuses to build the request (say, a stored header value it will not send): a failure
      // of this stream, recorded and retried like any other, never an error of the whole job.
      settle({ ok: false, error: `could not send the request: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300) });
      return;
    }
    req.on('error', fail);
    req.end(request.body);
  });
}
