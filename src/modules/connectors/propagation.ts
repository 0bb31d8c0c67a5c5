// Propagation: the access-change listener that queues a push for each changed edge of an app with a
// connector, and the outbox handler that delivers it. Delivery is level-triggered: a push makes the
// remote edge match what Gatehouse holds when it runs, so retries, reorders and crashes converge.
import type { AppContext } from '../../context.ts';
import { dueNow, enqueue, OUTBOX_ACTOR, type Attempt, type OutboxHandler, type OutboxItem } from '../../outbox/index.ts';
import type { AccessChange } from '../access/changes.ts';
import { EDGE_KINDS, type EdgeKindName } from '../access/edges.ts';
import type { Actor } from '../events/store.ts';
import { announce } from '../../signals.ts';
import { adapterFor, kindOf } from './adapters.ts';
import type { ConnectorRow } from './store.ts';

export const PUSH_KIND = 'connector.push';

/** The payload of a push row: the edge, and the remote ids as they were when it was queued (the item may be deleted by the time it runs). */
export interface PushPayload {
  app_id: string;
  kind: EdgeKindName;
  principal_id: string;
  item_id: string;
  level: string;
  desired: 'PRESENT' | 'ABSENT';
  remote_item_id: string | null;
  remote_principal_id: string | null;
}

/** Group memberships carry no level remotely: one key per (user or group, group) pair keeps their pushes in order. */
const levelless = (kind: EdgeKindName) => kind === 'group_user' || kind === 'group_group';

/** The outbox key (and propagations key) of an edge: per app, kind, ends and level. */
export function edgeKey(appId: string, kind: EdgeKindName, principalId: string, itemId: string, level: string): string {
  return `connector:${appId}:${kind}:${principalId}:${itemId}:${levelless(kind) ? '' : level}`;
}

/**
 * Brings forward the pushes of `userId`'s access on `appId` that wait for a later attempt (one that failed
 * for want of a linked account waits up to the back-off's cap): an admin just linked their account, so the
 * next outbox tick carries them. Inside the link's write transaction; the propagations show them due now.
 * Returns how many were brought forward.
 */
export function bringPersonsPushesForward(ctx: AppContext, appId: string, userId: string): number {
  const prefixes = (Object.keys(EDGE_KINDS) as EdgeKindName[])
    .filter((kind) => EDGE_KINDS[kind].principalType === 'user')
    .map((kind) => `connector:${appId}:${kind}:${userId}:`);
  const rows = dueNow(ctx, PUSH_KIND, prefixes);
  const now = ctx.clock.now().toISOString();
  for (const row of rows) {
    const shown = ctx.stores.connectors.byKey(row.key);
    if (shown?.outbox_seq !== row.seq || shown.status === null) continue;
    ctx.stores.connectors.settle(row.key, row.seq, { status: shown.status, state: 'PENDING', error: shown.last_error, next: now, attempts: shown.attempts }, now);
  }
  return rows.length;
}

/** The app whose connector carries an edge, and the remote ids of its ends; undefined when none does. */
function placeEdge(ctx: AppContext, kind: EdgeKindName, principalId: string, itemId: string): { connector: ConnectorRow; remoteItem: string | null; remotePrincipal: string | null } | undefined {
  const k = EDGE_KINDS[kind];
  const item = ctx.stores.connectors.placeOf(k.itemType as 'resource' | 'group', itemId);
  if (!item) return undefined;
  const connector = ctx.stores.connectors.get(item.app_id);
  if (!connector || !kindOf(connector.connector_type).kinds.includes(kind)) return undefined;
  let remotePrincipal: string | null = null;
  if (k.principalType === 'group') {
    // A group holding something remotely must live in the same remote system.
    const group = ctx.stores.connectors.placeOf('group', principalId);
    if (!group || group.app_id !== item.app_id) return undefined;
    remotePrincipal = group.remote_id;
  }
  return { connector, remoteItem: item.remote_id, remotePrincipal };
}

/**
 * Queues the push of one edge's state (inside the caller's transaction) and marks its propagation
 * PENDING. Does nothing for edges no connector carries.
 */
export function queuePush(ctx: AppContext, kind: EdgeKindName, principalId: string, itemId: string, level: string, desired: 'PRESENT' | 'ABSENT', now: Date): boolean {
  const placed = placeEdge(ctx, kind, principalId, itemId);
  if (!placed) return false;
  const appId = placed.connector.app_id;
  const key = edgeKey(appId, kind, principalId, itemId, level);
  const payload: PushPayload = {
    app_id: appId, kind, principal_id: principalId, item_id: itemId, level, desired, remote_item_id: placed.remoteItem, remote_principal_id: placed.remotePrincipal,
  };
  const seq = enqueue(ctx, { kind: PUSH_KIND, key, payload });
  ctx.stores.connectors.queued({
    edge_key: key, app_id: appId, kind, principal_id: principalId, item_id: itemId, access_level_remote_id: levelless(kind) ? '' : level,
    desired, outbox_seq: seq, updated_at: now.toISOString(),
  }, now.toISOString());
  return true;
}

/**
 * The access-change listener: an added edge is pushed present, a removed or expired one absent, a
 * level change both (old level absent, new present); an expiry change alone changes nothing remotely.
 */
export function propagateAccessChange(ctx: AppContext, _actor: Actor, change: AccessChange, now: Date): void {
  const { kind, row } = change;
  if (kind === 'resource_nhi' || change.origin === 'remote') return;
  if (change.type === 'added') queuePush(ctx, kind, row.principal_id, row.item_id, row.access_level_remote_id, 'PRESENT', now);
  else if (change.type === 'removed' || change.type === 'expired') queuePush(ctx, kind, row.principal_id, row.item_id, row.access_level_remote_id, 'ABSENT', now);
  else if (change.before && change.before.access_level_remote_id !== row.access_level_remote_id) {
    queuePush(ctx, kind, row.principal_id, row.item_id, change.before.access_level_remote_id, 'ABSENT', now);
    queuePush(ctx, kind, row.principal_id, row.item_id, row.access_level_remote_id, 'PRESENT', now);
  }
}

/** Whether Gatehouse holds the edge now: what the remote side must show. Group memberships: at any level. */
export function heldNow(ctx: AppContext, p: Pick<PushPayload, 'kind' | 'principal_id' | 'item_id' | 'level'>, now: Date): boolean {
  if (levelless(p.kind)) return ctx.stores.access.livePair(p.kind, p.principal_id, p.item_id, now).length > 0;
  return ctx.stores.access.live(p.kind, { principalId: p.principal_id, itemId: p.item_id, level: p.level }, now) !== undefined;
}

/** Delivers one push: reads what holds now, resolves remote ids, calls the adapter. Outside any transaction. */
async function runPush(ctx: AppContext, item: OutboxItem<PushPayload>, signal: AbortSignal): Promise<Attempt> {
  const p = item.payload;
  const connector = ctx.stores.connectors.get(p.app_id);
  // The connector was removed meanwhile: nothing is left to push to.
  if (!connector) return { ok: true };
  const present = heldNow(ctx, p, ctx.clock.now());
  const k = EDGE_KINDS[p.kind];
  const place = ctx.stores.connectors.placeOf(k.itemType as 'resource' | 'group', p.item_id);
  const remoteItem = place?.remote_id ?? p.remote_item_id;
  if (!remoteItem) return { ok: false, code: 'ERR_REMOTE_RESOURCE_NOT_FOUND', error: `the ${k.itemType} has no remote id (remote_info.custom_connector / remote id); set it or run a sync` };
  const adapter = adapterFor(ctx, connector);
  const push = (remotePrincipalId: string) => adapter.push({ kind: p.kind, remotePrincipalId, remoteItemId: remoteItem, level: p.level, present }, signal);
  if (k.principalType === 'group') {
    const remotePrincipal = ctx.stores.connectors.placeOf('group', p.principal_id)?.remote_id ?? p.remote_principal_id;
    if (!remotePrincipal) return { ok: false, code: 'ERR_REMOTE_RESOURCE_NOT_FOUND', error: 'the group has no remote id; set it or run a sync' };
    return push(remotePrincipal);
  }
  const user = await adapter.remoteUser(ctx, p.principal_id, signal);
  if ('code' in user) return { ok: false, code: user.code, error: user.error, ...(user.permanent && { permanent: true }) };
  const attempt = await push(user.id);
  if (attempt.ok || attempt.code !== 'ERR_REMOTE_USER_NOT_FOUND' || !present) return attempt;
  // The remote system no longer has the account Gatehouse linked (a connector that lost its accounts):
  // forget the link, match again by email or create again (where this connector may), and retry at once.
  forgetLostUser(ctx, p.app_id, user.id, p.principal_id);
  const again = await adapter.remoteUser(ctx, p.principal_id, signal);
  if ('code' in again) return { ok: false, code: again.code, error: again.error, ...(again.permanent && { permanent: true }) };
  return push(again.id);
}

/** Forgets a remote account the remote system says is gone, and records it (CONNECTOR_USERS_LOST) in that transaction. */
function forgetLostUser(ctx: AppContext, appId: string, remoteUserId: string, userId: string): void {
  ctx.db.transaction(() => {
    ctx.stores.connectors.forgetUser(appId, remoteUserId);
    ctx.stores.events.record(OUTBOX_ACTOR, 'CONNECTOR_USERS_LOST', [{ sub_event_type: 'CONNECTOR_USERS_LOST', app_id: appId, user_id: userId, remote_user_id: remoteUserId }]);
  }).immediate();
}

/** Records the outcome on the edge's propagation and as an audit event, in the outcome's transaction. */
function settlePush(ctx: AppContext, item: OutboxItem<PushPayload>, outcome: Parameters<NonNullable<OutboxHandler['settled']>>[2]): void {
  const p = item.payload;
  const attempt = outcome.attempt;
  const status = attempt.ok ? 'SUCCESS' : (attempt.code ?? 'ERR_UNKNOWN');
  const error = attempt.ok ? null : attempt.error;
  ctx.stores.connectors.settle(item.key, item.seq, {
    status, state: outcome.state === 'RETRYING' ? 'PENDING' : outcome.state, error, next: outcome.nextAttemptAt, attempts: item.attempt,
  }, outcome.at);
  const type = outcome.state === 'DONE' ? 'PROPAGATIONS_SUCCEEDED' : outcome.state === 'RETRYING' ? 'PROPAGATIONS_RETRYING' : 'PROPAGATIONS_FAILED';
  const k = EDGE_KINDS[p.kind];
  ctx.stores.events.record(OUTBOX_ACTOR, type, [{
    sub_event_type: type, app_id: p.app_id, edge_kind: p.kind, [k.principal]: p.principal_id, [k.item]: p.item_id,
    access_level_remote_id: p.level, desired: p.desired, propagation_status: status, attempt: item.attempt,
    error, next_attempt_at: outcome.nextAttemptAt, outbox_seq: item.seq,
  }]);
  // The app's admin owners hear of a push that gave up (docs/notifications.md), queued in this same transaction.
  if (outcome.state === 'FAILED') {
    announce(ctx, 'connectors.push-failed', {
      appId: p.app_id,
      key: String(item.seq),
      error: `${status}: ${error}`,
      detail: `${p.desired === 'PRESENT' ? 'granting' : 'removing'} ${k.principal} ${p.principal_id} on ${k.item} ${p.item_id}`,
    }, new Date(outcome.at));
  }
}

export const connectorPush: OutboxHandler<PushPayload> = {
  run: runPush,
  settled: settlePush,
  // A week: an outage over a long weekend is ridden out; then it is FAILED and shown until retried.
  giveUpAfterMs: 7 * 24 * 3_600_000,
  // One lane per app (edgeKey's `connector:<app id>:`): a slow connector holds only its share of the outbox.
  lane: (key) => key.slice(0, key.indexOf(':', 'connector:'.length) + 1),
};
