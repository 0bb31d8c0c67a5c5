// Valibot schemas for notifications: the admin list's filters and a person's preferences.
import * as v from 'valibot';
import { PageQueryEntries, Uuid } from '../../http/common-schemas.ts';
import { NOTICE_TYPES } from './queue.ts';

export const NOTICE_STATUSES = ['QUEUED', 'SENT', 'FAILED', 'HELD', 'DIGESTED'] as const;
export const PREFERRED_CHANNELS = ['DEFAULT', 'EMAIL', 'SLACK', 'NONE'] as const;

export const ListNotificationsQuery = v.object({
  ...PageQueryEntries,
  user_id: v.optional(v.pipe(Uuid, v.toLowerCase())),
  request_id: v.optional(v.pipe(Uuid, v.toLowerCase())),
  status: v.optional(v.picklist(NOTICE_STATUSES, `must be one of ${NOTICE_STATUSES.join(', ')}`)),
  type: v.optional(v.picklist(NOTICE_TYPES, `must be one of ${NOTICE_TYPES.join(', ')}`)),
});
export type ListNotificationsInput = v.InferOutput<typeof ListNotificationsQuery>;

/** PUT …/notification-preferences: the whole object, as GET answers it (user_id, if sent, is ignored). */
export const NotificationPreferencesBody = v.object({
  channel: v.picklist(PREFERRED_CHANNELS, `must be one of ${PREFERRED_CHANNELS.join(', ')}`),
  daily_digest: v.boolean('must be true or false'),
});
export type NotificationPreferencesInput = v.InferOutput<typeof NotificationPreferencesBody>;
