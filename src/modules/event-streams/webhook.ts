// One delivery as HTTP: the Standard Webhooks payload, headers and signatures, and the POST itself.
// Pure but for `post`, which does the network and never touches the database.
import { Webhook } from 'standardwebhooks';
import { VERSION } from '../../version.ts';
import type { ApiEvent } from '../events/store.ts';
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

/** A short, secret-free account of why a POST failed. */
function describeFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && err.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const cause = err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code) return `could not connect: ${cause.code}`;
  return `request failed: ${cause?.message ?? (err instanceof Error ? err.message : String(err))}`.slice(0, 300);
}

/**
 * POSTs the request. Any 2xx is success; anything else (3xx included: redirects are not followed),
 * a network error or no answer within `timeoutMs` is a failure. `stop` aborting (shutdown) is neither.
 */
export async function post(request: WebhookRequest, timeoutMs: number, stop?: AbortSignal): Promise<PostOutcome> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: stop ? AbortSignal.any([timeout, stop]) : timeout,
    });
    // The answer's body means nothing to delivery; not reading it frees the connection sooner.
    await res.body?.cancel().catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return { ok: true };
    return { ok: false, error: `receiver answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}` };
  } catch (err) {
    if (stop?.aborted) return { ok: false, stopped: true };
    return { ok: false, error: describeFailure(err, timeoutMs) };
  }
}
