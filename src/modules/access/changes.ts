// The one owner of access changes: every write that adds, changes or ends an edge of any kind passes
// changeAccess, which writes it, records its audit event and tells the listeners (each area's
// onAccessChange: connector propagation) — all inside the caller's transaction, so none can be
// separated by a crash.
import type { AppContext } from '../../context.ts';
import { insideTransaction } from '../../db/group-commit.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import type { EventType } from '../events/types.ts';
import { EDGE_KIND_NAMES, EDGE_KINDS, type EdgeKey, type EdgeKindName, type EdgeSource } from './edges.ts';
import { reconcileSessions } from '../sessions/reconcile.ts';
import type { EdgeRow, EdgeWrite } from './store.ts';

/** What one op did to one edge. `before` is the edge as it was (updated only). */
export interface AccessChange {
  type: 'added' | 'updated' | 'removed' | 'expired';
  kind: EdgeKindName;
  row: EdgeRow;
  before?: EdgeRow;
  /** 'remote' when the change records what a remote system already did (a sync importing drift): nothing to push back. */
  origin: 'gatehouse' | 'remote';
  /** Why, when the caller knows more than its actor says (ChangeOptions.cause). */
  cause?: AccessChangeCause;
}

/** Why access changed, where the actor alone does not say it: the holder's notice names it. */
export type AccessChangeCause =
  | { type: 'OFFBOARDING' }
  | { type: 'ACCESS_REVIEW'; uarId: string }
  | { type: 'ACCESS_RULE' }
  | { type: 'ITEM_DELETED' };

/**
 * One write to the edge tables. Ops that find nothing to do (a live edge already has the key for
 * `add`, no live edge for `update`/`remove`, nothing dead for `endDead`) change nothing and record nothing.
 */
export type AccessOp =
  /** A new edge (or one reviving a dead row in place); nothing when a live edge has the key. */
  | { op: 'add'; kind: EdgeKindName; write: EdgeWrite }
  /** A live edge's expiry and source, optionally moved to another level (newLevelName required then). */
  | { op: 'update'; kind: EdgeKindName; key: EdgeKey; expiresAt: string | null; source: EdgeSource; sourceId: string | null; newLevel?: { id: string; name: string } }
  /** Takes a live edge away (a dead row with the key is deleted too, recorded as expired). */
  | { op: 'remove'; kind: EdgeKindName; key: EdgeKey }
  /** Deletes the key's row if it is dead and the sweep has not reached it yet (recorded as expired). */
  | { op: 'endDead'; kind: EdgeKindName; key: EdgeKey }
  /** The sweep: deletes the row `seq` if it is still dead at now (recorded as expired). */
  | { op: 'sweep'; kind: EdgeKindName; row: EdgeRow }
  /** Offboarding: every edge `principalId` holds of this kind, live ones removed, dead ones expired. */
  | { op: 'removeAllOf'; kind: EdgeKindName; principalId: string }
  /**
   * Deleting a resource or group: its live edges at either end end with it. `deleteItem` deletes
   * the row (the edges go by foreign key) after they have been read.
   */
  | { op: 'deleteEnd'; type: 'resource' | 'group'; id: string; deleteItem: () => void };

export interface ChangeOptions {
  /**
   * Where the sub-events go. Default: each change is recorded as its own event of its own type.
   * An array: sub-events are pushed there, and the caller records them inside its own event (offboarding,
   * deletes). An event type: every change is one sub-event of one event of that type.
   */
  record?: SubEvent[] | EventType;
  /** 'remote' for a sync importing access the remote system already has (listeners then push nothing). */
  origin?: 'gatehouse' | 'remote';
  /** The instant of the change (default ctx.clock.now()): the sweep passes the time it sweeps at. */
  at?: Date;
  /** Bring open sessions in line with the change (default true; deletes and offboarding do their own). */
  sessions?: boolean;
  /** Why the changes are made (offboarding, an access review…), told to listeners with each change. */
  cause?: AccessChangeCause;
}

/** The event type of a change (the edge kind's added/updated/removed/expired). */
export function changeEventType(change: Pick<AccessChange, 'type' | 'kind'>): EventType {
  return EDGE_KINDS[change.kind].events[change.type];
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

const keyOf = (row: EdgeRow): EdgeKey => ({ principalId: row.principal_id, itemId: row.item_id, level: row.access_level_remote_id });

/** Does the op's store writes; returns what changed, in order. */
function write(ctx: AppContext, op: AccessOp, now: Date): Omit<AccessChange, 'origin'>[] {
  const { access } = ctx.stores;
  switch (op.op) {
    case 'add':
      return access.grant(op.kind, op.write, now) ? [{ type: 'added', kind: op.kind, row: access.live(op.kind, op.write, now)! }] : [];
    case 'update': {
      const before = access.live(op.kind, op.key, now);
      if (!before) return [];
      let key = op.key;
      if (op.newLevel && op.newLevel.id !== op.key.level) {
        access.setLevel(op.kind, op.key, op.newLevel.id, op.newLevel.name, op.expiresAt, now);
        key = { ...op.key, level: op.newLevel.id };
      }
      access.setExpiry(op.kind, key, op.expiresAt, op.source, op.sourceId, now);
      return [{ type: 'updated', kind: op.kind, row: access.live(op.kind, key, now)!, before }];
    }
    case 'remove': {
      const row = access.revoke(op.kind, op.key, now);
      if (!row) return [];
      const live = row.expiration_date === null || row.expiration_date > now.toISOString();
      return [{ type: live ? 'removed' : 'expired', kind: op.kind, row }];
    }
    case 'endDead': {
      const row = access.removeDead(op.kind, op.key, now);
      return row ? [{ type: 'expired', kind: op.kind, row }] : [];
    }
    case 'sweep':
      return access.deleteExpired(op.kind, op.row.seq, now) ? [{ type: 'expired', kind: op.kind, row: op.row }] : [];
    case 'removeAllOf':
      return access.revokeAllOfPrincipal(op.kind, op.principalId, now).map((row) => {
        const live = row.expiration_date === null || row.expiration_date > now.toISOString();
        return { type: live ? 'removed' as const : 'expired' as const, kind: op.kind, row };
      });
    case 'deleteEnd': {
      const changes: Omit<AccessChange, 'origin'>[] = [];
      for (const kind of EDGE_KIND_NAMES) {
        const k = EDGE_KINDS[kind];
        const rows = new Map<number, EdgeRow>();
        if (k.principalType === op.type) for (const row of access.liveOfPrincipal(kind, op.id, now)) rows.set(row.seq, row);
        if (k.itemType === op.type) for (const row of access.liveOfItem(kind, op.id, now)) rows.set(row.seq, row);
        for (const row of rows.values()) changes.push({ type: 'removed', kind, row });
      }
      // The item is deleted by changeAccess once the changes are described and heard (names, apps).
      return changes;
    }
  }
}

/**
 * Applies `ops` in order inside the caller's write transaction (it must be in one): writes each,
 * ends or cuts back the open sessions it affects (unless options.sessions is false), records the
 * audit event(s) as options.record says, and tells every area's access-change listener of each change
 * (ctx.registry.accessListeners: connector propagation queues its outbox rows there). Returns the changes made.
 */
export function changeAccess(ctx: AppContext, actor: Actor, ops: AccessOp[], options: ChangeOptions = {}): AccessChange[] {
  if (!insideTransaction(ctx.db)) throw new Error('changeAccess must run inside a write transaction');
  const now = options.at ?? ctx.clock.now();
  const all: AccessChange[] = [];
  const collected: SubEvent[] = [];
  for (const op of ops) {
    for (const written of write(ctx, op, now)) {
      const change: AccessChange = { ...written, origin: options.origin ?? 'gatehouse', ...(options.cause && { cause: options.cause }) };
      all.push(change);
      const sub = [edgeSubEvent(ctx, change.kind, changeEventType(change), change.row)];
      if (options.sessions !== false && change.type !== 'added') sub.push(...sessionsAfter(ctx, change, now));
      for (const listener of ctx.registry.accessListeners) listener(ctx, actor, change, now);
      if (options.record === undefined) ctx.stores.events.record(actor, changeEventType(change), sub);
      else collected.push(...sub);
    }
    if (op.op === 'deleteEnd') op.deleteItem();
  }
  if (Array.isArray(options.record)) options.record.push(...collected);
  else if (options.record !== undefined && collected.length > 0) ctx.stores.events.record(actor, options.record, collected);
  return all;
}

/** Which open sessions an edge change can affect; undefined means every open session, null none. */
function sessionScope(kind: EdgeKindName, row: { principal_id: string; item_id: string }): { userId?: string; resourceId?: string } | null | undefined {
  switch (kind) {
    case 'resource_user': return { userId: row.principal_id, resourceId: row.item_id };
    case 'group_user': return { userId: row.principal_id };
    case 'group_resource': return { resourceId: row.item_id };
    case 'group_group': return undefined;
    case 'resource_nhi': return null;
  }
}

/** The edge changed at `now`: ends (or cuts back) the sessions that relied on it; their SESSIONS_ENDED sub-events. */
function sessionsAfter(ctx: AppContext, change: AccessChange, now: Date): SubEvent[] {
  const scope = sessionScope(change.kind, change.row);
  return scope === null ? [] : reconcileSessions(ctx, scope ?? {}, now);
}

export { keyOf as edgeKeyOf };
