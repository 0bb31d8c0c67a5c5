// Valibot schemas for API tokens.
import * as v from 'valibot';
import { Name, PageQueryEntries, QueryList, Uuid } from '../../http/common-schemas.ts';

export const ListTokensQuery = v.object({
  ...PageQueryEntries,
  // The reference gives token_ids `explode: false`: one comma-separated value (repeats also work).
  token_ids: v.optional(QueryList(Uuid, { commaSeparated: true })),
  user_id: v.optional(Uuid),
});

export const CreateTokenBody = v.object({
  token_label: Name(100),
  access_level: v.optional(v.picklist(['FULL_ACCESS', 'READ_ONLY'], 'must be FULL_ACCESS or READ_ONLY'), 'FULL_ACCESS'),
  user_id: v.optional(Uuid),
  // Extension: a SCIM token for an identity provider (docs/scim.md) works only on /scim/v2; an admin's only.
  scope: v.optional(v.picklist(['API', 'SCIM'], 'must be API or SCIM'), 'API'),
});
