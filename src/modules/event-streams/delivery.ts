// The delivery job: every event, to every enabled stream, at least once and in order, from each
// stream's durable position. A job of the area (area.ts), scheduled under `serve`; tests call tick themselves.
import type { AppContext } from '../../context.ts';
import { commitPendingWrites } from '../../db/group-commit.ts';
import { FAILING_AFTER, retryDelayMs } from './policy.ts';
import type { StreamRow } from './store.ts';
import { post, webhookRequest, type PostOptions } from './webhook.ts';
import { addressPolicy } from '../../http/outbound.ts';

/** Events read from the outbox at a time. */
export const BATCH_SIZE = 100;
/** At most this many deliveries per stream in one tick, so a tick ends and a long backlog shares the job fairly. */
export const MAX_PER_TICK = 1_000;

/** How every POST to a receiver is made (a delivery, a test): its timeout and the private-address policy. */
export function postOptions(ctx: AppContext): PostOptions {
  return { timeoutMs: ctx.config.eventStreamTimeoutMs, addresses: addressPolicy(ctx.config) };
}

export interface DeliverySummary {
  /** Streams that were due. */
  streams: number;
  delivered: number;
  /** Streams whose attempt failed this tick. */
  failed: number;
}

/**
 * Delivers to one stream, one event at a time in seq order, until it is caught up, an attempt
 * fails, MAX_PER_TICK is reached or `stop` aborts. Each success moves the durable position in its
 * own short write (never across the network); a failure counts and sets the retry time, and the
 * same event is tried again then. Returns how many were delivered and whether an attempt failed.
 */
async function deliverStream(ctx: AppContext, stream: StreamRow, stop: AbortSignal | undefined): Promise<{ delivered: number; failed: boolean }> {
  const { eventStreams } = ctx.stores;
  let position = stream.position;
  let failures = stream.failures;
  let delivered = 0;
  const options = postOptions(ctx);
  while (delivered < MAX_PER_TICK) {
    // Read again per batch: a stream changed meanwhile (URL, secrets) is delivered to as it is now,
    // and one disabled or deleted meanwhile gets nothing more.
    const current = eventStreams.get(stream.id);
    if (!current || current.enabled !== 1 || current.position !== position) break;
    const credentials = eventStreams.credentials(stream.id);
    const batch = ctx.stores.events.after(position, Math.min(BATCH_SIZE, MAX_PER_TICK - delivered));
    if (batch.length === 0) break;
    // Events of an open group-commit batch are streamed only once they are on disk (db/group-commit.ts).
    commitPendingWrites(ctx.db);
    for (const { seq, event } of batch) {
      if (stop?.aborted) return { delivered, failed: false };
      const outcome = await post(webhookRequest(current, credentials, event, ctx.clock.now()), options, stop);
      if (!outcome.ok) {
        if ('stopped' in outcome) return { delivered, failed: false };
        const at = ctx.clock.now();
        failures += 1;
        eventStreams.recordFailure(stream.id, outcome.error, at, new Date(at.getTime() + retryDelayMs(failures, ctx.config.eventStreamMaxRetryDelayMs)));
        if (failures === FAILING_AFTER) {
          ctx.log.error('event stream failing', { event_stream_id: stream.id, failures, error: outcome.error, position });
        }
        return { delivered, failed: true };
      }
      // False when the stream was deleted (or moved by another writer) meanwhile: stop here.
      if (!eventStreams.advance(stream.id, position, seq, ctx.clock.now())) return { delivered: delivered + 1, failed: false };
      if (failures >= FAILING_AFTER) ctx.log.info('event stream recovered', { event_stream_id: stream.id, after_failures: failures });
      failures = 0;
      position = seq;
      delivered += 1;
    }
  }
  return { delivered, failed: false };
}

/**
 * One pass over the streams that are due at `now` (enabled, behind the newest event, back-off over),
 * delivering to each concurrently and to each in order. Resolves when every stream is done for this
 * pass; rejects with the first error of ours (a receiver's failure is recorded, not thrown).
 */
export async function tick(ctx: AppContext, now: Date, stop?: AbortSignal): Promise<DeliverySummary> {
  const streams = ctx.stores.eventStreams.due(now);
  const results = await Promise.allSettled(streams.map((stream) => deliverStream(ctx, stream, stop)));
  const summary: DeliverySummary = { streams: streams.length, delivered: 0, failed: 0 };
  for (const result of results) {
    if (result.status === 'rejected') throw result.reason;
    summary.delivered += result.value.delivered;
    if (result.value.failed) summary.failed += 1;
  }
  return summary;
}
