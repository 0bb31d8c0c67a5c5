// The resources area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import { requestSettingsToApi } from '../request-settings/mappers.ts';
import type { Resource } from './responses.ts';
import { requestSettingsFromRow, type RequestSettings, type RequestSettingsRow } from '../request-settings/columns.ts';
import type { TicketPropagationConfiguration } from '../request-settings/responses.ts';
import { DEFAULT_ACCESS_LEVEL, type AccessLevel } from '../items/levels.ts';

export interface ResourceRow extends RequestSettingsRow {
  seq: number;
  id: string;
  app_id: string;
  name: string;
  description: string;
  admin_owner_id: string;
  resource_type: Resource['resource_type'];
  remote_resource_id: string | null;
  remote_resource_name: string | null;
  remote_info: string | null;
  metadata: string | null;
  parent_resource_id: string | null;
  require_mfa_to_connect: number;
  ticket_propagation: string | null;
  created_at: string;
  updated_at: string;
}

/** How a resource's grants and revocations open tickets (the TicketPropagationConfiguration response schema). */
export type TicketPropagation = TicketPropagationConfiguration;

/** Everything stored about a resource but its id, times and access levels. */
export interface ResourceState {
  app_id: string;
  name: string;
  description: string;
  admin_owner_id: string;
  resource_type: Resource['resource_type'];
  remote_resource_id: string | null;
  remote_resource_name: string | null;
  remote_info: Record<string, unknown> | null;
  metadata: string | null;
  parent_resource_id: string | null;
  require_mfa_to_connect: boolean;
  ticket_propagation: TicketPropagation | null;
  settings: RequestSettings;
}

/** A row read with RELATED_COLUMNS, as every statement that feeds toApiResource (mappers.ts) reads it. */
export interface ResourceApiRow extends ResourceRow {
  ancestor_ids_json: string;
  descendant_ids_json: string;
  access_levels_json: string;
}

/** A resource as the API answers it (the Resource response schema). */
export type ApiResource = Resource;

/** A row as the API's Resource (plus Gatehouse's access_levels). */
export function toApiResource(row: ResourceApiRow): ApiResource {
  const state = stateFromRow(row);
  return {
    resource_id: row.id,
    app_id: row.app_id,
    name: row.name,
    description: row.description,
    admin_owner_id: row.admin_owner_id,
    ...(row.remote_resource_id !== null && { remote_resource_id: row.remote_resource_id }),
    ...(row.remote_resource_name !== null && { remote_resource_name: row.remote_resource_name }),
    resource_type: row.resource_type,
    ...requestSettingsToApi(state.settings),
    require_mfa_to_connect: state.require_mfa_to_connect,
    ...(row.parent_resource_id !== null && { parent_resource_id: row.parent_resource_id }),
    ...(state.ticket_propagation !== null && { ticket_propagation: state.ticket_propagation }),
    ...(row.metadata !== null && { metadata: row.metadata }),
    ...(state.remote_info !== null && { remote_info: state.remote_info }),
    ancestor_resource_ids: JSON.parse(row.ancestor_ids_json) as string[],
    descendant_resource_ids: JSON.parse(row.descendant_ids_json) as string[],
    access_levels: [DEFAULT_ACCESS_LEVEL, ...(JSON.parse(row.access_levels_json) as AccessLevel[])],
  };
}

/** A row as the state the service reads and writes: JSON columns parsed, 0/1 as booleans, the request settings whole. */
export function stateFromRow(row: ResourceRow): ResourceState {
  return {
    app_id: row.app_id,
    name: row.name,
    description: row.description,
    admin_owner_id: row.admin_owner_id,
    resource_type: row.resource_type,
    remote_resource_id: row.remote_resource_id,
    remote_resource_name: row.remote_resource_name,
    remote_info: row.remote_info === null ? null : (JSON.parse(row.remote_info) as Record<string, unknown>),
    metadata: row.metadata,
    parent_resource_id: row.parent_resource_id,
    require_mfa_to_connect: row.require_mfa_to_connect === 1,
    ticket_propagation: row.ticket_propagation === null ? null : (JSON.parse(row.ticket_propagation) as TicketPropagation),
    settings: requestSettingsFromRow(row),
  };
}
