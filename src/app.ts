// The table of contents of the API: the areas (AREAS), and one Polka instance serving them: global
// middleware, then each area's routes in order, whatever their protocol (/v1, SCIM, the console, Slack:
// src/http/protocol.ts), each behind what its protocol puts in front of it.
import { randomUUID } from 'node:crypto';
import polka, { type Polka } from 'polka';
import type { AppContext } from './context.ts';
import { authorize } from './http/policy.ts';
import { checkAreas, type Area } from './area.ts';
import { AREAS } from './areas.ts';
import { AREA_ROUTES } from './routes.ts';
import { hideUnseenItems } from './modules/visibility/guard.ts';
import { clientAddressOf } from './http/client-address.ts';
import { AppError, toAppError } from './http/errors.ts';
import { protocolOf, type Lent, type Protocol, type ProtocolServer } from './http/protocol.ts';
import { ApiRouter, RouteTable, sendJson } from './http/router.ts';
import { indexRoutes } from './http/route-index.ts';
import { dispatchWithoutPromises } from './http/dispatch.ts';
import type { GatehouseRequest } from './http/types.ts';
import { SERVICE, V1 } from './http/v1.ts';
import type { OperationGroup } from './openapi/operations.ts';
import { serviceArea as serviceAreaOf, serviceRoutes } from './openapi/routes.ts';
import { consoleCaller } from './modules/web-sessions/cookie.ts';


export { AREAS };

/** An area with its HTTP side (src/routes.ts), unless it brings its own (a test's). */
const withRoutes = (area: Area): Area => (area.routes ? area : { ...area, ...AREA_ROUTES[area.name] });

/** Every area with its routes and handlers: what createApp serves. */
export const SERVED_AREAS: readonly Area[] = AREAS.map(withRoutes);

/** What GET /openapi.json documents: every area's routes, then the service's own. */
export const API_OPERATIONS: readonly OperationGroup[] = [...SERVED_AREAS.flatMap((area) => (area.routes ? [area.routes] : [])), serviceRoutes];

/** The health check and the API document's routes, serving API_OPERATIONS. */
const serviceArea = serviceAreaOf(API_OPERATIONS);

/** Every protocol the areas' routes use, and the service's own (a path no protocol owns is the service's). */
const protocolsOf = (areas: readonly Area[]): Protocol[] =>
  [...new Set([V1, SERVICE, ...areas.flatMap((area) => [area.routes?.protocol, ...Object.values(area.routes?.operations ?? {}).map((route) => route?.protocol)])])]
    .filter((protocol): protocol is Protocol => protocol !== undefined);

const PROTOCOLS = protocolsOf(SERVED_AREAS);

/**
 * The protocol owning `path` among every area's (SCIM's for /scim/v2/…; the service's where none does):
 * for answers the server writes before a request reaches the app (431, a request over capacity).
 */
export const protocolFor = (path: string): Protocol => protocolOf(PROTOCOLS, path, SERVICE);

/** Something thrown, as text, even when it has no usable toString (Object.create(null)). */
function describe(thrown: unknown): string {
  try {
    return String(thrown);
  } catch {
    return Object.prototype.toString.call(thrown);
  }
}

/** Whether `thrown` is Node telling us the client closed the connection mid-request (a slow upload cut off). */
function isClientAbort(thrown: unknown): boolean {
  const code = (thrown as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'ECONNABORTED' || (thrown instanceof Error && thrown.message === 'aborted');
}

/**
 * The app serving `areas`. `routes` is filled with every route registered; tests pass their own to read
 * it. Throws, before serving anything, for an area that declares a route badly (no role, a path
 * parameter not said to name an item or not), a handler for an undeclared route, or a declared route
 * without one.
 */
export function createApp(ctx: AppContext, routes = new RouteTable(), declared: readonly Area[] = AREAS): Polka<GatehouseRequest> {
  const areas = declared.map(withRoutes);
  checkAreas([serviceArea, ...areas], ctx);
  const protocols = protocolsOf(areas);
  // What the core cannot import, lent to the protocols that need it (/v1's cookie sign-in and visibility guard).
  const lent: Lent = { fromCookie: consoleCaller, itemGuard: hideUnseenItems };
  const servers = new Map<Protocol, ProtocolServer>();
  const serverOf = (protocol: Protocol): ProtocolServer => {
    let server = servers.get(protocol);
    if (!server) servers.set(protocol, (server = protocol.serve(ctx, lent)));
    return server;
  };
  const app: Polka<GatehouseRequest> = polka<GatehouseRequest>({
    onError(err, req, res) {
      // Set by the first middleware; a request that skipped it still gets an id to quote.
      req.requestId ??= randomUUID();
      try {
        const known = toAppError(err);
        if (!known && isClientAbort(err)) {
          // The client went away mid-request: nobody to answer, and nothing wrong with the service.
          ctx.log.info('client aborted', { request_id: req.requestId, method: req.method, path: req.path });
          res.destroy();
          return;
        }
        if (!known) {
          // Internal details go to the log under the request id, never to the client.
          ctx.log.error('unhandled error', {
            request_id: req.requestId,
            error: err instanceof Error ? (err.stack ?? err.message) : describe(err),
          });
        }
        const error = known ?? new AppError('internal', 'an unexpected error occurred; quote the request id when reporting it');
        if (res.headersSent) {
          res.destroy();
          return;
        }
        // The route's protocol answers, or, outside every route, the protocol owning the path (SCIM's under /scim/v2).
        const protocol = req.protocol ?? protocolOf(protocols, req.path ?? '/', SERVICE);
        if (serverOf(protocol).answer?.(req, res, error)) return;
        sendJson(res, error.status, protocol.errorBody(error, req.requestId), { ...error.headers, 'X-Request-Id': req.requestId }, protocol.mediaType);
      } catch (failure) {
        // Polka calls this from a promise's catch: a throw here would be an unhandled rejection, which
        // ends the process. Whatever went wrong answering, drop this connection and keep serving.
        ctx.log.error('could not send an error answer', { request_id: req.requestId, error: failure instanceof Error ? failure.message : describe(failure) });
        res.destroy();
      }
    },
    onNoMatch(req) {
      // No route: only the READ_ONLY rule applies, by method (a READ_ONLY token learns nothing of which writes exist).
      if (req.caller) authorize(req.caller, req.method);
      const allowed = routes.methodsFor(req.path);
      if (allowed.length > 0) {
        throw new AppError('method_not_allowed', `${req.method} is not allowed on ${req.path}; use ${allowed.join(', ')}`, [], {
          Allow: allowed.join(', '),
        });
      }
      throw new AppError('not_found', `no route for ${req.method} ${req.path}`);
    },
  });

  const clientAddress = clientAddressOf(ctx.config.trustedProxies);
  app.use((req, res, next) => {
    req.requestId = randomUUID();
    req.clientIp = clientAddress(req);
    req.startedAt = process.hrtime.bigint();
    res.setHeader('X-Request-Id', req.requestId);
    res.on('finish', () => {
      ctx.log.request(
        req.method,
        // A request refused before its route (401, 429) is logged under the route it was headed for.
        req.routeTemplate ?? routes.templateFor(req.method, req.path) ?? '(no route)',
        res.statusCode,
        Number(process.hrtime.bigint() - req.startedAt) / 1e6,
        req.requestId,
        req.clientIp,
        req.caller?.tokenLabel ?? null,
      );
    });
    next();
  });

  // What a protocol runs on every request under its prefix, before its route is matched (/v1's authentication).
  for (const protocol of protocols) {
    const first = serverOf(protocol).first;
    if (!first) continue;
    app.use((req, res, next) => (protocolOf(protocols, req.path, SERVICE) === protocol ? first(req, res, next) : next()));
  }

  // Every route of every area, and the service's own, through the one router.
  for (const area of [serviceArea, ...areas]) {
    const router = new ApiRouter(app, ctx, routes, area, serverOf);
    area.handlers?.(router, ctx);
    router.finish();
  }

  // Polka's search tests every route in turn; the index tests only those the path's first segments allow.
  indexRoutes(app);
  // And its chain of middleware walked without two promises per step (src/http/dispatch.ts).
  dispatchWithoutPromises(app);
  return app;
}
