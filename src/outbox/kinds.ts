// The outbox's table of kinds: which handler runs the rows of each kind. One line per kind; a row
// whose kind is not listed here waits in the queue untouched (a newer binary may know it).
import type { OutboxHandler } from './index.ts';

export const OUTBOX_HANDLERS: Record<string, OutboxHandler> = {};
