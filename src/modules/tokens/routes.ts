// The tokens area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { PaginatedTokensList } from './responses.ts';
import { CreateTokenBody, ListTokensQuery } from './schemas.ts';
import { IssuedToken } from './responses.ts';

export const tokenRoutes = defineRoutes('tokens', {
  'GET /v1/tokens': {
    role: 'read',
    summary: 'List API tokens',
    description: 'Revoked tokens are not listed. Secrets are never shown, only a preview.',
    query: ListTokensQuery,
    responses: { 200: PaginatedTokensList },
  },
  'POST /v1/tokens': {
    role: 'member',
    summary: 'Issue an API token',
    description: 'For the caller, or for `user_id`. The response carries the secret, once. `scope: "SCIM"` makes a SCIM token for an identity provider instead: it works only on /scim/v2, and only for an ADMIN (docs/scim.md).',
    extension: true,
    body: CreateTokenBody,
    responses: { 200: IssuedToken },
  },
  'DELETE /v1/tokens/{token_id}': {
    role: 'member', items: { token_id: null },
    summary: 'Revoke an API token',
    description: 'Takes effect on the next request made with it.',
    responses: { 200: EmptyObject },
  },
});
