// The table of contents of the API: one Polka instance, global middleware, then each module in order.
import { randomUUID } from 'node:crypto';
import polka, { type Polka } from 'polka';
import type { AppContext } from './context.ts';
import { authenticate } from './http/auth.ts';
import { enforcePolicy } from './http/policy.ts';
import { hideUnseenItems } from './modules/visibility/guard.ts';
import { clientAddressOf } from './http/client-address.ts';
import { AppError, toAppError } from './http/errors.ts';
import { addPlainRoute, ApiRouter, RouteTable, sendJson } from './http/router.ts';
import type { GatehouseRequest } from './http/types.ts';
import { registerOwnerRoutes } from './modules/owners/routes.ts';
import { registerAppRoutes } from './modules/apps/routes.ts';
import { registerResourceRoutes } from './modules/resources/routes.ts';
import { registerGroupRoutes } from './modules/groups/routes.ts';
import { registerTagRoutes } from './modules/tags/routes.ts';
import { registerBundleRoutes } from './modules/bundles/routes.ts';
import { registerNonHumanIdentityRoutes } from './modules/non-human-identities/routes.ts';
import { registerSessionRoutes } from './modules/sessions/routes.ts';
import { registerAccessRoutes } from './modules/access/routes.ts';
import { registerAccessRuleRoutes } from './modules/access-rules/routes.ts';
import { registerEventRoutes } from './modules/events/routes.ts';
import { registerTokenRoutes } from './modules/tokens/routes.ts';
import { registerUserRoutes } from './modules/users/routes.ts';
import { registerGroupBindingRoutes } from './modules/group-bindings/routes.ts';
import { registerIdpGroupMappingRoutes } from './modules/idp-group-mappings/routes.ts';
import { registerIntegrationRecordRoutes } from './modules/integration-records/routes.ts';
import { registerQueryRoutes } from './modules/queries/routes.ts';
import { registerEventStreamRoutes } from './modules/event-streams/routes.ts';
import { registerVisibilityRoutes } from './modules/visibility/routes.ts';
import { registerConfigurationTemplateRoutes } from './modules/configuration-templates/routes.ts';
import { registerReviewerStageRoutes } from './modules/reviewer-stages/routes.ts';
import { registerAccessReviewRoutes } from './modules/access-reviews/routes.ts';
import { registerRequestRoutes } from './modules/requests/routes.ts';
import { registerDelegationRoutes } from './modules/delegations/routes.ts';
import { registerConnectorRoutes } from './modules/connectors/routes.ts';

import type { OperationGroup } from './openapi/operations.ts';
import { registerOpenApiRoutes, serviceOperations } from './openapi/routes.ts';
import { userOperations } from './modules/users/openapi.ts';
import { tokenOperations } from './modules/tokens/openapi.ts';
import { eventOperations } from './modules/events/openapi.ts';
import { ownerOperations } from './modules/owners/openapi.ts';
import { appOperations } from './modules/apps/openapi.ts';
import { resourceOperations } from './modules/resources/openapi.ts';
import { groupOperations } from './modules/groups/openapi.ts';
import { tagOperations } from './modules/tags/openapi.ts';
import { bundleOperations } from './modules/bundles/openapi.ts';
import { nonHumanIdentityOperations } from './modules/non-human-identities/openapi.ts';
import { sessionOperations } from './modules/sessions/openapi.ts';
import { accessOperations } from './modules/access/openapi.ts';
import { accessRuleOperations } from './modules/access-rules/openapi.ts';
import { groupBindingOperations } from './modules/group-bindings/openapi.ts';
import { idpGroupMappingOperations } from './modules/idp-group-mappings/openapi.ts';
import { integrationRecordOperations } from './modules/integration-records/openapi.ts';
import { queryOperations } from './modules/queries/openapi.ts';
import { eventStreamOperations } from './modules/event-streams/openapi.ts';
import { visibilityOperations } from './modules/visibility/openapi.ts';
import { configurationTemplateOperations } from './modules/configuration-templates/openapi.ts';
import { reviewerStageOperations } from './modules/reviewer-stages/openapi.ts';
import { accessReviewOperations } from './modules/access-reviews/openapi.ts';
import { requestOperations } from './modules/requests/openapi.ts';
import { delegationOperations } from './modules/delegations/openapi.ts';
import { connectorOperations } from './modules/connectors/openapi.ts';

/**
 * What GET /openapi.json documents: each module's src/modules/<area>/openapi.ts, one line per
 * module as in createApp below. test/openapi/routes.test.ts fails when a route is missing here.
 */
export const API_OPERATIONS: readonly OperationGroup[] = [
  userOperations,
  tokenOperations,
  eventOperations,
  ownerOperations,
  appOperations,
  resourceOperations,
  groupOperations,
  tagOperations,
  bundleOperations,
  nonHumanIdentityOperations,
  sessionOperations,
  accessOperations,
  accessRuleOperations,
  groupBindingOperations,
  idpGroupMappingOperations,
  integrationRecordOperations,
  queryOperations,
  eventStreamOperations,
  visibilityOperations,
  configurationTemplateOperations,
  reviewerStageOperations,
  accessReviewOperations,
  requestOperations,
  delegationOperations,
  connectorOperations,
  serviceOperations,
];

/** Something thrown, as text, even when it has no usable toString (Object.create(null)). */
function describe(thrown: unknown): string {
  try {
    return String(thrown);
  } catch {
    return Object.prototype.toString.call(thrown);
  }
}

/** `routes` is filled with every route registered; tests pass their own to read it. */
export function createApp(ctx: AppContext, routes = new RouteTable()): Polka<GatehouseRequest> {
  const app: Polka<GatehouseRequest> = polka<GatehouseRequest>({
    onError(err, req, res) {
      // Set by the first middleware; a request that skipped it still gets an id to quote.
      req.requestId ??= randomUUID();
      try {
        const known = toAppError(err);
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
    onNoMatch(req) {
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
        // A request refused before its handler (401, 429) is logged under the route it was headed for.
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

  app.use(authenticate(ctx));
  // Who may call what (READ_ONLY, organization roles), by the route the call is headed for, before its body is read.
  app.use(enforcePolicy(routes));
  // An item the caller may not see answers every route under it as a missing one (docs/visibility.md).
  app.use(hideUnseenItems(ctx, routes));

  const v1 = new ApiRouter(app, ctx, routes, '/v1');
  registerUserRoutes(v1, ctx);
  registerTokenRoutes(v1, ctx);
  registerEventRoutes(v1, ctx);
  registerOwnerRoutes(v1, ctx);
  registerAppRoutes(v1, ctx);
  registerResourceRoutes(v1, ctx);
  registerGroupRoutes(v1, ctx);
  registerTagRoutes(v1, ctx);
  registerBundleRoutes(v1, ctx);
  registerNonHumanIdentityRoutes(v1, ctx);
  registerSessionRoutes(v1, ctx);
  registerAccessRoutes(v1, ctx);
  registerAccessRuleRoutes(v1, ctx);
  registerGroupBindingRoutes(v1, ctx);
  registerIdpGroupMappingRoutes(v1, ctx);
  registerIntegrationRecordRoutes(v1, ctx);
  registerQueryRoutes(v1, ctx);
  registerEventStreamRoutes(v1, ctx);
  registerVisibilityRoutes(v1, ctx);
  registerConfigurationTemplateRoutes(v1, ctx);
  registerReviewerStageRoutes(v1, ctx);
  registerAccessReviewRoutes(v1, ctx);
  registerRequestRoutes(v1, ctx);
  registerDelegationRoutes(v1, ctx);
  registerConnectorRoutes(v1, ctx);

  return app;
}
