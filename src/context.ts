// AppContext: everything a request needs, built once and passed down. No module-level singletons.
import type { Config } from './config.ts';
import { cursorSecret } from './db/meta.ts';
import type { Db } from './db/open.ts';
import { Pager } from './http/paging.ts';
import type { Clock } from './lib/clock.ts';
import { BackgroundJobs } from './lib/jobs.ts';
import type { Logger } from './lib/log.ts';
import { createOwnerStore } from './modules/owners/store.ts';
import { createAppStore } from './modules/apps/store.ts';
import { createResourceStore } from './modules/resources/store.ts';
import { createGroupStore } from './modules/groups/store.ts';
import { createTagStore } from './modules/tags/store.ts';
import { createBundleStore } from './modules/bundles/store.ts';
import { createNonHumanIdentityStore } from './modules/non-human-identities/store.ts';
import { createSessionStore } from './modules/sessions/store.ts';
import { createAccessStore } from './modules/access/store.ts';
import { createHoldingsStore } from './modules/access/holdings-store.ts';
import { createAccessRuleStore } from './modules/access-rules/store.ts';
import { createEventStore } from './modules/events/store.ts';
import { createTokenStore } from './modules/tokens/store.ts';
import { createUserStore } from './modules/users/store.ts';
import { createGroupBindingStore } from './modules/group-bindings/store.ts';
import { createIdpGroupMappingStore } from './modules/idp-group-mappings/store.ts';
import { createIntegrationRecordStore } from './modules/integration-records/store.ts';
import { createQueryStore } from './modules/queries/store.ts';
import { createEventStreamStore } from './modules/event-streams/store.ts';
import { createVisibilityStore } from './modules/visibility/store.ts';
import { createConfigurationTemplateStore } from './modules/configuration-templates/store.ts';
import { createAccessReviewStore } from './modules/access-reviews/store.ts';
import { createRequestStore } from './modules/requests/store.ts';
import { createDelegationStore } from './modules/delegations/store.ts';
import { createOutboxStore } from './outbox/store.ts';
import { createConnectorStore } from './modules/connectors/store.ts';

/** Every module's store, built once: each prepares its statements when built. */
function createStores(db: Db, clock: Clock) {
  return {
    events: createEventStore(db, clock),
    users: createUserStore(db),
    tokens: createTokenStore(db),
    owners: createOwnerStore(db),
    apps: createAppStore(db),
    resources: createResourceStore(db),
    groups: createGroupStore(db),
    tags: createTagStore(db),
    bundles: createBundleStore(db),
    nonHumanIdentities: createNonHumanIdentityStore(db),
    sessions: createSessionStore(db),
    access: createAccessStore(db),
    holdings: createHoldingsStore(db),
    accessRules: createAccessRuleStore(db),
    groupBindings: createGroupBindingStore(db),
    idpGroupMappings: createIdpGroupMappingStore(db),
    integrationRecords: createIntegrationRecordStore(db),
    queries: createQueryStore(db),
    eventStreams: createEventStreamStore(db),
    visibility: createVisibilityStore(db),
    configurationTemplates: createConfigurationTemplateStore(db),
    accessReviews: createAccessReviewStore(db),
    requests: createRequestStore(db),
    delegations: createDelegationStore(db),
    outbox: createOutboxStore(db),
    connectors: createConnectorStore(db),
  };
}

export type Stores = ReturnType<typeof createStores>;

export interface AppContext {
  db: Db;
  clock: Clock;
  config: Config;
  log: Logger;
  pager: Pager;
  stores: Stores;
  /** Background jobs (src/jobs.ts) register their stop function here; shutdown stops them before closing db. */
  jobs: BackgroundJobs;
}

/** Builds the context over a migrated database. */
export function createContext(parts: { db: Db; clock: Clock; config: Config; log: Logger }): AppContext {
  return {
    ...parts,
    pager: new Pager(cursorSecret(parts.db)),
    stores: createStores(parts.db, parts.clock),
    jobs: new BackgroundJobs(),
  };
}
