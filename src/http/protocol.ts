// A route group's protocol: how its callers authenticate, what runs in front of each of its routes, its
// media type and its error body (/v1, SCIM, the console, Slack, the service's own pages). Every route of
// every protocol is declared once (defineRoutes, route.ts) and served by the one router (router.ts); a
// protocol says only what differs, and answers every failure under its prefix, a path no route serves too.
import type * as v from 'valibot';
import type { Middleware } from 'polka';
import type { ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import type { ResponseSchema } from '../openapi/responses.ts';
import type { CookieCaller } from './auth.ts';
import type { AppError } from './errors.ts';
import type { RouteDeclaration } from './route.ts';
import type { GatehouseRequest } from './types.ts';

/** What the app lends every protocol's server: the capabilities of areas the core does not import. */
export interface Lent {
  /** The caller of a request without a bearer token, from the console's session cookie (web-sessions/cookie.ts). */
  fromCookie: CookieCaller;
  /** The visibility guard of a route whose path names an item (visibility/guard.ts), or undefined when it names none. */
  itemGuard(ctx: AppContext, route: RouteDeclaration): Middleware<GatehouseRequest> | undefined;
}

/** What serves one protocol's routes in one app, built once per app from its context. */
export interface ProtocolServer {
  /**
   * Runs for every request under the protocol's prefix before its route is matched, so a request to a
   * path no route serves is authenticated first (/v1: no token → 401, never a 404 telling what exists).
   */
  first?: Middleware<GatehouseRequest>;
  /** What runs in front of one route's handler, built from its declaration (authentication, policy, limits). */
  checks(key: string, route: RouteDeclaration): Middleware<GatehouseRequest>[];
  /** The JSON body as the route's schema is to parse it (SCIM: attribute names in any case, RFC 7643 §2.1). */
  bodyInput?(raw: unknown, schema: v.GenericSchema): unknown;
  /** Answers a failure its own way and says true (the console's not-found page), or says false for the error body. */
  answer?(req: GatehouseRequest, res: ServerResponse, error: AppError): boolean;
}

/** A protocol, as a route group declares it (defineRoutes' third argument; /v1's by default). */
export interface Protocol {
  /** A word for it: `v1`, `scim`, `console`, `slack`, `service`. */
  name: string;
  /** The paths it owns (`/scim/v2`), matched ignoring case: a failure under it, outside any route too, answers its error body. */
  prefix: string;
  /** The media type of its JSON answers, failures included (`application/json`, `application/scim+json`). */
  mediaType: string;
  /** The schema of its failures in the API document (src/openapi/document.ts); the one `Error` shape when absent. */
  errorSchema?: ResponseSchema;
  /**
   * The security scheme its callers authenticate with in the API document (components.securitySchemes):
   * `bearerAuth` (an API token, each route's role enforced), `scimBearer`; null when its routes need none
   * the document can name (the console's cookie and Slack's signature are checked by the route).
   */
  securityScheme: string | null;
  /** Whether its routes declare a role (route.ts ROLES) that the policy enforces and the document shows. */
  roles: boolean;
  /** Its error body for `error` (pure: the server also writes it where no request could be read, a 431). */
  errorBody(error: AppError, requestId: string): unknown;
  /** Builds what serves its routes in one app. */
  serve(ctx: AppContext, lent: Lent): ProtocolServer;
}

/** Gatehouse's one error shape (the `Error` component), as /v1 and every protocol without its own answers. */
export const errorShape = (error: AppError, requestId: string) => ({ code: error.code, message: error.message, details: error.details, request_id: requestId });

/**
 * The protocol owning `path`: the one with the longest prefix it starts with (ignoring case), else
 * `fallback`. A prefix owns itself and what is below it: /scim/v2 owns /scim/v2/Users, not /scim/v20.
 */
export function protocolOf(protocols: readonly Protocol[], path: string, fallback: Protocol): Protocol {
  const lower = path.toLowerCase();
  let best: Protocol | undefined;
  for (const protocol of protocols) {
    const prefix = protocol.prefix.toLowerCase();
    // `prefix/…` without making that string on every request.
    const owns = prefix === '/' || lower === prefix || (lower.startsWith(prefix) && lower.charCodeAt(prefix.length) === 47);
    if (owns && (best === undefined || prefix.length > best.prefix.length)) best = protocol;
  }
  return best ?? fallback;
}
