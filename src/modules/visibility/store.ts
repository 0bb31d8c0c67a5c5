// Visibility of resources, groups and bundles (GLOBAL or LIMITED to visibility groups): the only SQL
// that stores it and asks it of one item; the definition of "who sees an item" that other stores
// embed is sql.ts (docs/visibility.md).
import type { Db } from '../../db/open.ts';
import { Kept, anyWrite, keyedBy, type Watch } from '../../db/kept.ts';
import { LIVE } from '../access/sql.ts';
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

/**
 * What decides whether a viewer sees an item, on the item's side: its visibility, its visibility groups
 * and its admin owner (visibleToViewer's first three tests; "holds" is the viewer's side).
 */
interface ItemFacts {
  limited: boolean;
  groups: readonly string[];
  owner: string;
}

/**
 * A viewer's side of visibleToViewer, worked out once per user and kept until a write changes it or
 * the first edge it was read through expires: their effective groups at `at` (direct, nested, by rule),
 * the owners they are a user of (listed, or through the owner's source group), and which resources they
 * hold, judged as asked (each one statement, kept up to HELD_KEPT per viewer).
 */
interface ViewerSide {
  /** When it was worked out, and when its first live edge expires (null: none expires), as ISO text like the edges' dates. */
  at: string;
  until: string | null;
  groups: ReadonlySet<string>;
  groupsJson: string;
  owners: ReadonlySet<string>;
  held: Map<string, boolean>;
}

/** How many held-or-not answers a viewer keeps (a viewer reading more starts over). */
const HELD_KEPT = 1_000;

/** Which writes change an item's side: its row's visibility and owner, its visibility groups; keyed `<kind>:<id>`. */
const ITEM_SIDE_SOURCES: Watch[] = (['resource', 'group', 'bundle'] as const).flatMap((kind) => {
  const { table, links, itemColumn } = VISIBILITY_KINDS[kind];
  return [
    { table, on: 'UPDATE' as const, of: ['visibility', 'admin_owner_id'], keys: [`'${kind}:' || OLD.id`, `'${kind}:' || NEW.id`] },
    { table, on: 'DELETE' as const, keys: [`'${kind}:' || OLD.id`] },
    ...keyedBy(links, itemColumn).map((watch) => ({ ...watch, keys: watch.keys.map((key) => `'${kind}:' || ${key}`) })),
  ];
});

/**
 * Which writes change a viewer's side: their own group memberships, direct grants and owner listings
 * (keyed by user), their user row and tokens; nesting, groups' grants and owners' source groups change
 * anyone's (everything).
 */
const VIEWER_SIDE_SOURCES: Watch[] = [
  ...keyedBy('group_users', 'user_id'),
  ...keyedBy('resource_users', 'user_id'),
  ...keyedBy('owner_users', 'user_id'),
  ...keyedBy('users', 'id'),
  // A token's last_used_at (touched once a minute by use) changes nothing anyone sees.
  ...keyedBy('api_tokens', 'user_id').map((watch) => (watch.on === 'UPDATE' ? { ...watch, of: ['user_id', 'access_level', 'expires_at', 'scope'] } : watch)),
  ...anyWrite('group_groups'),
  ...anyWrite('group_resources'),
  ...anyWrite('owners'),
];

/**
 * Items' sides kept (~200 bytes each and ~1 KB to keep one, db/kept.ts: ~5,000), and viewers' sides (up to
 * ~100 KB each with their HELD_KEPT answers): 14 MB together at most, within KEPT_TOTAL_BYTES for every kind.
 */
const KEPT_ITEM_SIDES = { entries: 50_000, bytes: 6 * 2 ** 20 };
const KEPT_VIEWER_SIDES = { entries: 5_000, bytes: 8 * 2 ** 20 };

export function createVisibilityStore(db: Db) {
  const kinds = {
    resource: kindStatements(db, 'resource'),
    group: kindStatements(db, 'group'),
    bundle: kindStatements(db, 'bundle'),
    configuration_template: kindStatements(db, 'configuration_template'),
  };
  const itemSideStatement = (kind: VisibleKind) => {
    const { table, links, itemColumn, groupColumn } = VISIBILITY_KINDS[kind];
    return db.prepare<[string], { visibility: VisibilityType; admin_owner_id: string; groups: string }>(
      `SELECT visibility, admin_owner_id, (SELECT json_group_array(${groupColumn}) FROM ${links} l WHERE l.${itemColumn} = t.id) AS groups FROM ${table} t WHERE t.id = ?`,
    );
  };
  const itemSideOf = { resource: itemSideStatement('resource'), group: itemSideStatement('group'), bundle: itemSideStatement('bundle') };
  const viewerGroups = db.prepare<{ viewer: string; now: string }, string>(`WITH RECURSIVE ${VIEWER_GROUPS_CTE} SELECT group_id FROM viewer_groups`).pluck();
  // visibleToViewer's two owner tests, as the set of owners that pass them.
  const viewerOwners = db.prepare<{ viewer: string; now: string }, string>(
    `WITH RECURSIVE ${VIEWER_GROUPS_CTE}
     SELECT ou.owner_id FROM owner_users ou JOIN owners o ON o.id = ou.owner_id WHERE ou.user_id = @viewer AND o.source_group_id IS NULL
     UNION SELECT o.id FROM owners o WHERE o.source_group_id IN (SELECT group_id FROM viewer_groups)`,
  ).pluck();
  // The first expiry among the live edges the viewer's side reads (a superset of those it went through):
  // until then, nothing time does can change it.
  const viewerUntil = db.prepare<{ viewer: string; now: string }, string | null>(
    `WITH RECURSIVE ${VIEWER_GROUPS_CTE}
     SELECT min(e) FROM (
       SELECT min(expiration_date) AS e FROM group_users WHERE user_id = @viewer AND expiration_date > @now
       UNION ALL SELECT min(expiration_date) FROM group_groups WHERE group_id IN (SELECT group_id FROM viewer_groups) AND expiration_date > @now
       UNION ALL SELECT min(expiration_date) FROM resource_users WHERE user_id = @viewer AND expiration_date > @now
       UNION ALL SELECT min(expiration_date) FROM group_resources WHERE group_id IN (SELECT group_id FROM viewer_groups) AND expiration_date > @now)`,
  ).pluck();
  // visibleToViewer's "holds" test for one resource, given the viewer's groups.
  const holds = db.prepare<{ viewer: string; now: string; id: string; groups: string }, number>(
    `SELECT EXISTS (SELECT 1 FROM resource_users ru WHERE ru.user_id = @viewer AND ru.resource_id = @id AND ${LIVE('ru')})
         OR EXISTS (SELECT 1 FROM group_resources gr WHERE gr.resource_id = @id AND gr.group_id IN (SELECT value FROM json_each(@groups)) AND ${LIVE('gr')})`,
  ).pluck();

  const itemSides = new Kept<ItemFacts>(db, 'visibility_items', ITEM_SIDE_SOURCES, KEPT_ITEM_SIDES);
  const viewerSides = new Kept<ViewerSide>(db, 'visibility_viewers', VIEWER_SIDE_SOURCES, KEPT_VIEWER_SIDES);

  function itemSide(kind: VisibleKind, id: string): ItemFacts | undefined {
    const key = `${kind}:${id}`;
    const kept = itemSides.get(key);
    if (kept) return kept;
    const row = itemSideOf[kind].get(id);
    if (!row) return undefined;
    const facts = { limited: row.visibility !== 'GLOBAL', groups: JSON.parse(row.groups) as string[], owner: row.admin_owner_id };
    return itemSides.keep(key, facts, 200 + row.groups.length);
  }

  /** The viewer's side at `now`, kept or worked out (and kept when it may be); undefined inside a transaction with none kept. */
  function viewerSide(userId: string, now: string): ViewerSide | undefined {
    const kept = viewerSides.get(userId);
    if (kept && kept.at <= now && (kept.until === null || now < kept.until)) return kept;
    if (!viewerSides.mayKeep()) return undefined;
    const params = { viewer: userId, now };
    const groups = viewerGroups.all(params);
    const owners = viewerOwners.all(params);
    const side: ViewerSide = { at: now, until: viewerUntil.get(params) ?? null, groups: new Set(groups), groupsJson: JSON.stringify(groups), owners: new Set(owners), held: new Map() };
    return viewerSides.keep(userId, side, 1_000 + (groups.length + owners.length) * 120 + HELD_KEPT * 100);
  }

  /** visibleToViewer, decided from the two sides: the same tests in the same order. */
  function decide(kind: VisibleKind, id: string, item: ItemFacts, viewer: ViewerSide, userId: string): boolean {
    if (!item.limited) return true;
    for (const group of item.groups) if (viewer.groups.has(group)) return true;
    if (viewer.owners.has(item.owner)) return true;
    if (kind === 'group') return viewer.groups.has(id);
    if (kind !== 'resource') return false;
    let held = viewer.held.get(id);
    if (held === undefined) {
      held = holds.get({ viewer: userId, now: viewer.at, id, groups: viewer.groupsJson }) === 1;
      if (viewerSides.mayKeep()) {
        if (viewer.held.size >= HELD_KEPT) viewer.held.clear();
        viewer.held.set(id, held);
      }
    }
    return held;
  }

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
    /**
     * Whether `viewer` sees the item (false too when it does not exist). Admins are not asked. Decided from
     * the item's side and the viewer's, each kept between requests (see ViewerSide); the one statement
     * of visibleToViewer when neither may be kept (inside a transaction, on a read-only connection).
     */
    sees(kind: VisibleKind, id: string, viewer: Viewer): boolean {
      const side = viewerSide(viewer.userId, viewer.now.toISOString());
      if (side === undefined) return kinds[kind].sees!.get({ id, ...viewerParams(viewer) }) !== undefined;
      const item = itemSide(kind, id);
      return item !== undefined && decide(kind, id, item, side, viewer.userId);
    },
    /**
     * Until when what `viewer` sees holds, time alone moving: the first expiry among the edges their
     * visible set was read through (null: none expires). Undefined when it may not be kept (inside a
     * transaction, on a read-only connection): then nothing read through it may be kept either.
     */
    horizon(viewer: Viewer): string | null | undefined {
      return viewerSide(viewer.userId, viewer.now.toISOString())?.until;
    },
    /** visibleToViewer's statement itself, nothing kept: what `sees` must always agree with (the tests compare them). */
    seesFresh(kind: VisibleKind, id: string, viewer: Viewer): boolean {
      return kinds[kind].sees!.get({ id, ...viewerParams(viewer) }) !== undefined;
    },
  };
}

