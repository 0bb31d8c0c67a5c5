// Access edges of every kind: the only SQL that writes them. One set of statements per kind in
// EDGE_KINDS, all sharing one "live" predicate; table and column names come from that table, never from input.
import type { Db } from '../../db/open.ts';
import { EDGE_KINDS, type EdgeKey, type EdgeKindName, type EdgeSource, type EndType } from './edges.ts';
import { LIVE } from './sql.ts';
import { DEFAULT_ACCESS_LEVEL, type AccessLevel } from '../items/levels.ts';

/** An edge row of any kind, its ends under neutral names. */
export interface EdgeRow {
  seq: number;
  principal_id: string;
  item_id: string;
  access_level_remote_id: string;
  access_level_name: string;
  expiration_date: string | null;
  source: EdgeSource;
  source_id: string | null;
  created_at: string;
  updated_at: string | null;
}

export interface EdgeWrite extends EdgeKey {
  levelName: string;
  /** ISO time, or null for no expiry. */
  expiresAt: string | null;
  source: EdgeSource;
  sourceId: string | null;
}

function edgeStatements(db: Db, kind: EdgeKindName) {
  const { table, principal, item } = EDGE_KINDS[kind];
  const COLUMNS = `e.seq, e.${principal} AS principal_id, e.${item} AS item_id, e.access_level_remote_id, e.access_level_name,
                   e.expiration_date, e.source, e.source_id, e.created_at, e.updated_at`;
  const KEY = `e.${principal} = @principalId AND e.${item} = @itemId AND e.access_level_remote_id = @level`;
  type Key = EdgeKey & { now: string };
  return {
    live: db.prepare<Key, EdgeRow>(`SELECT ${COLUMNS} FROM ${table} e WHERE ${KEY} AND ${LIVE('e')}`),
    livePair: db.prepare<{ principalId: string; itemId: string; now: string }, EdgeRow>(
      `SELECT ${COLUMNS} FROM ${table} e WHERE e.${principal} = @principalId AND e.${item} = @itemId AND ${LIVE('e')} ORDER BY e.access_level_remote_id`,
    ),
    liveOfPrincipal: db.prepare<{ id: string; now: string }, EdgeRow>(
      `SELECT ${COLUMNS} FROM ${table} e WHERE e.${principal} = @id AND ${LIVE('e')} ORDER BY e.${item}, e.access_level_remote_id`,
    ),
    liveOfItem: db.prepare<{ id: string; now: string }, EdgeRow>(
      `SELECT ${COLUMNS} FROM ${table} e WHERE e.${item} = @id AND ${LIVE('e')} ORDER BY e.${principal}, e.access_level_remote_id`,
    ),
    // The unique key decides: a new key inserts, a dead row is revived in place, a live row is left
    // alone (changes = 0), so two concurrent grants can never leave two live edges.
    grant: db.prepare<EdgeWrite & { at: string; now: string }>(
      `INSERT INTO ${table} AS e (${principal}, ${item}, access_level_remote_id, access_level_name, expiration_date, source, source_id, created_at, updated_at)
       VALUES (@principalId, @itemId, @level, @levelName, @expiresAt, @source, @sourceId, @at, @at)
       ON CONFLICT (${principal}, ${item}, access_level_remote_id) DO UPDATE SET
         access_level_name = excluded.access_level_name, expiration_date = excluded.expiration_date, source = excluded.source,
         source_id = excluded.source_id, created_at = excluded.created_at, updated_at = excluded.updated_at
       WHERE NOT ${LIVE('e')}`,
    ),
    setExpiry: db.prepare<Key & { expiresAt: string | null; source: EdgeSource; sourceId: string | null; at: string }>(
      `UPDATE ${table} AS e SET expiration_date = @expiresAt, source = @source, source_id = @sourceId, updated_at = @at WHERE ${KEY} AND ${LIVE('e')}`,
    ),
    setLevel: db.prepare<Key & { newLevel: string; newLevelName: string; expiresAt: string | null; at: string }>(
      `UPDATE ${table} AS e SET access_level_remote_id = @newLevel, access_level_name = @newLevelName, expiration_date = @expiresAt, updated_at = @at
       WHERE ${KEY} AND ${LIVE('e')}`,
    ),
    deleteDead: db.prepare<Key, EdgeRow>(`DELETE FROM ${table} AS e WHERE ${KEY} AND NOT ${LIVE('e')} RETURNING ${COLUMNS.replaceAll('e.', '')}`),
    revoke: db.prepare<Key, EdgeRow>(
      `DELETE FROM ${table} AS e WHERE ${KEY} RETURNING ${COLUMNS.replaceAll('e.', '')}`,
    ),
    revokeAllOfPrincipal: db.prepare<{ id: string; now: string }, EdgeRow>(
      `DELETE FROM ${table} AS e WHERE e.${principal} = @id RETURNING ${COLUMNS.replaceAll('e.', '')}`,
    ),
    // The sweep's scan: the partial expiry index holds exactly the rows that can ever be dead.
    expired: db.prepare<{ now: string; limit: number }, EdgeRow>(
      `SELECT ${COLUMNS} FROM ${table} e WHERE e.expiration_date IS NOT NULL AND e.expiration_date <= @now ORDER BY e.expiration_date LIMIT @limit`,
    ),
    deleteExpired: db.prepare<{ seq: number; now: string }>(
      `DELETE FROM ${table} WHERE seq = @seq AND expiration_date IS NOT NULL AND expiration_date <= @now`,
    ),
  };
}

/**
 * Where an item's access level is copied (remote id and name), and which copies keep the level from
 * being dropped (`uses`): every edge kind held of that item type while live, bundle items always,
 * items of PENDING requests (their approval would grant the level); open sessions follow a rename
 * but never block (they rest on a live edge, which does). `where` narrows the rows (alias e).
 */
const PENDING = "e.request_id IN (SELECT id FROM requests WHERE status = 'PENDING')";
const LEVEL_COPIES = {
  resource: [
    ...Object.values(EDGE_KINDS).filter((kind) => kind.itemType === 'resource').map((kind) => ({ table: kind.table, item: kind.item, where: LIVE('e'), uses: true })),
    { table: 'bundle_resources', item: 'resource_id', where: '1 = 1', uses: true },
    { table: 'request_items', item: 'item_id', where: `e.item_type = 'resource' AND ${PENDING}`, uses: true },
    { table: 'sessions', item: 'resource_id', where: 'e.ended_at IS NULL', uses: false },
  ],
  group: [
    ...Object.values(EDGE_KINDS).filter((kind) => kind.itemType === 'group').map((kind) => ({ table: kind.table, item: kind.item, where: LIVE('e'), uses: true })),
    { table: 'bundle_groups', item: 'group_id', where: '1 = 1', uses: true },
    { table: 'request_items', item: 'item_id', where: `e.item_type = 'group' AND ${PENDING}`, uses: true },
  ],
} as const;

function levelCopyStatements(db: Db, type: keyof typeof LEVEL_COPIES) {
  return LEVEL_COPIES[type].map(({ table, item, where, uses }) => ({
    uses: uses
      ? db.prepare<{ itemId: string; level: string; now: string }, { n: number }>(
        `SELECT count(*) AS n FROM ${table} e WHERE e.${item} = @itemId AND e.access_level_remote_id = @level AND ${where}`,
      )
      : null,
    rename: db.prepare<{ itemId: string; level: string; name: string; now: string }>(
      `UPDATE ${table} AS e SET access_level_name = @name WHERE e.${item} = @itemId AND e.access_level_remote_id = @level AND ${where}`,
    ),
  }));
}

export function createAccessStore(db: Db) {
  const levelCopies = { resource: levelCopyStatements(db, 'resource'), group: levelCopyStatements(db, 'group') };
  const kinds = Object.fromEntries(
    (Object.keys(EDGE_KINDS) as EdgeKindName[]).map((kind) => [kind, edgeStatements(db, kind)]),
  ) as Record<EdgeKindName, ReturnType<typeof edgeStatements>>;

  const names = {
    user: db.prepare<[string], { name: string; detail: string; status: string }>(
      'SELECT full_name AS name, email AS detail, hr_idp_status AS status FROM users WHERE id = ?',
    ),
    group: db.prepare<[string], { name: string; detail: string; status: string }>(
      "SELECT name, description AS detail, '' AS status FROM groups WHERE id = ?",
    ),
    resource: db.prepare<[string], { name: string; detail: string; status: string }>(
      "SELECT name, description AS detail, '' AS status FROM resources WHERE id = ?",
    ),
  };
  const groupLevels = db.prepare<[string], { remote_id: string; name: string }>(
    'SELECT remote_id, name FROM group_access_levels WHERE group_id = ? ORDER BY remote_id',
  );
  const groupLevel = db.prepare<[string, string], { name: string }>('SELECT name FROM group_access_levels WHERE group_id = ? AND remote_id = ?');
  const clearGroupLevels = db.prepare<[string]>('DELETE FROM group_access_levels WHERE group_id = ?');
  const insertGroupLevel = db.prepare<[string, string, string]>('INSERT INTO group_access_levels (group_id, remote_id, name) VALUES (?, ?, ?)');
  // A resource's levels are read with the resource (resources/store.ts); they are written only here, with the checks of levels.ts.
  const clearResourceLevels = db.prepare<[string]>('DELETE FROM resource_access_levels WHERE resource_id = ?');
  const insertResourceLevel = db.prepare<[string, string, string]>('INSERT INTO resource_access_levels (resource_id, remote_id, name) VALUES (?, ?, ?)');
  // Would nesting `groupId` in `containingId` close a loop? Only if groupId already (transitively)
  // contains containingId. Dead edges count too: reviving one must never make a cycle.
  const contains = db.prepare<{ groupId: string; containingId: string }, { found: number }>(
    `WITH RECURSIVE below(id) AS (
       SELECT group_id FROM group_groups WHERE containing_group_id = @groupId
       UNION SELECT gg.group_id FROM group_groups gg JOIN below ON gg.containing_group_id = below.id
     )
     SELECT 1 AS found FROM below WHERE id = @containingId LIMIT 1`,
  );

  const iso = (at: Date) => at.toISOString();
  return {
    /** The live edge with this key at `now`, or undefined. */
    live(kind: EdgeKindName, key: EdgeKey, now: Date): EdgeRow | undefined {
      return kinds[kind].live.get({ ...key, now: iso(now) });
    },
    /** Every live level `principalId` holds directly on `itemId`. */
    livePair(kind: EdgeKindName, principalId: string, itemId: string, now: Date): EdgeRow[] {
      return kinds[kind].livePair.all({ principalId, itemId, now: iso(now) });
    },
    liveOfPrincipal(kind: EdgeKindName, id: string, now: Date): EdgeRow[] {
      return kinds[kind].liveOfPrincipal.all({ id, now: iso(now) });
    },
    liveOfItem(kind: EdgeKindName, id: string, now: Date): EdgeRow[] {
      return kinds[kind].liveOfItem.all({ id, now: iso(now) });
    },
    /** Writes the edge unless a live one has the key; returns false (nothing written) when one does. */
    grant(kind: EdgeKindName, edge: EdgeWrite, now: Date): boolean {
      return kinds[kind].grant.run({ ...edge, at: iso(now), now: iso(now) }).changes > 0;
    },
    /** Sets a live edge's expiry and source; false when no live edge has the key. */
    setExpiry(kind: EdgeKindName, key: EdgeKey, expiresAt: string | null, source: EdgeSource, sourceId: string | null, now: Date): boolean {
      return kinds[kind].setExpiry.run({ ...key, expiresAt, source, sourceId, at: iso(now), now: iso(now) }).changes > 0;
    },
    /** Deletes the key's row if it is dead (expired, not yet swept); returns it. */
    removeDead(kind: EdgeKindName, key: EdgeKey, now: Date): EdgeRow | undefined {
      return kinds[kind].deleteDead.get({ ...key, now: iso(now) });
    },
    /** Moves a live edge to another level; the caller has cleared a dead row with the new key (removeDead). */
    setLevel(kind: EdgeKindName, key: EdgeKey, newLevel: string, newLevelName: string, expiresAt: string | null, now: Date): boolean {
      return kinds[kind].setLevel.run({ ...key, newLevel, newLevelName, expiresAt, at: iso(now), now: iso(now) }).changes > 0;
    },
    /** Deletes the edge's row, live or dead; returns it. */
    revoke(kind: EdgeKindName, key: EdgeKey, now: Date): EdgeRow | undefined {
      return kinds[kind].revoke.get({ ...key, now: iso(now) });
    },
    /** Deletes every edge `id` holds of this kind; returns them (live and dead). */
    revokeAllOfPrincipal(kind: EdgeKindName, id: string, now: Date): EdgeRow[] {
      return kinds[kind].revokeAllOfPrincipal.all({ id, now: iso(now) });
    },
    /** Up to `limit` edges dead at `now`, earliest expiry first. */
    expired(kind: EdgeKindName, now: Date, limit: number): EdgeRow[] {
      return kinds[kind].expired.all({ now: iso(now), limit });
    },
    /** Deletes an expired edge; false when it was meanwhile renewed or removed. */
    deleteExpired(kind: EdgeKindName, seq: number, now: Date): boolean {
      return kinds[kind].deleteExpired.run({ seq, now: iso(now) }).changes > 0;
    },
    /** A user's, group's or resource's name and email/description, for answers and events. */
    describe(type: EndType, id: string): { name: string; detail: string; status: string } | undefined {
      return names[type].get(id);
    },
    /** Whether `groupId` already contains `containingId`, directly or through other groups. */
    wouldCycle(groupId: string, containingId: string): boolean {
      return groupId === containingId || contains.get({ groupId, containingId }) !== undefined;
    },
    /** The name of a group's access level, '' for the default level; undefined when the group offers no such level. */
    groupLevelName(groupId: string, remoteId: string): string | undefined {
      return remoteId === '' ? '' : groupLevel.get(groupId, remoteId)?.name;
    },
    groupLevels(groupId: string): AccessLevel[] {
      return [DEFAULT_ACCESS_LEVEL, ...groupLevels.all(groupId).map((row) => ({ access_level_name: row.name, access_level_remote_id: row.remote_id }))];
    },
    /** How many live edges, bundle items and pending request items use the item's access level `level`. */
    levelUses(type: 'resource' | 'group', itemId: string, level: string, now: Date): number {
      return levelCopies[type].reduce((sum, st) => sum + (st.uses?.get({ itemId, level, now: iso(now) })!.n ?? 0), 0);
    },
    /** Gives every live edge, bundle item, pending request item and open session at the item's level `level` the level's new name. */
    renameLevel(type: 'resource' | 'group', itemId: string, level: string, name: string, now: Date): void {
      for (const st of levelCopies[type]) st.rename.run({ itemId, level, name, now: iso(now) });
    },
    setGroupLevels(groupId: string, levels: { access_level_name: string; access_level_remote_id: string }[]): void {
      clearGroupLevels.run(groupId);
      for (const level of levels) insertGroupLevel.run(groupId, level.access_level_remote_id, level.access_level_name);
    },
    /** Replaces the resource's non-default access levels. */
    setResourceLevels(resourceId: string, levels: { access_level_name: string; access_level_remote_id: string }[]): void {
      clearResourceLevels.run(resourceId);
      for (const level of levels) insertResourceLevel.run(resourceId, level.access_level_remote_id, level.access_level_name);
    },
  };
}

