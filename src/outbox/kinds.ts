// The outbox's table of kinds: which handler runs the rows of each kind. One line per kind; a row
// whose kind is not listed here waits in the queue untouched (a newer binary may know it).
import type { OutboxHandler } from './index.ts';
import { notificationHandler } from '../modules/notifications/deliver.ts';

export const OUTBOX_HANDLERS: Record<string, OutboxHandler> = {
  // Emails and Slack messages (docs/notifications.md).
  notification: notificationHandler,
};
