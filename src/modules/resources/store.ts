// Resources, their tree (parent → children) and the access levels each offers: the only SQL for them.
import { casefold } from '../../lib/casefold.ts';
import type { Db } from '../../db/open.ts';
import { Kept, KeptPages, anyWrite, keptJson, keyedBy, type Watch } from '../../db/kept.ts';
import type { JsonText } from '../../http/json-text.ts';
import { newId } from '../../lib/ids.ts';
import { DEFAULT_REQUEST_SETTINGS, requestSettingsColumns } from '../request-settings/columns.ts';
import { VIEWER_GROUPS_CTE, viewerParams, visibleToViewer, type Viewer } from '../visibility/sql.ts';
import { toApiResource, type ResourceRow, type ResourceState, type ResourceApiRow } from './mappers.ts';
import { DEFAULT_ACCESS_LEVEL, type AccessLevel } from '../items/levels.ts';
import type { Resource } from './responses.ts';

export interface ResourceFilter {
  resourceType?: string | undefined;
  resourceIds?: string[] | undefined;
  name?: string | undefined;
  parentId?: string | undefined;
  ancestorId?: string | undefined;
  remoteId?: string | undefined;
  tagIds?: string[] | undefined;
  adminOwnerId?: string | undefined;
  appId?: string | undefined;
}

function columns(state: ResourceState) {
  return {
    app_id: state.app_id,
    name: state.name,
    description: state.description,
    admin_owner_id: state.admin_owner_id,
    resource_type: state.resource_type,
    remote_resource_id: state.remote_resource_id,
    remote_resource_name: state.remote_resource_name,
    remote_info: state.remote_info === null ? null : JSON.stringify(state.remote_info),
    metadata: state.metadata,
    parent_resource_id: state.parent_resource_id,
    require_mfa_to_connect: state.require_mfa_to_connect ? 1 : 0,
    ticket_propagation: state.ticket_propagation === null ? null : JSON.stringify(state.ticket_propagation),
    ...requestSettingsColumns(state.settings),
  };
}
type Columns = ReturnType<typeof columns>;
// Every written column, read off the mapping itself so the SQL can never miss one.
const COLUMN_NAMES = Object.keys(columns({
  app_id: '', name: '', description: '', admin_owner_id: '', resource_type: 'OPAL_ROLE', remote_resource_id: null, remote_resource_name: null,
  remote_info: null, metadata: null, parent_resource_id: null, require_mfa_to_connect: false, ticket_propagation: null,
  settings: DEFAULT_REQUEST_SETTINGS,
}));

/**
 * What an API answer carries beyond the row, computed by the row's own statement as JSON text (one
 * statement per answer or per page, instead of three more per row): ancestors nearest first,
 * descendants breadth first (each level in creation order), the non-default access levels by remote id.
 * `resources` must name the row's table in the statement. The depth cap only guards against a cycle
 * the service should never have let in.
 */
const RELATED_COLUMNS = `
  (WITH RECURSIVE up(id, depth) AS (
     SELECT parent_resource_id, 1 FROM resources self WHERE self.id = resources.id AND self.parent_resource_id IS NOT NULL
     UNION ALL
     SELECT r.parent_resource_id, up.depth + 1 FROM resources r JOIN up ON r.id = up.id
     WHERE r.parent_resource_id IS NOT NULL AND up.depth < 100000
   ) SELECT json_group_array(id) FROM (SELECT id FROM up ORDER BY depth)) AS ancestor_ids_json,
  (WITH RECURSIVE down(id, seq, depth) AS (
     SELECT child.id, child.seq, 1 FROM resources child WHERE child.parent_resource_id = resources.id
     UNION ALL
     SELECT r.id, r.seq, down.depth + 1 FROM resources r JOIN down ON r.parent_resource_id = down.id WHERE down.depth < 100000
   ) SELECT json_group_array(id) FROM (SELECT id FROM down ORDER BY depth, seq)) AS descendant_ids_json,
  (SELECT json_group_array(json_object('access_level_name', name, 'access_level_remote_id', remote_id))
     FROM (SELECT name, remote_id FROM resource_access_levels l WHERE l.resource_id = resources.id ORDER BY remote_id)) AS access_levels_json`;

/**
 * What a resource's answer is built from, and which answers each write makes stale: its own row (a
 * change of parent moves ancestors and descendants of others: everything), a new child or a deleted
 * one (its ancestors' descendant lists: everything), and its access levels.
 */
const ANSWER_SOURCES: Watch[] = [
  { table: 'resources', on: 'INSERT', keys: ['CASE WHEN NEW.parent_resource_id IS NULL THEN NEW.id END'] },
  { table: 'resources', on: 'UPDATE', keys: ['OLD.id', 'CASE WHEN OLD.parent_resource_id IS NEW.parent_resource_id THEN NEW.id END'] },
  { table: 'resources', on: 'DELETE', keys: ['CASE WHEN OLD.parent_resource_id IS NULL THEN OLD.id END'] },
  ...keyedBy('resource_access_levels', 'resource_id'),
];

/**
 * What a page of GET /v1/resources is built from (pageSql below, RELATED_COLUMNS, visibleToViewer), and
 * which pages each write makes stale. Pages are kept by whose view they are ('admin', or a member's id)
 * and query. Any resource, access level or tag link can move any page (a row in or out, an ancestor or
 * descendant list): everything. A member's page is filtered by what they see: their own memberships,
 * grants and owner listings drop their pages; nesting, groups' grants, owners and visibility groups
 * anyone's. Time is the caller's (resources/pages.ts: a member's pages hold until their visible set's
 * first expiry).
 */
const PAGE_SOURCES: Watch[] = [
  ...anyWrite('resources'),
  ...anyWrite('resource_access_levels'),
  ...anyWrite('tag_resources'),
  ...keyedBy('group_users', 'user_id'),
  ...keyedBy('resource_users', 'user_id'),
  ...keyedBy('owner_users', 'user_id'),
  ...anyWrite('group_groups'),
  ...anyWrite('group_resources'),
  ...anyWrite('owners'),
  ...anyWrite('resource_visibility_groups'),
];

/** Pages kept: a 200-row page is ~320 KB, so ~9 of them in 3 MB (a view up to a quarter of that: two such pages); up to 16 queries per view. */
const KEPT_PAGES = { entries: 1_000, bytes: 3 * 2 ** 20, pagesPerKey: 16 };

/** How many resources' answers are kept, and their bytes: ~1.5 KB each and ~1 KB to keep one (db/kept.ts), so ~8,000 at most; all kinds together share KEPT_TOTAL_BYTES. */
const KEPT_ANSWERS = { entries: 20_000, bytes: 20 * 2 ** 20 };

export function createResourceStore(db: Db) {
  // GET /v1/resources/{id}'s bytes per resource, built once per version of what they are built from (db/kept.ts).
  const answers = new Kept<Uint8Array>(db, 'resource_answers', ANSWER_SOURCES, KEPT_ANSWERS);
  // GET /v1/resources' pages, whole, per view and query (resources/pages.ts).
  const pages = new KeptPages(db, 'resource_pages', PAGE_SOURCES, KEPT_PAGES);
  const insert = db.prepare<Columns & { id: string; at: string }>(
    `INSERT INTO resources (id, ${COLUMN_NAMES.join(', ')}, created_at, updated_at)
     VALUES (@id, ${COLUMN_NAMES.map((c) => `@${c}`).join(', ')}, @at, @at)`,
  );
  const update = db.prepare<Columns & { id: string; at: string }>(
    `UPDATE resources SET ${COLUMN_NAMES.map((c) => `${c} = @${c}`).join(', ')}, updated_at = @at WHERE id = @id`,
  );
  const remove = db.prepare<[string]>('DELETE FROM resources WHERE id = ?');
  const byId = db.prepare<[string], ResourceRow>('SELECT * FROM resources WHERE id = ?');
  const answerById = db.prepare<[string], ResourceApiRow>(`SELECT *, ${RELATED_COLUMNS} FROM resources WHERE id = ?`);
  // Ids are UUIDs, so finding one in the JSON text cannot match anything but that id.
  const configurationsNaming = db.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM resources WHERE instr(request_configurations, ?) > 0',
  );
  const firstChild = db.prepare<[string], { id: string }>('SELECT id FROM resources WHERE parent_resource_id = ? LIMIT 1');
  const isDescendant = db.prepare<{ root: string; candidate: string }, { found: number }>(
    `WITH RECURSIVE down(id) AS (
       SELECT id FROM resources WHERE parent_resource_id = @root
       UNION
       SELECT r.id FROM resources r JOIN down ON r.parent_resource_id = down.id
     )
     SELECT 1 AS found FROM down WHERE id = @candidate LIMIT 1`,
  );
  // Each filter is optional (null: any); lists are JSON arrays. Two statements: admins see every row
  // (the statement has no visibility condition at all), anyone else only what visibleToViewer allows,
  // filtered in SQL so a page is never cut short.
  type PageParams = { type: string | null; ids: string | null; name: string | null; parent: string | null; ancestor: string | null; remote: string | null; tags: string | null; owner: string | null; app: string | null; after: number; limit: number };
  const pageSql = (filtered: boolean) =>
    `WITH RECURSIVE under(id) AS (
       SELECT id FROM resources WHERE @ancestor IS NOT NULL AND parent_resource_id = @ancestor
       UNION
       SELECT r.id FROM resources r JOIN under ON r.parent_resource_id = under.id
     )${filtered ? `, ${VIEWER_GROUPS_CTE}` : ''}
     SELECT *, ${RELATED_COLUMNS} FROM resources
     WHERE (@type IS NULL OR resource_type = @type)
       AND (@ids IS NULL OR id IN (SELECT value FROM json_each(@ids)))
       AND (@name IS NULL OR instr(casefold(name), @name) > 0)
       AND (@parent IS NULL OR parent_resource_id = @parent)
       AND (@ancestor IS NULL OR id IN (SELECT id FROM under))
       AND (@remote IS NULL OR remote_resource_id = @remote)
       AND (@tags IS NULL OR id IN (SELECT resource_id FROM tag_resources WHERE tag_id IN (SELECT value FROM json_each(@tags))))
       AND (@owner IS NULL OR admin_owner_id = @owner)
       AND (@app IS NULL OR app_id = @app)
       ${filtered ? `AND ${visibleToViewer('resource')}` : ''}
       AND seq > @after
     ORDER BY seq LIMIT @limit`;
  const page = db.prepare<PageParams, ResourceApiRow>(pageSql(false));
  const visiblePage = db.prepare<PageParams & { viewer: string; now: string }, ResourceApiRow>(pageSql(true));
  const pageOfTypes = db.prepare<{ types: string; after: number; limit: number }, ResourceApiRow>(
    `SELECT *, ${RELATED_COLUMNS} FROM resources WHERE resource_type IN (SELECT value FROM json_each(@types)) AND seq > @after ORDER BY seq LIMIT @limit`,
  );
  const visiblePageOfTypes = db.prepare<{ types: string; after: number; limit: number; viewer: string; now: string }, ResourceApiRow>(
    `WITH RECURSIVE ${VIEWER_GROUPS_CTE}
     SELECT *, ${RELATED_COLUMNS} FROM resources WHERE resource_type IN (SELECT value FROM json_each(@types)) AND ${visibleToViewer('resource')}
       AND seq > @after ORDER BY seq LIMIT @limit`,
  );
  const typeOf = db.prepare<[string], { resource_type: string }>('SELECT resource_type FROM resources WHERE id = ?');

  const levels = db.prepare<[string], { remote_id: string; name: string }>(
    'SELECT remote_id, name FROM resource_access_levels WHERE resource_id = ? ORDER BY remote_id',
  );
  const level = db.prepare<[string, string], { remote_id: string; name: string }>(
    'SELECT remote_id, name FROM resource_access_levels WHERE resource_id = ? AND remote_id = ?',
  );

  const json = (values: string[] | undefined) => (values === undefined ? null : JSON.stringify(values));
  const accessLevels = (id: string): AccessLevel[] => [
    DEFAULT_ACCESS_LEVEL,
    ...levels.all(id).map((row) => ({ access_level_name: row.name, access_level_remote_id: row.remote_id })),
  ];

  return {
    /** How many resources have a request configuration naming `id` (an owner, user or group). */
    countConfigurationsNaming(id: string): number {
      return configurationsNaming.get(id)!.n;
    },
    /** Whether a record with this id exists; other areas use it to check references. */
    exists(id: string): boolean {
      return byId.get(id) !== undefined;
    },
    getRow(id: string): ResourceRow | undefined {
      return byId.get(id);
    },
    /** The resource as the API answers it (one statement), or undefined. */
    get(id: string) {
      const row = answerById.get(id);
      return row && toApiResource(row);
    },
    /** The resource's answer as JSON bytes, kept until a write changes what it is built from; undefined when there is none. */
    answer(id: string): JsonText<Resource> | undefined {
      return keptJson(answers, id, () => {
        const row = answerById.get(id);
        return row && toApiResource(row);
      });
    },
    /** How many answers are kept (the bench and the tests read it). */
    keptAnswers: () => answers.size,
    /** GET /v1/resources' pages kept between reads (resources/pages.ts). */
    keptPages: pages,
    /** Inserts a resource and returns its id. */
    create(state: ResourceState, at: Date): string {
      const id = newId();
      insert.run({ id, ...columns(state), at: at.toISOString() });
      return id;
    },
    update(id: string, state: ResourceState, at: Date): void {
      update.run({ id, ...columns(state), at: at.toISOString() });
    },
    /** Deletes the resource; its access levels, tag links, bundle items and edges go with it (ON DELETE CASCADE). */
    delete(id: string): void {
      remove.run(id);
    },
    hasChildren(id: string): boolean {
      return firstChild.get(id) !== undefined;
    },
    /** Whether `candidate` lies anywhere below `root` in the tree. */
    isDescendant(root: string, candidate: string): boolean {
      return isDescendant.get({ root, candidate }) !== undefined;
    },
    /**
     * One page of resources matching `filter`; only those `viewer` sees, or all when viewer is null (an
     * admin). Read row by row, so a page is cut as it is read (cutPage), never held whole.
     */
    list(filter: ResourceFilter, after: number | null, limit: number, viewer: Viewer | null = null): IterableIterator<ResourceApiRow> {
      const params: PageParams = {
        type: filter.resourceType ?? null,
        ids: json(filter.resourceIds),
        name: filter.name === undefined ? null : casefold(filter.name),
        parent: filter.parentId ?? null,
        ancestor: filter.ancestorId ?? null,
        remote: filter.remoteId ?? null,
        tags: json(filter.tagIds),
        owner: filter.adminOwnerId ?? null,
        app: filter.appId ?? null,
        after: after ?? 0,
        limit,
      };
      return viewer === null ? page.iterate(params) : visiblePage.iterate({ ...params, ...viewerParams(viewer) });
    },
    /** One page of the resources of any of `types` (the non-human identities list uses it); only those `viewer` sees unless null. */
    listByTypes(types: readonly string[], after: number | null, limit: number, viewer: Viewer | null = null): ResourceApiRow[] {
      const params = { types: JSON.stringify(types), after: after ?? 0, limit };
      return viewer === null ? pageOfTypes.all(params) : visiblePageOfTypes.all({ ...params, ...viewerParams(viewer) });
    },
    /** The resource's resource_type, or undefined when there is no such resource. */
    resourceType(id: string): string | undefined {
      return typeOf.get(id)?.resource_type;
    },

    /** The resource's access levels, the default one ('' / '') first. */
    accessLevels,
    /**
     * The access level of resource `resourceId` whose remote id is `remoteId`, or undefined when the
     * resource does not exist or offers no such level. '' is the default level every resource offers.
     */
    accessLevel(resourceId: string, remoteId: string): AccessLevel | undefined {
      if (remoteId === '') return byId.get(resourceId) ? DEFAULT_ACCESS_LEVEL : undefined;
      const row = level.get(resourceId, remoteId);
      return row && { access_level_name: row.name, access_level_remote_id: row.remote_id };
    },
  };
}
