// Every area's HTTP side, by the area's name: its route table (routes.ts) and the handlers bound to it
// (handlers.ts). app.ts serves them; nothing else imports them, so what runs without HTTP (a read worker,
// the CLI) loads the areas (src/areas.ts) without a single route.
import { served, type AreaHttp } from './area.ts';
import { accessReviewRoutes } from './modules/access-reviews/routes.ts';
import { registerAccessReviewRoutes } from './modules/access-reviews/handlers.ts';
import { accessRuleRoutes } from './modules/access-rules/routes.ts';
import { registerAccessRuleRoutes } from './modules/access-rules/handlers.ts';
import { accessRoutes } from './modules/access/routes.ts';
import { registerAccessRoutes } from './modules/access/handlers.ts';
import { appRoutes } from './modules/apps/routes.ts';
import { registerAppRoutes } from './modules/apps/handlers.ts';
import { breakGlassRoutes } from './modules/break-glass/routes.ts';
import { registerBreakGlassRoutes } from './modules/break-glass/handlers.ts';
import { bundleRoutes } from './modules/bundles/routes.ts';
import { registerBundleRoutes } from './modules/bundles/handlers.ts';
import { configurationTemplateRoutes } from './modules/configuration-templates/routes.ts';
import { registerConfigurationTemplateRoutes } from './modules/configuration-templates/handlers.ts';
import { connectorRoutes } from './modules/connectors/routes.ts';
import { registerConnectorRoutes } from './modules/connectors/handlers.ts';
import { consoleRoutes } from './modules/console/routes.ts';
import { registerConsoleRoutes } from './modules/console/handlers.ts';
import { delegationRoutes } from './modules/delegations/routes.ts';
import { registerDelegationRoutes } from './modules/delegations/handlers.ts';
import { eventStreamRoutes } from './modules/event-streams/routes.ts';
import { registerEventStreamRoutes } from './modules/event-streams/handlers.ts';
import { eventRoutes } from './modules/events/routes.ts';
import { registerEventRoutes } from './modules/events/handlers.ts';
import { groupBindingRoutes } from './modules/group-bindings/routes.ts';
import { registerGroupBindingRoutes } from './modules/group-bindings/handlers.ts';
import { groupRoutes } from './modules/groups/routes.ts';
import { registerGroupRoutes } from './modules/groups/handlers.ts';
import { idpGroupMappingRoutes } from './modules/idp-group-mappings/routes.ts';
import { registerIdpGroupMappingRoutes } from './modules/idp-group-mappings/handlers.ts';
import { integrationRecordRoutes } from './modules/integration-records/routes.ts';
import { registerIntegrationRecordRoutes } from './modules/integration-records/handlers.ts';
import { nonHumanIdentityRoutes } from './modules/non-human-identities/routes.ts';
import { registerNonHumanIdentityRoutes } from './modules/non-human-identities/handlers.ts';
import { notificationRoutes } from './modules/notifications/routes.ts';
import { registerNotificationRoutes } from './modules/notifications/handlers.ts';
import { onCallRoutes } from './modules/on-call/routes.ts';
import { registerOnCallRoutes } from './modules/on-call/handlers.ts';
import { ownerRoutes } from './modules/owners/routes.ts';
import { registerOwnerRoutes } from './modules/owners/handlers.ts';
import { queryRoutes } from './modules/queries/routes.ts';
import { registerQueryRoutes } from './modules/queries/handlers.ts';
import { requestTemplateRoutes } from './modules/request-templates/routes.ts';
import { registerRequestTemplateRoutes } from './modules/request-templates/handlers.ts';
import { requestRoutes } from './modules/requests/routes.ts';
import { registerRequestRoutes } from './modules/requests/handlers.ts';
import { resourceRoutes } from './modules/resources/routes.ts';
import { registerResourceRoutes } from './modules/resources/handlers.ts';
import { reviewerStageRoutes } from './modules/reviewer-stages/routes.ts';
import { registerReviewerStageRoutes } from './modules/reviewer-stages/handlers.ts';
import { scimRoutes } from './modules/scim/routes.ts';
import { registerScimRoutes } from './modules/scim/handlers.ts';
import { sessionRoutes } from './modules/sessions/routes.ts';
import { registerSessionRoutes } from './modules/sessions/handlers.ts';
import { settingsRoutes } from './modules/settings/routes.ts';
import { registerSettingsRoutes } from './modules/settings/handlers.ts';
import { tagRoutes } from './modules/tags/routes.ts';
import { registerTagRoutes } from './modules/tags/handlers.ts';
import { tokenRoutes } from './modules/tokens/routes.ts';
import { registerTokenRoutes } from './modules/tokens/handlers.ts';
import { uarDecisionRoutes } from './modules/uar-decisions/routes.ts';
import { registerUarDecisionRoutes } from './modules/uar-decisions/handlers.ts';
import { userRoutes } from './modules/users/routes.ts';
import { registerUserRoutes } from './modules/users/handlers.ts';
import { visibilityRoutes } from './modules/visibility/routes.ts';
import { registerVisibilityRoutes } from './modules/visibility/handlers.ts';
import { webSessionRoutes } from './modules/web-sessions/routes.ts';
import { registerWebSessionRoutes } from './modules/web-sessions/handlers.ts';

/** Each area's routes and handlers, by area name; an area without routes has no entry. */
export const AREA_ROUTES: Readonly<Record<string, AreaHttp>> = {
  'access-reviews': served(accessReviewRoutes, registerAccessReviewRoutes),
  'access-rules': served(accessRuleRoutes, registerAccessRuleRoutes),
  access: served(accessRoutes, registerAccessRoutes),
  apps: served(appRoutes, registerAppRoutes),
  'break-glass': served(breakGlassRoutes, registerBreakGlassRoutes),
  bundles: served(bundleRoutes, registerBundleRoutes),
  'configuration-templates': served(configurationTemplateRoutes, registerConfigurationTemplateRoutes),
  connectors: served(connectorRoutes, registerConnectorRoutes),
  console: served(consoleRoutes, registerConsoleRoutes),
  delegations: served(delegationRoutes, registerDelegationRoutes),
  'event-streams': served(eventStreamRoutes, registerEventStreamRoutes),
  events: served(eventRoutes, registerEventRoutes),
  'group-bindings': served(groupBindingRoutes, registerGroupBindingRoutes),
  groups: served(groupRoutes, registerGroupRoutes),
  'idp-group-mappings': served(idpGroupMappingRoutes, registerIdpGroupMappingRoutes),
  'integration-records': served(integrationRecordRoutes, registerIntegrationRecordRoutes),
  'non-human-identities': served(nonHumanIdentityRoutes, registerNonHumanIdentityRoutes),
  notifications: served(notificationRoutes, registerNotificationRoutes),
  'on-call': served(onCallRoutes, registerOnCallRoutes),
  owners: served(ownerRoutes, registerOwnerRoutes),
  queries: served(queryRoutes, registerQueryRoutes),
  'request-templates': served(requestTemplateRoutes, registerRequestTemplateRoutes),
  requests: served(requestRoutes, registerRequestRoutes),
  resources: served(resourceRoutes, registerResourceRoutes),
  'reviewer-stages': served(reviewerStageRoutes, registerReviewerStageRoutes),
  scim: served(scimRoutes, registerScimRoutes),
  sessions: served(sessionRoutes, registerSessionRoutes),
  settings: served(settingsRoutes, registerSettingsRoutes),
  tags: served(tagRoutes, registerTagRoutes),
  tokens: served(tokenRoutes, registerTokenRoutes),
  'uar-decisions': served(uarDecisionRoutes, registerUarDecisionRoutes),
  users: served(userRoutes, registerUserRoutes),
  visibility: served(visibilityRoutes, registerVisibilityRoutes),
  'web-sessions': served(webSessionRoutes, registerWebSessionRoutes),
};
