// The connectors module's operations in Gatehouse's API document (format: src/openapi/operations.ts). All extensions.
import { defineRoutes } from '../../http/route.ts';
import { component, EmptyObject } from '../../openapi/schema.ts';
import { PropagationStatusEnum } from '../../openapi/components/enums.ts';
import { CONNECTOR_TYPES, DRIFT_POLICIES, ListPropagationsQuery, ListUnmatchedUsersQuery, PutConnectorBody } from './schemas.ts';
import { STOP_REASONS } from './sync-budget.ts';

const nullableText = { type: ['string', 'null'] };
const nullableTime = { type: ['string', 'null'], format: 'date-time' };

export const Connector = component('Connector', {
  description: 'An app\'s connector (extension): where its access changes are pushed and synced from. Secrets are masked.',
  type: 'object',
  properties: {
    app_id: { type: 'string', format: 'uuid' },
    connector_type: { type: 'string', enum: [...CONNECTOR_TYPES], description: 'OPAL_HTTP for CUSTOM_CONNECTOR apps (Opal\'s connector protocol), POSTGRES for POSTGRES apps.' },
    url: { ...nullableText, description: 'OPAL_HTTP: the connector\'s base URL, its query values masked (a token may ride there).' },
    signing_secret: { ...nullableText, description: 'OPAL_HTTP: masked.' },
    connection_url: { ...nullableText, description: 'POSTGRES: with its password masked, in the user info or as a query value (settings such as sslmode are shown).' },
    timeout_ms: { type: 'integer', minimum: 100, maximum: 300000 },
    drift_policy: { type: 'string', enum: [...DRIFT_POLICIES], description: 'What a sync does with access present remotely but not in Gatehouse: REPORT (a sync error), IMPORT (added, status null), REMOVE (removed remotely).' },
    last_sync_at: nullableTime,
    last_successful_sync: nullableTime,
    propagation_counts: { type: 'object', additionalProperties: { type: 'integer' }, description: 'Propagations by status (SYNCED: imported by sync, status null).' },
    unmatched_remote_users_count: {
      type: 'integer',
      description: 'How many remote users no Gatehouse user matches by email; GET /v1/apps/{app_id}/connector/unmatched-users lists them, a page at a time.',
    },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
  required: ['app_id', 'connector_type', 'url', 'signing_secret', 'connection_url', 'timeout_ms', 'drift_policy', 'last_sync_at', 'last_successful_sync', 'propagation_counts', 'unmatched_remote_users_count', 'created_at', 'updated_at'],
});

export const ConnectorTestResult = component('ConnectorTestResult', {
  type: 'object',
  properties: {
    ok: { type: 'boolean' },
    status: { type: 'string', description: 'SUCCESS, or the PropagationStatusEnum value the failure maps to.' },
    error: nullableText,
  },
  required: ['ok', 'status', 'error'],
});

export const UnmatchedRemoteUser = component('UnmatchedRemoteUser', {
  description: 'A remote user no Gatehouse user matches by email (extension).',
  type: 'object',
  properties: { remote_user_id: { type: 'string' }, email: { type: 'string' } },
  required: ['remote_user_id', 'email'],
});

export const UnmatchedRemoteUserList = component('UnmatchedRemoteUserList', {
  type: 'object',
  properties: { results: { type: 'array', items: UnmatchedRemoteUser }, next: nullableText, previous: nullableText },
  required: ['results', 'next', 'previous'],
});

export const ConnectorSyncResult = component('ConnectorSyncResult', {
  description: 'What one sync did: counts only, never the lists (they are paged: unmatched users, sync errors, propagations).',
  type: 'object',
  properties: {
    ok: { type: 'boolean', description: 'The sync read everything and wrote it.' },
    error: { ...nullableText, description: 'Why it failed, or where it stopped.' },
    truncated: { type: 'boolean', description: 'It stopped at a bound before the end: what it read is written; access missing remotely is not pushed again (a partial reading cannot tell).' },
    stopped_at: { type: ['string', 'null'], enum: [...STOP_REASONS, null], description: 'The bound that stopped it: max_items, max_bytes, max_ms (GATEHOUSE_CONNECTOR_SYNC_MAX_*), page_items (GATEHOUSE_CONNECTOR_PAGE_MAX_ITEMS), response_bytes (GATEHOUSE_CONNECTOR_MAX_RESPONSE_BYTES).' },
    items_read: { type: 'integer' },
    bytes_read: { type: 'integer' },
    items_refused: { type: 'integer', description: 'Remote items skipped for failing the API\'s checks, each a sync error naming it.' },
    users: { type: 'integer' },
    users_matched: { type: 'integer' },
    users_unmatched: { type: 'integer' },
    resources_created: { type: 'integer' },
    resources_updated: { type: 'integer' },
    groups_created: { type: 'integer' },
    groups_updated: { type: 'integer' },
    remote_access: { type: 'integer' },
    drift_found: { type: 'integer' },
    drift_imported: { type: 'integer' },
    drift_removed: { type: 'integer' },
    pushed_again: { type: 'integer' },
  },
  required: ['ok', 'error', 'truncated', 'stopped_at', 'items_read', 'bytes_read', 'items_refused', 'users', 'users_matched', 'users_unmatched', 'resources_created', 'resources_updated', 'groups_created', 'groups_updated', 'remote_access', 'drift_found', 'drift_imported', 'drift_removed', 'pushed_again'],
});

export const ConnectorRetryResult = component('ConnectorRetryResult', {
  type: 'object',
  properties: { requeued: { type: 'integer' } },
  required: ['requeued'],
});

export const Propagation = component('Propagation', {
  description: 'Where one access edge\'s remote copy stands (extension).',
  type: 'object',
  properties: {
    app_id: { type: 'string', format: 'uuid' },
    edge_kind: { type: 'string', enum: ['resource_user', 'group_user', 'group_resource', 'group_group'] },
    principal_id: { type: 'string', format: 'uuid' },
    principal_name: nullableText,
    item_id: { type: 'string', format: 'uuid' },
    access_level_remote_id: { type: 'string' },
    desired: { type: 'string', enum: ['PRESENT', 'ABSENT'] },
    status: PropagationStatusEnum,
    state: { type: 'string', enum: ['PENDING', 'FAILED'], description: 'FAILED: given up; POST /v1/apps/{app_id}/connector/retry queues it again.' },
    attempts: { type: 'integer' },
    last_error: nullableText,
    next_attempt_at: nullableTime,
    updated_at: { type: 'string', format: 'date-time' },
  },
  required: ['app_id', 'edge_kind', 'principal_id', 'principal_name', 'item_id', 'access_level_remote_id', 'desired', 'status', 'state', 'attempts', 'last_error', 'next_attempt_at', 'updated_at'],
});

export const PropagationList = component('PropagationList', {
  type: 'object',
  properties: { results: { type: 'array', items: Propagation }, next: nullableText },
  required: ['results', 'next'],
});

export const connectorRoutes = defineRoutes('connectors', {
  'GET /v1/apps/{app_id}/connector': {
    role: 'admin-read', items: { app_id: null },
    summary: 'Get an app\'s connector',
    description: 'Secrets masked; with propagation counts and the remote users no user matches.',
    extension: true,
    responses: { 200: Connector },
  },
  'PUT /v1/apps/{app_id}/connector': {
    role: 'admin', items: { app_id: null },
    summary: 'Set an app\'s connector',
    description: 'CUSTOM_CONNECTOR apps: `url`, `signing_secret` (Opal\'s connector protocol); POSTGRES apps: `connection_url`. A secret sent back as GET masks it keeps the stored one.',
    extension: true,
    body: PutConnectorBody,
    responses: { 200: Connector },
  },
  'DELETE /v1/apps/{app_id}/connector': {
    role: 'admin', items: { app_id: null },
    summary: 'Remove an app\'s connector',
    extension: true,
    responses: { 200: EmptyObject },
  },
  'POST /v1/apps/{app_id}/connector/test': {
    role: 'admin', items: { app_id: null },
    summary: 'Test an app\'s connector',
    description: 'Calls the connector\'s `GET /status` (PostgreSQL: connects) and says what came back.',
    extension: true,
    responses: { 200: ConnectorTestResult },
  },
  'POST /v1/apps/{app_id}/connector/sync': {
    role: 'admin', items: { app_id: null },
    summary: 'Sync an app\'s connector now',
    description: 'Reads users, items and access from the connector within the sync bounds, writing as it reads in short slices; updates the catalogue and settles drift by the app\'s policy; answers when done, with counts and where it stopped. 409 while a sync of the app runs.',
    extension: true,
    responses: { 200: ConnectorSyncResult },
    errors: ['conflict'],
  },
  'GET /v1/apps/{app_id}/connector/unmatched-users': {
    role: 'admin-read', items: { app_id: null },
    summary: 'List an app\'s unmatched remote users',
    description: 'The remote users the connector\'s syncs read that no Gatehouse user matches by email, by remote id, a page at a time.',
    extension: true,
    query: ListUnmatchedUsersQuery,
    responses: { 200: UnmatchedRemoteUserList },
  },
  'POST /v1/apps/{app_id}/connector/retry': {
    role: 'admin', items: { app_id: null },
    summary: 'Retry an app\'s failed propagations',
    extension: true,
    responses: { 200: ConnectorRetryResult },
  },
  'GET /v1/propagations': {
    role: 'admin-read',
    summary: 'List propagations not yet SUCCESS',
    description: 'Every access change still on its way to (or failed at) a connector, with the last error and the next attempt. Admins only.',
    extension: true,
    query: ListPropagationsQuery,
    responses: { 200: PropagationList },
  },
});
