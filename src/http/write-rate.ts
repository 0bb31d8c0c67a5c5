// Writes per user, in memory: a fixed window per user that opens at their first write. Past
// `limit` writes inside it, writes get 429 with Retry-After until it ends; reads are never limited here
// (heavy reads have their own per-caller bound, src/reads/pool.ts). Lost on restart, like the auth throttle.
import type { Middleware } from 'polka';
import type { AppContext } from '../context.ts';
import { AppError } from './errors.ts';
import type { GatehouseRequest } from './types.ts';

/** Methods that read; everything else counts as a write. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** POSTs that only read: a query, and SCIM's searches (RFC 7644 §3.4.3). */
const READ_POSTS = /^(\/v1\/queries\/run|\/scim\/v2\/(users|groups)\/\.search)\/?$/i;

/**
 * Counts each authenticated caller's writes (config.writeRateLimit, or `budget.limit`, per config.writeRateWindowMs, by
 * user: several tokens of one user share the count) and throws too_many_requests with Retry-After past
 * the limit. A limit of 0 turns it off. Runs in front of each route after its policy and visibility
 * guard (src/app.ts), before the body is read: only writes those let through are counted.
 */
export function limitWrites(ctx: AppContext, budget: { limit?: number } = {}): Middleware<GatehouseRequest> & { tracked(): number } {
  const { writeRateWindowMs: windowMs } = ctx.config;
  // A door with a budget of its own (SCIM's GATEHOUSE_SCIM_WRITE_RATE_LIMIT) counts in its own windows.
  const limit = budget.limit ?? ctx.config.writeRateLimit;
  const windows = new Map<string, { startedMs: number; writes: number }>();
  // A window is (re)inserted when it opens, so the Map holds them oldest first: ended ones are dropped
  // from the front as new ones open, and the Map holds only the users who wrote within the last window
  // (not every user who ever wrote, for as long as the process runs).
  const dropEnded = (nowMs: number) => {
    for (const [userId, w] of windows) {
      if (nowMs - w.startedMs < windowMs) break;
      windows.delete(userId);
    }
  };
  const middleware: Middleware<GatehouseRequest> = (req, _res, next) => {
    if (limit === 0 || !req.caller || READS.has(req.method) || READ_POSTS.test(req.path)) return next();
    const nowMs = ctx.clock.now().getTime();
    let w = windows.get(req.caller.userId);
    if (!w || nowMs - w.startedMs >= windowMs) {
      // Windows only grow with authenticated users, so no address flood can fill this map.
      windows.delete(req.caller.userId);
      dropEnded(nowMs);
      w = { startedMs: nowMs, writes: 0 };
      windows.set(req.caller.userId, w);
    }
    if (w.writes >= limit) {
      const wait = Math.max(1, Math.ceil((w.startedMs + windowMs - nowMs) / 1000));
      throw new AppError('too_many_requests', `at most ${limit} writes per ${windowMs / 1000} s per user; retry in ${wait} s`, [], {
        'Retry-After': String(wait),
      });
    }
    w.writes += 1;
    next();
  };
  /** Users with a window open (for the test that it stays bounded). */
  return Object.assign(middleware, { tracked: () => windows.size });
}
