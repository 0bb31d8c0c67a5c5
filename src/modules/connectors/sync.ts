// Sync and reconciliation: read the remote side whole (outside any transaction), then in one write
// bring the catalogue in line (items, remote ids, access levels, user links) and settle drift both ways.
import * as v from 'valibot';
import type { AppContext } from '../../context.ts';
import { changeAccess } from '../access/changes.ts';
import { EDGE_KINDS, type EdgeKindName } from '../access/edges.ts';
import { replaceAccessLevels } from '../access/levels.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import type { Actor } from '../events/store.ts';
import { systemActor } from '../../lib/system-actor.ts';
import { createGroup } from '../groups/service.ts';
import { CreateGroupBody } from '../groups/schemas.ts';
import { createResource } from '../resources/service.ts';
import { CreateResourceBody } from '../resources/schemas.ts';
import type { RemoteSnapshot } from './adapter.ts';
import { adapterFor, kindsOf } from './adapters.ts';
import { edgeKey, heldNow, queuePush } from './propagation.ts';
import type { ConnectorRow } from './store.ts';

export const SYNC_ACTOR = systemActor('Gatehouse (connector sync)');

export interface SyncSummary {
  ok: boolean;
  error: string | null;
  users: number;
  users_matched: number;
  unmatched_remote_users: { remote_user_id: string; email: string }[];
  resources_created: number;
  resources_updated: number;
  groups_created: number;
  groups_updated: number;
  remote_access: number;
  /** Remote access Gatehouse does not hold. */
  drift_found: number;
  drift_imported: number;
  drift_removed: number;
  /** Gatehouse access missing remotely, queued to be pushed again. */
  pushed_again: number;
}

const emptySummary = (): SyncSummary => ({
  ok: true, error: null, users: 0, users_matched: 0, unmatched_remote_users: [], resources_created: 0, resources_updated: 0,
  groups_created: 0, groups_updated: 0, remote_access: 0, drift_found: 0, drift_imported: 0, drift_removed: 0, pushed_again: 0,
});

/** Creates or updates the app's items from the snapshot; returns remote id → Gatehouse id per type. */
function syncItems(ctx: AppContext, actor: Actor, connector: ConnectorRow, snap: RemoteSnapshot, summary: SyncSummary, now: Date) {
  const { connectors } = ctx.stores;
  const appId = connector.app_id;
  const resources = new Map<string, string>();
  const groups = new Map<string, string>();
  for (const item of connectors.itemsOfApp('resource', appId)) if (item.remote_id) resources.set(item.remote_id, item.id);
  for (const item of connectors.itemsOfApp('group', appId)) if (item.remote_id) groups.set(item.remote_id, item.id);
  for (const remote of snap.resources) {
    let id = resources.get(remote.id);
    if (!id) {
      const input = v.parse(CreateResourceBody, {
        name: remote.name.slice(0, 200) || remote.id.slice(0, 200), app_id: appId,
        resource_type: connector.connector_type === 'POSTGRES' ? 'POSTGRES_INSTANCE' : 'CUSTOM_CONNECTOR',
        description: (remote.description ?? '').slice(0, 2000),
        ...(connector.connector_type === 'OPAL_HTTP' && { remote_info: { custom_connector: { remote_resource_id: remote.id, can_have_usage_events: false } } }),
        remote_resource_id: remote.id, remote_resource_name: remote.name,
      });
      id = createResource(ctx, actor, input).resource_id;
      resources.set(remote.id, id);
      summary.resources_created += 1;
    } else {
      summary.resources_updated += 1;
    }
    connectors.setRemote('resource', id, remote.id, remote.name, now);
    // Levels the remote side offers are added; none is dropped (Gatehouse access may still use it).
    const have = ctx.stores.resources.accessLevels(id).filter((l) => l.access_level_remote_id !== '');
    const known = new Set(have.map((l) => l.access_level_remote_id));
    const added = remote.access_levels.filter((l) => l.id !== '' && !known.has(l.id));
    if (added.length > 0) {
      replaceAccessLevels(ctx, 'resource', id, [...have, ...added.map((l) => ({ access_level_remote_id: l.id, access_level_name: l.name }))], 'access_levels');
    }
  }
  for (const remote of snap.groups) {
    let id = groups.get(remote.id);
    if (!id) {
      const input = v.parse(CreateGroupBody, {
        name: remote.name.slice(0, 200) || remote.id.slice(0, 200), app_id: appId, group_type: 'CONNECTOR_GROUP',
        description: (remote.description ?? '').slice(0, 2000), remote_group_id: remote.id,
      });
      id = createGroup(ctx, actor, input).group_id;
      groups.set(remote.id, id);
      summary.groups_created += 1;
    } else {
      summary.groups_updated += 1;
    }
    connectors.setRemote('group', id, remote.id, remote.name, now);
  }
  return { resources, groups };
}

/** The Gatehouse ends of a remote edge, or undefined when one end is unknown here. */
function localEdge(ctx: AppContext, appId: string, edge: RemoteSnapshot['edges'][number], ids: { resources: Map<string, string>; groups: Map<string, string> }) {
  const k = EDGE_KINDS[edge.kind];
  const principal = k.principalType === 'user' ? ctx.stores.connectors.userOfRemote(appId, edge.principal) ?? undefined : ids.groups.get(edge.principal);
  const item = k.itemType === 'resource' ? ids.resources.get(edge.item) : ids.groups.get(edge.item);
  return principal && item ? { principal, item } : undefined;
}

/**
 * A remote user's access to a known item, where the remote user is one the sync read but no Gatehouse
 * user matches: recorded, so the item's page shows it as held by someone Gatehouse does not know.
 */
function recordUnmatchedAccess(ctx: AppContext, appId: string, edge: RemoteSnapshot['edges'][number], ids: { resources: Map<string, string>; groups: Map<string, string> }, now: Date): void {
  const k = EDGE_KINDS[edge.kind];
  if (k.principalType !== 'user' || ctx.stores.connectors.userOfRemote(appId, edge.principal) !== null) return;
  const itemId = k.itemType === 'resource' ? ids.resources.get(edge.item) : ids.groups.get(edge.item);
  if (itemId) ctx.stores.connectors.recordUnmatchedAccess(appId, { type: k.itemType, id: itemId }, edge.principal, edge.level, now);
}

/**
 * Runs one sync of the app's connector: reads the remote side, then in one write transaction links
 * users by email, creates or updates items, and settles drift by the app's policy (REPORT: a sync
 * error per edge; IMPORT: the edge is added with status null; REMOVE: its removal is pushed) and
 * queues Gatehouse access missing remotely to be pushed again. Records CONNECTORS_SYNCED (and sync
 * errors for what failed). Never throws for a remote failure: the summary says it.
 */
export async function syncConnector(ctx: AppContext, actor: Actor, appId: string, signal?: AbortSignal): Promise<SyncSummary> {
  const summary = emptySummary();
  const connector = ctx.stores.connectors.get(appId);
  if (!connector) return { ...summary, ok: false, error: 'the app has no connector' };
  let snap: RemoteSnapshot;
  try {
    snap = await adapterFor(ctx, connector).snapshot(signal);
  } catch (err) {
    const message = `sync failed: ${(err as Error).message}`.slice(0, 500);
    const now = ctx.clock.now();
    ctx.db.transaction(() => {
      ctx.stores.connectors.recordSyncError(appId, {}, message, now);
      ctx.stores.connectors.markSynced(appId, false, now);
      ctx.stores.events.record(actor, 'CONNECTORS_SYNCED', [{ sub_event_type: 'CONNECTORS_SYNCED', app_id: appId, ok: false, error: message }]);
    }).immediate();
    return { ...summary, ok: false, error: message };
  }
  const now = ctx.clock.now();
  return ctx.db.transaction(() => {
    const { connectors } = ctx.stores;
    connectors.clearSyncErrors(appId);
    connectors.clearUnmatchedAccess(appId);
    for (const user of snap.users) {
      summary.users += 1;
      if (user.email && connectors.linkUser(appId, user.id, user.email)) summary.users_matched += 1;
      else if (!user.email) connectors.linkUser(appId, user.id, '');
    }
    summary.unmatched_remote_users = connectors.unmatchedUsers(appId);
    const ids = syncItems(ctx, actor, connector, snap, summary, now);
    const remoteKeys = new Set<string>();
    const kinds = kindsOf(connector.connector_type);
    for (const edge of snap.edges) {
      summary.remote_access += 1;
      const local = localEdge(ctx, appId, edge, ids);
      if (!local) {
        recordUnmatchedAccess(ctx, appId, edge, ids, now);
        connectors.recordSyncError(appId, {}, `remote ${edge.kind.replace('_', ' ')} access of ${edge.principal} to ${edge.item} names an unknown ${EDGE_KINDS[edge.kind].principalType}`, now);
        continue;
      }
      const key = edgeKey(appId, edge.kind, local.principal, local.item, edge.level);
      remoteKeys.add(key);
      const edgeOf = { kind: edge.kind, principal_id: local.principal, item_id: local.item, level: edge.level };
      const propagation = connectors.byKey(key);
      if (heldNow(ctx, edgeOf, now)) {
        // Held on both sides: the truth is SUCCESS unless a push is still on its way.
        // (Imported access keeps its null status: it came from there.)
        if (propagation?.outbox_state !== 'PENDING' && !(propagation && propagation.status === null)) {
          connectors.inSync({ edge_key: key, app_id: appId, kind: edge.kind, principal_id: local.principal, item_id: local.item, access_level_remote_id: edge.level, updated_at: now.toISOString() });
        }
        continue;
      }
      // A removal on its way: the remote copy is about to go.
      if (propagation?.outbox_state === 'PENDING') continue;
      summary.drift_found += 1;
      settleDrift(ctx, actor, connector, edge.kind, local.principal, local.item, edge.level, summary, now);
    }
    // Gatehouse access the remote side lacks (and no push on its way): push it again.
    for (const type of ['resource', 'group'] as const) {
      for (const item of connectors.itemsOfApp(type, appId)) {
        for (const kind of kinds.filter((k) => EDGE_KINDS[k].itemType === type)) {
          for (const row of ctx.stores.access.liveOfItem(kind, item.id, now)) {
            const key = edgeKey(appId, kind, row.principal_id, row.item_id, row.access_level_remote_id);
            if (remoteKeys.has(key)) continue;
            const propagation = connectors.byKey(key);
            if (propagation && propagation.outbox_state === 'PENDING') continue;
            if (queuePush(ctx, kind, row.principal_id, row.item_id, row.access_level_remote_id, 'PRESENT', now)) summary.pushed_again += 1;
          }
        }
      }
    }
    connectors.markSynced(appId, true, now);
    ctx.stores.events.record(actor, 'CONNECTORS_SYNCED', [{
      sub_event_type: 'CONNECTORS_SYNCED', app_id: appId, ok: true, users: summary.users, users_matched: summary.users_matched,
      resources_created: summary.resources_created, groups_created: summary.groups_created, remote_access: summary.remote_access,
      drift_found: summary.drift_found, drift_imported: summary.drift_imported, drift_removed: summary.drift_removed, pushed_again: summary.pushed_again,
      drift_policy: connector.drift_policy,
    }]);
    return summary;
  }).immediate();
}

/** Remote access Gatehouse does not hold, settled by the app's drift policy. */
function settleDrift(ctx: AppContext, actor: Actor, connector: ConnectorRow, kind: EdgeKindName, principalId: string, itemId: string, level: string, summary: SyncSummary, now: Date): void {
  const { connectors, access } = ctx.stores;
  const k = EDGE_KINDS[kind];
  const where = k.itemType === 'resource' ? { resourceId: itemId } : { groupId: itemId };
  const describe = `${k.principalType} ${principalId} holds ${k.itemType} ${itemId}${level ? ` at level ${level}` : ''} remotely but not in Gatehouse`;
  const offboarded = k.principalType === 'user' && isOffboarded(access.describe('user', principalId)?.status ?? '');
  if (connector.drift_policy === 'REMOVE' || (connector.drift_policy === 'IMPORT' && offboarded)) {
    queuePush(ctx, kind, principalId, itemId, level, 'ABSENT', now);
    connectors.recordSyncError(connector.app_id, where, `${describe}: removed remotely (drift policy ${connector.drift_policy})`, now);
    summary.drift_removed += 1;
  } else if (connector.drift_policy === 'IMPORT') {
    const levelName = k.itemType === 'resource' ? ctx.stores.resources.accessLevel(itemId, level)?.access_level_name : access.groupLevelName(itemId, level);
    if (levelName === undefined) {
      connectors.recordSyncError(connector.app_id, where, `${describe}: its access level is unknown here`, now);
      return;
    }
    changeAccess(ctx, actor, [{ op: 'add', kind, write: { principalId, itemId, level, levelName, expiresAt: null, source: 'DIRECT', sourceId: null } }], { origin: 'remote' });
    connectors.imported({ edge_key: edgeKey(connector.app_id, kind, principalId, itemId, level), app_id: connector.app_id, kind, principal_id: principalId, item_id: itemId, access_level_remote_id: level, updated_at: now.toISOString() });
    summary.drift_imported += 1;
  } else {
    connectors.recordSyncError(connector.app_id, where, describe, now);
  }
}
