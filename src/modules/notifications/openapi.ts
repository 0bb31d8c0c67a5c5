// The notifications area's routes: who may call each, what its path parameters name, and its entry in the API
// document (format: src/http/route.ts); and Slack's interactivity endpoint outside /v1. All are extensions.
import { defineRoutes } from '../../http/route.ts';
import { defineOperations } from '../../openapi/operations.ts';
import { component } from '../../openapi/schema.ts';
import { NOTICE_TYPES } from './queue.ts';
import { ListNotificationsQuery, NOTICE_STATUSES, NotificationPreferencesBody, PREFERRED_CHANNELS } from './schemas.ts';

const nullableUuid = { type: ['string', 'null'], format: 'uuid' };

export const Notification = component('Notification', {
  description: 'One notice Gatehouse queued: to whom (a user, or an owner\'s reviewer channel), through which channel, why, and what became of it.',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    type: { type: 'string', enum: [...NOTICE_TYPES] },
    user_id: nullableUuid,
    message_channel_id: nullableUuid,
    channel: { type: 'string', enum: ['EMAIL', 'SLACK'] },
    address: { type: 'string', description: 'The email address, or the Slack channel id (a person on Slack is found by their email).' },
    request_id: nullableUuid,
    reason: { type: 'string', description: 'Why this recipient is told.' },
    status: { type: 'string', enum: [...NOTICE_STATUSES] },
    attempts: { type: 'integer' },
    last_error: { type: ['string', 'null'] },
    digest_id: { ...nullableUuid, description: 'The digest that carried it (status DIGESTED).' },
    created_at: { type: 'string', format: 'date-time' },
    sent_at: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['id', 'type', 'user_id', 'message_channel_id', 'channel', 'address', 'request_id', 'reason', 'status', 'attempts', 'last_error', 'digest_id', 'created_at', 'sent_at'],
});

export const PaginatedNotificationsList = component('PaginatedNotificationsList', {
  type: 'object',
  properties: {
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: Notification },
  },
  required: ['results'],
});

export const NotificationPreferences = component('NotificationPreferences', {
  description: 'How a person is told: DEFAULT is email when SMTP is set up, else Slack; NONE tells them nothing. A daily digest holds their notices for one message a day.',
  type: 'object',
  properties: {
    user_id: { type: 'string', format: 'uuid' },
    channel: { type: 'string', enum: [...PREFERRED_CHANNELS] },
    daily_digest: { type: 'boolean' },
  },
  required: ['user_id', 'channel', 'daily_digest'],
});

const SlackAcknowledgement = component('SlackInteractionResult', {
  type: 'object',
  properties: {
    ok: { type: 'boolean' },
    status: { type: 'string', description: 'The request\'s status after the decision.' },
    code: { type: 'string', description: 'Why the decision was refused (an error code).' },
    message: { type: 'string' },
  },
  required: ['ok'],
});

export const notificationRoutes = defineRoutes('notifications', {
  'GET /v1/notifications': {
    role: 'admin-read',
    summary: 'List notifications',
    description: 'Administrators only: what was sent (or is queued, held for a digest, or failed) to whom and why, newest first.',
    extension: true,
    query: ListNotificationsQuery,
    responses: { 200: PaginatedNotificationsList },
  },
  'GET /v1/notifications/{notification_id}': { role: 'admin-read', items: { notification_id: null }, summary: 'Get a notification', description: 'Administrators only.', extension: true, responses: { 200: Notification } },
  'POST /v1/notifications/{notification_id}/resend': {
    role: 'admin', items: { notification_id: null },
    summary: 'Send a failed notification again',
    description: 'Administrators only. Queues a FAILED notification again (409 for any other status); records NOTIFICATIONS_RESENT.',
    extension: true,
    responses: { 200: Notification },
    errors: ['conflict'],
  },
  'GET /v1/users/{user_id}/notification-preferences': {
    role: 'read', items: { user_id: null },
    summary: 'Get a user\'s notification preferences',
    description: 'The user themselves or an administrator.',
    extension: true,
    responses: { 200: NotificationPreferences },
    errors: ['forbidden'],
  },
  'PUT /v1/users/{user_id}/notification-preferences': {
    role: 'member', items: { user_id: null },
    summary: 'Set a user\'s notification preferences',
    description: 'The user themselves or an administrator; records NOTIFICATION_PREFERENCES_UPDATED.',
    extension: true,
    body: NotificationPreferencesBody,
    responses: { 200: NotificationPreferences },
    errors: ['forbidden'],
  },
});

/** Outside /v1 and without a token (Slack signs its requests): served by app.ts, documented here. */
export const slackOperations = defineOperations('notifications', {
  'POST /slack/interactivity': {
    summary: 'Receive a Slack button click',
    description: 'Slack\'s interactivity Request URL. Form body `payload=<block_actions JSON>`, signed by Slack (X-Slack-Signature, X-Slack-Request-Timestamp): unsigned, wrongly signed, stale (over 5 minutes) or replayed requests get 401. Approve and Deny decide as POST /v1/requests/{id}/approve and /deny would for the Gatehouse user with the clicking Slack user\'s email. A refused decision answers 200 with ok false (Slack wants 200) and tells the user why.',
    extension: true,
    public: true,
    responses: { 200: SlackAcknowledgement },
    errors: ['validation_failed', 'unauthenticated', 'payload_too_large', 'unavailable'],
  },
});
