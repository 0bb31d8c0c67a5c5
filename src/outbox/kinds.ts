// The outbox's table of kinds: which handler runs the rows of each kind. One line per kind; a row
// whose kind is not listed here waits in the queue untouched (a newer binary may know it).
// A function, not a constant: handlers' modules import the outbox themselves (enqueue), so the table
// is built on first use, after every module has loaded.
import { connectorPush, PUSH_KIND } from '../modules/connectors/propagation.ts';
import type { OutboxHandler } from './index.ts';
import { notificationHandler } from '../modules/notifications/deliver.ts';

let table: Record<string, OutboxHandler> | undefined;

export function outboxHandlers(): Record<string, OutboxHandler> {
  table ??= {
    // Pushes an access edge to the app's connector (src/modules/connectors/).
    [PUSH_KIND]: connectorPush,
    // Emails and Slack messages (docs/notifications.md).
    notification: notificationHandler,
  };
  return table;
}
