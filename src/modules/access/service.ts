// The one write path for access edges of every kind: grant, change, revoke, and the grant the request
// workflow calls. Each runs in one transaction with its audit event and its effect on open sessions.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import { EDGE_KIND_NAMES, EDGE_KINDS, NEVER, type EdgeKey, type EdgeKindName, type EdgeSource, type EndType } from './edges.ts';
import type { EdgeRow } from './store.ts';
import { SYSTEM_ACTOR } from '../events/system-actor.ts';

/** Statuses whose holder holds nothing: their edges end when the status is set, and no grant is accepted. */
export const OFFBOARDED_STATUSES = ['SUSPENDED', 'DEPROVISIONED', 'DELETED'] as const;
export const isOffboarded = (status: string) => (OFFBOARDED_STATUSES as readonly string[]).includes(status);

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

/** The sub-event describing an edge: both ends by id and name, its level, expiry and source. */
export function edgeSubEvent(ctx: AppContext, kind: EdgeKindName, type: string, row: EdgeRow): SubEvent {
  const k = EDGE_KINDS[kind];
  const nameKey = (column: string) => column.replace(/_id$/, '_name');
  return {
    sub_event_type: type,
    [k.principal]: row.principal_id,
    [nameKey(k.principal)]: ctx.stores.access.describe(k.principalType, row.principal_id)?.name ?? null,
    [k.item]: row.item_id,
    [nameKey(k.item)]: ctx.stores.access.describe(k.itemType, row.item_id)?.name ?? null,
    access_level_remote_id: row.access_level_remote_id,
    access_level_name: row.access_level_name,
    expiration_date: row.expiration_date,
    source: row.source,
    source_id: row.source_id,
  };
}

/** Which open sessions an edge change can affect; undefined means every open session. */
function sessionScope(kind: EdgeKindName, row: { principal_id: string; item_id: string }): { userId?: string; resourceId?: string } | null | undefined {
  switch (kind) {
    case 'resource_user': return { userId: row.principal_id, resourceId: row.item_id };
    case 'group_user': return { userId: row.principal_id };
    case 'group_resource': return { resourceId: row.item_id };
    case 'group_group': return undefined;
    case 'resource_nhi': return null;
  }
}

/**
 * Brings open sessions in `scope` in line with what their users still hold at `now`: a session whose
 * holding is gone ends, one outliving its holding is cut back to the holding's expiry. Returns a
 * SESSIONS_ENDED sub-event per session ended. Call inside the transaction that changed the edges.
 */
export function reconcileSessions(ctx: AppContext, scope: { userId?: string; resourceId?: string }, now: Date): SubEvent[] {
  const { sessions, holdings } = ctx.stores;
  const ended: SubEvent[] = [];
  for (const session of sessions.openWhere(scope, now)) {
    const holding = holdings.resourcesOfUser(session.user_id, now, session.resource_id)
      .find((h) => h.level === session.access_level.access_level_remote_id);
    if (!holding) {
      sessions.end(session.connection_id, now);
      ended.push({ sub_event_type: 'SESSIONS_ENDED', connection_id: session.connection_id, resource_id: session.resource_id, user_id: session.user_id });
    } else if (holding.exp !== NEVER && holding.exp < session.expiration_date) {
      sessions.setExpiry(session.connection_id, holding.exp);
    }
  }
  return ended;
}

/**
 * Deletes the key's row if it expired and the sweep has not reached it yet, recording its
 * `…_EXPIRED` event as the sweep would have: every path that overwrites or removes a dead row goes
 * through here, so the audit trail shows the end of every edge whichever write comes first.
 */
function endDeadEdge(ctx: AppContext, kind: EdgeKindName, key: EdgeKey, now: Date): void {
  const dead = ctx.stores.access.removeDead(kind, key, now);
  const type = EDGE_KINDS[kind].events.expired;
  if (dead) ctx.stores.events.record(SYSTEM_ACTOR, type, [edgeSubEvent(ctx, kind, type, dead)]);
}

/** Ends sessions an edge change took away; returns their sub-events. */
export function afterEdgeChange(ctx: AppContext, kind: EdgeKindName, row: { principal_id: string; item_id: string }, now: Date): SubEvent[] {
  const scope = sessionScope(kind, row);
  return scope === null ? [] : reconcileSessions(ctx, scope ?? {}, now);
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
  const { access, events } = ctx.stores;
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
  endDeadEdge(ctx, kind, key, now);
  if (access.grant(kind, write, now)) {
    const row = access.live(kind, key, now)!;
    events.record(actor, k.events.added, [edgeSubEvent(ctx, kind, k.events.added, row)]);
    return row;
  }
  const held = access.live(kind, key, now)!;
  if (input.whenHeld === 'refuse') {
    throw new AppError('conflict', `${paths.principal.replace(/_id$/, '')} ${key.principalId} already holds this access; ${k.toChange}`, [
      { path: paths.principal, message: 'already holds this access at this access level' },
    ]);
  }
  const later = held.expiration_date === null || (input.expiresAt !== null && held.expiration_date >= input.expiresAt) ? held.expiration_date : input.expiresAt;
  if (later === held.expiration_date) return held;
  access.setExpiry(kind, key, later, input.source, input.sourceId, now);
  const row = access.live(kind, key, now)!;
  events.record(actor, k.events.updated, [edgeSubEvent(ctx, kind, k.events.updated, row)]);
  return row;
}

/** An access rule's members follow its clauses alone: throws validation_failed naming `path` for such an edge. */
function refuseRuleEdge(row: EdgeRow, path: string): void {
  if (row.source === 'RULE') throw invalidField(path, "is an access rule: its members follow the rule's clauses and cannot be changed by hand");
}

/** Runs `fn` in an immediate write transaction. */
export const inWriteTransaction = <T>(ctx: AppContext, fn: () => T): T => ctx.db.transaction(fn).immediate();

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
  const { access, events } = ctx.stores;
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
    let current = key;
    if (newLevel !== undefined && newLevel !== key.level) {
      const name = accessLevelName(ctx, k.itemType, key.itemId, newLevel);
      if (access.live(kind, { ...key, level: newLevel }, now)) {
        throw new AppError('conflict', 'the access is already held at that level', [{ path: 'access_level_remote_id', message: 'already held at this access level' }]);
      }
      endDeadEdge(ctx, kind, { ...key, level: newLevel }, now);
      access.setLevel(kind, key, newLevel, name, expiresAt, now);
      current = { ...key, level: newLevel };
    }
    access.setExpiry(kind, current, expiresAt, 'DIRECT', null, now);
    const row = access.live(kind, current, now)!;
    const ended = afterEdgeChange(ctx, kind, row, now);
    events.record(actor, k.events.updated, [edgeSubEvent(ctx, kind, k.events.updated, row), ...ended]);
    return row;
  });
}

/**
 * Takes away one edge and ends the sessions that relied on it; records `…_REMOVED`. An edge not held
 * (never given, or already expired) is an empty success that records nothing. Throws not_found for
 * unknown ends (naming the path parameter).
 */
export function revokeEdge(ctx: AppContext, actor: Actor, kind: EdgeKindName, key: EdgeKey): void {
  const { access, events } = ctx.stores;
  const now = ctx.clock.now();
  const k = EDGE_KINDS[kind];
  inWriteTransaction(ctx, () => {
    requireEnd(ctx, k.itemType, key.itemId, PATH_OF[kind].item);
    requireEnd(ctx, k.principalType, key.principalId, PATH_OF[kind].principal);
    const wasLive = access.live(kind, key, now);
    if (wasLive) refuseRuleEdge(wasLive, PATH_OF[kind].item);
    endDeadEdge(ctx, kind, key, now);
    if (!wasLive) return;
    access.revoke(kind, key, now);
    const ended = afterEdgeChange(ctx, kind, wasLive, now);
    events.record(actor, k.events.removed, [edgeSubEvent(ctx, kind, k.events.removed, wasLive), ...ended]);
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
  const { access, events } = ctx.stores;
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
    const sub: SubEvent[] = [];
    for (const row of access.liveOfPrincipal('group_resource', groupId, now)) {
      if (seen.has(`${row.item_id}\n${row.access_level_remote_id}`)) continue;
      access.revoke('group_resource', { principalId: groupId, itemId: row.item_id, level: row.access_level_remote_id }, now);
      sub.push(edgeSubEvent(ctx, 'group_resource', 'GROUP_RESOURCES_REMOVED', row), ...afterEdgeChange(ctx, 'group_resource', row, now));
    }
    if (sub.length > 0) events.record(actor, 'GROUP_RESOURCES_REMOVED', sub);
    for (const key of keys) {
      if (access.live('group_resource', key, now)) continue;
      writeGrant(ctx, actor, { kind: 'group_resource', key, expiresAt: null, source: 'DIRECT', sourceId: null, whenHeld: 'refuse' });
    }
  });
}

/**
 * A `…_REMOVED` sub-event for every live edge with resource or group `id` at either end. Read it
 * before deleting the item (its edges go with it, by foreign key), so the trail shows the access that
 * ended with it, as offboarding does for a user.
 */
export function edgesEndingWith(ctx: AppContext, type: 'resource' | 'group', id: string, now: Date): SubEvent[] {
  const { access } = ctx.stores;
  const sub: SubEvent[] = [];
  for (const kind of EDGE_KIND_NAMES) {
    const k = EDGE_KINDS[kind];
    const rows = new Map<number, EdgeRow>();
    if (k.principalType === type) for (const row of access.liveOfPrincipal(kind, id, now)) rows.set(row.seq, row);
    if (k.itemType === type) for (const row of access.liveOfItem(kind, id, now)) rows.set(row.seq, row);
    for (const row of rows.values()) sub.push(edgeSubEvent(ctx, kind, k.events.removed, row));
  }
  return sub;
}

/**
 * Offboarding: removes every edge the user holds (direct resource access and group memberships,
 * including rule memberships) and ends their open sessions. Returns the sub-events to record with
 * the status change; call inside its transaction.
 */
export function offboardUser(ctx: AppContext, userId: string, now: Date): SubEvent[] {
  const { access } = ctx.stores;
  const sub: SubEvent[] = [];
  for (const kind of ['resource_user', 'group_user'] as const) {
    for (const row of access.revokeAllOfPrincipal(kind, userId, now)) {
      const live = row.expiration_date === null || row.expiration_date > now.toISOString();
      const { removed, expired } = EDGE_KINDS[kind].events;
      sub.push(edgeSubEvent(ctx, kind, live ? removed : expired, row));
    }
  }
  return [...sub, ...reconcileSessions(ctx, { userId }, now)];
}
