// User access reviews: the reviews, their snapshot rows, and which resources and groups a scope selects.
// Who holds what is never read here: the service takes it from the access graph (holdings-store.ts).
import type { Db } from '../../db/open.ts';
import { casefold } from '../../lib/casefold.ts';
import { newId } from '../../lib/ids.ts';
import type { UarScopeInput } from './schemas.ts';
import { reviewIsComplete } from './sql.ts';
import type { UAR } from './responses.ts';
import { toApiAccessReview, type SnapshotEntry, type UarRow, type ItemType } from './mappers.ts';

export interface NewUar {
  name: string;
  reviewer_assignment_policy: UAR['reviewer_assignment_policy'];
  send_reviewer_assignment_notification: boolean;
  deadline: Date;
  time_zone: string;
  self_review_allowed: boolean;
  instantly_action_reviews: boolean;
  reminder_schedule?: number[] | undefined;
  reminder_include_manager?: boolean | undefined;
  uar_scope?: UarScopeInput | undefined;
  created_by_user_id: string;
}

interface SnapshotRow extends Omit<SnapshotEntry, 'has_direct_access' | 'access_path_group_ids'> {
  seq: number;
  has_direct_access: number;
  access_path_group_ids: string;
}

export interface ScopedItem {
  item_type: ItemType;
  item_id: string;
  name: string;
}

/** The item tables a scope reads; table and column names come from here, never from input. */
const ITEM_TABLES = [
  { type: 'RESOURCE', table: 'resources', typeColumn: 'resource_type', typesParam: '@resourceTypes', tagTable: 'tag_resources', tagColumn: 'resource_id', order: 0 },
  { type: 'GROUP', table: 'groups', typeColumn: 'group_type', typesParam: '@groupTypes', tagTable: 'tag_groups', tagColumn: 'group_id', order: 1 },
] as const;

/**
 * The item filters of a scope, each `[given, matches]` over alias `i`. The two type lists make one
 * filter (an item matches when its own kind's list names its type), so `ALL` with both lists given
 * still selects items.
 */
function scopeFilters(t: (typeof ITEM_TABLES)[number]): [string, string][] {
  return [
    ['@entities IS NOT NULL', 'i.id IN (SELECT value FROM json_each(@entities))'],
    ['@apps IS NOT NULL', 'i.app_id IN (SELECT value FROM json_each(@apps))'],
    ['@admins IS NOT NULL', 'i.admin_owner_id IN (SELECT value FROM json_each(@admins))'],
    ['@typesGiven = 1', `i.${t.typeColumn} IN (SELECT value FROM json_each(${t.typesParam}))`],
    ['@names IS NOT NULL', 'EXISTS (SELECT 1 FROM json_each(@names) n WHERE instr(casefold(i.name), n.value) > 0)'],
    ['@tags IS NOT NULL', `EXISTS (SELECT 1 FROM ${t.tagTable} l JOIN tags tg ON tg.id = l.tag_id
       JOIN json_each(@tags) f ON tg.key = json_extract(f.value, '$.key')
        AND (json_extract(f.value, '$.value') IS NULL OR tg.value = json_extract(f.value, '$.value'))
       WHERE l.${t.tagColumn} = i.id)`],
  ];
}

function scopeSelect(t: (typeof ITEM_TABLES)[number]): string {
  const filters = scopeFilters(t);
  const any = filters.map(([given, matches]) => `(${given} AND ${matches})`).join(' OR ');
  const all = filters.map(([given, matches]) => `(NOT (${given}) OR ${matches})`).join(' AND ');
  return `SELECT '${t.type}' AS item_type, i.id AS item_id, i.name AS name, ${t.order} AS k, i.seq AS seq FROM ${t.table} i
    WHERE CASE WHEN @all = 1 THEN (${all}) ELSE (@noFilter = 1 OR ${any}) END`;
}

export function createAccessReviewStore(db: Db) {
  const insertUar = db.prepare<Omit<UarRow, 'seq'>>(
    `INSERT INTO uars (id, name, reviewer_assignment_policy, send_reviewer_assignment_notification, deadline, time_zone,
       self_review_allowed, instantly_action_reviews, reminder_schedule, reminder_include_manager, uar_scope, created_by_user_id, created_at)
     VALUES (@id, @name, @reviewer_assignment_policy, @send_reviewer_assignment_notification, @deadline, @time_zone,
       @self_review_allowed, @instantly_action_reviews, @reminder_schedule, @reminder_include_manager, @uar_scope, @created_by_user_id, @created_at)`,
  );
  // A review whose snapshot is still being written does not exist yet for any reader (sql/0019).
  const complete = reviewIsComplete('uars');
  const byId = db.prepare<[string], UarRow>(`SELECT * FROM uars WHERE id = ? AND ${complete}`);
  const page = db.prepare<{ after: number; limit: number }, UarRow>(`SELECT * FROM uars WHERE seq > @after AND ${complete} ORDER BY seq LIMIT @limit`);
  const startWriting = db.prepare<[string, string]>('INSERT INTO uar_snapshots_in_progress (uar_id, started_at) VALUES (?, ?)');
  const finishWriting = db.prepare<[string]>('DELETE FROM uar_snapshots_in_progress WHERE uar_id = ?');
  const inProgressBefore = db.prepare<[string], { uar_id: string }>('SELECT uar_id FROM uar_snapshots_in_progress WHERE started_at < ?');
  const dropRows = db.prepare<[string, number]>(
    'DELETE FROM uar_snapshot_rows WHERE seq IN (SELECT seq FROM uar_snapshot_rows WHERE uar_id = ? ORDER BY seq LIMIT ?)',
  );
  const dropUar = db.prepare<[string]>('DELETE FROM uars WHERE id = ?');
  const insertRow = db.prepare<Omit<SnapshotRow, 'seq'> & { uar_id: string }>(
    `INSERT INTO uar_snapshot_rows (uar_id, item_type, item_id, item_name, user_id, user_full_name, user_email,
       access_level_remote_id, access_level_name, expiration_date, has_direct_access, num_access_paths, access_path_group_ids)
     VALUES (@uar_id, @item_type, @item_id, @item_name, @user_id, @user_full_name, @user_email,
       @access_level_remote_id, @access_level_name, @expiration_date, @has_direct_access, @num_access_paths, @access_path_group_ids)`,
  );
  const snapshotPage = db.prepare<{ uarId: string; after: number; limit: number }, SnapshotRow>(
    `SELECT seq, item_type, item_id, item_name, user_id, user_full_name, user_email, access_level_remote_id, access_level_name,
       expiration_date, has_direct_access, num_access_paths, access_path_group_ids
     FROM uar_snapshot_rows WHERE uar_id = @uarId AND seq > @after ORDER BY seq LIMIT @limit`,
  );
  const inScope = db.prepare<Record<string, string | number | null>, ScopedItem>(
    `SELECT item_type, item_id, name FROM (${ITEM_TABLES.map(scopeSelect).join(' UNION ALL ')}) ORDER BY k, seq`,
  );
  const tagMatching = db.prepare<{ key: string; value: string | null }, { n: number }>(
    'SELECT count(*) AS n FROM tags WHERE key = @key AND (@value IS NULL OR value = @value)',
  );

  const json = (values: unknown[] | undefined) => (values === undefined ? null : JSON.stringify(values));

  return {
    /** Marks review `id` as having its snapshot written: no read sees it until finishWriting. */
    startWriting: (id: string, at: Date) => void startWriting.run(id, at.toISOString()),
    /** The review's snapshot is whole: from this statement on the review exists for every reader. */
    finishWriting: (id: string) => void finishWriting.run(id),
    /** Reviews whose snapshot started being written before `before` and never finished (a crash, a failed slice). */
    abandonedBefore: (before: Date) => inProgressBefore.all(before.toISOString()).map((row) => row.uar_id),
    /** Deletes up to `limit` of the review's snapshot rows; returns how many were deleted. */
    dropRows: (uarId: string, limit: number): number => dropRows.run(uarId, limit).changes,
    /** Deletes the review's own row (and, by cascade, anything left of it). */
    drop: (uarId: string) => void dropUar.run(uarId),
    /** Inserts a review created at `at` and returns its id. */
    create(uar: NewUar, at: Date): string {
      const id = newId();
      insertUar.run({
        id,
        name: uar.name,
        reviewer_assignment_policy: uar.reviewer_assignment_policy,
        send_reviewer_assignment_notification: uar.send_reviewer_assignment_notification ? 1 : 0,
        deadline: uar.deadline.toISOString(),
        time_zone: uar.time_zone,
        self_review_allowed: uar.self_review_allowed ? 1 : 0,
        instantly_action_reviews: uar.instantly_action_reviews ? 1 : 0,
        reminder_schedule: json(uar.reminder_schedule),
        reminder_include_manager: uar.reminder_include_manager === undefined ? null : uar.reminder_include_manager ? 1 : 0,
        uar_scope: uar.uar_scope === undefined ? null : JSON.stringify(uar.uar_scope),
        created_by_user_id: uar.created_by_user_id,
        created_at: at.toISOString(),
      });
      return id;
    },
    get(id: string) {
      const row = byId.get(id);
      return row && toApiAccessReview(row);
    },
    /** Who started the review (its owner), or undefined for an unknown or half-written one. */
    ownerOf(id: string): string | undefined {
      return byId.get(id)?.created_by_user_id;
    },
    /** When the review was started: the instant its snapshot read access at. */
    snapshotTakenAt(id: string): string | undefined {
      return byId.get(id)?.created_at;
    },
    list(after: number | null, limit: number): UarRow[] {
      return page.all({ after: after ?? 0, limit });
    },
    addSnapshotRow(uarId: string, entry: SnapshotEntry): void {
      insertRow.run({
        uar_id: uarId,
        ...entry,
        has_direct_access: entry.has_direct_access ? 1 : 0,
        access_path_group_ids: JSON.stringify(entry.access_path_group_ids),
      });
    },
    snapshot(uarId: string, after: number | null, limit: number): (SnapshotEntry & { seq: number })[] {
      return snapshotPage.all({ uarId, after: after ?? 0, limit }).map((row) => ({
        ...row,
        has_direct_access: row.has_direct_access === 1,
        access_path_group_ids: JSON.parse(row.access_path_group_ids) as string[],
      }));
    },
    /** Whether some tag has this key (and this value, when one is given). */
    tagFilterMatches(key: string, value: string | undefined): boolean {
      return tagMatching.get({ key, value: value ?? null })!.n > 0;
    },
    /** The resources (first) and groups the scope's item filters select, each in creation order. See docs/access-reviews.md. */
    itemsInScope(scope: UarScopeInput | undefined): ScopedItem[] {
      const s = scope ?? {};
      const typesGiven = s.resource_types !== undefined || s.group_types !== undefined;
      const params = {
        all: s.filter_operator === 'ALL' ? 1 : 0,
        entities: json(s.entities),
        apps: json(s.apps),
        admins: json(s.admins),
        typesGiven: typesGiven ? 1 : 0,
        resourceTypes: JSON.stringify(s.resource_types ?? []),
        groupTypes: JSON.stringify(s.group_types ?? []),
        names: s.names === undefined ? null : JSON.stringify(s.names.map(casefold)),
        tags: s.tags === undefined ? null : JSON.stringify(s.tags.map((tag) => ({ key: tag.key, value: tag.value ?? null }))),
      };
      const noFilter = [params.entities, params.apps, params.admins, params.names, params.tags].every((p) => p === null) && !typesGiven;
      return inScope.all({ ...params, noFilter: noFilter ? 1 : 0 });
    },
  };
}

