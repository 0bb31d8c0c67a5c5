// Connectors' SQL: an app's connector, its remote users, where each edge's remote copy stands, sync errors.
import type { Db } from '../../db/open.ts';
import type { Propagation } from './responses.ts';

export type DriftPolicy = 'REPORT' | 'IMPORT' | 'REMOVE';

export interface ConnectorRow {
  app_id: string;
  /** A type of the table in adapters.ts (checked at start for every stored row). */
  connector_type: string;
  /** The configuration, as its connector type's schema accepted it (secrets in it as given: never shown but masked). */
  configuration: Record<string, unknown>;
  timeout_ms: number;
  drift_policy: DriftPolicy;
  last_sync_at: string | null;
  last_successful_sync: string | null;
  created_at: string;
  updated_at: string;
}

/** A propagation with a status: the unfinished list leaves out access imported by sync (status NULL). */
export type UnfinishedPropagationRow = PropagationRow & { status: Propagation['status'] };

export interface PropagationRow {
  edge_key: string;
  app_id: string;
  kind: Propagation['edge_kind'];
  principal_id: string;
  item_id: string;
  access_level_remote_id: string;
  desired: 'PRESENT' | 'ABSENT';
  status: Propagation['status'] | null;
  outbox_state: string | null;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  outbox_seq: number | null;
  updated_at: string;
}

export interface SyncErrorRow {
  seq: number;
  app_id: string;
  resource_id: string;
  group_id: string;
  error_message: string;
  first_seen: string;
  last_seen: string;
}

/** Access a sync found held remotely by a remote user no Gatehouse user matches (sql/0021). */
export interface UnmatchedAccessRow {
  seq: number;
  remote_user_id: string;
  /** The remote user's email as the sync read it ('' when it gave none). */
  email: string;
  access_level_remote_id: string;
  found_at: string;
}

/** A remote user as Gatehouse recorded it: linked to a person by email, because Gatehouse made it for them, or by an admin. */
export interface RemoteUserLink {
  remote_user_id: string;
  email: string;
  user_id: string | null;
  made_by_gatehouse: 0 | 1;
  mapped_by_admin: 0 | 1;
}

/** Where an item lives: its app and the id the remote side knows it by. */
export interface ItemPlace {
  app_id: string;
  remote_id: string | null;
  name: string;
}

const CONNECTOR = `app_id, connector_type, configuration, timeout_ms, drift_policy, last_sync_at, last_successful_sync, created_at, updated_at`;

/** A connectors row as SQLite gives it: the configuration is JSON text. */
type StoredConnector = Omit<ConnectorRow, 'configuration'> & { configuration: string };
const toRow = (row: StoredConnector | undefined): ConnectorRow | undefined => row && { ...row, configuration: JSON.parse(row.configuration) as Record<string, unknown> };
const PROPAGATION = `edge_key, app_id, kind, principal_id, item_id, access_level_remote_id, desired, status, outbox_state, attempts, last_error, next_attempt_at, outbox_seq, updated_at`;

export function createConnectorStore(db: Db) {
  const get = db.prepare<[string], StoredConnector>(`SELECT ${CONNECTOR} FROM connectors WHERE app_id = ?`);
  const all = db.prepare<[], StoredConnector>(`SELECT ${CONNECTOR} FROM connectors ORDER BY created_at, app_id`);
  const types = db.prepare<[], { connector_type: string }>('SELECT DISTINCT connector_type FROM connectors ORDER BY 1');
  const upsert = db.prepare<Omit<StoredConnector, 'last_sync_at' | 'last_successful_sync' | 'created_at' | 'updated_at'> & { now: string }>(
    `INSERT INTO connectors (app_id, connector_type, configuration, timeout_ms, drift_policy, created_at, updated_at)
     VALUES (@app_id, @connector_type, @configuration, @timeout_ms, @drift_policy, @now, @now)
     ON CONFLICT (app_id) DO UPDATE SET connector_type = excluded.connector_type, configuration = excluded.configuration,
       timeout_ms = excluded.timeout_ms, drift_policy = excluded.drift_policy, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare<[string]>('DELETE FROM connectors WHERE app_id = ?');
  const synced = db.prepare<{ appId: string; now: string; ok: number }>(
    'UPDATE connectors SET last_sync_at = @now, last_successful_sync = CASE WHEN @ok = 1 THEN @now ELSE last_successful_sync END WHERE app_id = @appId',
  );

  const resourcePlace = db.prepare<[string], { app_id: string; remote_id: string | null; remote_info: string | null; name: string }>(
    'SELECT app_id, remote_resource_id AS remote_id, remote_info, name FROM resources WHERE id = ?',
  );
  const groupPlace = db.prepare<[string], { app_id: string; remote_id: string | null; remote_info: string | null; name: string }>(
    'SELECT app_id, remote_id, remote_info, name FROM groups WHERE id = ?',
  );
  const setResourceRemote = db.prepare<{ id: string; remoteId: string; remoteName: string; now: string }>(
    'UPDATE resources SET remote_resource_id = @remoteId, remote_resource_name = @remoteName, updated_at = @now WHERE id = @id',
  );
  const setGroupRemote = db.prepare<{ id: string; remoteId: string; remoteName: string; now: string }>(
    'UPDATE groups SET remote_id = @remoteId, remote_name = @remoteName, updated_at = @now WHERE id = @id',
  );
  const resourcesOfApp = db.prepare<[string], { id: string; remote_id: string | null; remote_info: string | null; name: string; app_id: string }>(
    'SELECT id, remote_resource_id AS remote_id, remote_info, name, app_id FROM resources WHERE app_id = ? ORDER BY seq',
  );
  const groupsOfApp = db.prepare<[string], { id: string; remote_id: string | null; remote_info: string | null; name: string; app_id: string }>(
    'SELECT id, remote_id, remote_info, name, app_id FROM groups WHERE app_id = ? ORDER BY seq',
  );

  // A link Gatehouse made (it created the account for that person) or an admin made stays as it is
  // whatever email the remote side reports later: only links by email follow the email.
  const linkUser = db.prepare<{ appId: string; remoteUserId: string; email: string; userId: string | null }>(
    `INSERT INTO connector_users (app_id, remote_user_id, email, user_id) VALUES (@appId, @remoteUserId, @email, @userId)
     ON CONFLICT (app_id, remote_user_id) DO UPDATE
       SET email = CASE WHEN made_by_gatehouse = 1 OR mapped_by_admin = 1 THEN email ELSE excluded.email END,
           user_id = CASE WHEN made_by_gatehouse = 1 OR mapped_by_admin = 1 THEN user_id ELSE excluded.user_id END`,
  );
  const linkMade = db.prepare<{ appId: string; remoteUserId: string; email: string; userId: string }>(
    `INSERT INTO connector_users (app_id, remote_user_id, email, user_id, made_by_gatehouse, mapped_by_admin) VALUES (@appId, @remoteUserId, @email, @userId, 1, 0)
     ON CONFLICT (app_id, remote_user_id) DO UPDATE SET email = excluded.email, user_id = excluded.user_id, made_by_gatehouse = 1, mapped_by_admin = 0`,
  );
  const linkOf = db.prepare<{ appId: string; remoteUserId: string }, RemoteUserLink>(
    'SELECT remote_user_id, email, user_id, made_by_gatehouse, mapped_by_admin FROM connector_users WHERE app_id = @appId AND remote_user_id = @remoteUserId',
  );
  const remoteUserIds = db.prepare<[string], { remote_user_id: string }>('SELECT remote_user_id FROM connector_users WHERE app_id = ? ORDER BY remote_user_id');
  const madeUsersOf = db.prepare<[string], { app_id: string; remote_user_id: string }>(
    'SELECT app_id, remote_user_id FROM connector_users WHERE user_id = ? AND made_by_gatehouse = 1 ORDER BY app_id',
  );
  const forgetUser = db.prepare<{ appId: string; remoteUserId: string }>('DELETE FROM connector_users WHERE app_id = @appId AND remote_user_id = @remoteUserId');
  const unsettledOfUser = db.prepare<{ appId: string; userId: string }, { n: number }>(
    "SELECT count(*) AS n FROM propagations WHERE app_id = @appId AND principal_id = @userId AND outbox_state = 'PENDING'",
  );
  const remoteUserOf = db.prepare<{ appId: string; userId: string }, { remote_user_id: string }>(
    // An admin's link first, then the account Gatehouse made, then one matched by email.
    'SELECT remote_user_id FROM connector_users WHERE app_id = @appId AND user_id = @userId ORDER BY mapped_by_admin DESC, made_by_gatehouse DESC, remote_user_id LIMIT 1',
  );
  const userOfRemote = db.prepare<{ appId: string; remoteUserId: string }, { user_id: string | null }>(
    'SELECT user_id FROM connector_users WHERE app_id = @appId AND remote_user_id = @remoteUserId',
  );
  // Keyset paging on (app_id, user_id, remote_user_id), the order of the connector_users_by_user index.
  const unmatched = db.prepare<{ appId: string; after: string; limit: number }, { remote_user_id: string; email: string }>(
    'SELECT remote_user_id, email FROM connector_users WHERE app_id = @appId AND user_id IS NULL AND remote_user_id > @after ORDER BY remote_user_id LIMIT @limit',
  );
  const remoteUserCount = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM connector_users WHERE app_id = ?');
  const unmatchedCount = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM connector_users WHERE app_id = ? AND user_id IS NULL');
  const userByEmail = db.prepare<[string], { id: string }>('SELECT id FROM users WHERE email = ? COLLATE NOCASE');
  // An admin's link (PUT …/connector/user-links): to a person, or back to nobody. An account Gatehouse made
  // for one person and an admin gives another is no longer Gatehouse's to remove.
  const mapUser = db.prepare<{ appId: string; remoteUserId: string; userId: string | null }>(
    `UPDATE connector_users SET user_id = @userId, mapped_by_admin = CASE WHEN @userId IS NULL THEN 0 ELSE 1 END,
       made_by_gatehouse = CASE WHEN user_id IS @userId THEN made_by_gatehouse ELSE 0 END
     WHERE app_id = @appId AND remote_user_id = @remoteUserId`,
  );

  const queued = db.prepare<Omit<PropagationRow, 'status' | 'outbox_state' | 'attempts' | 'last_error' | 'next_attempt_at'> & { next: string }>(
    `INSERT INTO propagations (${PROPAGATION})
     VALUES (@edge_key, @app_id, @kind, @principal_id, @item_id, @access_level_remote_id, @desired, 'PENDING', 'PENDING', 0, NULL, @next, @outbox_seq, @updated_at)
     ON CONFLICT (edge_key) DO UPDATE SET desired = excluded.desired, status = 'PENDING', outbox_state = 'PENDING', attempts = 0,
       next_attempt_at = excluded.next_attempt_at, outbox_seq = excluded.outbox_seq, updated_at = excluded.updated_at`,
  );
  const settle = db.prepare<{ key: string; seq: number; status: string; state: string; error: string | null; next: string | null; attempts: number; now: string }>(
    `UPDATE propagations SET status = @status, outbox_state = @state, last_error = @error, next_attempt_at = @next, attempts = @attempts, updated_at = @now
     WHERE edge_key = @key AND outbox_seq = @seq`,
  );
  const forgetSettled = db.prepare<{ key: string; seq: number }>(
    "DELETE FROM propagations WHERE edge_key = @key AND outbox_seq = @seq AND desired = 'ABSENT' AND status = 'SUCCESS'",
  );
  const imported = db.prepare<Omit<PropagationRow, 'status' | 'outbox_state' | 'attempts' | 'last_error' | 'next_attempt_at' | 'outbox_seq' | 'desired'>>(
    `INSERT INTO propagations (${PROPAGATION})
     VALUES (@edge_key, @app_id, @kind, @principal_id, @item_id, @access_level_remote_id, 'PRESENT', NULL, NULL, 0, NULL, NULL, NULL, @updated_at)
     ON CONFLICT (edge_key) DO UPDATE SET desired = 'PRESENT', status = NULL, outbox_state = NULL, last_error = NULL, next_attempt_at = NULL, updated_at = excluded.updated_at`,
  );
  const inSync = db.prepare<Omit<PropagationRow, 'status' | 'outbox_state' | 'attempts' | 'last_error' | 'next_attempt_at' | 'outbox_seq' | 'desired'>>(
    `INSERT INTO propagations (${PROPAGATION})
     VALUES (@edge_key, @app_id, @kind, @principal_id, @item_id, @access_level_remote_id, 'PRESENT', 'SUCCESS', 'DONE', 0, NULL, NULL, NULL, @updated_at)
     ON CONFLICT (edge_key) DO UPDATE SET desired = 'PRESENT', status = 'SUCCESS', outbox_state = 'DONE', last_error = NULL, next_attempt_at = NULL, updated_at = excluded.updated_at`,
  );
  const byKey = db.prepare<[string], PropagationRow>(`SELECT ${PROPAGATION} FROM propagations WHERE edge_key = ?`);
  const unfinished = db.prepare<{ appId: string | null; afterKey: string; limit: number }, UnfinishedPropagationRow>(
    `SELECT ${PROPAGATION} FROM propagations
     WHERE status IS NOT 'SUCCESS' AND status IS NOT NULL AND (@appId IS NULL OR app_id = @appId) AND edge_key > @afterKey
     ORDER BY edge_key LIMIT @limit`,
  );
  const counts = db.prepare<[string], { status: string | null; n: number }>('SELECT status, count(*) AS n FROM propagations WHERE app_id = ? GROUP BY status');

  const recordSyncError = db.prepare<{ appId: string; resourceId: string; groupId: string; message: string; now: string }>(
    `INSERT INTO sync_errors (app_id, resource_id, group_id, error_message, first_seen, last_seen) VALUES (@appId, @resourceId, @groupId, @message, @now, @now)
     ON CONFLICT (app_id, resource_id, group_id, error_message) DO UPDATE SET last_seen = excluded.last_seen`,
  );
  const clearSyncErrors = db.prepare<[string]>('DELETE FROM sync_errors WHERE app_id = ?');
  const clearUnmatchedAccess = db.prepare<[string]>('DELETE FROM unmatched_remote_access WHERE app_id = ?');
  // A remote edge listed twice in one sync is one row (the partial unique indexes of sql/0021).
  const recordUnmatchedAccess = db.prepare<{ appId: string; resourceId: string | null; groupId: string | null; remoteUserId: string; level: string; now: string }>(
    `INSERT INTO unmatched_remote_access (app_id, resource_id, group_id, remote_user_id, access_level_remote_id, found_at)
     VALUES (@appId, @resourceId, @groupId, @remoteUserId, @level, @now) ON CONFLICT DO NOTHING`,
  );
  const unmatchedAccessSql = (column: 'resource_id' | 'group_id') =>
    `SELECT a.seq, a.remote_user_id, coalesce(u.email, '') AS email, a.access_level_remote_id, a.found_at
     FROM unmatched_remote_access a LEFT JOIN connector_users u ON u.app_id = a.app_id AND u.remote_user_id = a.remote_user_id
     WHERE a.${column} = @itemId AND a.seq > @after ORDER BY a.seq LIMIT @limit`;
  const unmatchedAccessOf = {
    resource: db.prepare<{ itemId: string; after: number; limit: number }, UnmatchedAccessRow>(unmatchedAccessSql('resource_id')),
    group: db.prepare<{ itemId: string; after: number; limit: number }, UnmatchedAccessRow>(unmatchedAccessSql('group_id')),
  };
  const syncErrors = db.prepare<{ appId: string | null; resourceId: string | null; groupId: string | null }, SyncErrorRow>(
    `SELECT seq, app_id, resource_id, group_id, error_message, first_seen, last_seen FROM sync_errors
     WHERE (@appId IS NULL OR app_id = @appId) AND (@resourceId IS NULL OR resource_id = @resourceId) AND (@groupId IS NULL OR group_id = @groupId)
     ORDER BY last_seen DESC, seq DESC LIMIT 1000`,
  );

  const place = (row: { app_id: string; remote_id: string | null; remote_info: string | null; name: string } | undefined, field: string): ItemPlace | undefined => {
    if (!row) return undefined;
    let remote = row.remote_id;
    if (!remote && row.remote_info) {
      const info = JSON.parse(row.remote_info) as Record<string, Record<string, unknown> | undefined>;
      const found = info.custom_connector?.[field];
      if (typeof found === 'string') remote = found;
    }
    return { app_id: row.app_id, remote_id: remote, name: row.name };
  };

  return {
    get(appId: string): ConnectorRow | undefined {
      return toRow(get.get(appId));
    },
    all(): ConnectorRow[] {
      return all.all().map((row) => toRow(row)!);
    },
    /** The connector types the database's connectors have (the start-up check finds each an adapter). */
    types(): string[] {
      return types.all().map((row) => row.connector_type);
    },
    save(row: Omit<ConnectorRow, 'last_sync_at' | 'last_successful_sync' | 'created_at' | 'updated_at'>, now: Date): void {
      upsert.run({ ...row, configuration: JSON.stringify(row.configuration), now: now.toISOString() });
    },
    remove(appId: string): boolean {
      return remove.run(appId).changes > 0;
    },
    markSynced(appId: string, ok: boolean, now: Date): void {
      synced.run({ appId, ok: ok ? 1 : 0, now: now.toISOString() });
    },
    /** A resource's or group's app and remote id (remote_resource_id / remote_id, else remote_info.custom_connector). */
    placeOf(type: 'resource' | 'group', id: string): ItemPlace | undefined {
      return type === 'resource' ? place(resourcePlace.get(id), 'remote_resource_id') : place(groupPlace.get(id), 'remote_group_id');
    },
    itemsOfApp(type: 'resource' | 'group', appId: string): (ItemPlace & { id: string })[] {
      const rows = type === 'resource' ? resourcesOfApp.all(appId) : groupsOfApp.all(appId);
      return rows.map((row) => ({ id: row.id, ...place(row, type === 'resource' ? 'remote_resource_id' : 'remote_group_id')! }));
    },
    setRemote(type: 'resource' | 'group', id: string, remoteId: string, remoteName: string, now: Date): void {
      (type === 'resource' ? setResourceRemote : setGroupRemote).run({ id, remoteId, remoteName, now: now.toISOString() });
    },
    /** Records a remote user, matched to the Gatehouse user with its email (case-insensitive); returns the match. */
    linkUser(appId: string, remoteUserId: string, email: string): string | null {
      const userId = userByEmail.get(email)?.id ?? null;
      linkUser.run({ appId, remoteUserId, email, userId });
      return userId;
    },
    /** Links a remote user to the person `userId` by an admin's choice (null: to nobody); false when the app has no such remote user. */
    mapUser(appId: string, remoteUserId: string, userId: string | null): boolean {
      return mapUser.run({ appId, remoteUserId, userId }).changes > 0;
    },
    /** Records a remote user the connector created for the person `userId` (Opal's POST /users, a PostgreSQL role): removed at offboarding. */
    linkMadeUser(appId: string, remoteUserId: string, userId: string, email: string): void {
      linkMade.run({ appId, remoteUserId, userId, email });
    },
    /** What Gatehouse knows of a remote user: whom it is linked to and how; undefined when it never saw it. */
    linkOf(appId: string, remoteUserId: string): RemoteUserLink | undefined {
      return linkOf.get({ appId, remoteUserId });
    },
    /** Every remote user recorded for the app, by id (at most GATEHOUSE_CONNECTOR_SYNC_MAX_ITEMS: a sync keeps no more). */
    remoteUserIds(appId: string): string[] {
      return remoteUserIds.all(appId).map((row) => row.remote_user_id);
    },
    /** The remote users connectors created for `userId`, by app. */
    madeUsersOf: (userId: string) => madeUsersOf.all(userId),
    /** Forgets a remote user (it was removed remotely). */
    forgetUser(appId: string, remoteUserId: string): void {
      forgetUser.run({ appId, remoteUserId });
    },
    /** How many of `userId`'s pushes to `appId` are still queued (their memberships go before their account). */
    unsettledPushesOf: (appId: string, userId: string): number => unsettledOfUser.get({ appId, userId })!.n,
    remoteUserOf(appId: string, userId: string): string | undefined {
      return remoteUserOf.get({ appId, userId })?.remote_user_id;
    },
    userOfRemote(appId: string, remoteUserId: string): string | null | undefined {
      const row = userOfRemote.get({ appId, remoteUserId });
      return row === undefined ? undefined : row.user_id;
    },
    /** Remote users no Gatehouse user matches, by remote id after `after`, at most `limit`. */
    unmatchedUsers(appId: string, after: string, limit: number): { remote_user_id: string; email: string }[] {
      return unmatched.all({ appId, after, limit });
    },
    /** How many remote users the app's connector has recorded. */
    remoteUserCount(appId: string): number {
      return remoteUserCount.get(appId)!.n;
    },
    unmatchedCount(appId: string): number {
      return unmatchedCount.get(appId)!.n;
    },
    queued(row: Omit<PropagationRow, 'status' | 'outbox_state' | 'attempts' | 'last_error' | 'next_attempt_at'>, next: string): void {
      queued.run({ ...row, next });
    },
    /** Records a push's outcome, unless a later push of the same edge was queued meanwhile (it speaks for the edge now). */
    settle(key: string, seq: number, fields: { status: string; state: string; error: string | null; next: string | null; attempts: number }, now: string): void {
      settle.run({ key, seq, ...fields, now });
      // An end delivered leaves nothing to show: the row goes, as the edge went.
      forgetSettled.run({ key, seq });
    },
    imported(row: Omit<PropagationRow, 'status' | 'outbox_state' | 'attempts' | 'last_error' | 'next_attempt_at' | 'outbox_seq' | 'desired'>): void {
      imported.run(row);
    },
    /** A sync found the edge on both sides: its propagation is SUCCESS. */
    inSync(row: Omit<PropagationRow, 'status' | 'outbox_state' | 'attempts' | 'last_error' | 'next_attempt_at' | 'outbox_seq' | 'desired'>): void {
      inSync.run(row);
    },
    byKey(key: string): PropagationRow | undefined {
      return byKey.get(key);
    },
    /** Propagations not (yet) SUCCESS, in edge-key order after `afterKey`. */
    unfinished(appId: string | null, afterKey: string, limit: number): UnfinishedPropagationRow[] {
      return unfinished.all({ appId, afterKey, limit });
    },
    statusCounts(appId: string): Record<string, number> {
      return Object.fromEntries(counts.all(appId).map((row) => [row.status ?? 'SYNCED', row.n]));
    },
    recordSyncError(appId: string, where: { resourceId?: string; groupId?: string }, message: string, now: Date): void {
      recordSyncError.run({ appId, resourceId: where.resourceId ?? '', groupId: where.groupId ?? '', message, now: now.toISOString() });
    },
    clearSyncErrors(appId: string): void {
      clearSyncErrors.run(appId);
    },
    /** Forgets the access the app's last sync found held by remote users no Gatehouse user matches (a sync starts afresh). */
    clearUnmatchedAccess(appId: string): void {
      clearUnmatchedAccess.run(appId);
    },
    /** Records that `remoteUserId`, whom no Gatehouse user matches, holds `level` of the item remotely. */
    recordUnmatchedAccess(appId: string, item: { type: 'resource' | 'group'; id: string }, remoteUserId: string, level: string, now: Date): void {
      recordUnmatchedAccess.run({
        appId, resourceId: item.type === 'resource' ? item.id : null, groupId: item.type === 'group' ? item.id : null, remoteUserId, level, now: now.toISOString(),
      });
    },
    /** One page of the item's access held remotely by unmatched remote users, in the order found, after `after` (a seq). */
    unmatchedAccessOf(type: 'resource' | 'group', itemId: string, after: number, limit: number): UnmatchedAccessRow[] {
      return unmatchedAccessOf[type].all({ itemId, after, limit });
    },
    syncErrors(filter: { appId?: string; resourceId?: string; groupId?: string }): SyncErrorRow[] {
      return syncErrors.all({ appId: filter.appId ?? null, resourceId: filter.resourceId ?? null, groupId: filter.groupId ?? null });
    },
  };
}

