// Bearer-token authentication for everything under /v1 (what each caller may then call: policy.ts).
import type { Middleware } from 'polka';
import type { AppContext } from '../context.ts';
import { AppError } from './errors.ts';
import { createFailureThrottle } from './throttle.ts';
import type { Caller, GatehouseRequest } from './types.ts';
import { isOffboarded } from '../lib/offboarding.ts';

const BEARER = /^Bearer +([\x21-\x7e]{1,512}) *$/i;
/** last_used_at is written at most this often per token, so reads stay reads. */
const LAST_USED_GRANULARITY_MS = 60_000;

function unauthenticated(message: string): AppError {
  return new AppError('unauthenticated', message, [], { 'WWW-Authenticate': 'Bearer' });
}

/** The caller of a request without a bearer token, from another credential (the console's session cookie), or undefined. */
export type CookieCaller = (ctx: AppContext, req: GatehouseRequest) => Caller | undefined;

/** The paths that need a token: /v1 and everything under it, in any case. */
const API_PATH = /^\/v1(\/|$)/i;

/**
 * Resolves the caller from `Authorization: Bearer <token>` (or, without one, through `fromCookie`: the
 * console's sign-in session, web-sessions/cookie.ts, which app.ts hands in) and attaches it to the request.
 * Throws unauthenticated for a missing, malformed, unknown, expired or revoked token, and for the
 * token of an offboarded user (SUSPENDED, DEPROVISIONED or DELETED). A client address that presented
 * too many bad tokens (config.authFailureLimit per authFailureWindowMs) gets too_many_requests for a bad
 * or missing one; a valid token is still served within the throttle's bound (throttle.ts).
 * What the caller may then do (READ_ONLY, organization roles) is enforcePolicy's (policy.ts).
 */
export function authenticate(ctx: AppContext, fromCookie: CookieCaller): Middleware<GatehouseRequest> {
  const { tokens } = ctx.stores;
  const throttle = createFailureThrottle(ctx.config.authFailureLimit, ctx.config.authFailureWindowMs);
  const tooMany = (wait: number) => new AppError('too_many_requests', `too many failed authentications from this address; retry in ${wait} s`, [], {
    'Retry-After': String(wait),
  });
  // Only a token that was presented and is wrong counts: a missing header is a mistake, not a guess. From
  // a blocked address the answer is 429, whatever the token (throttle.ts says when a valid one is served).
  const rejected = (address: string, nowMs: number, message: string): AppError => {
    const wait = throttle.retryAfter(address, nowMs);
    if (throttle.fail(address, nowMs)) {
      ctx.log.info('authentication throttled', { ip: address, failures: ctx.config.authFailureLimit });
    }
    return wait > 0 ? tooMany(wait) : unauthenticated(message);
  };
  return (req, _res, next) => {
    // Case-insensitive, as the router matches paths: /V1/events reaches the same handler.
    if (!API_PATH.test(req.path)) return next();

    const now = ctx.clock.now();
    const address = req.clientIp;
    const header = req.headers.authorization;
    if (!header) {
      // The console calls the same routes with its sign-in session cookie instead (docs/console.md); a
      // session is not a token guessed here, so the throttle neither counts nor blocks it.
      const person = fromCookie(ctx, req);
      if (person) {
        req.caller = person;
        return next();
      }
      const wait = throttle.retryAfter(address, now.getTime());
      if (wait > 0) throw tooMany(wait);
      throw unauthenticated('an Authorization: Bearer <token> header is required');
    }
    const secret = BEARER.exec(header)?.[1];
    if (!secret) throw rejected(address, now.getTime(), 'the Authorization header must be "Bearer <token>"');

    const holder = tokens.findBySecret(secret);
    if (!holder || (holder.expiresAt !== null && holder.expiresAt <= now.toISOString())) {
      throw rejected(address, now.getTime(), 'the token is not valid: unknown, revoked or expired');
    }
    // A valid token from an address whose bad tokens are throttled is served, within throttle.ts's bound.
    if (!throttle.admit(address, now.getTime(), holder.tokenId)) throw tooMany(throttle.retryAfter(address, now.getTime()));
    // A SCIM token is the identity provider's, for /scim/v2 alone (docs/scim.md); a real token, so not throttled.
    if (holder.scope !== 'API') throw unauthenticated('this is a SCIM token: it works only on /scim/v2, not on /v1');
    // Offboarding ends a user's access, their API access included; a real token is not a guess, so not throttled.
    if (isOffboarded(holder.userStatus)) {
      throw unauthenticated(`the token's user is ${holder.userStatus}: an offboarded user's tokens do not work`);
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
