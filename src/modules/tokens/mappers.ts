// The tokens area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { Token } from './responses.ts';

export type AccessLevel = 'FULL_ACCESS' | 'READ_ONLY';

/** Where a token works: API on /v1, SCIM on /scim/v2 only (docs/scim.md). */
export type TokenScope = 'API' | 'SCIM';

export interface TokenRow {
  seq: number;
  id: string;
  lookup: string;
  secret_hash: Buffer;
  preview: string;
  label: string;
  access_level: AccessLevel;
  user_id: string;
  creator_user_id: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  scope: TokenScope;
}

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
