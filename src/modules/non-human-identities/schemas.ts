// Valibot schemas for non-human identities and their access to resources.
import * as v from 'valibot';
import { EdgeDurationMinutes, PageQueryEntries } from '../../http/common-schemas.ts';
import { AccessLevelRemoteId } from '../access/schemas.ts';

export { ListEdgesQuery, RemoveEdgeQuery } from '../access/schemas.ts';

export const ListNonHumanIdentitiesQuery = v.object({ ...PageQueryEntries });

// The reference marks the body optional but requires duration_minutes in it, so a body is needed.
export const AttachNonHumanIdentityBody = v.object({
  duration_minutes: EdgeDurationMinutes,
  access_level_remote_id: v.optional(AccessLevelRemoteId, ''),
});
