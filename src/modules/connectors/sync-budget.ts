// How much one sync may read from a connector: items, bytes and time in all, items per page and bytes
// per answer (GATEHOUSE_CONNECTOR_SYNC_MAX_* and _PAGE_MAX_ITEMS, _MAX_RESPONSE_BYTES). The first bound
// passed stops the reading where it is, and the sync answers which one it was. Pure but for the clock.
import type { AppContext } from '../../context.ts';

/** Which bound stopped a sync (the sync answer's `stopped_at`). */
export const STOP_REASONS = ['max_items', 'max_bytes', 'max_ms', 'page_items', 'response_bytes'] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/** What each stop reason means for people, naming the setting to raise. */
const EXPLAINED: Record<StopReason, (limit: number) => string> = {
  max_items: (n) => `read ${n} items, the most one sync reads (GATEHOUSE_CONNECTOR_SYNC_MAX_ITEMS)`,
  max_bytes: (n) => `read ${n} bytes, the most one sync reads (GATEHOUSE_CONNECTOR_SYNC_MAX_BYTES)`,
  max_ms: (n) => `ran ${n} ms, the longest one sync reads (GATEHOUSE_CONNECTOR_SYNC_MAX_MS)`,
  page_items: (n) => `the connector answered a page of more than ${n} items (GATEHOUSE_CONNECTOR_PAGE_MAX_ITEMS)`,
  response_bytes: (n) => `the connector answered more than ${n} bytes at once (GATEHOUSE_CONNECTOR_MAX_RESPONSE_BYTES)`,
};

export class SyncBudget {
  items = 0;
  bytes = 0;
  stoppedAt: StopReason | null = null;
  readonly pageItems: number;
  readonly responseBytes: number;
  readonly #maxItems: number;
  readonly #maxBytes: number;
  readonly #maxMs: number;
  readonly #started: number;
  readonly #now: () => number;

  constructor(ctx: AppContext) {
    const c = ctx.config;
    this.#maxItems = c.connectorSyncMaxItems;
    this.#maxBytes = c.connectorSyncMaxBytes;
    this.#maxMs = c.connectorSyncMaxMs;
    this.pageItems = c.connectorPageMaxItems;
    this.responseBytes = c.connectorMaxResponseBytes;
    // The injected clock, so a test moves time past the bound instead of waiting for it.
    this.#now = () => ctx.clock.now().getTime();
    this.#started = this.#now();
  }

  /** Stops the reading for `reason` (the first reason given stands). */
  stop(reason: StopReason): void {
    this.stoppedAt ??= reason;
  }

  /** Whether reading may go on: nothing stopped it and its time is not up. Call before each call to the connector. */
  mayRead(): boolean {
    if (this.stoppedAt === null && this.#now() - this.#started >= this.#maxMs) this.stop('max_ms');
    return this.stoppedAt === null;
  }

  /**
   * Counts an answer of `bytes` holding `count` items; returns how many of them the sync may use (all,
   * some, or none once a bound is passed, which then stops the reading).
   */
  take(count: number, bytes: number): number {
    return this.#take(count, bytes, true);
  }

  /** Counts rows read some other way than pages (a PostgreSQL query's); returns how many may be used. */
  takeRows(count: number): number {
    return this.#take(count, 0, false);
  }

  /** How many more items a sync may read (a query asks for one more, to learn whether it passes the bound). */
  get itemsLeft(): number {
    return this.#maxItems - this.items;
  }

  #take(count: number, bytes: number, page: boolean): number {
    if (page && count > this.pageItems) {
      this.stop('page_items');
      return 0;
    }
    this.bytes += bytes;
    if (this.bytes > this.#maxBytes) {
      this.stop('max_bytes');
      return 0;
    }
    const room = this.#maxItems - this.items;
    const used = Math.min(count, room);
    this.items += used;
    if (count > room) this.stop('max_items');
    return used;
  }

  /** Why the sync stopped, in words naming the setting, or null when it read everything. */
  explain(): string | null {
    if (this.stoppedAt === null) return null;
    const limit = { max_items: this.#maxItems, max_bytes: this.#maxBytes, max_ms: this.#maxMs, page_items: this.pageItems, response_bytes: this.responseBytes }[this.stoppedAt];
    return `stopped before the end: ${EXPLAINED[this.stoppedAt](limit)}`;
  }
}
