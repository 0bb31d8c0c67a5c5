// The notifications area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { NOTICE_TYPES } from './queue.ts';
import { NOTICE_STATUSES, PREFERRED_CHANNELS } from './schemas.ts';
import { component, uuid, dateTime, integer, described, paginated } from '../../openapi/responses.ts';

export const Notification = component('Notification', described(v.object({
  id: uuid,
  type: v.picklist(NOTICE_TYPES),
  user_id: v.nullable(uuid),
  message_channel_id: v.nullable(uuid),
  channel: v.picklist(['EMAIL', 'SLACK']),
  address: described(v.string(), 'The email address, or the Slack channel id (a person on Slack is found by their email).'),
  request_id: v.nullable(uuid),
  reason: described(v.string(), 'Why this recipient is told.'),
  status: v.picklist(NOTICE_STATUSES),
  attempts: integer,
  last_error: v.nullable(v.string()),
  digest_id: v.nullable(described(uuid, 'The digest that carried it (status DIGESTED).')),
  created_at: dateTime,
  sent_at: v.nullable(dateTime),
}), "One notice Gatehouse queued: to whom (a user, or an owner's reviewer channel), through which channel, why, and what became of it."));
export type Notification = v.InferOutput<typeof Notification>;

export const PaginatedNotificationsList = paginated('PaginatedNotificationsList', Notification);

export const NotificationPreferences = component('NotificationPreferences', described(v.object({
  user_id: uuid,
  channel: v.picklist(PREFERRED_CHANNELS),
  daily_digest: v.boolean(),
}), 'How a person is told: DEFAULT is email when SMTP is set up, else Slack; NONE tells them nothing. A daily digest holds their notices for one message a day.'));
export type NotificationPreferences = v.InferOutput<typeof NotificationPreferences>;

export const SlackAcknowledgement = component('SlackInteractionResult', v.object({
  ok: v.boolean(),
  status: v.optional(described(v.string(), "The request's status after the decision.")),
  code: v.optional(described(v.string(), 'Why the decision was refused (an error code).')),
  message: v.optional(v.string()),
}));
export type SlackAcknowledgement = v.InferOutput<typeof SlackAcknowledgement>;
