// The notifications area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { NotificationRow, PreferenceRow } from './store.ts';
import type { Notification, NotificationPreferences } from './responses.ts';

/** The NotificationPreferences object. */
export function toApiPreferences(userId: string, row: PreferenceRow | undefined): NotificationPreferences {
  return { user_id: userId, channel: row?.channel ?? 'DEFAULT', daily_digest: row?.daily_digest === 1 };
}

/** The Notification object of the admin read (docs/notifications.md). */
export function toApiNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    type: row.type,
    user_id: row.user_id,
    message_channel_id: row.message_channel_id,
    channel: row.channel,
    address: row.address,
    request_id: row.request_id,
    reason: row.reason,
    status: row.status,
    attempts: row.attempts,
    last_error: row.last_error,
    digest_id: row.digest_id,
    created_at: row.created_at,
    sent_at: row.sent_at,
  };
}
