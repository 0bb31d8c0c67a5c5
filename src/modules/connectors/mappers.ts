// The connectors area's mappers: its rows as the API objects its responses.ts declares; no SQL of their own (an answer's counts and names come through ctx.stores).
import type { AppContext } from '../../context.ts';
import { kindOf, CONNECTOR_KINDS } from './adapters.ts';
import { maskConfiguration } from './configuration.ts';
import type { ConnectorRow, UnfinishedPropagationRow } from './store.ts';
import type { Connector, Propagation } from './responses.ts';

/** Every configuration field of every connector type, null: an answer shows the others' fields as null. */
const NO_FIELDS = Object.fromEntries(CONNECTOR_KINDS.flatMap((kind) => Object.keys(kind.configuration.entries)).map((field) => [field, null]));

/** The API's Connector: the configuration's fields at the top level, secrets masked (the kind's list). */
export function toApiConnector(ctx: AppContext, row: ConnectorRow): Connector {
  return {
    app_id: row.app_id,
    connector_type: row.connector_type,
    ...NO_FIELDS,
    ...maskConfiguration(kindOf(row.connector_type), row.configuration),
    timeout_ms: row.timeout_ms,
    drift_policy: row.drift_policy,
    last_sync_at: row.last_sync_at,
    last_successful_sync: row.last_successful_sync,
    propagation_counts: ctx.stores.connectors.statusCounts(row.app_id),
    unmatched_remote_users_count: ctx.stores.connectors.unmatchedCount(row.app_id),
    created_at: row.created_at,
    updated_at: row.updated_at,
  } as Connector;
}

export function toApiPropagation(ctx: AppContext, row: UnfinishedPropagationRow): Propagation {
  return {
    app_id: row.app_id,
    edge_kind: row.kind,
    principal_id: row.principal_id,
    item_id: row.item_id,
    access_level_remote_id: row.access_level_remote_id,
    desired: row.desired,
    status: row.status,
    state: row.outbox_state === 'FAILED' ? 'FAILED' : 'PENDING',
    attempts: row.attempts,
    last_error: row.last_error,
    next_attempt_at: row.outbox_state === 'FAILED' ? null : row.next_attempt_at,
    updated_at: row.updated_at,
    principal_name: ctx.stores.access.describe(row.kind.startsWith('group_') ? 'group' : 'user', row.principal_id)?.name ?? null,
  };
}
