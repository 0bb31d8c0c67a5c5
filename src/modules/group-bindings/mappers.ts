// The group bindings area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { GroupBinding, GroupBindingGroup } from './responses.ts';

export interface BindingRow {
  seq: number;
  id: string;
  source_group_id: string;
  created_by_id: string;
  created_at: string;
  updated_at: string;
}

/** A bound group as the API answers it. */
export type ApiGroupBindingGroup = GroupBindingGroup;

/** A group binding as the API answers it (the GroupBinding response schema). */
export type ApiGroupBinding = GroupBinding;

/** A binding row with the groups it binds, in order, as the reference's GroupBinding. */
export function toApiGroupBinding(row: BindingRow, groups: ApiGroupBindingGroup[]): ApiGroupBinding {
  return {
    group_binding_id: row.id,
    created_by_id: row.created_by_id,
    created_at: row.created_at,
    source_group_id: row.source_group_id,
    groups,
  };
}
