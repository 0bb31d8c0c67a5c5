// The /v1 protocol: a bearer API token (or the console's session cookie) checked before any /v1 route is
// matched, each route's role and visibility guard in front of it, the per-user write limit, and the one
// JSON error shape (docs/contributing.md, "Declaring a route").
import { authenticate } from './auth.ts';
import { errorShape, type Protocol } from './protocol.ts';
import { enforcePolicy } from './policy.ts';
import { limitWrites } from './write-rate.ts';

export const V1: Protocol = {
  name: 'v1',
  prefix: '/v1',
  mediaType: 'application/json',
  securityScheme: 'bearerAuth',
  roles: true,
  errorBody: errorShape,
  serve(ctx, lent) {
    // Writes per user are limited (429 + Retry-After), so one client cannot grow the database at will.
    const writeLimit = limitWrites(ctx);
    return {
      // A bearer token, or else the console's sign-in session cookie (docs/console.md).
      first: authenticate(ctx, lent.fromCookie),
      // Who may call it, decided before its body is read; then an item the caller may not see answers
      // every route under it as a missing one (docs/visibility.md); then the write limit, so a write
      // refused by either (403, 404) uses none of the caller's budget.
      checks(key, route) {
        const guard = lent.itemGuard(ctx, route);
        return guard ? [enforcePolicy(key, route), guard, writeLimit] : [enforcePolicy(key, route), writeLimit];
      },
    };
  },
};

/** The service's own routes outside every protocol's prefix (/healthz, /openapi.json, /docs): no credentials, the one error shape. */
export const SERVICE: Protocol = {
  name: 'service',
  prefix: '/',
  mediaType: 'application/json',
  securityScheme: null,
  roles: false,
  errorBody: errorShape,
  serve: () => ({ checks: () => [] }),
};
