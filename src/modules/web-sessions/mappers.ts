// The web sessions area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { WebSession } from './responses.ts';
import type { WebSessionRow } from './store.ts';

/** A console session as the API answers it (the WebSession response schema). */
export type ApiWebSession = WebSession;

export function toApiWebSession(row: WebSessionRow): ApiWebSession {
  return {
    web_session_id: row.id,
    user_id: row.user_id,
    sign_in_method: row.method,
    ...(row.ip_address !== null && { ip_address: row.ip_address }),
    ...(row.user_agent !== null && { user_agent: row.user_agent }),
    created_at: row.created_at,
    last_seen_at: row.last_seen_at,
    expires_at: row.expires_at,
  };
}
