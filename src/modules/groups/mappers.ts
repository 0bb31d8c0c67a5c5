// The groups area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import { requestSettingsFromRow, type RequestSettings, type RequestSettingsRow } from '../request-settings/columns.ts';
import type { Group } from './responses.ts';
import { DEFAULT_ACCESS_LEVEL } from '../items/levels.ts';
import { requestSettingsToApi } from '../request-settings/mappers.ts';

export interface GroupRow extends RequestSettingsRow {
  seq: number;
  id: string;
  app_id: string;
  name: string;
  description: string;
  admin_owner_id: string;
  group_type: Group['group_type'];
  remote_id: string | null;
  remote_name: string | null;
  remote_info: string | null;
  metadata: string | null;
  created_at: string;
  updated_at: string;
}

/** Everything stored about a group but its id, times and leaders. */
export interface GroupState {
  app_id: string;
  name: string;
  description: string;
  admin_owner_id: string;
  group_type: Group['group_type'];
  remote_id: string | null;
  remote_name: string | null;
  remote_info: Record<string, unknown> | null;
  metadata: string | null;
  settings: RequestSettings;
}

/** A row as the state the service reads and writes: JSON columns parsed, 0/1 as booleans, the request settings whole. */
export function stateFromRow(row: GroupRow): GroupState {
  return {
    app_id: row.app_id,
    name: row.name,
    description: row.description,
    admin_owner_id: row.admin_owner_id,
    group_type: row.group_type,
    remote_id: row.remote_id,
    remote_name: row.remote_name,
    remote_info: row.remote_info === null ? null : (JSON.parse(row.remote_info) as Record<string, unknown>),
    metadata: row.metadata,
    settings: requestSettingsFromRow(row),
  };
}

/** A group as the API answers it (the Group response schema). */
export type ApiGroup = Group;

/** What a Group answer carries beyond its row: its leaders, its binding and the levels it offers beyond the default. */
export interface GroupRelated {
  leaderIds: string[];
  bindingId: string | undefined;
  levels: { access_level_name: string; access_level_remote_id: string }[];
}

/** A row as the API's Group (plus Gatehouse's access_levels, the default level first). */
export function toApiGroup(row: GroupRow, related: GroupRelated): ApiGroup {
  const state = stateFromRow(row);
  return {
    group_id: row.id,
    app_id: row.app_id,
    name: row.name,
    description: row.description,
    admin_owner_id: row.admin_owner_id,
    group_leader_user_ids: related.leaderIds,
    ...(row.remote_id !== null && { remote_id: row.remote_id }),
    ...(row.remote_name !== null && { remote_name: row.remote_name }),
    group_type: row.group_type,
    ...(related.bindingId !== undefined && { group_binding_id: related.bindingId }),
    ...requestSettingsToApi(state.settings),
    ...(row.metadata !== null && { metadata: row.metadata }),
    ...(state.remote_info !== null && { remote_info: state.remote_info }),
    access_levels: [DEFAULT_ACCESS_LEVEL, ...related.levels],
  };
}
