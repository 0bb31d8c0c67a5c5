// Bundles and the resources and groups they hold: the only SQL for either.
// Item counts are never stored: every bundle read counts its items in the same query.
import { casefold } from '../../lib/casefold.ts';
import type { Db } from '../../db/open.ts';
import { newId } from '../../lib/ids.ts';
import { VIEWER_GROUPS_CTE, viewerParams, visibleToViewer, type Viewer } from '../visibility/sql.ts';
import { toApiBundle, toApiBundleItem, type ApiBundle, type ApiBundleItem, type BundleItemKind, type BundleRow, type ItemRow } from './mappers.ts';

/** What a bundle holds; each kind has its own table and id column. */
export const BUNDLE_ITEM_KINDS = {
  resource: { table: 'bundle_resources', column: 'resource_id' },
  group: { table: 'bundle_groups', column: 'group_id' },
} as const satisfies Record<BundleItemKind, { table: string; column: string }>;

export interface BundleFields {
  name: string;
  description: string;
  admin_owner_id: string;
}

interface ItemKey {
  bundleId: string;
  itemId: string;
  remoteId: string;
}

/** The same statements for resources and groups; table and column come from BUNDLE_ITEM_KINDS, never from input. */
function itemStatements(db: Db, kind: BundleItemKind) {
  const { table, column } = BUNDLE_ITEM_KINDS[kind];
  const columns = `seq, bundle_id, ${column} AS item_id, access_level_remote_id, access_level_name`;
  return {
    insert: db.prepare<ItemKey & { name: string }>(
      `INSERT INTO ${table} (bundle_id, ${column}, access_level_remote_id, access_level_name)
       VALUES (@bundleId, @itemId, @remoteId, @name) ON CONFLICT DO NOTHING`,
    ),
    remove: db.prepare<ItemKey>(`DELETE FROM ${table} WHERE bundle_id = @bundleId AND ${column} = @itemId AND access_level_remote_id = @remoteId`),
    get: db.prepare<ItemKey, ItemRow>(
      `SELECT ${columns} FROM ${table} WHERE bundle_id = @bundleId AND ${column} = @itemId AND access_level_remote_id = @remoteId`,
    ),
    page: db.prepare<{ bundleId: string; after: number; limit: number }, ItemRow>(
      `SELECT ${columns} FROM ${table} WHERE bundle_id = @bundleId AND seq > @after ORDER BY seq LIMIT @limit`,
    ),
    all: db.prepare<{ bundleId: string }, ItemRow>(`SELECT ${columns} FROM ${table} WHERE bundle_id = @bundleId ORDER BY seq`),
    count: db.prepare<{ bundleId: string }, { n: number }>(`SELECT count(*) AS n FROM ${table} WHERE bundle_id = @bundleId`),
  };
}

export function createBundleStore(db: Db) {
  const SELECT_BUNDLE = `
    SELECT bundles.*,
           (SELECT count(*) FROM bundle_resources WHERE bundle_id = bundles.id) AS total_num_resources,
           (SELECT count(*) FROM bundle_groups WHERE bundle_id = bundles.id)    AS total_num_groups
    FROM bundles`;
  const CONTAINS = '(@contains IS NULL OR instr(casefold(name), @contains) > 0)';

  const insert = db.prepare<BundleFields & { id: string; at: string }>(
    `INSERT INTO bundles (id, name, description, admin_owner_id, created_at, updated_at)
     VALUES (@id, @name, @description, @admin_owner_id, @at, @at)`,
  );
  const update = db.prepare<BundleFields & { id: string; at: string }>(
    `UPDATE bundles SET name = @name, description = @description, admin_owner_id = @admin_owner_id, updated_at = @at WHERE id = @id`,
  );
  const touch = db.prepare<{ id: string; at: string }>('UPDATE bundles SET updated_at = @at WHERE id = @id');
  const remove = db.prepare<[string]>('DELETE FROM bundles WHERE id = ?');
  const byId = db.prepare<{ id: string }, BundleRow>(`${SELECT_BUNDLE} WHERE id = @id`);
  const page = db.prepare<{ contains: string | null; after: number; limit: number }, BundleRow>(
    `${SELECT_BUNDLE} WHERE ${CONTAINS} AND seq > @after ORDER BY seq LIMIT @limit`,
  );
  const count = db.prepare<{ contains: string | null }, { n: number }>(`SELECT count(*) AS n FROM bundles WHERE ${CONTAINS}`);
  // What a caller who is not an admin sees: the same, filtered in SQL (the page and the total agree).
  type ViewerParams = { viewer: string; now: string };
  const visiblePage = db.prepare<{ contains: string | null; after: number; limit: number } & ViewerParams, BundleRow>(
    `WITH RECURSIVE ${VIEWER_GROUPS_CTE}
     ${SELECT_BUNDLE} WHERE ${CONTAINS} AND ${visibleToViewer('bundle')} AND seq > @after ORDER BY seq LIMIT @limit`,
  );
  const visibleCount = db.prepare<{ contains: string | null } & ViewerParams, { n: number }>(
    `WITH RECURSIVE ${VIEWER_GROUPS_CTE} SELECT count(*) AS n FROM bundles WHERE ${CONTAINS} AND ${visibleToViewer('bundle')}`,
  );
  const items = { resource: itemStatements(db, 'resource'), group: itemStatements(db, 'group') };

  return {
    create(fields: BundleFields, at: Date): ApiBundle {
      const id = newId();
      insert.run({ ...fields, id, at: at.toISOString() });
      return toApiBundle(byId.get({ id })!);
    },
    /** Overwrites the editable fields and updated_at. */
    update(id: string, fields: BundleFields, at: Date): ApiBundle {
      update.run({ ...fields, id, at: at.toISOString() });
      return toApiBundle(byId.get({ id })!);
    },
    /** Marks the bundle changed (its items were). */
    touch(id: string, at: Date): void {
      touch.run({ id, at: at.toISOString() });
    },
    /** Deletes a bundle; its items go with it (ON DELETE CASCADE). */
    delete(id: string): void {
      remove.run(id);
    },
    get(id: string): ApiBundle | undefined {
      const row = byId.get({ id });
      return row && toApiBundle(row);
    },
    /** Whether a record with this id exists; other areas use it to check references. */
    exists(id: string): boolean {
      return byId.get({ id }) !== undefined;
    },
    /**
     * A keyset page of bundles whose name contains `contains` (any case), or all when null, and the size
     * of the whole filtered set; both read in one transaction so they agree. With a viewer (a caller who is
     * not an admin), only the bundles they see, in the page and in the total.
     */
    list(contains: string | null, after: number | null, limit: number, viewer: Viewer | null = null): { rows: BundleRow[]; total: number } {
      const folded = contains === null ? null : casefold(contains);
      if (viewer !== null) {
        const seen = viewerParams(viewer);
        return db.transaction(() => ({
          rows: visiblePage.all({ contains: folded, after: after ?? 0, limit, ...seen }),
          total: visibleCount.get({ contains: folded, ...seen })!.n,
        }))();
      }
      return db.transaction(() => ({
        rows: page.all({ contains: folded, after: after ?? 0, limit }),
        total: count.get({ contains: folded })!.n,
      }))();
    },

    /** Adds an item at an access level; returns false when the bundle already holds it at that level. */
    addItem(kind: BundleItemKind, key: ItemKey, name: string): boolean {
      return items[kind].insert.run({ ...key, name }).changes > 0;
    },
    /** Removes an item at an access level; returns false when the bundle did not hold it. */
    removeItem(kind: BundleItemKind, key: ItemKey): boolean {
      return items[kind].remove.run(key).changes > 0;
    },
    getItem(kind: BundleItemKind, key: ItemKey): ApiBundleItem | undefined {
      const row = items[kind].get.get(key);
      return row && toApiBundleItem(kind)(row);
    },
    /** Every item of one kind in a bundle, in the order they were added. */
    allItems(kind: BundleItemKind, bundleId: string): ApiBundleItem[] {
      return items[kind].all.all({ bundleId }).map(toApiBundleItem(kind));
    },
    /** A keyset page of one kind of item, and how many the bundle holds in all (read in one transaction). */
    listItems(kind: BundleItemKind, bundleId: string, after: number | null, limit: number): { rows: ItemRow[]; total: number } {
      return db.transaction(() => ({
        rows: items[kind].page.all({ bundleId, after: after ?? 0, limit }),
        total: items[kind].count.get({ bundleId })!.n,
      }))();
    },
  };
}

