// The idp group mappings area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { IdpGroupMapping } from './responses.ts';

export interface MappingRow {
  seq: number;
  app_resource_id: string;
  group_id: string;
  alias: string | null;
  hidden_from_end_user: number;
  created_at: string;
  updated_at: string;
}

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
