// Notification use cases that write: a person's preferences, and an administrator's re-send.
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { requireSelfOrAdmin, type ActingAs } from '../../http/policy.ts';
import { enqueue } from '../../outbox/index.ts';
import type { Actor } from '../events/store.ts';
import { NOTIFICATION_KIND } from './queue.ts';
import type { NotificationPreferencesInput } from './schemas.ts';
import type { PreferenceRow } from './store.ts';
import { toApiNotification, toApiPreferences } from './mappers.ts';

/** A user's preferences; 404 naming user_id for an unknown user, 403 for a member asking about someone else. */
export function getPreferences(ctx: AppContext, actor: ActingAs, userId: string) {
  if (!ctx.stores.users.exists(userId)) throw notFound('user', userId, 'user_id');
  requireSelfOrAdmin(actor, userId, 'read notification preferences');
  return toApiPreferences(userId, ctx.stores.notifications.preference(userId));
}

/** Replaces a user's preferences (themselves or an admin) and records NOTIFICATION_PREFERENCES_UPDATED. */
export function setPreferences(ctx: AppContext, actor: Actor & ActingAs, userId: string, input: NotificationPreferencesInput) {
  const { users, notifications, events } = ctx.stores;
  return ctx.db.transaction(() => {
    if (!users.exists(userId)) throw notFound('user', userId, 'user_id');
    requireSelfOrAdmin(actor, userId, 'change notification preferences');
    const row: PreferenceRow = { user_id: userId, channel: input.channel, daily_digest: input.daily_digest ? 1 : 0, updated_at: ctx.clock.now().toISOString() };
    notifications.setPreference(row);
    events.record(actor, 'NOTIFICATION_PREFERENCES_UPDATED', [{
      sub_event_type: 'NOTIFICATION_PREFERENCES_UPDATED', user_id: userId, channel: input.channel, daily_digest: input.daily_digest,
    }]);
    return toApiPreferences(userId, row);
  }).immediate();
}

/** Queues a FAILED notification again (409 for any other status) and records NOTIFICATIONS_RESENT. */
export function resendNotification(ctx: AppContext, actor: Actor, id: string) {
  const { notifications, events } = ctx.stores;
  return ctx.db.transaction(() => {
    const row = notifications.get(id);
    if (!row) throw notFound('notification', id, 'notification_id');
    if (!notifications.requeue(id)) throw new AppError('conflict', `notification ${id} is ${row.status}; only a FAILED one is sent again`, [{ path: 'notification_id', message: `is ${row.status}` }]);
    const recipient = row.user_id !== null ? `user:${row.user_id}` : `channel:${row.message_channel_id}`;
    enqueue(ctx, { kind: NOTIFICATION_KIND, key: `notify:${recipient}`, payload: { id } });
    events.record(actor, 'NOTIFICATIONS_RESENT', [{ sub_event_type: 'NOTIFICATIONS_RESENT', notification_id: id, type: row.type, user_id: row.user_id, error: row.last_error }]);
    return toApiNotification(notifications.get(id)!);
  }).immediate();
}
