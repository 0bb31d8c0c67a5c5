// The connectors area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { EDGE_KIND_NAMES } from '../access/edges.ts';
import { CONNECTOR_TYPES, DRIFT_POLICIES } from './schemas.ts';
import { component, uuid, dateTime, integer, described } from '../../openapi/responses.ts';
import { PropagationStatusEnum } from '../../openapi/components/enums.ts';

export const Connector = component('Connector', described(v.object({
  app_id: uuid,
  connector_type: described(v.picklist(CONNECTOR_TYPES), "OPAL_HTTP for CUSTOM_CONNECTOR apps (Opal's connector protocol), POSTGRES for POSTGRES apps."),
  url: v.nullable(described(v.string(), "OPAL_HTTP: the connector's base URL.")),
  signing_secret: v.nullable(described(v.string(), 'OPAL_HTTP: masked.')),
  connection_url: v.nullable(described(v.string(), 'POSTGRES: with its password masked.')),
  timeout_ms: v.pipe(integer, v.minValue(100), v.maxValue(300000)),
  drift_policy: described(v.picklist(DRIFT_POLICIES), 'What a sync does with access present remotely but not in Gatehouse: REPORT (a sync error), IMPORT (added, status null), REMOVE (removed remotely).'),
  last_sync_at: v.nullable(dateTime),
  last_successful_sync: v.nullable(dateTime),
  propagation_counts: described(v.record(v.string(), integer), 'Propagations by status (SYNCED: imported by sync, status null).'),
  unmatched_remote_users: described(v.array(v.object({
    remote_user_id: v.string(),
    email: v.string(),
  })), 'Remote users no Gatehouse user matches by email.'),
  created_at: dateTime,
  updated_at: dateTime,
}), "An app's connector (extension): where its access changes are pushed and synced from. Secrets are masked."));
export type Connector = v.InferOutput<typeof Connector>;

export const ConnectorTestResult = component('ConnectorTestResult', v.object({
  ok: v.boolean(),
  status: described(v.string(), 'SUCCESS, or the PropagationStatusEnum value the failure maps to.'),
  error: v.nullable(v.string()),
}));
export type ConnectorTestResult = v.InferOutput<typeof ConnectorTestResult>;

export const ConnectorSyncResult = component('ConnectorSyncResult', v.object({
  ok: v.boolean(),
  error: v.nullable(v.string()),
  users: integer,
  users_matched: integer,
  unmatched_remote_users: described(v.array(v.object({
    remote_user_id: v.string(),
    email: v.string(),
  })), 'Remote users no Gatehouse user matches by email.'),
  resources_created: integer,
  resources_updated: integer,
  groups_created: integer,
  groups_updated: integer,
  remote_access: integer,
  drift_found: integer,
  drift_imported: integer,
  drift_removed: integer,
  pushed_again: integer,
}));
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
