// The non-human identities area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { Access, ResourceNHI } from './responses.ts';
import type { ResourceNhiRow } from './store.ts';

const accessLevelOf = (row: ResourceNhiRow) => ({
  access_level_name: row.access_level_name,
  access_level_remote_id: row.access_level_remote_id,
});

/** The reference's ResourceNHI. */
export const toApiResourceNhi = (row: ResourceNhiRow): ResourceNHI => ({
  resource_id: row.resource_id,
  non_human_identity_id: row.non_human_identity_id,
  access_level: accessLevelOf(row),
  expiration_date: row.expiration_date,
});

/** The reference's Access: the identity (a resource) is the principal, the resource the entity. Only direct links exist. */
export const toApiAccess = (row: ResourceNhiRow): Access => ({
  principal_id: row.non_human_identity_id,
  principal_type: 'RESOURCE',
  entity_id: row.resource_id,
  entity_type: 'RESOURCE',
  access_level: accessLevelOf(row),
  expiration_date: row.expiration_date,
  has_direct_access: true,
  num_access_paths: 1,
});
