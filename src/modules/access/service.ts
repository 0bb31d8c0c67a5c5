// The one write path for access edges of every kind: grant, change, revoke, and the grant the request
// workflow calls. Each runs in one transaction with its audit event and its effect on open sessions.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import { EDGE_KINDS, type EdgeKey, type EdgeKindName, type EdgeSource, type EndType } from './edges.ts';
import { changeAccess, edgeSubEvent, type AccessChangeCause } from './changes.ts';
import { reconcileSessions } from '../sessions/reconcile.ts';
import type { EdgeRow } from './store.ts';
import { SYSTEM_ACTOR } from '../events/system-actor.ts';
import { isOffboarded } from '../../lib/offboarding.ts';

export { edgeSubEvent, reconcileSessions };


/** The API's path names for each end, used in error details. */
const PATH_OF: Record<EdgeKindName, { principal: string; item: string }> = {
  resource_user: { principal: 'user_id', item: 'resource_id' },
  resource_nhi: { principal: 'non_human_identity_id', item: 'resource_id' },
  group_user: { principal: 'user_id', item: 'group_id' },
  group_resource: { principal: 'group_id', item: 'resource_id' },
  group_group: { principal: 'group_id', item: 'containing_group_id' },
};

/** The edge kind joining a principal of `principalType` to an item of `itemType`. */
export function kindFor(principalType: 'user' | 'group', itemType: 'resource' | 'group'): EdgeKindName {
  if (principalType === 'user') return itemType === 'resource' ? 'resource_user' : 'group_user';
  return itemType === 'resource' ? 'group_resource' : 'group_group';
}

/** Throws not_found naming `path` unless the user, group or resource exists. */
export function requireEnd(ctx: AppContext, type: EndType, id: string, path: string): void {
  if (!ctx.stores.access.describe(type, id)) throw notFound(type, id, path);
}

/**
 * The name of access level `level` of `itemId` ('' is the default level every item offers).
 * Throws not_found naming `path` when the item offers no such level.
 */
export function accessLevelName(ctx: AppContext, itemType: EndType, itemId: string, level: string, path = 'access_level_remote_id'): string {
  const name = itemType === 'group'
    ? ctx.stores.access.groupLevelName(itemId, level)
    : ctx.stores.resources.accessLevel(itemId, level)?.access_level_name;
  if (name === undefined) {
    throw new AppError('not_found', `${itemType} ${itemId} has no access level with remote id "${level}"`, [
      { path, message: `no access level with this remote id on this ${itemType}` },
    ]);
  }
  return name;
}

export interface GrantInput {
  kind: EdgeKindName;
  key: EdgeKey;
  expiresAt: string | null;
  source: EdgeSource;
  sourceId: string | null;
  /** What to do when a live edge already has the key: refuse (409) or extend to the later expiry. */
  whenHeld: 'refuse' | 'extend';
}

/**
 * Checks and writes one edge inside the caller's transaction and records its event; returns the
 * edge as stored. Throws not_found for an unknown end or level (naming the path parameter),
 * validation_failed for a cycle, an access rule's members or an offboarded user, and conflict
 * when whenHeld is 'refuse' and a live edge has the key.
 */
export function writeGrant(ctx: AppContext, actor: Actor, input: GrantInput): EdgeRow {
  const { access } = ctx.stores;
  const now = ctx.clock.now();
  const { kind, key } = input;
  const k = EDGE_KINDS[kind];
  const paths = PATH_OF[kind];
  requireEnd(ctx, k.itemType, key.itemId, paths.item);
  requireEnd(ctx, k.principalType, key.principalId, paths.principal);
  const levelName = accessLevelName(ctx, k.itemType, key.itemId, key.level);
  if (k.principalType === 'user' && isOffboarded(access.describe('user', key.principalId)!.status)) {
    throw invalidField(paths.principal, 'is suspended, deprovisioned or deleted, and such a user holds no access');
  }
  if (kind === 'group_user' && input.source !== 'RULE' && ctx.stores.accessRules.isRule(key.itemId)) {
    throw invalidField(paths.item, "is an access rule: its members follow the rule's clauses and cannot be added by hand");
  }
  if (kind === 'group_group' && access.wouldCycle(key.principalId, key.itemId)) {
    throw invalidField(paths.item, key.principalId === key.itemId ? 'must not be the group itself' : 'already sits inside this group, so nesting would make a cycle');
  }
  const write = { ...key, levelName, expiresAt: input.expiresAt, source: input.source, sourceId: input.sourceId };
  changeAccess(ctx, SYSTEM_ACTOR, [{ op: 'endDead', kind, key }]);
  const [added] = changeAccess(ctx, actor, [{ op: 'add', kind, write }]);
  if (added) return added.row;
  const held = access.live(kind, key, now)!;
  if (input.whenHeld === 'refuse') {
    throw new AppError('conflict', `${paths.principal.replace(/_id$/, '')} ${key.principalId} already holds this access; ${k.toChange}`, [
      { path: paths.principal, message: 'already holds this access at this access level' },
    ]);
  }
  const later = held.expiration_date === null || (input.expiresAt !== null && held.expiration_date >= input.expiresAt) ? held.expiration_date : input.expiresAt;
  if (later === held.expiration_date) return held;
  // An extension is not a change of who holds what: no sessions to end.
  const [updated] = changeAccess(ctx, actor, [{ op: 'update', kind, key, expiresAt: later, source: input.source, sourceId: input.sourceId }], { sessions: false });
  return updated!.row;
}

/** An access rule's members follow its clauses alone: throws validation_failed naming `path` for such an edge. */
function refuseRuleEdge(row: EdgeRow, path: string): void {
  if (row.source === 'RULE') throw invalidField(path, "is an access rule: its members follow the rule's clauses and cannot be changed by hand");
}

/** One transaction function per connection that runs whatever it is given, rebuilt when group commit swaps db.transaction. */
const RUNNERS = new WeakMap<AppContext['db'], { factory: AppContext['db']['transaction']; run: ReturnType<AppContext['db']['transaction']> }>();

/**
 * Runs `fn` in an immediate write transaction. The transaction function is built once (per connection
 * and per db.transaction in force), not per call: building one costs more than a small write's SQL.
 */
export const inWriteTransaction = <T>(ctx: AppContext, fn: () => T): T => {
  const { db } = ctx;
  let runner = RUNNERS.get(db);
  if (runner?.factory !== db.transaction) RUNNERS.set(db, (runner = { factory: db.transaction, run: db.transaction((body: () => unknown) => body()) }));
  return runner.run.immediate(fn) as T;
};

/**
 * Gives a principal an edge for `durationMinutes` (0: no expiry) through the API (source DIRECT),
 * refusing with conflict when a live edge has the key. See writeGrant for what else it throws.
 */
export function grantDirect(ctx: AppContext, actor: Actor, kind: EdgeKindName, key: EdgeKey, expiresAt: string | null): EdgeRow {
  return inWriteTransaction(ctx, () => writeGrant(ctx, actor, { kind, key, expiresAt, source: 'DIRECT', sourceId: null, whenHeld: 'refuse' }));
}

export interface RequestGrant {
  principalType: 'user' | 'group';
  principalId: string;
  itemType: 'resource' | 'group';
  itemId: string;
  /** The item's access level remote id; '' is the default level. */
  level: string;
  /** ISO time, or null for access without expiry. */
  expiresAt: string | null;
  requestId: string;
}

/**
 * The grant the request workflow calls when a request is approved. Call it **inside your own
 * (immediate) write transaction**: it writes the edge and its event there and never opens one.
 *
 * - Grants `principalId` (user or group) access to `itemId` (resource or group) at `level` until
 *   `expiresAt` (null: no expiry), recording source REQUEST with `requestId` and the `…_ADDED` event.
 * - When a live edge with the same (principal, item, level) exists, it is never refused: the edge is
 *   extended to the later of the two expiries (null wins), takes source REQUEST + `requestId`, and
 *   `…_UPDATED` is recorded; when the existing edge already lasts as long, nothing is written.
 * - Throws AppError not_found (principal, item or level unknown) and validation_failed (offboarded
 *   user, nesting cycle, access-rule group as item) — the caller's transaction then rolls back.
 *
 * Returns the edge as it stands after the call.
 */
export function grantForRequest(ctx: AppContext, actor: Actor, grant: RequestGrant): EdgeRow {
  const kind = kindFor(grant.principalType, grant.itemType);
  return writeGrant(ctx, actor, {
    kind,
    key: { principalId: grant.principalId, itemId: grant.itemId, level: grant.level },
    expiresAt: grant.expiresAt,
    source: 'REQUEST',
    sourceId: grant.requestId,
    whenHeld: 'extend',
  });
}

/**
 * Sets a new expiry (counted by the caller) on a live edge, optionally moving it to `newLevel`;
 * records `…_UPDATED` and cuts back or ends sessions that no longer fit. Throws not_found for unknown
 * ends or levels, and (naming `principalPath`) when no live edge has the key.
 */
export function changeEdge(ctx: AppContext, actor: Actor, kind: EdgeKindName, key: EdgeKey, expiresAt: string | null, newLevel?: string): EdgeRow {
  const { access } = ctx.stores;
  const now = ctx.clock.now();
  const k = EDGE_KINDS[kind];
  const paths = PATH_OF[kind];
  return inWriteTransaction(ctx, () => {
    requireEnd(ctx, k.itemType, key.itemId, paths.item);
    requireEnd(ctx, k.principalType, key.principalId, paths.principal);
    accessLevelName(ctx, k.itemType, key.itemId, key.level);
    const held = access.live(kind, key, now);
    if (!held) {
      throw new AppError('not_found', `${paths.principal.replace(/_id$/, '')} ${key.principalId} holds no such access`, [
        { path: paths.principal, message: 'holds no live access at this access level; POST gives it' },
      ]);
    }
    refuseRuleEdge(held, paths.item);
    let newLevelRef: { id: string; name: string } | undefined;
    if (newLevel !== undefined && newLevel !== key.level) {
      const name = accessLevelName(ctx, k.itemType, key.itemId, newLevel);
      if (access.live(kind, { ...key, level: newLevel }, now)) {
        throw new AppError('conflict', 'the access is already held at that level', [{ path: 'access_level_remote_id', message: 'already held at this access level' }]);
      }
      changeAccess(ctx, SYSTEM_ACTOR, [{ op: 'endDead', kind, key: { ...key, level: newLevel } }]);
      newLevelRef = { id: newLevel, name };
    }
    const [updated] = changeAccess(ctx, actor, [{ op: 'update', kind, key, expiresAt, source: 'DIRECT', sourceId: null, newLevel: newLevelRef }]);
    return updated!.row;
  });
}

/**
 * Takes away one edge and ends the sessions that relied on it; records `…_REMOVED`. An edge not held
 * (never given, or already expired) is an empty success that records nothing. Throws not_found for
 * unknown ends (naming the path parameter). `cause` says why, where the actor does not (an access review).
 */
export function revokeEdge(ctx: AppContext, actor: Actor, kind: EdgeKindName, key: EdgeKey, cause?: AccessChangeCause): void {
  const { access } = ctx.stores;
  const now = ctx.clock.now();
  const k = EDGE_KINDS[kind];
  inWriteTransaction(ctx, () => {
    requireEnd(ctx, k.itemType, key.itemId, PATH_OF[kind].item);
    requireEnd(ctx, k.principalType, key.principalId, PATH_OF[kind].principal);
    const wasLive = access.live(kind, key, now);
    if (wasLive) refuseRuleEdge(wasLive, PATH_OF[kind].item);
    changeAccess(ctx, SYSTEM_ACTOR, [{ op: 'endDead', kind, key }]);
    if (wasLive) changeAccess(ctx, actor, [{ op: 'remove', kind, key }], cause && { cause });
  });
}

/**
 * PUT semantics of the reference ("updates a user's access level or duration"): a level the principal
 * holds gets the new duration; a level it does not hold, while it holds exactly one, moves that one
 * to the new level; no level means the one level it holds. Throws validation_failed
 * (access_level_remote_id) when it holds several and none is named or matched, not_found when it holds none.
 */
export function putEdge(ctx: AppContext, actor: Actor, kind: EdgeKindName, principalId: string, itemId: string, level: string | undefined, expiresAt: string | null): EdgeRow {
  return inWriteTransaction(ctx, () => {
    const held = ctx.stores.access.livePair(kind, principalId, itemId, ctx.clock.now()).map((row) => row.access_level_remote_id);
    if (level !== undefined && held.includes(level)) return changeEdge(ctx, actor, kind, { principalId, itemId, level }, expiresAt);
    if (held.length === 1) return changeEdge(ctx, actor, kind, { principalId, itemId, level: held[0]! }, expiresAt, level);
    if (held.length > 1) throw invalidField('access_level_remote_id', `is held at ${held.length} levels here; name the one to change`);
    return changeEdge(ctx, actor, kind, { principalId, itemId, level: level ?? '' }, expiresAt);
  });
}

/**
 * Replaces the set of resources a group gives access to (no expiry, source DIRECT), all or nothing:
 * edges not listed are removed (`GROUP_RESOURCES_REMOVED`), listed ones not held are added
 * (`GROUP_RESOURCES_ADDED`), held ones are left as they are. Throws validation_failed for a pair
 * listed twice and not_found for an unknown resource or level, naming `resources.N.field`.
 */
export function setGroupResources(ctx: AppContext, actor: Actor, groupId: string, wanted: { resource_id: string; access_level_remote_id: string }[]): void {
  const { access } = ctx.stores;
  const now = ctx.clock.now();
  inWriteTransaction(ctx, () => {
    requireEnd(ctx, 'group', groupId, 'group_id');
    const seen = new Set<string>();
    const keys = wanted.map((item, index) => {
      const resourceId = item.resource_id.toLowerCase();
      const pairKey = `${resourceId}\n${item.access_level_remote_id}`;
      if (seen.has(pairKey)) throw invalidField(`resources.${index}`, 'lists this resource and access level twice');
      seen.add(pairKey);
      requireEnd(ctx, 'resource', resourceId, `resources.${index}.resource_id`);
      accessLevelName(ctx, 'resource', resourceId, item.access_level_remote_id, `resources.${index}.access_level_remote_id`);
      return { principalId: groupId, itemId: resourceId, level: item.access_level_remote_id };
    });
    const unlisted = access.liveOfPrincipal('group_resource', groupId, now)
      .filter((row) => !seen.has(`${row.item_id}\n${row.access_level_remote_id}`));
    changeAccess(ctx, actor, unlisted.map((row) => ({
      op: 'remove' as const, kind: 'group_resource' as const, key: { principalId: groupId, itemId: row.item_id, level: row.access_level_remote_id },
    })), { record: 'GROUP_RESOURCES_REMOVED' });
    for (const key of keys) {
      if (access.live('group_resource', key, now)) continue;
      writeGrant(ctx, actor, { kind: 'group_resource', key, expiresAt: null, source: 'DIRECT', sourceId: null, whenHeld: 'refuse' });
    }
  });
}

/**
 * Deletes resource or group `id` through `deleteItem` (its edges go with it, by foreign key) and
 * returns a `…_REMOVED` sub-event for every live edge that ended with it, to record with the deletion,
 * as offboarding does for a user. Its edges' remote copies are queued for removal (connectors).
 */
export function deleteWithEdges(ctx: AppContext, actor: Actor, type: 'resource' | 'group', id: string, deleteItem: () => void): SubEvent[] {
  const sub: SubEvent[] = [];
  changeAccess(ctx, actor, [{ op: 'deleteEnd', type, id, deleteItem }], { record: sub, sessions: false, cause: { type: 'ITEM_DELETED' } });
  return sub;
}

/**
 * Offboarding: removes every edge the user holds (direct resource access and group memberships,
 * including rule memberships) and ends their open sessions. Returns the sub-events to record with
 * the status change; call inside its transaction.
 */
export function offboardUser(ctx: AppContext, actor: Actor, userId: string, now: Date): SubEvent[] {
  const sub: SubEvent[] = [];
  changeAccess(ctx, actor, [
    { op: 'removeAllOf', kind: 'resource_user', principalId: userId },
    { op: 'removeAllOf', kind: 'group_user', principalId: userId },
  ], { record: sub, sessions: false, cause: { type: 'OFFBOARDING' } });
  return [...sub, ...reconcileSessions(ctx, { userId }, now)];
}

/** The users holding live membership of `groupId` (any level), with their names, in user order. */
export function groupMembers(ctx: AppContext, groupId: string): { id: string; display: string }[] {
  const seen = new Set<string>();
  const members: { id: string; display: string }[] = [];
  for (const row of ctx.stores.access.liveOfItem('group_user', groupId, ctx.clock.now())) {
    if (seen.has(row.principal_id)) continue;
    seen.add(row.principal_id);
    members.push({ id: row.principal_id, display: ctx.stores.access.describe('user', row.principal_id)?.name ?? '' });
  }
  return members;
}

/**
 * Makes `userIds` the users holding `groupId` (at its default level, no expiry, source DIRECT): users
 * not holding it are added (…_ADDED), users no longer listed lose every level they hold (…_REMOVED);
 * call **inside your own write transaction** (an identity provider's group push, docs/scim.md).
 * Throws what writeGrant throws for an unknown or offboarded user, naming `user_id`.
 */
export function setGroupMembers(ctx: AppContext, actor: Actor, groupId: string, userIds: readonly string[]): { added: number; removed: number } {
  const { access } = ctx.stores;
  const now = ctx.clock.now();
  const wanted = new Set(userIds);
  const held = new Set(groupMembers(ctx, groupId).map((m) => m.id));
  let added = 0;
  let removed = 0;
  for (const userId of wanted) {
    if (held.has(userId)) continue;
    writeGrant(ctx, actor, { kind: 'group_user', key: { principalId: userId, itemId: groupId, level: '' }, expiresAt: null, source: 'DIRECT', sourceId: null, whenHeld: 'extend' });
    added += 1;
  }
  for (const userId of held) {
    if (wanted.has(userId)) continue;
    for (const row of access.livePair('group_user', userId, groupId, now)) {
      changeAccess(ctx, actor, [{ op: 'remove', kind: 'group_user', key: { principalId: userId, itemId: groupId, level: row.access_level_remote_id } }]);
    }
    removed += 1;
  }
  return { added, removed };
}
