// How delivery retries and when a stream counts as failing: pure rules, read by delivery and by GET.

/** After this many failed attempts in a row a stream is reported FAILING (it keeps being retried). */
export const FAILING_AFTER = 5;

/** The first retry waits this long; each further one twice the last, up to the configured cap. */
export const FIRST_RETRY_DELAY_MS = 1_000;

/** How long to wait after the `failures`-th failure in a row (1 → 1 s, 2 → 2 s, 3 → 4 s, …), capped at `maxMs`. */
export function retryDelayMs(failures: number, maxMs: number): number {
  // 2^30 s is far past any cap; stopping the exponent there keeps the number finite.
  return Math.min(FIRST_RETRY_DELAY_MS * 2 ** Math.min(Math.max(failures - 1, 0), 30), maxMs);
}

export type DeliveryStatus = 'HEALTHY' | 'RETRYING' | 'FAILING' | 'DISABLED';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['HEALTHY', 'RETRYING', 'FAILING', 'DISABLED'];

export function deliveryStatus(enabled: boolean, failures: number): DeliveryStatus {
  if (!enabled) return 'DISABLED';
  if (failures === 0) return 'HEALTHY';
  return failures >= FAILING_AFTER ? 'FAILING' : 'RETRYING';
}
