// Visibility of resources, groups and bundles (GLOBAL or LIMITED to visibility groups): the only SQL
// that stores it and asks it of one item; the definition of "who sees an item" that other stores
// embed is sql.ts (docs/visibility.md).
import type { Db } from '../../db/open.ts';
import { VIEWER_GROUPS_CTE, VISIBILITY_KINDS, viewerParams, visibleToViewer, type Viewer, type VisibilityKind, type VisibleKind } from './sql.ts';

/** Who is looking (defined beside the SQL that filters by it; named here too for the callers that read it as a type). */
export type { Viewer } from './sql.ts';

export const VISIBILITY_TYPES = ['GLOBAL', 'LIMITED'] as const;
export type VisibilityType = (typeof VISIBILITY_TYPES)[number];

/** The reference's VisibilityInfo. */
export interface VisibilityInfo {
  visibility: VisibilityType;
  visibility_group_ids: string[];
}

function kindStatements(db: Db, kind: VisibilityKind) {
  const { table, links, itemColumn, groupColumn } = VISIBILITY_KINDS[kind];
  return {
    type: db.prepare<[string], { visibility: VisibilityType }>(`SELECT visibility FROM ${table} WHERE id = ?`),
    groups: db.prepare<[string], { group_id: string }>(`SELECT ${groupColumn} AS group_id FROM ${links} WHERE ${itemColumn} = ? ORDER BY position`),
    setType: db.prepare<{ id: string; visibility: VisibilityType }>(`UPDATE ${table} SET visibility = @visibility WHERE id = @id`),
    clear: db.prepare<[string]>(`DELETE FROM ${links} WHERE ${itemColumn} = ?`),
    insert: db.prepare<{ id: string; group: string; position: number }>(
      `INSERT INTO ${links} (${itemColumn}, ${groupColumn}, position) VALUES (@id, @group, @position)`,
    ),
    sees:
      kind === 'configuration_template'
        ? null
        : db.prepare<{ id: string; viewer: string; now: string }, { found: number }>(
            `WITH RECURSIVE ${VIEWER_GROUPS_CTE} SELECT 1 AS found FROM ${table} WHERE ${table}.id = @id AND ${visibleToViewer(kind)}`,
          ),
  };
}

export function createVisibilityStore(db: Db) {
  const kinds = {
    resource: kindStatements(db, 'resource'),
    group: kindStatements(db, 'group'),
    bundle: kindStatements(db, 'bundle'),
    configuration_template: kindStatements(db, 'configuration_template'),
  };
  return {
    /** The item's visibility, or undefined when there is no such item. */
    get(kind: VisibilityKind, id: string): VisibilityInfo | undefined {
      const row = kinds[kind].type.get(id);
      return row && { visibility: row.visibility, visibility_group_ids: kinds[kind].groups.all(id).map((r) => r.group_id) };
    },
    /** Replaces the item's visibility (the caller checks the item and the groups exist). */
    set(kind: VisibilityKind, id: string, info: VisibilityInfo): void {
      const st = kinds[kind];
      st.setType.run({ id, visibility: info.visibility });
      st.clear.run(id);
      info.visibility_group_ids.forEach((group, position) => st.insert.run({ id, group, position }));
    },
    /** Whether `viewer` sees the item (false too when it does not exist). Admins are not asked. */
    sees(kind: VisibleKind, id: string, viewer: Viewer): boolean {
      return kinds[kind].sees!.get({ id, ...viewerParams(viewer) }) !== undefined;
    },
  };
}

