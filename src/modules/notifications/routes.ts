// The notifications area's routes: who may call each, what its path parameters name, and its entry in the API
// document (format: src/http/route.ts); and Slack's interactivity endpoint, of Slack's protocol. All are extensions.
import { defineRoutes } from '../../http/route.ts';
import { SLACK } from './slack-protocol.ts';
import { ListNotificationsQuery, NotificationPreferencesBody } from './schemas.ts';
import { Notification, PaginatedNotificationsList, NotificationPreferences, SlackAcknowledgement } from './responses.ts';


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
  // Outside /v1 and without a token: Slack signs its requests (slack-protocol.ts).
  'POST /slack/interactivity': {
    protocol: SLACK,
    summary: 'Receive a Slack button click',
    description: 'Slack\'s interactivity Request URL. Form body `payload=<block_actions JSON>`, signed by Slack (X-Slack-Signature, X-Slack-Request-Timestamp): unsigned, wrongly signed, stale (over 5 minutes) or replayed requests get 401. Approve and Deny decide as POST /v1/requests/{id}/approve and /deny would for the Gatehouse user with the clicking Slack user\'s email. A refused decision answers 200 with ok false (Slack wants 200) and tells the user why.',
    extension: true,
    public: true,
    responses: { 200: SlackAcknowledgement },
    errors: ['validation_failed', 'unauthenticated', 'payload_too_large', 'unavailable'],
  },
});
