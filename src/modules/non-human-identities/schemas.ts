// Valibot schemas for non-human identities and their access to resources.
import * as v from 'valibot';
import { EdgeDurationMinutes, PageQueryEntries } from '../../http/common-schemas.ts';
import { AccessLevelRemoteId } from '../access/schemas.ts';

export { ListEdgesQuery, RemoveEdgeQuery } from '../access/schemas.ts';

export const ListNonHumanIdentitiesQuery = v.object({ ...PageQueryEntries });

/**
 * The reference makes the body optional but requires duration_minutes inside one. No body (or a JSON
 * null) grants the default access level indefinitely (duration 0), as an empty grant would elsewhere.
 */
export const AttachNonHumanIdentityBody = v.optional(
  v.object({
    duration_minutes: EdgeDurationMinutes,
    access_level_remote_id: v.optional(AccessLevelRemoteId, ''),
  }),
  { duration_minutes: 0, access_level_remote_id: '' },
);
