// The list of areas: what runs with the app or without it (a read worker, the CLI) builds from it.
import type { Area } from './area.ts';
import { notificationsArea } from './modules/notifications/area.ts';
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
import { consoleArea } from './modules/console/area.ts';
import { scimArea } from './modules/scim/area.ts';

/**
 * Every API area, one line each (src/modules/<area>/area.ts declares the rest): its stores are built
 * by createContext, its routes (src/routes.ts) served by app.ts in this order (a literal segment before a
 * parameter where both match: /users/remote_users before /users/{user_id}), enforced and documented, its
 * jobs run by `serve`. Without HTTP (a read worker) the list loads no route: areas name none.
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
  consoleArea,
];
