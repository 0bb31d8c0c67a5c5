// Connector use cases: set and show an app's connector (secrets masked), test it, sync it, retry its
// failed pushes, list propagations not yet SUCCESS; and the scheduled sync job.
import * as v from 'valibot';
import type { AppContext } from '../../context.ts';
import type { PageQuery } from '../../http/common-schemas.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import { retryFailed } from '../../outbox/index.ts';
import type { Actor } from '../events/store.ts';
import { adapterFor, CONNECTOR_KINDS, kindOfApp } from './adapters.ts';
import { maskConfiguration, mergeConfiguration, secretChanged } from './configuration.ts';
import { bringPersonsPushesForward, PUSH_KIND } from './propagation.ts';
import type { LinkRemoteUserInput, PutConnectorInput } from './schemas.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import type { ConnectorRow } from './store.ts';
import { SYNC_ACTOR, syncConnector, type SyncSummary } from './sync.ts';
import type { ConnectorType, ConnectorUserLink } from './responses.ts';
import type { SecretMask } from './adapter.ts';
import { toApiConnector, toApiPropagation } from './mappers.ts';

/** Every connector type, as its adapter declares it (GET /v1/connector-types): the console's form is drawn from its fields. */
export function listConnectorTypes(): { results: ConnectorType[] } {
  return {
    results: CONNECTOR_KINDS.map((kind) => ({
      connector_type: kind.type,
      name: kind.name,
      app_type: kind.appType,
      resource_type: kind.resourceType,
      edge_kinds: [...kind.kinds],
      configuration: Object.entries(kind.configuration.entries).map(([field, schema]) => ({
        name: field,
        title: v.getTitle(schema) ?? field,
        description: v.getDescription(schema) ?? '',
        required: schema.type !== 'optional' && schema.type !== 'nullish' && schema.type !== 'exact_optional',
        secret: (kind.secrets as Record<string, SecretMask | undefined>)[field] ?? null,
      })),
    })) as ConnectorType[],
  };
}

function requireApp(ctx: AppContext, appId: string) {
  const app = ctx.stores.apps.get(appId);
  if (!app) throw notFound('app', appId, 'app_id');
  return app;
}

function requireConnector(ctx: AppContext, appId: string): ConnectorRow {
  requireApp(ctx, appId);
  const row = ctx.stores.connectors.get(appId);
  if (!row) throw new AppError('not_found', `app ${appId} has no connector; PUT /v1/apps/${appId}/connector sets one`, [{ path: 'app_id', message: 'has no connector' }]);
  return row;
}

/**
 * Sets (or replaces) an app's connector and records CONNECTORS_UPDATED (secrets masked). The app's type
 * decides the connector type (the kind whose appType it is), and that kind's schema checks the
 * configuration's fields (CUSTOM_CONNECTOR: url, signing_secret; POSTGRES: connection_url). A field not
 * sent keeps its stored value; a secret sent as the mask GET shows keeps the stored one. Throws not_found
 * for an unknown app, validation_failed naming the field otherwise.
 */
export function putConnector(ctx: AppContext, actor: Actor, appId: string, input: PutConnectorInput) {
  const now = ctx.clock.now();
  return ctx.db.transaction(() => {
    const app = requireApp(ctx, appId);
    const kind = kindOfApp(app.app_type);
    if (!kind) throw invalidField('app_id', `is an app of type ${app.app_type}; connectors are for apps of type ${CONNECTOR_KINDS.map((k) => `${k.appType} (${k.name})`).join(' or ')}`);
    const old = ctx.stores.connectors.get(appId);
    // A connector of another type (the app's type changed): nothing stored is this kind's.
    const stored = old !== undefined && kind.type === old.connector_type ? old.configuration : undefined;
    const { timeout_ms: timeoutMs, drift_policy: driftPolicy, ...sent } = input;
    const configuration = mergeConfiguration(kind, sent, stored);
    ctx.stores.connectors.save({ app_id: appId, connector_type: kind.type, configuration, timeout_ms: timeoutMs, drift_policy: driftPolicy }, now);
    ctx.stores.events.record(actor, 'CONNECTORS_UPDATED', [{
      sub_event_type: 'CONNECTORS_UPDATED', app_id: appId, app_name: app.name, connector_type: kind.type, ...maskConfiguration(kind, configuration),
      timeout_ms: timeoutMs, drift_policy: driftPolicy, secret_changed: secretChanged(kind, stored, configuration),
    }]);
    return toApiConnector(ctx, ctx.stores.connectors.get(appId)!);
  }).immediate();
}

export function getConnector(ctx: AppContext, appId: string) {
  return toApiConnector(ctx, requireConnector(ctx, appId));
}

/** Removes an app's connector (queued pushes then finish as nothing to do) and records CONNECTORS_DELETED. */
export function deleteConnector(ctx: AppContext, actor: Actor, appId: string): void {
  ctx.db.transaction(() => {
    requireConnector(ctx, appId);
    ctx.stores.connectors.remove(appId);
    ctx.stores.events.record(actor, 'CONNECTORS_DELETED', [{ sub_event_type: 'CONNECTORS_DELETED', app_id: appId }]);
  }).immediate();
}

/** Calls the connector's status check (outside any transaction), records CONNECTORS_TESTED with the answer. */
export async function testConnector(ctx: AppContext, actor: Actor, appId: string) {
  const connector = requireConnector(ctx, appId);
  const attempt = await adapterFor(ctx, connector).status();
  const result = attempt.ok
    ? { ok: true, status: 'SUCCESS', error: null }
    : { ok: false, status: attempt.code ?? 'ERR_UNKNOWN', error: attempt.error };
  ctx.db.transaction(() => {
    ctx.stores.events.record(actor, 'CONNECTORS_TESTED', [{ sub_event_type: 'CONNECTORS_TESTED', app_id: appId, ...result }]);
  }).immediate();
  return result;
}

/** The app's remote users no Gatehouse user matches, a keyset page by remote id. Throws not_found for an app without a connector. */
export function listUnmatchedUsers(ctx: AppContext, appId: string, query: PageQuery) {
  requireConnector(ctx, appId);
  const list = `connector-unmatched:${appId}`;
  const after = ctx.pager.after(list, query);
  const rows = ctx.stores.connectors.unmatchedUsers(appId, after === null ? '' : (after as [string, number])[0], query.page_size + 1);
  return ctx.pager.page(list, query, rows, (row) => [row.remote_user_id, 0], (row) => row);
}

/**
 * Links a remote user the connector's sync read to a person, by an admin's choice (`user_id` null: to
 * nobody), and records CONNECTOR_USERS_LINKED. The adapter may refuse the account (PostgreSQL: its own
 * login, a role with privileges Gatehouse never grants), asked outside any transaction. Throws not_found
 * for an unknown app or user, validation_failed naming the field otherwise.
 */
export async function linkRemoteUser(ctx: AppContext, actor: Actor, appId: string, input: LinkRemoteUserInput): Promise<ConnectorUserLink> {
  const connector = requireConnector(ctx, appId);
  const known = () => {
    const link = ctx.stores.connectors.linkOf(appId, input.remote_user_id);
    if (!link) throw invalidField('remote_user_id', 'is no remote user the connector\'s syncs have read (sync first)');
    return link;
  };
  known();
  if (input.user_id !== null) {
    const user = ctx.stores.users.get(input.user_id);
    if (!user) throw notFound('user', input.user_id, 'user_id');
    if (isOffboarded(user.hr_idp_status)) throw invalidField('user_id', 'is offboarded: an offboarded person holds nothing');
    const checked = await adapterFor(ctx, connector).checkLink?.(input.remote_user_id);
    if (checked && !checked.ok) throw invalidField('remote_user_id', checked.error);
  }
  return ctx.db.transaction(() => {
    const before = known();
    ctx.stores.connectors.mapUser(appId, input.remote_user_id, input.user_id);
    ctx.stores.events.record(actor, 'CONNECTOR_USERS_LINKED', [{
      sub_event_type: 'CONNECTOR_USERS_LINKED', app_id: appId, remote_user_id: input.remote_user_id, user_id: input.user_id, previous_user_id: before.user_id,
    }]);
    // What waited for this person's account goes now, not at its next back-off (durably: in this transaction).
    if (input.user_id !== null) bringPersonsPushesForward(ctx, appId, input.user_id);
    return { remote_user_id: before.remote_user_id, email: before.email, user_id: input.user_id };
  }).immediate();
}

/** Runs a sync now and answers when it is done, with its counts. */
export async function syncNow(ctx: AppContext, actor: Actor, appId: string): Promise<SyncSummary> {
  requireConnector(ctx, appId);
  return syncConnector(ctx, actor, appId);
}

/** Puts the app's FAILED pushes back in the queue, due now; returns how many. */
export function retryConnector(ctx: AppContext, actor: Actor, appId: string): { requeued: number } {
  return ctx.db.transaction(() => {
    requireConnector(ctx, appId);
    const rows = retryFailed(ctx, actor, PUSH_KIND, `connector:${appId}:`);
    const now = ctx.clock.now().toISOString();
    for (const row of rows) {
      ctx.stores.connectors.settle(row.key, row.seq, { status: 'PENDING', state: 'PENDING', error: row.last_error, next: now, attempts: 0 }, now);
    }
    return { requeued: rows.length };
  }).immediate();
}

/** Every propagation not (yet) SUCCESS, by edge key, paged by an opaque cursor. Throws not_found for an unknown app. */
export function listUnfinished(ctx: AppContext, query: { app_id?: string | undefined; cursor?: string | undefined; page_size: number }) {
  if (query.app_id !== undefined) requireApp(ctx, query.app_id);
  let after = '';
  if (query.cursor) {
    try {
      after = Buffer.from(query.cursor, 'base64url').toString('utf8');
    } catch {
      throw invalidField('cursor', 'is not a cursor this list gave');
    }
  }
  const rows = ctx.stores.connectors.unfinished(query.app_id ?? null, after, query.page_size + 1);
  const page = rows.slice(0, query.page_size);
  const next = rows.length > query.page_size ? Buffer.from(page[page.length - 1]!.edge_key).toString('base64url') : null;
  return { results: page.map((row) => toApiPropagation(ctx, row)), next: next };
}

/** The scheduled sync: every connector whose last sync is older than the interval (none when it is 0), each within the sync bounds. */
export async function tick(ctx: AppContext, now: Date, stop?: AbortSignal): Promise<number> {
  const every = ctx.config.connectorSyncIntervalMs;
  if (every === 0) return 0;
  let synced = 0;
  for (const connector of ctx.stores.connectors.all()) {
    if (stop?.aborted) break;
    if (connector.last_sync_at && Date.parse(connector.last_sync_at) + every > now.getTime()) continue;
    try {
      await syncConnector(ctx, SYNC_ACTOR, connector.app_id, stop);
    } catch (err) {
      // A sync of this app asked for by hand is running: it is this hour's sync.
      if (err instanceof AppError && err.code === 'conflict') continue;
      throw err;
    }
    synced += 1;
  }
  return synced;
}

/**
 * One page of the access the app's last sync found held in the remote system on the resource or group
 * by remote users no Gatehouse user matches. Throws not_found naming `resource_id` / `group_id` for an unknown item.
 */
export function listUnmatchedAccess(ctx: AppContext, type: 'resource' | 'group', itemId: string, query: PageQuery) {
  // Admins pass the visibility guard for any id: an unknown item is 404 here, as on its other routes.
  if (!ctx.stores.connectors.placeOf(type, itemId)) throw notFound(type, itemId, `${type}_id`);
  const list = `unmatched-access:${itemId}`;
  const rows = ctx.stores.connectors.unmatchedAccessOf(type, itemId, ctx.pager.afterSeq(list, query) ?? 0, query.page_size + 1);
  return ctx.pager.page(list, query, rows, (row) => row.seq, ({ seq: _seq, ...row }) => row);
}
