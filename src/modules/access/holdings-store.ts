// Effective access, read at query time: the only SQL that answers "who holds what, through which
// path, until when" (the definition in docs/access-graph.md). Every read of holdings goes through here.
import type { Db } from '../../db/open.ts';
import { KeptPages, anyWrite, keyedBy, type Watch } from '../../db/kept.ts';
import { NEVER } from './edges.ts';
import { LIVE } from './sql.ts';

/** One holding (principal, item, level) with its expiry and paths. */
export interface HoldingRow {
  user_id: string;
  item_id: string;
  level: string;
  level_name: string;
  /** NEVER when some path never expires. */
  exp: string;
  direct: number;
  paths: number;
  /** The distinct groups counted in `paths`, comma-separated in no particular order; null when none. */
  vias: string | null;
}

/** An item a principal reaches, at a level. */
export interface ReachRow {
  type: ItemType;
  item_id: string;
  level: string;
  level_name: string;
}

/** A principal (a group, or a non-human identity) reaching an item, at a level. */
export interface PrincipalRow {
  principal_id: string;
  level: string;
  level_name: string;
}

/** The two kinds of item a user can hold; table and column names come from here, never from input. */
const ITEMS = {
  resource: { direct: 'resource_users', directItem: 'resource_id', grants: 'group_resources', grantsItem: 'resource_id' },
  group: { direct: 'group_users', directItem: 'group_id', grants: 'group_groups', grantsItem: 'containing_group_id' },
} as const;
export type ItemType = keyof typeof ITEMS;

// The groups a user holds: direct memberships, then upward through nesting. A path's expiry is the
// earliest along it (min); `via` is the group the step came from (NULL for a direct membership).
const MEMBER_CTE = `
  member(group_id, level, level_name, exp, via) AS (
    SELECT gu.group_id, gu.access_level_remote_id, gu.access_level_name, coalesce(gu.expiration_date, @never), NULL
    FROM group_users gu WHERE gu.user_id = @userId AND ${LIVE('gu')}
    UNION
    SELECT gg.containing_group_id, gg.access_level_remote_id, gg.access_level_name, min(m.exp, coalesce(gg.expiration_date, @never)), m.group_id
    FROM member m JOIN group_groups gg ON gg.group_id = m.group_id WHERE ${LIVE('gg')}
  )`;

// The groups whose members hold item @itemId: those with a live edge to it, then downward through
// nesting. `via` is the group holding the edge to the item (the "immediate source" counted in
// num_access_paths), `exp` the earliest expiry from the group up to the item.
const sourceCte = (type: ItemType) => {
  const { grants, grantsItem } = ITEMS[type];
  return `
  src(group_id, via, level, level_name, exp) AS (
    SELECT e.group_id, e.group_id, e.access_level_remote_id, e.access_level_name, coalesce(e.expiration_date, @never)
    FROM ${grants} e WHERE e.${grantsItem} = @itemId AND ${LIVE('e')}
    UNION
    SELECT gg.group_id, s.via, s.level, s.level_name, min(s.exp, coalesce(gg.expiration_date, @never))
    FROM src s JOIN group_groups gg ON gg.containing_group_id = s.group_id WHERE ${LIVE('gg')}
  )`;
};

// Per (item, level): the latest path expiry, whether a direct edge exists, direct + distinct source
// groups, and those groups (UUIDs, so the default ',' separator cannot occur inside one).
const AGGREGATE = `max(p.level_name) AS level_name, max(p.exp) AS exp, max(p.via IS NULL) AS direct,
                   count(DISTINCT p.via) + max(p.via IS NULL) AS paths, group_concat(DISTINCT p.via) AS vias`;

/**
 * The `limit` smallest distinct ids across sorted lists, reading each list in growing chunks only as
 * far as needed (a k-way merge that cannot hold cursors open: better-sqlite3 allows one running
 * statement per connection). An id is final once every unfinished list has read past it.
 * `read(from, n)` answers up to n ids >= from, ascending.
 */
export function mergeSmallest(lists: ((from: string, n: number) => string[])[], from: string, limit: number): string[] {
  const found = new Set<string>();
  const state = lists.map(() => ({ last: null as string | null, done: false, chunk: Math.ceil(limit / lists.length) + 1 }));
  const read = (i: number) => {
    const s = state[i]!;
    // Ids equal to `last` were read already; re-reading from it keeps the query a simple >=.
    const rows = lists[i]!(s.last ?? from, s.chunk + (s.last === null ? 0 : 1)).filter((id) => s.last === null || id > s.last);
    for (const id of rows) found.add(id);
    if (rows.length < s.chunk) s.done = true;
    else s.last = rows.at(-1)!;
    s.chunk *= 2;
  };
  lists.forEach((_, i) => read(i));
  for (;;) {
    const open = state.filter((s) => !s.done);
    // Every id up to the smallest `last` among unfinished lists is known.
    const bound = open.reduce<string | null>((min, s) => (min === null || s.last! < min ? s.last! : min), null);
    const settled = bound === null ? found.size : [...found].filter((id) => id <= bound).length;
    if (settled >= limit || bound === null) break;
    state.forEach((s, i) => { if (!s.done && s.last === bound) read(i); });
  }
  return [...found].sort().slice(0, limit);
}

/**
 * What GET /v1/groups/{group_id}/users' pages are built from (holdersOf for a group; a name per group
 * and user, and propagation statuses: mappers.ts groupUser), kept per group and query: any membership
 * or nesting can move any group's members (nesting: everything); a user renamed, everything; a group's
 * own name, description or app, its pages; connectors and propagations, everything. Time: reads.ts
 * keeps a page until the first of its holdings ends.
 */
const GROUP_MEMBER_PAGE_SOURCES: Watch[] = [
  ...anyWrite('group_users'),
  ...anyWrite('group_groups'),
  { table: 'users', on: 'UPDATE', of: ['full_name', 'email'], keys: ['NULL'] },
  { table: 'users', on: 'DELETE', keys: ['NULL'] },
  { table: 'groups', on: 'UPDATE', of: ['name', 'description', 'app_id'], keys: ['OLD.id', 'NEW.id'] },
  { table: 'groups', on: 'DELETE', keys: ['OLD.id'] },
  ...anyWrite('connectors'),
  ...anyWrite('propagations'),
];

/**
 * What GET /v1/groups/users/{user_id}'s pages are built from (groupsOfUser, the same names and
 * statuses), kept per user and query: the user's own memberships and row, their pages; nesting, any
 * group's name, description or app, connectors and propagations, everything.
 */
const USER_GROUP_PAGE_SOURCES: Watch[] = [
  ...keyedBy('group_users', 'user_id'),
  ...anyWrite('group_groups'),
  { table: 'users', on: 'UPDATE', of: ['full_name', 'email'], keys: ['OLD.id', 'NEW.id'] },
  { table: 'users', on: 'DELETE', keys: ['OLD.id'] },
  { table: 'groups', on: 'UPDATE', of: ['name', 'description', 'app_id'], keys: ['NULL'] },
  { table: 'groups', on: 'DELETE', keys: ['NULL'] },
  ...anyWrite('connectors'),
  ...anyWrite('propagations'),
];

/**
 * A page of 200 members is ~70 KB, a user's groups ~20 KB (the bench's: 100 groups' members 6.3 MB, 200
 * nested users' groups 4.3 MB): 7 and 6 MB, with resources' 3 MB of pages 16 MB kept as pages in all.
 */
const KEPT_GROUP_MEMBER_PAGES = { entries: 2_000, bytes: 7 * 2 ** 20, pagesPerKey: 16 };
const KEPT_USER_GROUP_PAGES = { entries: 10_000, bytes: 6 * 2 ** 20, pagesPerKey: 16 };

export function createHoldingsStore(db: Db) {
  const userGroups = db.prepare<{ userId: string; now: string; never: string }, HoldingRow>(
    `WITH RECURSIVE ${MEMBER_CTE}
     SELECT @userId AS user_id, p.group_id AS item_id, p.level, ${AGGREGATE}
     FROM member p GROUP BY p.group_id, p.level ORDER BY p.group_id, p.level`,
  );
  const userResources = db.prepare<{ userId: string; resourceId: string | null; now: string; never: string }, HoldingRow>(
    `WITH RECURSIVE ${MEMBER_CTE},
     held(group_id, exp) AS (SELECT group_id, max(exp) FROM member GROUP BY group_id),
     paths(resource_id, level, level_name, exp, via) AS (
       SELECT ru.resource_id, ru.access_level_remote_id, ru.access_level_name, coalesce(ru.expiration_date, @never), NULL
       FROM resource_users ru WHERE ru.user_id = @userId AND ${LIVE('ru')} AND (@resourceId IS NULL OR ru.resource_id = @resourceId)
       UNION ALL
       SELECT gr.resource_id, gr.access_level_remote_id, gr.access_level_name, min(h.exp, coalesce(gr.expiration_date, @never)), gr.group_id
       FROM held h CROSS JOIN group_resources gr ON gr.group_id = h.group_id WHERE ${LIVE('gr')} AND (@resourceId IS NULL OR gr.resource_id = @resourceId)
     )
     SELECT @userId AS user_id, p.resource_id AS item_id, p.level, ${AGGREGATE}
     FROM paths p GROUP BY p.resource_id, p.level ORDER BY p.resource_id, p.level`,
  );

  function holderStatements(type: ItemType) {
    const { direct, directItem } = ITEMS[type];
    return {
      sourceGroups: db.prepare<{ itemId: string; now: string; never: string }, { group_id: string }>(
        `WITH RECURSIVE ${sourceCte(type)} SELECT DISTINCT group_id FROM src`,
      ),
      directCandidates: db.prepare<{ itemId: string; after: string; now: string; limit: number }, { user_id: string }>(
        `SELECT DISTINCT d.user_id FROM ${direct} d
         WHERE d.${directItem} = @itemId AND d.user_id >= @after AND ${LIVE('d')} ORDER BY d.user_id LIMIT @limit`,
      ),
      rows: db.prepare<{ itemId: string; users: string; now: string; never: string }, HoldingRow>(
        `WITH RECURSIVE ${sourceCte(type)},
         chosen(user_id) AS (SELECT value FROM json_each(@users)),
         paths(user_id, level, level_name, exp, via) AS (
           SELECT d.user_id, d.access_level_remote_id, d.access_level_name, coalesce(d.expiration_date, @never), NULL
           FROM chosen c CROSS JOIN ${direct} d ON d.${directItem} = @itemId AND d.user_id = c.user_id WHERE ${LIVE('d')}
           UNION ALL
           SELECT gu.user_id, s.level, s.level_name, min(s.exp, coalesce(gu.expiration_date, @never)), s.via
           FROM chosen c CROSS JOIN group_users gu ON gu.user_id = c.user_id JOIN src s ON s.group_id = gu.group_id WHERE ${LIVE('gu')}
         )
         SELECT p.user_id, @itemId AS item_id, p.level, ${AGGREGATE}
         FROM paths p GROUP BY p.user_id, p.level ORDER BY p.user_id, p.level`,
      ),
    };
  }
  const holders = { resource: holderStatements('resource'), group: holderStatements('group') };
  const groupCandidates = db.prepare<{ groupId: string; after: string; now: string; limit: number }, { user_id: string }>(
    `SELECT DISTINCT gu.user_id FROM group_users gu
     WHERE gu.group_id = @groupId AND gu.user_id >= @after AND ${LIVE('gu')} ORDER BY gu.user_id LIMIT @limit`,
  );

  // The other direction of the same paths: what a group's membership leads to. A member of G holds
  // every group G is nested in (upward, transitively) at the level of that nesting edge, and every
  // resource those groups or G hold. No min/max: these reads ask only whether a live path exists.
  const groupReach = db.prepare<{ groupId: string; now: string }, ReachRow>(
    `WITH RECURSIVE up(group_id, level, level_name) AS (
       SELECT gg.containing_group_id, gg.access_level_remote_id, gg.access_level_name
       FROM group_groups gg WHERE gg.group_id = @groupId AND ${LIVE('gg')}
       UNION
       SELECT gg.containing_group_id, gg.access_level_remote_id, gg.access_level_name
       FROM up u JOIN group_groups gg ON gg.group_id = u.group_id WHERE ${LIVE('gg')}
     )
     SELECT 'group' AS type, group_id AS item_id, level, level_name FROM up
     UNION
     SELECT 'resource', gr.resource_id, gr.access_level_remote_id, gr.access_level_name
     FROM group_resources gr WHERE ${LIVE('gr')} AND (gr.group_id = @groupId OR gr.group_id IN (SELECT group_id FROM up))`,
  );
  const sourceGroupLevels = {
    resource: db.prepare<{ itemId: string; now: string; never: string }, PrincipalRow>(
      `WITH RECURSIVE ${sourceCte('resource')} SELECT DISTINCT group_id AS principal_id, level, level_name FROM src`,
    ),
    group: db.prepare<{ itemId: string; now: string; never: string }, PrincipalRow>(
      `WITH RECURSIVE ${sourceCte('group')} SELECT DISTINCT group_id AS principal_id, level, level_name FROM src`,
    ),
  };
  const identityReach = db.prepare<{ identityId: string; now: string }, ReachRow>(
    `SELECT 'resource' AS type, n.resource_id AS item_id, n.access_level_remote_id AS level, n.access_level_name AS level_name
     FROM resource_non_human_identities n WHERE n.non_human_identity_id = @identityId AND ${LIVE('n')}`,
  );
  const identityHolders = db.prepare<{ resourceId: string; now: string }, PrincipalRow>(
    `SELECT n.non_human_identity_id AS principal_id, n.access_level_remote_id AS level, n.access_level_name AS level_name
     FROM resource_non_human_identities n WHERE n.resource_id = @resourceId AND ${LIVE('n')}`,
  );

  const iso = (at: Date) => at.toISOString();
  const store = {
    /** The groups whose members hold `itemId` through them, with the level each leads to. */
    groupsHolding(type: ItemType, itemId: string, now: Date): PrincipalRow[] {
      return sourceGroupLevels[type].all({ itemId, now: iso(now), never: NEVER });
    },
    /** What every member of the group holds through it: the groups it is nested in and the resources they and it hold. */
    reachOfGroup(groupId: string, now: Date): ReachRow[] {
      return groupReach.all({ groupId, now: iso(now) });
    },
    /** The resources a non-human identity (a resource) holds. */
    reachOfIdentity(identityId: string, now: Date): ReachRow[] {
      return identityReach.all({ identityId, now: iso(now) });
    },
    /** The non-human identities holding a resource. */
    identitiesHolding(resourceId: string, now: Date): PrincipalRow[] {
      return identityHolders.all({ resourceId, now: iso(now) });
    },
    /** Every group the user holds, per level, with expiry and paths. */
    groupsOfUser(userId: string, now: Date): HoldingRow[] {
      return userGroups.all({ userId, now: iso(now), never: NEVER });
    },
    /** Every resource the user holds (or only `resourceId`), per level, with expiry and paths. */
    resourcesOfUser(userId: string, now: Date, resourceId: string | null = null): HoldingRow[] {
      return userResources.all({ userId, resourceId, now: iso(now), never: NEVER });
    },
    /**
     * Holdings of `itemId` ordered by (user_id, level), from user `after` on (inclusive: the caller
     * drops the levels it already served), for at least `limit` users when that many exist.
     * Each source group's member list is read in user order and only as far as needed, so a deep
     * page costs what the first does.
     */
    holdersOf(type: ItemType, itemId: string, now: Date, after: string, limit: number): HoldingRow[] {
      const st = holders[type];
      const base = { itemId, now: iso(now), never: NEVER };
      const lists: ((from: string, n: number) => string[])[] = [
        (from, n) => st.directCandidates.all({ itemId, after: from, now: base.now, limit: n }).map((r) => r.user_id),
        ...st.sourceGroups.all(base).map(({ group_id: groupId }) =>
          (from: string, n: number) => groupCandidates.all({ groupId, after: from, now: base.now, limit: n }).map((r) => r.user_id)),
      ];
      const chosen = mergeSmallest(lists, after, limit);
      if (chosen.length === 0) return [];
      return st.rows.all({ ...base, users: JSON.stringify(chosen) });
    },
  };
  return {
    ...store,
    /** GET /v1/groups/{group_id}/users' pages kept between reads, per group (access/reads.ts). */
    keptGroupMembers: new KeptPages(db, 'group_member_pages', GROUP_MEMBER_PAGE_SOURCES, KEPT_GROUP_MEMBER_PAGES),
    /** GET /v1/groups/users/{user_id}'s pages kept between reads, per user (access/reads.ts). */
    keptUserGroups: new KeptPages(db, 'user_group_pages', USER_GROUP_PAGE_SOURCES, KEPT_USER_GROUP_PAGES),
    /** Every holding of an item at `now`, in (user, level) order, read in chunks (everyHolder below). */
    everyHolder: (type: ItemType, itemId: string, now: Date): Generator<HoldingRow> => everyHolder(store.holdersOf, type, itemId, now),
  };
}

/** Users read per holdersOf call by everyHolder; at least 2, as each later call repeats one user. */
const HOLDERS_CHUNK = 500;

/**
 * Every holding of an item at `now`, in (user, level) order, read through holdersOf in chunks of
 * users without holding them all in memory. holdersOf starts at a user inclusively, so each later
 * chunk repeats the last user of the previous one, whose rows are skipped.
 */
function* everyHolder(holdersOf: (type: ItemType, itemId: string, now: Date, after: string, limit: number) => HoldingRow[], type: ItemType, itemId: string, now: Date): Generator<HoldingRow> {
  let after = '';
  for (;;) {
    const rows = holdersOf(type, itemId, now, after, HOLDERS_CHUNK);
    const fresh = rows.filter((row) => after === '' || row.user_id !== after);
    yield* fresh;
    // Fewer users than asked for: the list is exhausted. No new row: nothing further to read either.
    if (fresh.length === 0 || new Set(rows.map((row) => row.user_id)).size < HOLDERS_CHUNK) return;
    after = fresh.at(-1)!.user_id;
  }
}
