// Telling people their access ended: the access-change listener that queues ACCESS_REMOVED for the holder of
// a user's own edge that was taken away or expired, with who did it and why (docs/notifications.md).
import type { AppContext } from '../../context.ts';
import type { AccessChange } from '../access/changes.ts';
import { EDGE_KINDS } from '../access/edges.ts';
import type { Actor } from '../events/store.ts';
import { SYSTEM_USER_ID } from '../../lib/system-actor.ts';
import { channelsReady, tellUser } from './queue.ts';

/** Items named in one offboarding notice; the rest are counted. */
export const OFFBOARDING_ITEMS_LISTED = 20;

/** What one ended edge was, as the notice names it (read now: a deleted item is gone when the notice is sent). */
export interface EndedItem {
  item_type: 'resource' | 'group';
  item_id: string;
  item_name: string;
  access_level_name: string;
}

/**
 * The notifications area's onAccessChange (src/area.ts), inside the change's transaction. A user's own
 * edge (a resource's or a group's membership) that ended — removed by someone, by an access review,
 * an access rule, the item's deletion, or expired — queues one ACCESS_REMOVED notice for them.
 * Offboarding is one notice for everything they held (items listed up to OFFBOARDING_ITEMS_LISTED),
 * sent to them although offboarded: it is the last they hear. Access held through a group (a group's
 * resources, nested groups) is the group's: its members are not told one by one.
 */
export function tellAccessEnded(ctx: AppContext, actor: Actor, change: AccessChange, now: Date): void {
  if (change.type !== 'removed' && change.type !== 'expired') return;
  const kind = EDGE_KINDS[change.kind];
  // Offboarding thousands of edges, or a sweep, pays nothing here when no channel is set up.
  const ready = channelsReady(ctx);
  if (kind.principalType !== 'user' || (!ready.email && !ready.slack)) return;
  const { row } = change;
  // A break-glass's access says its own end (BREAK_GLASS_ENDED, or BREAK_GLASS_REVIEWED when found not
  // justified: notifications/break-glass.ts): one message, not two.
  if (row.source === 'REQUEST' && row.source_id !== null && ctx.stores.requests.get(row.source_id)?.break_glass === 1) return;
  const itemType = kind.itemType as 'resource' | 'group';
  const item: EndedItem = {
    item_type: itemType, item_id: row.item_id,
    item_name: ctx.stores.access.describe(itemType, row.item_id)?.name ?? row.item_id,
    access_level_name: row.access_level_name,
  };
  const by = actor.userId === SYSTEM_USER_ID ? null : { user_id: actor.userId, name: actor.name || actor.email };
  // Whoever took their own access away knows.
  if (by?.user_id === row.principal_id) return;
  if (change.cause?.type === 'OFFBOARDING') {
    const key = `access-removed:offboarding:${now.toISOString()}`;
    const dedupeKey = `${key}:user:${row.principal_id}`;
    if (ctx.stores.notifications.has(dedupeKey)) {
      ctx.stores.notifications.addEndedItem(dedupeKey, item, OFFBOARDING_ITEMS_LISTED);
      return;
    }
    tellUser(ctx, row.principal_id, {
      type: 'ACCESS_REMOVED', key, reason: 'you were offboarded, so the access you held was removed',
      data: { cause: change.cause, by, items: [item], count: 1 },
    }, now, { evenIfOffboarded: true });
    return;
  }
  const expired = change.type === 'expired';
  tellUser(ctx, row.principal_id, {
    type: 'ACCESS_REMOVED',
    // One edge ends once; the instant tells a regrant's later end from this one.
    key: `access-removed:${change.kind}:${row.item_id}:${row.access_level_remote_id}:${now.toISOString()}`,
    reason: expired ? 'you held this access and the time it was given for is over' : 'you held this access and it was removed',
    data: {
      ...item, access_level_remote_id: row.access_level_remote_id, expired, expiration_date: row.expiration_date, cause: change.cause ?? null, by,
      ...(change.cause?.type === 'ACCESS_REVIEW' && { uar_name: ctx.stores.accessReviews.get(change.cause.uarId)?.name ?? '' }),
    },
  }, now);
}
