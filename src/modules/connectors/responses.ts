// The connectors area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { EDGE_KIND_NAMES } from '../access/edges.ts';
import { CONNECTOR_TYPES, DRIFT_POLICIES } from './schemas.ts';
import { CONNECTOR_KINDS } from './adapters.ts';
import type { SecretMask } from './adapter.ts';
import { STOP_REASONS } from './sync-budget.ts';
import { component, uuid, dateTime, integer, described } from '../../openapi/responses.ts';
import { AppTypeEnum, PropagationStatusEnum, ResourceTypeEnum } from '../../openapi/enums.ts';

export const PropagationStatus = component('PropagationStatus', v.object({
  status: PropagationStatusEnum,
}));
export type PropagationStatus = v.InferOutput<typeof PropagationStatus>;

/**
 * Every connector type's configuration fields, as an answer shows them: the connector's own type's filled
 * in (its secrets masked), every other type's null — so a client can PUT back what it read.
 */
const configurationFields = Object.fromEntries(CONNECTOR_KINDS.flatMap((kind) => Object.entries(kind.configuration.entries).map(([field, schema]) => {
  const mask = (kind.secrets as Record<string, SecretMask | undefined>)[field];
  const secret = mask === 'secret' ? ' Masked.' : mask === 'url' ? ' Its password and query values masked (settings such as sslmode are shown).' : '';
  return [field, v.nullable(described(v.string(), `${kind.type}: ${v.getDescription(schema) ?? v.getTitle(schema)}${secret}`))] as const;
})));

export const Connector = component('Connector', described(v.object({
  app_id: uuid,
  connector_type: described(v.picklist(CONNECTOR_TYPES), `The kind of connector, by the app's type: ${CONNECTOR_KINDS.map((k) => `${k.type} for ${k.appType} apps (${k.name})`).join(', ')}. GET /v1/connector-types describes each.`),
  ...configurationFields,
  timeout_ms: v.pipe(integer, v.minValue(100), v.maxValue(300000)),
  drift_policy: described(v.picklist(DRIFT_POLICIES), 'What a sync does with access present remotely but not in Gatehouse: REPORT (a sync error), IMPORT (added, status null), REMOVE (removed remotely).'),
  last_sync_at: v.nullable(dateTime),
  last_successful_sync: v.nullable(dateTime),
  propagation_counts: described(v.record(v.string(), integer), 'Propagations by status (SYNCED: imported by sync, status null).'),
  unmatched_remote_users_count: described(integer, 'How many remote users no Gatehouse user matches by email; GET /v1/apps/{app_id}/connector/unmatched-users lists them, a page at a time.'),
  created_at: dateTime,
  updated_at: dateTime,
}), "An app's connector (extension): where its access changes are pushed and synced from. Secrets are masked."));
export type Connector = v.InferOutput<typeof Connector>;

export const ConnectorConfigurationField = component('ConnectorConfigurationField', described(v.object({
  name: described(v.string(), 'The field as PUT /v1/apps/{app_id}/connector takes it and GET shows it.'),
  title: described(v.string(), 'Its label, in words.'),
  description: described(v.string(), 'What to put there.'),
  required: described(v.boolean(), 'Whether a first PUT must give it (later ones keep the stored value when it is not sent).'),
  secret: described(v.nullable(v.picklist(['secret', 'url'])), 'null: shown as it is; secret: masked whole; url: a URL whose password and query values are masked. A masked value sent back keeps the stored one.'),
}), 'One field of a connector type\'s configuration (extension).'));

export const ConnectorType = component('ConnectorType', described(v.object({
  connector_type: described(v.picklist(CONNECTOR_TYPES), 'The connector type.'),
  name: described(v.string(), 'It in words.'),
  app_type: described(AppTypeEnum, 'Apps of this type have this connector.'),
  resource_type: described(ResourceTypeEnum, 'The type of the resources a sync creates.'),
  edge_kinds: described(v.array(v.picklist(EDGE_KIND_NAMES)), 'The access it carries.'),
  configuration: described(v.array(ConnectorConfigurationField), 'Its configuration\'s fields, in order: the console draws its form from them.'),
}), 'A kind of connector, as its adapter declares it (extension).'));
export type ConnectorType = v.InferOutput<typeof ConnectorType>;

export const ConnectorTypeList = component('ConnectorTypeList', v.object({ results: v.array(ConnectorType) }));

export const ConnectorTestResult = component('ConnectorTestResult', v.object({
  ok: v.boolean(),
  status: described(v.string(), 'SUCCESS, or the PropagationStatusEnum value the failure maps to.'),
  error: v.nullable(v.string()),
}));
export type ConnectorTestResult = v.InferOutput<typeof ConnectorTestResult>;

export const UnmatchedRemoteUser = component('UnmatchedRemoteUser', described(v.object({
  remote_user_id: v.string(),
  email: v.string(),
}), 'A remote user no Gatehouse user matches by email (extension).'));
export type UnmatchedRemoteUser = v.InferOutput<typeof UnmatchedRemoteUser>;

export const ConnectorUserLink = component('ConnectorUserLink', described(v.object({
  remote_user_id: v.string(),
  email: described(v.string(), 'The email the connector gave for it (empty when it gives none: a PostgreSQL role).'),
  user_id: v.nullable(uuid),
}), 'A remote user and the person an admin linked it to (null: nobody) (extension).'));
export type ConnectorUserLink = v.InferOutput<typeof ConnectorUserLink>;

export const UnmatchedRemoteUserList = component('UnmatchedRemoteUserList', v.object({
  results: v.array(UnmatchedRemoteUser),
  next: v.nullable(v.string()),
  previous: v.nullable(v.string()),
}));

export const UnmatchedRemoteAccess = component('UnmatchedRemoteAccess', described(v.object({
  remote_user_id: described(v.string(), "The remote system's id of the user (a PostgreSQL login role's name)."),
  email: described(v.string(), "The remote user's email as the sync read it; empty when it gave none."),
  access_level_remote_id: described(v.string(), 'The level held ("" for the default).'),
  found_at: described(dateTime, 'When the sync that found it ran.'),
}), "Access the remote system holds on a resource or group for a remote user no Gatehouse user matches by email, as the app's last sync found it (extension)."));
export type UnmatchedRemoteAccess = v.InferOutput<typeof UnmatchedRemoteAccess>;

export const UnmatchedRemoteAccessList = component('UnmatchedRemoteAccessList', v.object({
  results: v.array(UnmatchedRemoteAccess),
  next: v.nullable(v.string()),
  previous: v.nullable(v.string()),
}));

export const ConnectorSyncResult = component('ConnectorSyncResult', described(v.object({
  ok: described(v.boolean(), 'The sync read everything and wrote it.'),
  error: v.nullable(described(v.string(), 'Why it failed, or where it stopped.')),
  truncated: described(v.boolean(), 'It stopped at a bound before the end: what it read is written; access missing remotely is not pushed again (a partial reading cannot tell).'),
  stopped_at: described(v.nullable(v.picklist(STOP_REASONS)), 'The bound that stopped it: max_items, max_bytes, max_ms (GATEHOUSE_CONNECTOR_SYNC_MAX_*), page_items (GATEHOUSE_CONNECTOR_PAGE_MAX_ITEMS), response_bytes (GATEHOUSE_CONNECTOR_MAX_RESPONSE_BYTES).'),
  items_read: integer,
  bytes_read: integer,
  items_refused: described(integer, "Remote items skipped for failing the API's checks, each a sync error naming it."),
  users: integer,
  users_matched: integer,
  users_unmatched: integer,
  users_lost: described(integer, 'Remote users known before that this full sync no longer read: forgotten, their links dropped (the next push matches or creates them again).'),
  resources_created: integer,
  resources_updated: integer,
  groups_created: integer,
  groups_updated: integer,
  remote_access: integer,
  drift_found: integer,
  drift_imported: integer,
  drift_removed: integer,
  pushed_again: integer,
}), 'What one sync did: counts only, never the lists (they are paged: unmatched users, sync errors, propagations).'));
export type ConnectorSyncResult = v.InferOutput<typeof ConnectorSyncResult>;

export const ConnectorRetryResult = component('ConnectorRetryResult', v.object({
  requeued: integer,
}));
export type ConnectorRetryResult = v.InferOutput<typeof ConnectorRetryResult>;

export const Propagation = component('Propagation', described(v.object({
  app_id: uuid,
  edge_kind: v.picklist(EDGE_KIND_NAMES),
  principal_id: uuid,
  principal_name: v.nullable(v.string()),
  item_id: uuid,
  access_level_remote_id: v.string(),
  desired: v.picklist(['PRESENT', 'ABSENT']),
  status: PropagationStatusEnum,
  state: described(v.picklist(['PENDING', 'FAILED']), 'FAILED: given up; POST /v1/apps/{app_id}/connector/retry queues it again.'),
  attempts: integer,
  last_error: v.nullable(v.string()),
  next_attempt_at: v.nullable(dateTime),
  updated_at: dateTime,
}), "Where one access edge's remote copy stands (extension)."));
export type Propagation = v.InferOutput<typeof Propagation>;

export const PropagationList = component('PropagationList', v.object({
  results: v.array(Propagation),
  next: v.nullable(v.string()),
}));

export const ItemAccessLevels = component('ItemAccessLevels', described(v.object({
  connector: v.nullable(described(v.object({ connector_type: v.string(), name: v.string() }), 'The connector that carries access to the item\'s app, or null when it has none (then every level is Gatehouse\'s own record and carries what it says).')),
  access_levels: v.array(v.object({
    access_level_name: v.string(),
    access_level_remote_id: v.string(),
    carries_access: described(v.boolean(), 'Whether access at this level changes anything in the connected system (always true without a connector).'),
    note: v.optional(described(v.string(), 'When it carries nothing: why, in words a requester reads.')),
  })),
}), 'An item\'s access levels and which of them reach its connected system: a form offers only those that do.'));
export type ItemAccessLevels = v.InferOutput<typeof ItemAccessLevels>;
