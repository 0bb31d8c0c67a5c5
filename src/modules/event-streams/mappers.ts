// The event streams area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import { deliveryStatus } from './policy.ts';
import { maskSecret } from './secrets.ts';
import type { EventStream } from './responses.ts';
import type { StreamRow, CredentialRow } from './store.ts';

/** An event stream as the API answers it (the EventStream response schema). */
export type ApiEventStream = EventStream;

/**
 * The reference's EventStream, plus Gatehouse's `delivery`. Secrets are masked except those whose
 * credential id is in `reveal` (the ones the answering request set).
 */
export function toApiEventStream(row: StreamRow, credentials: CredentialRow[], headSeq: number, reveal: ReadonlySet<string> = new Set()): ApiEventStream {
  const shown = (c: CredentialRow) => (reveal.has(c.id) ? c.secret : maskSecret(c.secret));
  const hmac = (slot: number) => {
    const c = credentials.find((x) => x.kind === 'HMAC' && x.slot === slot);
    return c ? { id: c.id, secret: shown(c), created_at: c.created_at } : null;
  };
  const apiKeys = credentials
    .filter((c) => c.kind === 'API_KEY')
    .map((c) => ({ id: c.id, name: c.name!, value: shown(c), location: c.location! }));
  return {
    event_stream_id: row.id,
    connection: {
      name: row.name,
      connection_type: row.connection_type,
      enabled: row.enabled === 1,
      webhook_url: row.webhook_url,
      credentials: {
        auth_type: row.auth_type,
        ...(row.auth_type === 'API_KEY' && { api_key_credentials: apiKeys }),
        ...(row.auth_type === 'HMAC' && { hmac_credential_1: hmac(1), hmac_credential_2: hmac(2) }),
      },
    },
    delivery: {
      status: deliveryStatus(row.enabled === 1, row.failures),
      position: row.position,
      lag: Math.max(headSeq - row.position, 0),
      consecutive_failures: row.failures,
      next_attempt_at: row.next_attempt_at,
      last_error: row.last_error,
      last_error_at: row.last_error_at,
      last_delivered_at: row.last_delivered_at,
    },
  };
}
