// Groups and their leaders: the only SQL for either.
import { casefold } from '../../lib/casefold.ts';
import type { Db } from '../../db/open.ts';
import { Kept, keptJson, keyedBy } from '../../db/kept.ts';
import type { JsonText } from '../../http/json-text.ts';
import { newId } from '../../lib/ids.ts';
import { DEFAULT_REQUEST_SETTINGS, requestSettingsColumns } from '../request-settings/columns.ts';
import { VIEWER_GROUPS_CTE, viewerParams, visibleToViewer, type Viewer } from '../visibility/sql.ts';
import type { Group } from './responses.ts';
import { toApiGroup, type GroupRow, type GroupState } from './mappers.ts';

export interface GroupFilter {
  groupType?: string | undefined;
  groupIds?: string[] | undefined;
  name?: string | undefined;
  tagIds?: string[] | undefined;
  adminOwnerId?: string | undefined;
  appId?: string | undefined;
}

function columns(state: GroupState) {
  return {
    app_id: state.app_id,
    name: state.name,
    description: state.description,
    admin_owner_id: state.admin_owner_id,
    group_type: state.group_type,
    remote_id: state.remote_id,
    remote_name: state.remote_name,
    remote_info: state.remote_info === null ? null : JSON.stringify(state.remote_info),
    metadata: state.metadata,
    ...requestSettingsColumns(state.settings),
  };
}
type Columns = ReturnType<typeof columns>;
// Every written column, read off the mapping itself so the SQL can never miss one.
const COLUMN_NAMES = Object.keys(columns({
  app_id: '', name: '', description: '', admin_owner_id: '', group_type: 'OPAL_GROUP', remote_id: null, remote_name: null,
  remote_info: null, metadata: null, settings: DEFAULT_REQUEST_SETTINGS,
}));

/** What a group's answer is built from: its row, its leaders, its binding and its access levels, each keyed by the group. */
const ANSWER_SOURCES = [
  ...keyedBy('groups', 'id'),
  ...keyedBy('group_leaders', 'group_id'),
  ...keyedBy('group_binding_groups', 'group_id'),
  ...keyedBy('group_access_levels', 'group_id'),
];

/** How many groups' answers are kept, and their bytes: ~1.5 KB each and ~1 KB to keep one (db/kept.ts), so ~3,000 at most; all kinds together share KEPT_TOTAL_BYTES. */
const KEPT_ANSWERS = { entries: 10_000, bytes: 8 * 2 ** 20 };

export function createGroupStore(db: Db) {
  // GET /v1/groups/{id}'s bytes per group, built once per version of what they are built from (db/kept.ts).
  const answers = new Kept<Uint8Array>(db, 'group_answers', ANSWER_SOURCES, KEPT_ANSWERS);
  const insert = db.prepare<Columns & { id: string; at: string }>(
    `INSERT INTO groups (id, ${COLUMN_NAMES.join(', ')}, created_at, updated_at)
     VALUES (@id, ${COLUMN_NAMES.map((c) => `@${c}`).join(', ')}, @at, @at)`,
  );
  const update = db.prepare<Columns & { id: string; at: string }>(
    `UPDATE groups SET ${COLUMN_NAMES.map((c) => `${c} = @${c}`).join(', ')}, updated_at = @at WHERE id = @id`,
  );
  const remove = db.prepare<[string]>('DELETE FROM groups WHERE id = ?');
  const byId = db.prepare<[string], GroupRow>('SELECT * FROM groups WHERE id = ?');
  // Ids are UUIDs, so finding one in the JSON text cannot match anything but that id.
  const configurationsNaming = db.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM groups WHERE instr(request_configurations, ?) > 0',
  );
  // Two statements: admins see every row (no visibility condition at all), anyone else only what
  // visibleToViewer allows, filtered in SQL so a page is never cut short.
  type PageParams = { type: string | null; ids: string | null; name: string | null; tags: string | null; owner: string | null; app: string | null; after: number; limit: number };
  const pageSql = (filtered: boolean) =>
    `${filtered ? `WITH RECURSIVE ${VIEWER_GROUPS_CTE}` : ''}
     SELECT * FROM groups
     WHERE (@type IS NULL OR group_type = @type)
       AND (@ids IS NULL OR id IN (SELECT value FROM json_each(@ids)))
       AND (@name IS NULL OR instr(casefold(name), @name) > 0)
       AND (@tags IS NULL OR id IN (SELECT group_id FROM tag_groups WHERE tag_id IN (SELECT value FROM json_each(@tags))))
       AND (@owner IS NULL OR admin_owner_id = @owner)
       AND (@app IS NULL OR app_id = @app)
       ${filtered ? `AND ${visibleToViewer('group')}` : ''}
       AND seq > @after
     ORDER BY seq LIMIT @limit`;
  const page = db.prepare<PageParams, GroupRow>(pageSql(false));
  const visiblePage = db.prepare<PageParams & { viewer: string; now: string }, GroupRow>(pageSql(true));
  // A set: listed in id order (the table is WITHOUT ROWID and keeps no position).
  const leaders = db.prepare<[string], { user_id: string }>('SELECT user_id FROM group_leaders WHERE group_id = ? ORDER BY user_id');
  const clearLeaders = db.prepare<[string]>('DELETE FROM group_leaders WHERE group_id = ?');
  const insertLeader = db.prepare<[string, string]>('INSERT INTO group_leaders (group_id, user_id) VALUES (?, ?)');
  // The binding is kept in its own table (sql/0004), keyed by group: at most one per group.
  const bindingOf = db.prepare<[string], { group_binding_id: string }>('SELECT group_binding_id FROM group_binding_groups WHERE group_id = ?');

  const json = (values: string[] | undefined) => (values === undefined ? null : JSON.stringify(values));
  const levels = db.prepare<[string], { remote_id: string; name: string }>(
    'SELECT remote_id, name FROM group_access_levels WHERE group_id = ? ORDER BY remote_id',
  );

  /** A row as the API's Group, with its leaders, binding and access levels read here (toApiGroup, mappers.ts, maps them). */
  function toApi(row: GroupRow): Group {
    return toApiGroup(row, {
      leaderIds: leaders.all(row.id).map((r) => r.user_id),
      bindingId: bindingOf.get(row.id)?.group_binding_id,
      levels: levels.all(row.id).map((level) => ({ access_level_name: level.name, access_level_remote_id: level.remote_id })),
    });
  }

  return {
    /** How many groups have a request configuration naming `id` (an owner, user or group). */
    countConfigurationsNaming(id: string): number {
      return configurationsNaming.get(id)!.n;
    },
    /** Whether a record with this id exists; other areas use it to check references. */
    exists(id: string): boolean {
      return byId.get(id) !== undefined;
    },
    getRow(id: string): GroupRow | undefined {
      return byId.get(id);
    },
    get(id: string) {
      const row = byId.get(id);
      return row && toApi(row);
    },
    /** The group's answer as JSON bytes, kept until a write changes what it is built from; undefined when there is none. */
    answer(id: string): JsonText<Group> | undefined {
      return keptJson(answers, id, () => {
        const row = byId.get(id);
        return row && toApi(row);
      });
    },
    /** How many answers are kept (the bench and the tests read it). */
    keptAnswers: () => answers.size,
    toApi,
    /** Inserts a group and returns its id. */
    create(state: GroupState, at: Date): string {
      const id = newId();
      insert.run({ id, ...columns(state), at: at.toISOString() });
      return id;
    },
    update(id: string, state: GroupState, at: Date): void {
      update.run({ id, ...columns(state), at: at.toISOString() });
    },
    /** Deletes the group; its leaders, tag links, bundle items and access edges go with it (ON DELETE CASCADE). */
    delete(id: string): void {
      remove.run(id);
    },
    /** One page of groups matching `filter`; only those `viewer` sees, or all when viewer is null (an admin). */
    list(filter: GroupFilter, after: number | null, limit: number, viewer: Viewer | null = null): GroupRow[] {
      const params: PageParams = {
        type: filter.groupType ?? null,
        ids: json(filter.groupIds),
        name: filter.name === undefined ? null : casefold(filter.name),
        tags: json(filter.tagIds),
        owner: filter.adminOwnerId ?? null,
        app: filter.appId ?? null,
        after: after ?? 0,
        limit,
      };
      return viewer === null ? page.all(params) : visiblePage.all({ ...params, ...viewerParams(viewer) });
    },
    /** Replaces the group's leaders. */
    setLeaders(groupId: string, userIds: string[]): void {
      clearLeaders.run(groupId);
      for (const userId of userIds) insertLeader.run(groupId, userId);
    },
  };
}
