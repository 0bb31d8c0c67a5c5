// Who hears what about a break-glass (docs/break-glass.md, docs/notifications.md): at once, the item's
// owners and every admin, and the owner's reviewer channel; the person when it ends or is found not
// justified; the owners reminded and the admins told when its review waits. Each runs inside the
// transaction of the change it reports and only queues notices (queue.ts); the message is written
// when it is sent (render.ts), from the break-glass as it is then.
import type { AppContext } from '../../context.ts';
import { ownerUserIds } from '../owners/service.ts';
import { tellChannel, tellUser, type Notice } from './queue.ts';

function load(ctx: AppContext, id: string) {
  return ctx.stores.breakGlass.get(id);
}

/** Tells the owner's reviewer channel, when it has one Slack can reach; false otherwise. */
function tellReviewerChannel(ctx: AppContext, ownerId: string, notice: Notice, now: Date): void {
  const channel = ctx.stores.owners.get(ownerId)?.reviewer_message_channel_id ?? null;
  if (channel !== null) tellChannel(ctx, channel, notice, now);
}

/** Someone broke glass: every user of the item's owner and every admin (but the person), and the owner's reviewer channel. */
export function breakGlassUsed(ctx: AppContext, id: string, now: Date): void {
  const row = load(ctx, id);
  if (!row) return;
  const base = { type: 'BREAK_GLASS_USED' as const, requestId: row.request_id, key: `break-glass:${id}`, data: { break_glass_id: id } };
  const owners = new Set(ownerUserIds(ctx, row.admin_owner_id));
  for (const userId of owners) {
    if (userId === row.user_id) continue;
    tellUser(ctx, userId, { ...base, reason: `you are a user of the owner of "${row.item_name}", and you review its break-glasses` }, now);
  }
  for (const userId of ctx.stores.requests.adminUserIds()) {
    if (userId === row.user_id || owners.has(userId)) continue;
    tellUser(ctx, userId, { ...base, reason: 'you are an administrator, and every break-glass is told to the administrators' }, now);
  }
  tellReviewerChannel(ctx, row.admin_owner_id, { ...base, reason: `the reviewer channel of the owner of "${row.item_name}"` }, now);
}

/** Its time is over: the person. */
export function breakGlassEnded(ctx: AppContext, id: string, now: Date): void {
  const row = load(ctx, id);
  if (!row) return;
  tellUser(ctx, row.user_id, {
    type: 'BREAK_GLASS_ENDED', requestId: row.request_id, key: `break-glass-ended:${id}`, data: { break_glass_id: id },
    reason: 'you broke glass and the time you took is over',
  }, now);
}

/**
 * Reviewed: NOT_JUSTIFIED tells every admin (but the reviewer and the person) and the person, whose
 * access it ended if it still lasted; JUSTIFIED tells the person.
 */
export function breakGlassReviewed(ctx: AppContext, id: string, decision: 'JUSTIFIED' | 'NOT_JUSTIFIED', reviewerId: string, now: Date): void {
  const row = load(ctx, id);
  if (!row) return;
  const base = { type: 'BREAK_GLASS_REVIEWED' as const, requestId: row.request_id, key: `break-glass-reviewed:${id}`, data: { break_glass_id: id, decision } };
  tellUser(ctx, row.user_id, { ...base, reason: 'you broke glass, and it was reviewed' }, now);
  if (decision !== 'NOT_JUSTIFIED') return;
  for (const userId of ctx.stores.requests.adminUserIds()) {
    if (userId === row.user_id || userId === reviewerId) continue;
    tellUser(ctx, userId, { ...base, reason: 'you are an administrator, and a break-glass was found not justified' }, now);
  }
}

/** Its review waited: REMINDER to the owner's users (or its reviewer channel), ESCALATION to every admin (but the person). */
export function breakGlassReviewOverdue(ctx: AppContext, id: string, step: 'REMINDER' | 'ESCALATION', now: Date): void {
  const row = load(ctx, id);
  if (!row || row.review_state !== 'OPEN') return;
  const data = { break_glass_id: id };
  if (step === 'REMINDER') {
    const notice = { type: 'BREAK_GLASS_REVIEW_REMINDER' as const, requestId: row.request_id, key: `break-glass-reminder:${id}`, data };
    for (const userId of ownerUserIds(ctx, row.admin_owner_id)) {
      if (userId === row.user_id) continue;
      tellUser(ctx, userId, { ...notice, reason: `you are a user of the owner of "${row.item_name}", and its break-glass still waits for a review` }, now);
    }
    tellReviewerChannel(ctx, row.admin_owner_id, { ...notice, reason: `the break-glass on "${row.item_name}" still waits for its owner's review` }, now);
    return;
  }
  for (const userId of ctx.stores.requests.adminUserIds()) {
    if (userId === row.user_id) continue;
    tellUser(ctx, userId, {
      type: 'BREAK_GLASS_REVIEW_ESCALATED', requestId: row.request_id, key: `break-glass-escalated:${id}`, data,
      reason: 'you are an administrator, and a break-glass waited past its owners\' review time',
    }, now);
  }
}
