// Access the on-call rotation approved ends when the rotation's cover does: a handover or an override that
// shortens a person's shift (the on-call area's 'on-call.cover-shortened') cuts back the grants of their
// approved requests whose items the rotation approved through that group (docs/on-call.md).
import type { AppContext } from '../../context.ts';
import { systemActor } from '../../lib/system-actor.ts';
import type { Signals } from '../../signals.ts';
import { changeAccess } from '../access/changes.ts';
import { kindFor } from '../access/service.ts';

const ROTATION_ACTOR = systemActor('Gatehouse (on-call sync)');

/**
 * Inside the sync's transaction: each item of `userId`'s approved requests that the rotation approved
 * through `groupId` with a later end is capped at `endsAt` (its request_items.on_call_until too). Its
 * edge is changed only while it is still that request's grant (not changed by hand, not taken over by
 * another grant): shortened, recorded as the edge's …_UPDATED, or, when `endsAt` is now, removed (…_REMOVED).
 */
export function capRotationGrants(ctx: AppContext, signal: Signals['on-call.cover-shortened'], now: Date): void {
  const { requests, access } = ctx.stores;
  for (const item of requests.rotationItems(signal.userId, signal.groupId, signal.endsAt)) {
    requests.setItemOnCallUntil(item.request_id, item.position, signal.endsAt);
    const kind = kindFor('user', item.item_type);
    const key = { principalId: signal.userId, itemId: item.item_id, level: item.access_level_remote_id };
    const edge = access.live(kind, key, now);
    if (!edge || edge.source !== 'REQUEST' || edge.source_id !== item.request_id) continue;
    if (edge.expiration_date !== null && edge.expiration_date <= signal.endsAt) continue;
    if (signal.endsAt <= now.toISOString()) changeAccess(ctx, ROTATION_ACTOR, [{ op: 'remove', kind, key }], { at: now });
    else changeAccess(ctx, ROTATION_ACTOR, [{ op: 'update', kind, key, expiresAt: signal.endsAt, source: 'REQUEST', sourceId: item.request_id }], { at: now });
  }
}
