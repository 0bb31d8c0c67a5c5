// Sync and reconciliation: read the remote side part by part within the sync bounds (sync-budget.ts),
// and write each part as it comes — users linked, items created or updated, drift settled — in short
// transactions on later turns of the event loop, so a connector however large never holds the loop.
import * as v from 'valibot';
import type { AppContext } from '../../context.ts';
import { commitPendingWrites } from '../../db/group-commit.ts';
import { AppError } from '../../http/errors.ts';
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
import type { RemoteBatch } from './adapter.ts';
import { adapterFor, kindOf } from './adapters.ts';
import { edgeKey, heldNow, queuePush } from './propagation.ts';
import { quoteRemote, type RemoteEdge, type RemoteItem } from './remote-schemas.ts';
import type { ConnectorRow } from './store.ts';
import { SyncBudget, type StopReason } from './sync-budget.ts';

export const SYNC_ACTOR = systemActor('Gatehouse (connector sync)');

/**
 * A slice — one transaction — writes at most GATEHOUSE_CONNECTOR_SYNC_SLICE_ITEMS items, and stops early
 * once it has run this long: other requests are answered between slices however slow the machine is
 * (measured on a loaded 2-core machine: 500 users linked took 50–240 ms; docs/connectors.md).
 */
export const SYNC_SLICE_MS = 20;

/** The most sync errors one sync records for an app; past it, one more says how many were left out. */
export const MAX_SYNC_ERRORS = 1000;

/**
 * What a sync gives the resources and groups it creates (docs/connectors.md, "What a sync creates"): a
 * synced production database is not requestable by everyone, for ever, by default. Nobody may request
 * it until an admin opens it; opened, a request is approved by a reviewer (never automatically) and
 * lasts at most a day unless the admin chooses otherwise.
 */
export const IMPORTED_ITEM_DEFAULTS = { is_requestable: false, auto_approval: false, max_duration: 24 * 60 } as const;

/** The most access levels an item offers besides the default one (the API's own bound). */
const MAX_LEVELS = 1000;

export interface SyncSummary {
  /** The sync read everything and wrote it (false: it failed, or stopped at a bound). */
  ok: boolean;
  error: string | null;
  /** It stopped at a bound before the end: what it read is written, and nothing that needs the whole picture was done. */
  truncated: boolean;
  /** Which bound stopped it (`max_items`, `max_bytes`, `max_ms`, `page_items`, `response_bytes`), or null. */
  stopped_at: StopReason | null;
  /** Items read from the connector, and bytes of its answers. */
  items_read: number;
  bytes_read: number;
  /** Remote items skipped because they failed the API's checks (each a sync error). */
  items_refused: number;
  users: number;
  users_matched: number;
  /** Remote users this sync read that no Gatehouse user matches (listed by GET …/connector/unmatched-users). */
  users_unmatched: number;
  /** Remote users recorded before that a full sync no longer read: forgotten, their links dropped. */
  users_lost: number;
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
  ok: true, error: null, truncated: false, stopped_at: null, items_read: 0, bytes_read: 0, items_refused: 0, users: 0, users_matched: 0,
  users_unmatched: 0, users_lost: 0, resources_created: 0, resources_updated: 0, groups_created: 0, groups_updated: 0, remote_access: 0, drift_found: 0,
  drift_imported: 0, drift_removed: 0, pushed_again: 0,
});

/** Resolves on a later turn of the event loop, after the I/O that arrived meanwhile has been served. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The apps being synced on each database: a second sync of one app waits for none, it is refused. */
const RUNNING = new WeakMap<object, Set<string>>();

/** One sync in progress: what it knows so far, and where its sync errors go (bounded). */
class SyncRun {
  readonly summary = emptySummary();
  readonly resources = new Map<string, string>();
  readonly groups = new Map<string, string>();
  /** Edge keys the remote side holds (as many as the items read: bounded by the budget). */
  readonly remoteKeys = new Set<string>();
  /** Remote users recorded for the app, and resources and groups it has from the remote side: kept under the item bound. */
  remoteUsers = 0;
  /** The remote users this sync read (as many as the items read: bounded by the budget); a full sync forgets the others. */
  readonly seenUsers = new Set<string>();
  #errors = 0;
  readonly #full = new Set<string>();

  constructor(readonly ctx: AppContext, readonly actor: Actor, readonly connector: ConnectorRow) {}

  /**
   * Whether one more remote `what` (users; items) may be kept, `held` being how many the app has: at most
   * GATEHOUSE_CONNECTOR_SYNC_MAX_ITEMS in all, so a connector naming new ones at every sync cannot grow the
   * database without end. The first refusal of each is a sync error.
   */
  mayKeep(what: 'remote users' | 'resources and groups', held: number, now: Date): boolean {
    const most = this.ctx.config.connectorSyncMaxItems;
    if (held < most) return true;
    if (!this.#full.has(what)) {
      this.#full.add(what);
      this.error({}, `the app holds ${held} ${what} from its connector, the most kept (GATEHOUSE_CONNECTOR_SYNC_MAX_ITEMS); new ones were not recorded`, now);
    }
    return false;
  }

  get appId(): string {
    return this.connector.app_id;
  }

  /** Records a sync error, up to MAX_SYNC_ERRORS per sync. */
  error(where: { resourceId?: string; groupId?: string }, message: string, now: Date): void {
    this.#errors += 1;
    if (this.#errors <= MAX_SYNC_ERRORS) this.ctx.stores.connectors.recordSyncError(this.appId, where, message.slice(0, 1000), now);
  }

  /** The last word on sync errors left out, if any were. */
  errorsLeftOut(now: Date): void {
    if (this.#errors > MAX_SYNC_ERRORS) {
      this.ctx.stores.connectors.recordSyncError(this.appId, {}, `${this.#errors - MAX_SYNC_ERRORS} more sync errors were found and not recorded (at most ${MAX_SYNC_ERRORS} per sync)`, now);
    }
  }
}

/** Runs `work` in its own transaction on a later turn, once what was written before is durable. */
async function slice<T>(ctx: AppContext, work: () => T): Promise<T> {
  commitPendingWrites(ctx.db);
  await nextTurn();
  return ctx.db.transaction(work).immediate();
}

/**
 * `items` in slices (at most GATEHOUSE_CONNECTOR_SYNC_SLICE_ITEMS, or SYNC_SLICE_MS of work), each written by `write` in its
 * own transaction on a later turn.
 * An item Gatehouse refuses (an AppError: say, a level still in use) is undone alone and becomes a sync
 * error naming it (`name`); anything else fails the sync.
 */
async function inSlices<T>(run: SyncRun, items: T[], name: (item: T) => string, write: (item: T) => void): Promise<void> {
  const { ctx } = run;
  const one = (item: T) => {
    try {
      ctx.db.transaction(() => write(item))();
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      run.error({}, `${name(item)} skipped: ${err.message}`, ctx.clock.now());
    }
  };
  let at = 0;
  while (at < items.length) {
    await slice(ctx, () => {
      const end = performance.now() + SYNC_SLICE_MS;
      const last = Math.min(items.length, at + ctx.config.connectorSyncSliceItems);
      do one(items[at++]!);
      while (at < last && performance.now() < end);
    });
  }
}

function linkUser(run: SyncRun, user: { id: string; email: string }, now: Date): void {
  const { summary } = run;
  summary.users += 1;
  run.seenUsers.add(user.id);
  const known = run.ctx.stores.connectors.userOfRemote(run.appId, user.id) !== undefined;
  if (!known) {
    if (!run.mayKeep('remote users', run.remoteUsers, now)) return;
    run.remoteUsers += 1;
  }
  const matched = run.ctx.stores.connectors.linkUser(run.appId, user.id, user.email);
  if (matched) summary.users_matched += 1;
  else summary.users_unmatched += 1;
}

/**
 * The Gatehouse id of a remote resource or group, made by `create` when it has none yet and the app may
 * keep more (undefined when it may not); its remote id and name are set either way, and it is counted.
 */
function placeItem(run: SyncRun, type: 'resource' | 'group', remote: RemoteItem, create: () => string, now: Date): string | undefined {
  const known = type === 'resource' ? run.resources : run.groups;
  let id = known.get(remote.id);
  if (id) {
    run.summary[type === 'resource' ? 'resources_updated' : 'groups_updated'] += 1;
  } else {
    if (!run.mayKeep('resources and groups', run.resources.size + run.groups.size, now)) return undefined;
    id = create();
    known.set(remote.id, id);
    run.summary[type === 'resource' ? 'resources_created' : 'groups_created'] += 1;
  }
  run.ctx.stores.connectors.setRemote(type, id, remote.id, remote.name, now);
  return id;
}

/** Creates or updates one remote resource here, with the access levels it offers. */
function syncResource(run: SyncRun, remote: Extract<RemoteBatch, { type: 'resource' }>['resource'], now: Date): void {
  const { ctx } = run;
  const kind = kindOf(run.connector.connector_type);
  const id = placeItem(run, 'resource', remote, () => createResource(ctx, run.actor, v.parse(CreateResourceBody, {
    name: remote.name, app_id: run.appId, resource_type: kind.resourceType, description: remote.description ?? '', ...IMPORTED_ITEM_DEFAULTS,
    ...(kind.remoteInfo && { remote_info: kind.remoteInfo(remote.id) }),
    remote_resource_id: remote.id, remote_resource_name: remote.name,
  })).resource_id, now);
  if (!id) return;
  // Levels the remote side offers are added; none is dropped (Gatehouse access may still use it).
  const have = ctx.stores.resources.accessLevels(id).filter((l) => l.access_level_remote_id !== '');
  const known = new Set(have.map((l) => l.access_level_remote_id));
  const added = [...new Map(remote.access_levels.filter((l) => !known.has(l.id)).map((l) => [l.id, l])).values()];
  if (added.length === 0) return;
  if (have.length + added.length > MAX_LEVELS) {
    run.error({ resourceId: id }, `remote resource ${quoteRemote(remote.id)} offers more than ${MAX_LEVELS} access levels; the ${added.length} new ones were not added`, now);
    return;
  }
  replaceAccessLevels(ctx, 'resource', id, [...have, ...added.map((l) => ({ access_level_remote_id: l.id, access_level_name: l.name }))], 'access_levels');
}

function syncGroup(run: SyncRun, remote: RemoteItem, now: Date): void {
  placeItem(run, 'group', remote, () => createGroup(run.ctx, run.actor, v.parse(CreateGroupBody, {
    name: remote.name, app_id: run.appId, group_type: 'CONNECTOR_GROUP', description: remote.description ?? '', remote_group_id: remote.id, ...IMPORTED_ITEM_DEFAULTS,
  })).group_id, now);
}

/** One remote access entry: SUCCESS when Gatehouse holds it too, else drift settled by the app's policy. */
function syncEdge(run: SyncRun, kind: EdgeKindName, edge: RemoteEdge, now: Date): void {
  const { ctx, summary } = run;
  const { connectors } = ctx.stores;
  summary.remote_access += 1;
  const k = EDGE_KINDS[kind];
  const principal = k.principalType === 'user' ? connectors.userOfRemote(run.appId, edge.principal) ?? undefined : run.groups.get(edge.principal);
  const item = k.itemType === 'resource' ? run.resources.get(edge.item) : run.groups.get(edge.item);
  if (!principal || !item) {
    // A remote user the sync read whom no Gatehouse user matches, holding a known item: access outside
    // Gatehouse, kept so the item's page shows it as such (GET …/unmatched-remote-users).
    if (item && k.principalType === 'user' && connectors.userOfRemote(run.appId, edge.principal) === null) {
      connectors.recordUnmatchedAccess(run.appId, { type: k.itemType, id: item }, edge.principal, edge.level, now);
    }
    run.error({}, `remote ${kind.replace('_', ' ')} access of ${quoteRemote(edge.principal)} to ${quoteRemote(edge.item)} names an unknown ${principal ? k.itemType : k.principalType}`, now);
    return;
  }
  const key = edgeKey(run.appId, kind, principal, item, edge.level);
  run.remoteKeys.add(key);
  const propagation = connectors.byKey(key);
  if (heldNow(ctx, { kind, principal_id: principal, item_id: item, level: edge.level }, now)) {
    // Held on both sides: the truth is SUCCESS unless a push is still on its way.
    // (Imported access keeps its null status: it came from there.)
    if (propagation?.outbox_state !== 'PENDING' && !(propagation && propagation.status === null)) {
      connectors.inSync({ edge_key: key, app_id: run.appId, kind, principal_id: principal, item_id: item, access_level_remote_id: edge.level, updated_at: now.toISOString() });
    }
    return;
  }
  // A removal on its way: the remote copy is about to go.
  if (propagation?.outbox_state === 'PENDING') return;
  summary.drift_found += 1;
  settleDrift(run, kind, principal, item, edge.level, now);
}

/** Gatehouse access of one item the remote side lacks (and no push on its way): pushed again. */
function pushMissing(run: SyncRun, type: 'resource' | 'group', itemId: string, kinds: readonly EdgeKindName[], now: Date): void {
  const { ctx } = run;
  for (const kind of kinds.filter((k) => EDGE_KINDS[k].itemType === type)) {
    for (const row of ctx.stores.access.liveOfItem(kind, itemId, now)) {
      const key = edgeKey(run.appId, kind, row.principal_id, row.item_id, row.access_level_remote_id);
      if (run.remoteKeys.has(key)) continue;
      if (ctx.stores.connectors.byKey(key)?.outbox_state === 'PENDING') continue;
      if (queuePush(ctx, kind, row.principal_id, row.item_id, row.access_level_remote_id, 'PRESENT', now)) run.summary.pushed_again += 1;
    }
  }
}

/**
 * Runs one sync of the app's connector. Reads the remote side part by part within the sync bounds
 * (GATEHOUSE_CONNECTOR_SYNC_MAX_ITEMS, _MAX_BYTES, _MAX_MS, _PAGE_MAX_ITEMS, _MAX_RESPONSE_BYTES) and
 * writes each part in slices (GATEHOUSE_CONNECTOR_SYNC_SLICE_ITEMS), one transaction each on a later turn: links users by
 * email, creates or updates items, and settles drift by the app's policy (REPORT: a sync error per edge;
 * IMPORT: the edge is added with status null; REMOVE: its removal is pushed). Remote items failing the
 * API's checks are skipped, each with a sync error naming it. Only a sync that read everything queues
 * Gatehouse access missing remotely to be pushed again (a partial reading cannot tell what is missing).
 * The app's sync errors start afresh with each sync (at most MAX_SYNC_ERRORS are kept). Records
 * CONNECTORS_SYNCED with the counts, and whether and where it stopped. Never throws for a remote
 * failure: the summary says it. Throws conflict when a sync of the app is already running.
 */
export async function syncConnector(ctx: AppContext, actor: Actor, appId: string, signal?: AbortSignal): Promise<SyncSummary> {
  const connector = ctx.stores.connectors.get(appId);
  if (!connector) return { ...emptySummary(), ok: false, error: 'the app has no connector' };
  let running = RUNNING.get(ctx.db);
  if (!running) RUNNING.set(ctx.db, (running = new Set()));
  if (running.has(appId)) throw new AppError('conflict', `a sync of app ${appId} is running; its answer (or CONNECTORS_SYNCED) tells how it went`, [{ path: 'app_id', message: 'is being synced' }]);
  running.add(appId);
  try {
    return await runSync(ctx, new SyncRun(ctx, actor, connector), signal);
  } finally {
    running.delete(appId);
  }
}

async function runSync(ctx: AppContext, run: SyncRun, signal?: AbortSignal): Promise<SyncSummary> {
  const { connectors } = ctx.stores;
  const { summary, appId } = run;
  const adapter = adapterFor(ctx, run.connector);
  const budget = new SyncBudget(ctx);
  const now = () => ctx.clock.now();
  // The first slice starts the app's sync errors afresh and learns which items it already has.
  const named = (what: string) => (item: { id: string }) => `${what} ${quoteRemote(item.id)}`;
  await slice(ctx, () => {
    connectors.clearSyncErrors(appId);
    connectors.clearUnmatchedAccess(appId);
    for (const item of connectors.itemsOfApp('resource', appId)) if (item.remote_id) run.resources.set(item.remote_id, item.id);
    for (const item of connectors.itemsOfApp('group', appId)) if (item.remote_id) run.groups.set(item.remote_id, item.id);
    run.remoteUsers = connectors.remoteUserCount(appId);
  });
  let failure: string | null = null;
  try {
    for await (const batch of adapter.read(budget, signal)) {
      if (!connectors.get(appId)) throw new Error('the connector was removed while it was being synced');
      switch (batch.type) {
        case 'users':
          await inSlices(run, batch.users, named('remote user'), (user) => linkUser(run, user, now()));
          break;
        case 'resource':
          await inSlices(run, [batch.resource], named('remote resource'), (resource) => syncResource(run, resource, now()));
          break;
        case 'groups':
          await inSlices(run, batch.groups, named('remote group'), (group) => syncGroup(run, group, now()));
          break;
        case 'edges':
          await inSlices(run, batch.edges, (edge) => `remote ${batch.kind.replace('_', ' ')} access of ${quoteRemote(edge.principal)} to ${quoteRemote(edge.item)}`, (edge) => syncEdge(run, batch.kind, edge, now()));
          break;
        case 'refused':
          summary.items_refused += batch.refused.length;
          await inSlices(run, batch.refused, (message) => message, (message) => run.error({}, message, now()));
          break;
      }
    }
  } catch (err) {
    failure = `sync failed: ${(err as Error).message}`.slice(0, 500);
  }
  summary.items_read = budget.items;
  summary.bytes_read = budget.bytes;
  summary.stopped_at = budget.stoppedAt;
  summary.truncated = budget.stoppedAt !== null;
  if (failure === null && !summary.truncated) {
    // Accounts the remote side no longer lists are gone there: their links go, and the next push of the
    // access they carried matches the person again by email or creates them again.
    const lost = connectors.remoteUserIds(appId).filter((id) => !run.seenUsers.has(id));
    await inSlices(run, lost, (id) => `remote user ${quoteRemote(id)}`, (id) => forgetLostUser(run, id));
    const kinds = kindOf(run.connector.connector_type).kinds;
    for (const type of ['resource', 'group'] as const) {
      await inSlices(run, connectors.itemsOfApp(type, appId), (item) => `${type} ${item.id}`, (item) => pushMissing(run, type, item.id, kinds, now()));
    }
  }
  summary.error = failure ?? budget.explain();
  summary.ok = summary.error === null;
  return slice(ctx, () => {
    const at = now();
    if (summary.error !== null) run.error({}, summary.error, at);
    run.errorsLeftOut(at);
    connectors.markSynced(appId, summary.ok, at);
    ctx.stores.events.record(run.actor, 'CONNECTORS_SYNCED', [{
      sub_event_type: 'CONNECTORS_SYNCED', app_id: appId, ok: summary.ok, ...(summary.error !== null && { error: summary.error }),
      truncated: summary.truncated, stopped_at: summary.stopped_at, items_read: summary.items_read, bytes_read: summary.bytes_read,
      items_refused: summary.items_refused, users: summary.users, users_matched: summary.users_matched, users_lost: summary.users_lost,
      resources_created: summary.resources_created, groups_created: summary.groups_created, remote_access: summary.remote_access,
      drift_found: summary.drift_found, drift_imported: summary.drift_imported, drift_removed: summary.drift_removed, pushed_again: summary.pushed_again,
      drift_policy: run.connector.drift_policy,
    }]);
    return summary;
  });
}

/** Forgets a remote user a full sync no longer read; a linked one is recorded as lost (CONNECTOR_USERS_LOST). */
function forgetLostUser(run: SyncRun, remoteUserId: string): void {
  const { ctx } = run;
  const userId = ctx.stores.connectors.userOfRemote(run.appId, remoteUserId);
  ctx.stores.connectors.forgetUser(run.appId, remoteUserId);
  run.summary.users_lost += 1;
  if (userId) ctx.stores.events.record(run.actor, 'CONNECTOR_USERS_LOST', [{ sub_event_type: 'CONNECTOR_USERS_LOST', app_id: run.appId, user_id: userId, remote_user_id: remoteUserId }]);
}

/** Remote access Gatehouse does not hold, settled by the app's drift policy. */
function settleDrift(run: SyncRun, kind: EdgeKindName, principalId: string, itemId: string, level: string, now: Date): void {
  const { ctx, actor, connector, summary } = run;
  const { connectors, access } = ctx.stores;
  const k = EDGE_KINDS[kind];
  const where = k.itemType === 'resource' ? { resourceId: itemId } : { groupId: itemId };
  const describe = `${k.principalType} ${principalId} holds ${k.itemType} ${itemId}${level ? ` at level ${quoteRemote(level)}` : ''} remotely but not in Gatehouse`;
  const offboarded = k.principalType === 'user' && isOffboarded(access.describe('user', principalId)?.status ?? '');
  if (connector.drift_policy === 'REMOVE' || (connector.drift_policy === 'IMPORT' && offboarded)) {
    queuePush(ctx, kind, principalId, itemId, level, 'ABSENT', now);
    run.error(where, `${describe}: removed remotely (drift policy ${connector.drift_policy})`, now);
    summary.drift_removed += 1;
  } else if (connector.drift_policy === 'IMPORT') {
    const levelName = k.itemType === 'resource' ? ctx.stores.resources.accessLevel(itemId, level)?.access_level_name : access.groupLevelName(itemId, level);
    if (levelName === undefined) {
      run.error(where, `${describe}: its access level is unknown here`, now);
      return;
    }
    changeAccess(ctx, actor, [{ op: 'add', kind, write: { principalId, itemId, level, levelName, expiresAt: null, source: 'DIRECT', sourceId: null } }], { origin: 'remote' });
    connectors.imported({ edge_key: edgeKey(connector.app_id, kind, principalId, itemId, level), app_id: connector.app_id, kind, principal_id: principalId, item_id: itemId, access_level_remote_id: level, updated_at: now.toISOString() });
    summary.drift_imported += 1;
  } else {
    run.error(where, describe, now);
  }
}
