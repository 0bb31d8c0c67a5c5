// The idp group mappings area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { IdpGroupMapping } from './responses.ts';
import type { MappingRow } from './store.ts';

/** A mapping as the API answers it (the IdpGroupMapping response schema). */
export type ApiIdpGroupMapping = IdpGroupMapping;

export function toApiMapping(row: MappingRow): ApiIdpGroupMapping {
  return {
    app_resource_id: row.app_resource_id,
    group_id: row.group_id,
    ...(row.alias !== null && { alias: row.alias }),
    hidden_from_end_user: row.hidden_from_end_user === 1,
  };
}
