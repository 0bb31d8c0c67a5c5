// The tokens area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { Token } from './responses.ts';
import type { TokenRow } from './store.ts';

/** A token as the API answers it, without its secret (the Token response schema). */
export type ApiToken = Token;

export const toApiToken = (row: TokenRow): ApiToken => ({
  token_id: row.id,
  created_at: row.created_at,
  token_label: row.label,
  creator_user_id: row.creator_user_id,
  user_id: row.user_id,
  last_used_at: row.last_used_at,
  access_level: row.access_level,
  expires_at: row.expires_at,
  scope: row.scope,
});
