// The tokens area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, dateTime, described, extension, paginated, uuid } from '../../openapi/responses.ts';
import { ApiAccessLevelEnum } from '../../openapi/enums.ts';

export const TokenFields = v.object({
  token_id: uuid,
  created_at: dateTime,
  token_label: v.string(),
  creator_user_id: uuid,
  user_id: uuid,
  last_used_at: v.optional(v.nullable(dateTime)),
  access_level: ApiAccessLevelEnum,
  expires_at: v.optional(v.nullable(dateTime)),
  scope: v.optional(extension(v.picklist(['API', 'SCIM']), 'Where the token works: `API` on /v1, `SCIM` only on /scim/v2 (an identity provider\'s; docs/scim.md).')),
});

export const Token = component('Token', described(TokenFields, 'An API token, without its secret.'));
export type Token = v.InferOutput<typeof Token>;

export const PaginatedTokensList = paginated('PaginatedTokensList', Token);


/** A new token: Token's fields plus the secret, which no other response ever shows. */
export const IssuedToken = component('IssuedToken', described(
  v.object({ ...TokenFields.entries, token: v.pipe(v.string(), v.nonEmpty()) }),
  'A token just issued. `token` is the secret to send as `Authorization: Bearer <token>`; it is shown this once.',
));
export type IssuedToken = v.InferOutput<typeof IssuedToken>;
