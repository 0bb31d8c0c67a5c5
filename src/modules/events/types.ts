// The closed set of event types: every event Gatehouse records has one of these, and nothing else.
// events.record() takes only these (the type checker refuses any other, and so does a runtime check);
// `event_type_filter` and docs/events.md (made from this table, checked by test/docs/event-types.test.ts)
// read the same list, so audit readers and event-stream receivers can rely on it.
// To add a type: one line in its group, spelled <OBJECTS>_<VERB>, then `npm run docs:events`.

/** The types by area, each with one line for people: when it is recorded. */
export const EVENT_TYPE_GROUPS = {
  'Users, tokens and sessions': {
    USERS_CREATED: 'a user is created (the bootstrap admin\'s creation is recorded as its own act)',
    USERS_UPDATED: 'a user\'s fields change',
    USERS_ROLE_UPDATED: 'a user\'s organization role changes (API or `gatehouse user set-role`)',
    REMOTE_USERS_CREATED: 'a remote account is recorded for a user',
    REMOTE_USERS_DELETED: 'a remote account is forgotten',
    API_TOKENS_CREATED: 'an API token is issued (HTTP or CLI)',
    API_TOKENS_DELETED: 'an API token is revoked',
    SESSIONS_CREATED: 'a session opens',
    SESSIONS_ENDED: 'a session is ended',
    WEB_SESSIONS_CREATED: 'someone signs in to the console (a sign-in link or single sign-on)',
    WEB_SESSIONS_ENDED: 'a console sign-in session is ended: signed out, revoked, or found offboarded or demoted',
    LOGIN_LINKS_CREATED: 'a one-time sign-in link is made: printed by `gatehouse login-link`, asked for by email on the sign-in page, or sent (or shown) by an admin; `delivery` says which',
  },
  'Owners': {
    OWNERS_CREATED: 'an owner is created',
    OWNERS_UPDATED: 'owners change (a bulk update is one event, a sub-event per owner)',
    OWNERS_DELETED: 'an owner is deleted',
    OWNER_USERS_UPDATED: 'an owner\'s users are replaced (sub-events OWNER_USER_ADDED/OWNER_USER_REMOVED name them)',
  },
  'Catalogue': {
    APPS_CREATED: 'an app is created',
    APPS_UPDATED: 'an app changes',
    APPS_DELETED: 'an app is deleted',
    RESOURCES_CREATED: 'a resource is created',
    RESOURCES_UPDATED: 'resources change (a bulk update is one event, a sub-event per item)',
    RESOURCES_DELETED: 'a resource is deleted; a …_REMOVED sub-event for each live grant that ended with it, and SESSIONS_ENDED for its open sessions',
    GROUPS_CREATED: 'a group is created',
    GROUPS_UPDATED: 'groups change (a bulk update is one event, a sub-event per item)',
    GROUPS_DELETED: 'a group is deleted; a …_REMOVED sub-event for each live membership, grant and nesting that ended with it, and SESSIONS_ENDED for sessions that relied on them',
    TAGS_CREATED: 'a tag is created',
    TAGS_DELETED: 'a tag is deleted',
    ENTITY_TAG_ADDED: 'a tag is attached to a group, resource or user',
    ENTITY_TAG_REMOVED: 'a tag is detached from a group, resource or user',
    BUNDLES_CREATED: 'a bundle is created',
    BUNDLES_UPDATED: 'a bundle changes',
    BUNDLES_DELETED: 'a bundle is deleted (with a sub-event per item it held)',
    BUNDLE_RESOURCES_ADDED: 'a resource is put in a bundle',
    BUNDLE_RESOURCES_REMOVED: 'a resource is taken out of a bundle',
    BUNDLE_GROUPS_ADDED: 'a group is put in a bundle',
    BUNDLE_GROUPS_REMOVED: 'a group is taken out of a bundle',
    RESOURCE_VISIBILITY_UPDATED: 'a resource\'s visibility (GLOBAL, or LIMITED to groups) changes',
    GROUP_VISIBILITY_UPDATED: 'a group\'s visibility changes',
    BUNDLE_VISIBILITY_UPDATED: 'a bundle\'s visibility changes',
    CONFIGURATION_TEMPLATES_CREATED: 'a configuration template is created',
    CONFIGURATION_TEMPLATES_UPDATED: 'a configuration template changes (sub-events name each linked resource and group it changed)',
    CONFIGURATION_TEMPLATES_DELETED: 'a configuration template is deleted',
    REQUEST_TEMPLATES_CREATED: 'a request template (the custom fields a request form asks) is created',
    REQUEST_TEMPLATES_UPDATED: 'a request template changes',
    REQUEST_TEMPLATES_DELETED: 'a request template is deleted',
  },
  'Access': {
    RESOURCE_USERS_ADDED: 'a user is given access to a resource',
    RESOURCE_USERS_UPDATED: 'a user\'s access to a resource changes (expiry)',
    RESOURCE_USERS_REMOVED: 'a user\'s access to a resource is taken away',
    RESOURCE_USERS_EXPIRED: 'a user\'s access to a resource ends at its expiry',
    RESOURCE_NON_HUMAN_IDENTITIES_ADDED: 'a non-human identity is given access to a resource',
    RESOURCE_NON_HUMAN_IDENTITIES_UPDATED: 'a non-human identity\'s access to a resource changes',
    RESOURCE_NON_HUMAN_IDENTITIES_REMOVED: 'a non-human identity\'s access to a resource is taken away',
    RESOURCE_NON_HUMAN_IDENTITIES_EXPIRED: 'a non-human identity\'s access to a resource ends at its expiry',
    GROUP_USERS_ADDED: 'a user is put in a group',
    GROUP_USERS_UPDATED: 'a user\'s group membership changes (expiry, access level)',
    GROUP_USERS_REMOVED: 'a user is taken out of a group',
    GROUP_USERS_EXPIRED: 'a user\'s group membership ends at its expiry',
    GROUP_RESOURCES_ADDED: 'a group is given access to a resource',
    GROUP_RESOURCES_UPDATED: 'a group\'s access to a resource changes',
    GROUP_RESOURCES_REMOVED: 'a group\'s access to a resource is taken away',
    GROUP_RESOURCES_EXPIRED: 'a group\'s access to a resource ends at its expiry',
    GROUPS_ADDED_TO_GROUPS: 'a group is put in another group',
    GROUPS_UPDATED_IN_GROUPS: 'a group\'s membership of another group changes',
    GROUPS_REMOVED_FROM_GROUPS: 'a group is taken out of another group',
    GROUPS_IN_GROUPS_EXPIRED: 'a group\'s membership of another group ends at its expiry',
    ACCESS_RULES_CREATED: 'an access rule is created',
    ACCESS_RULES_UPDATED: 'an access rule changes',
  },
  'Requests and reviews': {
    REQUESTS_CREATED: 'an access request is created (carries requester_id and requester_name; one sub-event per item)',
    REQUEST_REVIEWS_ADDED: 'a reviewer approves a stage of a request that is not yet fully approved',
    REQUESTS_APPROVED: 'a request is approved (its grants are recorded as access events in the same transaction)',
    REQUESTS_DENIED: 'a request is denied',
    REQUESTS_CANCELED: 'a request is canceled by its requester or an admin, or times out (`cause`)',
    REQUEST_COMMENTS_CREATED: 'a comment is added to a request',
    BREAK_GLASS_USED: 'someone breaks glass: a request the break-glass rule approves at once gives them an item for minutes (who, what, how long, the reason, the incident; docs/break-glass.md)',
    BREAK_GLASS_REFUSED: 'a break-glass, or its review, is refused (403, 400, 404, 409): the error and what was asked; nothing else is written',
    BREAK_GLASS_REVIEWED: 'an owner or admin reviews a break-glass after the fact: JUSTIFIED, or NOT_JUSTIFIED (which ends access that still lasts, recorded as its …_REMOVED event)',
    DELEGATIONS_CREATED: 'a reviewer delegates their reviews to another user for a time',
    DELEGATIONS_DELETED: 'a delegation is removed',
    UARS_CREATED: 'a user access review starts, with its snapshot of the access in scope and each row\'s reviewers (how many rows the policy, the fallback and nobody got)',
    UARS_UPDATED: 'a review\'s policy for unanswered items is chosen (`PUT /v1/uar/{uar_id}/policy`)',
    UAR_REVIEWERS_UPDATED: 'an admin changes who reviews items of a review (`POST /v1/uar/{uar_id}/assignments`; a sub-event per item)',
    UAR_REVIEWS_DECIDED: 'an assigned reviewer or an admin keeps, revokes or puts off items of a review (a sub-event per item; a revoke also records its …_REMOVED event)',
    UARS_CLOSED: 'a review\'s deadline passes, or its owner or an admin closes it early: decided revokes are carried out, unanswered items kept or revoked as its policy says',
  },
  'Integrations': {
    GROUP_BINDINGS_CREATED: 'a group binding is created',
    GROUP_BINDINGS_UPDATED: 'a group binding changes',
    GROUP_BINDINGS_DELETED: 'a group binding is deleted',
    IDP_GROUP_MAPPINGS_CREATED: 'a group is mapped to an identity-provider app',
    IDP_GROUP_MAPPINGS_UPDATED: 'an IdP group mapping changes (a bulk replace is one event)',
    IDP_GROUP_MAPPINGS_DELETED: 'an IdP group mapping is deleted',
    MESSAGE_CHANNELS_CREATED: 'a message channel is recorded',
    ON_CALL_SCHEDULES_CREATED: 'an on-call schedule is recorded',
    ON_CALL_SCHEDULES_UPDATED: 'a sync finds an on-call schedule renamed at its provider, and renames it here (the old name and the new)',
    RESOURCE_MESSAGE_CHANNELS_UPDATED: 'a resource\'s message channels are replaced',
    GROUP_MESSAGE_CHANNELS_UPDATED: 'a group\'s message channels are replaced',
    GROUP_ON_CALL_SCHEDULES_UPDATED: 'a group\'s on-call schedules are replaced',
    SCOPED_ROLE_PERMISSIONS_UPDATED: 'a scoped role\'s permissions are replaced',
    EVENT_STREAMS_CREATED: 'an event stream is created',
    EVENT_STREAMS_UPDATED: 'an event stream\'s name, URL, credentials or enabled flag change',
    EVENT_STREAMS_DELETED: 'an event stream is deleted',
    OUTBOX_ITEMS_FAILED: 'a queued job (a connector push, a notice) ran out of time or failed for good; it stays FAILED until retried by hand',
    CONNECTORS_UPDATED: 'an app\'s connector is set or changed (PUT /v1/apps/{app_id}/connector; secrets masked, as GET shows them)',
    CONNECTORS_DELETED: 'an app\'s connector is removed',
    CONNECTORS_TESTED: 'an app\'s connector is asked for its status by hand, with the answer',
    CONNECTORS_SYNCED: 'an app\'s connector is synced (on schedule or by hand), with counts, drift found and errors',
    CONNECTOR_USERS_CREATED: 'a connector created a person remotely for their first grant (Opal\'s POST /users, or a PostgreSQL role)',
    CONNECTOR_USERS_DELETED: 'a remote person Gatehouse created is removed after the person was offboarded',
    CONNECTOR_USERS_LINKED: 'an admin linked a remote account (a PostgreSQL login role) to a person, or unlinked it (PUT /v1/apps/{app_id}/connector/user-links)',
    CONNECTOR_USERS_LOST: 'a remote account linked to a person is gone there (a push was told the user is not found, or a full sync no longer lists it): the link is dropped, and the next push matches it again by email or creates it again',
    PROPAGATIONS_SUCCEEDED: 'an access change reached the remote system (or was already so there)',
    PROPAGATIONS_RETRYING: 'an attempt to push an access change failed; it will be tried again (status, error, next attempt)',
    PROPAGATIONS_FAILED: 'pushing an access change failed for good or ran out of time; retry with POST /v1/apps/{app_id}/connector/retry',
    OUTBOX_ITEMS_RETRIED: 'failed queued jobs are put back in the queue by hand (a sub-event per job)',
    NOTIFICATION_PREFERENCES_UPDATED: 'a person\'s notification channel or daily digest choice changes',
    NOTIFICATIONS_RESENT: 'an administrator queues a failed notification again',
  },
  'Settings': {
    SETTINGS_UPDATED: 'an admin sets or clears settings on the Settings page (PATCH /v1/settings): a sub-event per setting, a secret only as `set` or cleared, a URL\'s password masked',
    SETTINGS_TESTED: 'an admin sends a test email or Slack message, or checks single sign-on, from the Settings page, with the outcome',
  },
} as const satisfies Record<string, Record<string, string>>;

type Groups = typeof EVENT_TYPE_GROUPS;
/** One of the event types Gatehouse records. */
export type EventType = { [G in keyof Groups]: keyof Groups[G] }[keyof Groups];

/** Every event type with its description, in the table's order. */
export const EVENT_TYPES: Readonly<Record<EventType, string>> = Object.assign({}, ...Object.values(EVENT_TYPE_GROUPS));

/** The event types as a list, in the table's order. */
export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];

const KNOWN = new Set<string>(EVENT_TYPE_NAMES);

export function isEventType(value: string): value is EventType {
  return KNOWN.has(value);
}
