// Bearer-token authentication for everything under /v1, and the READ_ONLY rule.
import type { Middleware } from 'polka';
import type { AppContext } from '../context.ts';
import { AppError } from './errors.ts';
import { createFailureThrottle } from './throttle.ts';
import type { GatehouseRequest } from './types.ts';

const BEARER = /^Bearer +([\x21-\x7e]{1,512}) *$/i;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** POSTs that only read (their query is too large for a query string), so READ_ONLY tokens may send them. */
const READING_POSTS = new Set(['/v1/queries/run']);
/** last_used_at is written at most this often per token, so reads stay reads. */
const LAST_USED_GRANULARITY_MS = 60_000;

function unauthenticated(message: string): AppError {
  return new AppError('unauthenticated', message, [], { 'WWW-Authenticate': 'Bearer' });
}

/**
 * Resolves the caller from `Authorization: Bearer <token>` and attaches it to the request.
 * Throws unauthenticated for a missing, malformed, unknown, expired or revoked token, and
 * forbidden when a READ_ONLY token tries anything but a read. A client address that presented
 * too many bad tokens (config.authFailureLimit per authFailureWindowMs) gets too_many_requests.
 */
export function authenticate(ctx: AppContext): Middleware<GatehouseRequest> {
  const { tokens } = ctx.stores;
  const throttle = createFailureThrottle(ctx.config.authFailureLimit, ctx.config.authFailureWindowMs);
  // Only a token that was presented and is wrong counts: a missing header is a mistake, not a guess.
  const rejected = (address: string, nowMs: number, message: string): AppError => {
    if (throttle.fail(address, nowMs)) {
      ctx.log.info('authentication throttled', { ip: address, failures: ctx.config.authFailureLimit });
    }
    return unauthenticated(message);
  };
  return (req, _res, next) => {
    if (!req.path.startsWith('/v1/') && req.path !== '/v1') return next();

    const now = ctx.clock.now();
    const address = req.clientIp;
    const wait = throttle.retryAfter(address, now.getTime());
    if (wait > 0) {
      throw new AppError('too_many_requests', `too many failed authentications from this address; retry in ${wait} s`, [], {
        'Retry-After': String(wait),
      });
    }

    const header = req.headers.authorization;
    if (!header) throw unauthenticated('an Authorization: Bearer <token> header is required');
    const secret = BEARER.exec(header)?.[1];
    if (!secret) throw rejected(address, now.getTime(), 'the Authorization header must be "Bearer <token>"');

    const holder = tokens.findBySecret(secret);
    if (!holder || (holder.expiresAt !== null && holder.expiresAt <= now.toISOString())) {
      throw rejected(address, now.getTime(), 'the token is not valid: unknown, revoked or expired');
    }
    if (holder.accessLevel === 'READ_ONLY' && !READ_METHODS.has(req.method) && !(req.method === 'POST' && READING_POSTS.has(req.path))) {
      throw new AppError('forbidden', 'this token is READ_ONLY: it may only read');
    }
    if (holder.lastUsedAt === null || now.getTime() - Date.parse(holder.lastUsedAt) >= LAST_USED_GRANULARITY_MS) {
      tokens.markUsed(holder.tokenId, now);
    }
    req.caller = {
      userId: holder.userId,
      name: holder.name,
      email: holder.email,
      tokenId: holder.tokenId,
      tokenLabel: holder.label,
      tokenPreview: holder.preview,
      accessLevel: holder.accessLevel,
      role: holder.role,
      ip: req.clientIp,
    };
    return next();
  };
}
