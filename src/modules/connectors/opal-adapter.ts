// The Opal-protocol connector (connector type OPAL_HTTP, apps of type CUSTOM_CONNECTOR): any existing Opal
// custom connector, called exactly as Opal calls it, configured by its base URL and signing secret.
import * as v from 'valibot';
import type { AppContext } from '../../context.ts';
import { Text } from '../../http/common-schemas.ts';
import type { Attempt } from '../../outbox/index.ts';
import { WebhookUrl } from '../event-streams/schemas.ts';
import { defineConnectorKind, type ConnectorAdapter, type PushTarget, type RemoteBatch, type RemoteUserAnswer } from './adapter.ts';
import { callOpal, readPages, type OpalEndpoint } from './opal-http.ts';
import { describeAnswer, failureOf, notFoundSubject, readOutcome, writeOutcome } from './outcomes.ts';
import { checkRemote, fieldsOf, quoteRemote, RemoteEdge, RemoteItem, RemoteLevel, RemoteUser } from './remote-schemas.ts';
import type { ConnectorRow } from './store.ts';
import { recordMadeUser } from './made-users.ts';
import { SyncBudget } from './sync-budget.ts';
import { addressPolicy } from '../../http/outbound.ts';

const enc = encodeURIComponent;

/** An Opal connector's configuration: where it is, and the secret its calls are signed with. */
const OpalConfiguration = v.object({
  url: v.pipe(WebhookUrl, v.title('Connector URL'), v.description('The connector\'s base URL (http or https). A token in its query string is kept secret like the signing secret.')),
  signing_secret: v.pipe(Text(1000), v.minLength(1, 'must not be empty'), v.title('Signing secret'), v.description('Shared with the connector, which checks each call\'s signature with it.')),
});
type OpalConfiguration = v.InferOutput<typeof OpalConfiguration>;

export function opalEndpoint(ctx: AppContext, connector: ConnectorRow, configuration: OpalConfiguration): OpalEndpoint {
  return {
    url: configuration.url,
    signingSecret: configuration.signing_secret,
    timeoutMs: connector.timeout_ms,
    appId: connector.app_id,
    addresses: addressPolicy(ctx.config),
    nowSeconds: () => Math.floor(ctx.clock.now().getTime() / 1000),
    maxAnswerBytes: ctx.config.connectorMaxResponseBytes,
  };
}

/** A page of `/users` in the schema's field names (a user without an email is kept, unmatched). */
const usersOf = (page: unknown[]) => page.map((raw) => {
  const u = fieldsOf(raw);
  return { id: u.id, email: u.email ?? '' };
});

/** A page of `/resources` or `/groups` in the schema's field names (no name: the id). */
const itemsOf = (page: unknown[]) => page.map((raw) => {
  const r = fieldsOf(raw);
  return { id: r.id, name: r.name ?? r.id, ...(r.description !== undefined && r.description !== null && { description: r.description }) };
});

/**
 * Reads the connector's users (within the sync bounds) and links them to Gatehouse users by email, a
 * short write per page on later turns. Users failing the checks are skipped.
 */
export async function refreshRemoteUsers(ctx: AppContext, connector: ConnectorRow, endpoint: OpalEndpoint, signal?: AbortSignal): Promise<void> {
  const budget = new SyncBudget(ctx);
  for await (const page of readPages(endpoint, '/users', 'users', budget, signal)) {
    const { ok } = checkRemote(RemoteUser, usersOf(page), 'remote user');
    ctx.db.transaction(() => {
      for (const user of ok) ctx.stores.connectors.linkUser(connector.app_id, user.id, user.email);
    }).immediate();
  }
}

/** A remote user id as a connector may give one: text, one line, a sane length (remote data is input). */
const REMOTE_ID = /^[^\u0000-\u001f\u007f]{1,200}$/;

/**
 * Creates the person in a connector that creates users (`POST /users` with `{user_id, attributes}`,
 * answering `{remote_user_id}`, as Opal's connector spec has it) and remembers Gatehouse made them. A
 * connector without the route (404, 405, 501) keeps today's answer: ERR_REMOTE_USER_NOT_FOUND.
 */
async function createRemoteUser(ctx: AppContext, connector: ConnectorRow, endpoint: OpalEndpoint, userId: string, signal?: AbortSignal): Promise<RemoteUserAnswer> {
  const user = ctx.stores.users.get(userId);
  const notFound = { code: 'ERR_REMOTE_USER_NOT_FOUND', error: 'the connector lists no user with this user\'s email, and does not create users (POST /users)' };
  if (!user) return notFound;
  const attributes = { email: user.email, first_name: user.first_name, last_name: user.last_name, ...(user.position !== '' && { title: user.position }) };
  const result = await callOpal(endpoint, 'POST', '/users', { body: { user_id: userId, attributes } }, signal);
  if (result.answered && (result.status === 404 || result.status === 405 || result.status === 501)) return notFound;
  if (result.answered && result.status === 409) {
    // It exists after all (made meanwhile): read the users again and match by email.
    try {
      await refreshRemoteUsers(ctx, connector, endpoint, signal);
    } catch (err) {
      return failureOf(err, 'could not read the connector\'s users');
    }
    const found = ctx.stores.connectors.remoteUserOf(connector.app_id, userId);
    return found ? { id: found } : notFound;
  }
  const outcome = writeOutcome(result, false);
  if (!outcome.ok) return { code: outcome.code, error: outcome.error };
  const remoteId = (result as { json?: { remote_user_id?: unknown } }).json?.remote_user_id;
  if (typeof remoteId !== 'string' || !REMOTE_ID.test(remoteId)) {
    return { code: 'ERR_REMOTE_UNRECOVERABLE_ERROR', error: 'POST /users answered without a usable remote_user_id (1 to 200 characters, one line)' };
  }
  const recorded = recordMadeUser(ctx, connector.app_id, remoteId, user);
  return recorded.ok ? { id: remoteId } : { code: recorded.code, error: recorded.error, permanent: true };
}

function openOpalAdapter(ctx: AppContext, connector: ConnectorRow, configuration: OpalConfiguration): ConnectorAdapter {
  const endpoint = opalEndpoint(ctx, connector, configuration);
  return {
    async status(signal) {
      const result = await callOpal(endpoint, 'GET', '/status', {}, signal);
      if (result.answered && result.status >= 200 && result.status < 300) return { ok: true };
      const outcome = writeOutcome(result, false);
      return outcome.ok ? { ok: false, error: result.answered ? describeAnswer(result) : 'no answer', code: 'ERR_REMOTE_UNRECOVERABLE_ERROR' } : { ...outcome, ok: false };
    },

    async push(target: PushTarget, signal): Promise<Attempt> {
      const level = target.level === '' ? undefined : target.level;
      const p = enc(target.remotePrincipalId);
      const i = enc(target.remoteItemId);
      let result;
      switch (target.kind) {
        case 'resource_user':
          result = target.present
            ? await callOpal(endpoint, 'POST', `/resources/${i}/users`, { body: { user_id: target.remotePrincipalId, ...(level && { access_level_id: level }) } }, signal)
            : await callOpal(endpoint, 'DELETE', `/resources/${i}/users/${p}`, { query: { access_level_id: level } }, signal);
          break;
        case 'group_user':
          result = target.present
            ? await callOpal(endpoint, 'POST', `/groups/${i}/users`, { body: { user_id: target.remotePrincipalId } }, signal)
            : await callOpal(endpoint, 'DELETE', `/groups/${i}/users/${p}`, {}, signal);
          break;
        case 'group_resource':
          // The group holds the resource: the group is the path's group, the resource the item.
          result = target.present
            ? await callOpal(endpoint, 'POST', `/groups/${p}/resources`, { body: { resource_id: target.remoteItemId, ...(level && { access_level_id: level }) } }, signal)
            : await callOpal(endpoint, 'DELETE', `/groups/${p}/resources/${i}`, { query: { access_level_id: level } }, signal);
          break;
        case 'group_group':
          result = target.present
            ? await callOpal(endpoint, 'POST', `/groups/${i}/member-groups`, { body: { group_id: target.remotePrincipalId } }, signal)
            : await callOpal(endpoint, 'DELETE', `/groups/${i}/member-groups/${p}`, {}, signal);
          break;
        default:
          return { ok: false, code: 'ERR_OPERATION_UNSUPPORTED', error: `the Opal protocol has no ${target.kind} edges`, permanent: true };
      }
      const outcome = writeOutcome(result, !target.present);
      if (outcome.ok) return outcome;
      // A grant's "not found" that names neither (the spec's EntityNotFoundError says what the connector
      // likes): when the resource or group is there, the user is what is missing — a connector that lost
      // its accounts — and the push heals (propagation.ts) instead of retrying a stale id for a day.
      if (target.present && (target.kind === 'resource_user' || target.kind === 'group_user') && result.answered && result.status === 404 && notFoundSubject(result) === 'unknown') {
        const item = await callOpal(endpoint, 'GET', `${target.kind === 'resource_user' ? '/resources' : '/groups'}/${i}`, {}, signal);
        if (readOutcome(item).ok) return { ok: false, code: 'ERR_REMOTE_USER_NOT_FOUND', error: `${outcome.error} (the ${target.kind === 'resource_user' ? 'resource' : 'group'} is there: the user is not)` };
      }
      return { ...outcome, ok: false };
    },

    async remoteUser(ctx2, userId, signal) {
      const known = ctx2.stores.connectors.remoteUserOf(connector.app_id, userId);
      if (known) return { id: known };
      try {
        await refreshRemoteUsers(ctx2, connector, endpoint, signal);
      } catch (err) {
        return failureOf(err, 'could not read the connector\'s users');
      }
      const found = ctx2.stores.connectors.remoteUserOf(connector.app_id, userId);
      if (found) return { id: found };
      return createRemoteUser(ctx2, connector, endpoint, userId, signal);
    },

    async deprovisionUser(remoteUserId, signal) {
      const result = await callOpal(endpoint, 'DELETE', `/users/${enc(remoteUserId)}`, {}, signal);
      // A connector without DELETE /users (404 for a route it lacks, 405, 501) has nothing to remove: its account stays.
      if (result.answered && (result.status === 405 || result.status === 501)) return { ok: true };
      const outcome = writeOutcome(result, true);
      return outcome.ok ? outcome : { ...outcome, ok: false };
    },

    async *read(budget, signal): AsyncGenerator<RemoteBatch> {
      const pages = (path: string, field: string | string[], options?: { missingIsEmpty?: boolean }) => readPages(endpoint, path, field, budget, signal, options);
      /** The checked items of a page, after a batch naming those refused (if any). */
      async function* checked<S extends Parameters<typeof checkRemote>[0]>(schema: S, raws: Record<string, unknown>[], what: string) {
        const { ok, refused } = checkRemote(schema, raws, what);
        if (refused.length > 0) yield { type: 'refused', refused } as const;
        return ok as ReturnType<typeof checkRemote<S>>['ok'];
      }
      for await (const page of pages('/users', 'users')) {
        yield { type: 'users', users: yield* checked(RemoteUser, usersOf(page), 'remote user') };
      }
      for await (const page of pages('/resources', 'resources')) {
        for (const r of yield* checked(RemoteItem, itemsOf(page), 'remote resource')) {
          const levels: RemoteLevel[] = [];
          for await (const levelPage of pages(`/resources/${enc(r.id)}/access_levels`, 'access_levels')) {
            const raws = levelPage.map((raw) => ({ id: fieldsOf(raw).id, name: fieldsOf(raw).name ?? fieldsOf(raw).id }));
            levels.push(...(yield* checked(RemoteLevel, raws, `access level of remote resource ${quoteRemote(r.id)}`)));
          }
          yield { type: 'resource', resource: { ...r, access_levels: levels } };
          for await (const userPage of pages(`/resources/${enc(r.id)}/users`, 'users')) {
            const raws = userPage.map((raw) => ({ principal: fieldsOf(raw).user_id, item: r.id, level: fieldsOf(fieldsOf(raw).access_level).id ?? '' }));
            yield { type: 'edges', kind: 'resource_user', edges: yield* checked(RemoteEdge, raws, `remote access of user to resource ${quoteRemote(r.id)}:`) };
          }
        }
      }
      // Every group first: a group's member groups may come later in the list.
      const groupIds: string[] = [];
      for await (const page of pages('/groups', 'groups')) {
        const groups = yield* checked(RemoteItem, itemsOf(page), 'remote group');
        groupIds.push(...groups.map((g) => g.id));
        yield { type: 'groups', groups };
      }
      for (const g of groupIds) {
        const what = `remote access to group ${quoteRemote(g)}:`;
        for await (const page of pages(`/groups/${enc(g)}/users`, 'users')) {
          yield { type: 'edges', kind: 'group_user', edges: yield* checked(RemoteEdge, page.map((raw) => ({ principal: fieldsOf(raw).user_id, item: g, level: '' })), what) };
        }
        for await (const page of pages(`/groups/${enc(g)}/resources`, 'resources')) {
          const raws = page.map((raw) => ({ principal: g, item: fieldsOf(raw).resource_id, level: fieldsOf(fieldsOf(raw).access_level).id ?? '' }));
          yield { type: 'edges', kind: 'group_resource', edges: yield* checked(RemoteEdge, raws, `remote access of group ${quoteRemote(g)} to a resource:`) };
        }
        // The spec leaves this list's shape open: member_groups or groups, each with group_id (or id); a connector without it has none.
        for await (const page of pages(`/groups/${enc(g)}/member-groups`, ['member_groups', 'groups'], { missingIsEmpty: true })) {
          yield { type: 'edges', kind: 'group_group', edges: yield* checked(RemoteEdge, page.map((raw) => ({ principal: fieldsOf(raw).group_id ?? fieldsOf(raw).id, item: g, level: '' })), what) };
        }
      }
    },
  };
}

/** Opal's connector protocol: CUSTOM_CONNECTOR apps; it carries resource users and group users, resources and groups held by groups. */
export const opalConnector = defineConnectorKind({
  type: 'OPAL_HTTP',
  name: 'Opal connector protocol',
  appType: 'CUSTOM_CONNECTOR',
  resourceType: 'CUSTOM_CONNECTOR',
  configuration: OpalConfiguration,
  secrets: { signing_secret: 'secret', url: 'url' },
  kinds: ['resource_user', 'group_user', 'group_resource', 'group_group'],
  // The reference names a connector's resource by remote_info.custom_connector.
  remoteInfo: (remoteResourceId) => ({ custom_connector: { remote_resource_id: remoteResourceId, can_have_usage_events: false } }),
  open: openOpalAdapter,
});
