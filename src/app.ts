// The table of contents of the API: the areas (AREAS), and one Polka instance serving them: global
// middleware, then each area's routes in order, each behind its own role policy and visibility guard.
import { randomUUID } from 'node:crypto';
import polka, { type Polka } from 'polka';
import type { AppContext } from './context.ts';
import { authenticate } from './http/auth.ts';
import { authorize, enforcePolicy } from './http/policy.ts';
import { limitWrites } from './http/write-rate.ts';
import { checkAreas, type Area } from './area.ts';
import { hideUnseenItems } from './modules/visibility/guard.ts';
import { clientAddressOf } from './http/client-address.ts';
import { AppError, toAppError } from './http/errors.ts';
import { addPlainRoute, ApiRouter, RouteTable, sendJson, type RouteChecks } from './http/router.ts';
import type { GatehouseRequest } from './http/types.ts';
import type { OperationGroup } from './openapi/operations.ts';
import { registerOpenApiRoutes, serviceOperations } from './openapi/routes.ts';
import { notificationsArea } from './modules/notifications/area.ts';
import { slackOperations } from './modules/notifications/routes.ts';
import { registerSlackInteractivity } from './modules/notifications/slack-interactivity.ts';
import { outboxArea } from './outbox/area.ts';
import { usersArea } from './modules/users/area.ts';
import { tokensArea } from './modules/tokens/area.ts';
import { eventsArea } from './modules/events/area.ts';
import { ownersArea } from './modules/owners/area.ts';
import { appsArea } from './modules/apps/area.ts';
import { resourcesArea } from './modules/resources/area.ts';
import { groupsArea } from './modules/groups/area.ts';
import { tagsArea } from './modules/tags/area.ts';
import { bundlesArea } from './modules/bundles/area.ts';
import { nonHumanIdentitiesArea } from './modules/non-human-identities/area.ts';
import { sessionsArea } from './modules/sessions/area.ts';
import { accessArea } from './modules/access/area.ts';
import { accessRulesArea } from './modules/access-rules/area.ts';
import { groupBindingsArea } from './modules/group-bindings/area.ts';
import { idpGroupMappingsArea } from './modules/idp-group-mappings/area.ts';
import { integrationRecordsArea } from './modules/integration-records/area.ts';
import { onCallArea } from './modules/on-call/area.ts';
import { queriesArea } from './modules/queries/area.ts';
import { eventStreamsArea } from './modules/event-streams/area.ts';
import { connectorsArea } from './modules/connectors/area.ts';
import { visibilityArea } from './modules/visibility/area.ts';
import { configurationTemplatesArea } from './modules/configuration-templates/area.ts';
import { requestTemplatesArea } from './modules/request-templates/area.ts';
import { reviewerStagesArea } from './modules/reviewer-stages/area.ts';
import { accessReviewsArea } from './modules/access-reviews/area.ts';
import { requestsArea } from './modules/requests/area.ts';
import { delegationsArea } from './modules/delegations/area.ts';
import { breakGlassArea } from './modules/break-glass/area.ts';
import { webSessionsArea } from './modules/web-sessions/area.ts';
import { uarDecisionsArea } from './modules/uar-decisions/area.ts';
import { settingsArea } from './modules/settings/area.ts';
import { answerUnknownConsolePage, registerConsoleRoutes } from './modules/console/handlers.ts';
import { consoleCaller } from './modules/web-sessions/cookie.ts';
import { consoleOperations } from './modules/console/routes.ts';
import { scimArea } from './modules/scim/area.ts';
import { registerScimRoutes } from './modules/scim/handlers.ts';
import { scimOperations } from './modules/scim/routes.ts';

/**
 * Every API area, one line each (src/modules/<area>/area.ts declares the rest): its stores are built
 * by createContext, its routes served in this order (a literal segment before a parameter where both
 * match: /users/remote_users before /users/{user_id}), enforced and documented, its jobs run by `serve`.
 */
export const AREAS: readonly Area[] = [
  usersArea,
  tokensArea,
  eventsArea,
  ownersArea,
  appsArea,
  resourcesArea,
  groupsArea,
  tagsArea,
  bundlesArea,
  nonHumanIdentitiesArea,
  sessionsArea,
  accessArea,
  accessRulesArea,
  groupBindingsArea,
  idpGroupMappingsArea,
  integrationRecordsArea,
  onCallArea,
  queriesArea,
  eventStreamsArea,
  visibilityArea,
  configurationTemplatesArea,
  requestTemplatesArea,
  reviewerStagesArea,
  accessReviewsArea,
  requestsArea,
  delegationsArea,
  breakGlassArea,
  webSessionsArea,
  uarDecisionsArea,
  settingsArea,
  notificationsArea,
  outboxArea,
  connectorsArea,
  scimArea,
];

/** What GET /openapi.json documents: every area's routes, then the routes outside /v1. */
export const API_OPERATIONS: readonly OperationGroup[] = [...AREAS.flatMap((area) => (area.routes ? [area.routes] : [])), consoleOperations, slackOperations, scimOperations, serviceOperations];

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
export function createApp(ctx: AppContext, routes = new RouteTable(), areas: readonly Area[] = AREAS): Polka<GatehouseRequest> {
  checkAreas(areas);
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
        sendJson(
          res,
          error.status,
          { code: error.code, message: error.message, details: error.details, request_id: req.requestId },
          { ...error.headers, 'X-Request-Id': req.requestId },
        );
      } catch (failure) {
        // Polka calls this from a promise's catch: a throw here would be an unhandled rejection, which
        // ends the process. Whatever went wrong answering, drop this connection and keep serving.
        ctx.log.error('could not send an error answer', { request_id: req.requestId, error: failure instanceof Error ? failure.message : describe(failure) });
        res.destroy();
      }
    },
    onNoMatch(req, res) {
      // No route: only the READ_ONLY rule applies, by method (a READ_ONLY token learns nothing of which writes exist).
      if (req.caller) authorize(req.caller, req.method);
      // A person who follows a stale or mistyped console link gets the console's own not-found page, not JSON.
      if (answerUnknownConsolePage(ctx, req, res)) return;
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
      ctx.log.info('request', {
        method: req.method,
        // A request refused before its route (401, 429) is logged under the route it was headed for.
        path: req.routeTemplate ?? routes.templateFor(req.method, req.path) ?? '(no route)',
        status: res.statusCode,
        duration_ms: Number(process.hrtime.bigint() - req.startedAt) / 1e6,
        request_id: req.requestId,
        ip: req.clientIp,
        token_label: req.caller?.tokenLabel ?? null,
      });
    });
    next();
  });

  addPlainRoute(app, routes, '/healthz', (_req, res) => sendJson(res, 200, { status: 'ok' }));
  registerOpenApiRoutes(app, routes, API_OPERATIONS);
  // The console's pages, files and sign-in (docs/console.md); its data comes from /v1 below, with its session cookie.
  registerConsoleRoutes(app, routes, ctx);
  // Slack signs its requests and has no bearer token: before authentication, outside /v1.
  registerSlackInteractivity(app, routes, ctx);
  // SCIM 2.0 for identity providers, with its own tokens and error schema (docs/scim.md).
  registerScimRoutes(app, routes, ctx);

  // A bearer token, or else the console's sign-in session cookie (docs/console.md).
  app.use(authenticate(ctx, consoleCaller));
  // Writes per user are limited (429 + Retry-After), so one client cannot grow the database at will.
  const writeLimit = limitWrites(ctx);

  // In front of each route, from its declaration: who may call it (READ_ONLY, organization roles),
  // decided before its body is read; then an item the caller may not see answers every route under it
  // as a missing one (docs/visibility.md); then the write limit, so a write refused by either (403, 404)
  // uses none of the caller's budget. Polka matches the route once; these read its declaration.
  const checks: RouteChecks = (key, route) => {
    const guard = hideUnseenItems(ctx, route);
    return guard ? [enforcePolicy(key, route), guard, writeLimit] : [enforcePolicy(key, route), writeLimit];
  };
  for (const area of areas) {
    const router = new ApiRouter(app, ctx, routes, area, checks);
    area.handlers?.(router, ctx);
    router.finish();
  }

  return app;
}
