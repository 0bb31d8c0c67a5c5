// Valibot schemas for console sign-in sessions.
import * as v from 'valibot';
import { PageQueryEntries, Uuid } from '../../http/common-schemas.ts';

export const ListWebSessionsQuery = v.object({
  ...PageQueryEntries,
  user_id: v.optional(Uuid),
});
