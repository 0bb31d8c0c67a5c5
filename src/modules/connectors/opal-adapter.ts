// The Opal-protocol connector: any existing Opal custom connector, called exactly as Opal calls it.
import type { AppContext } from '../../context.ts';
import type { Attempt } from '../../outbox/index.ts';
import type { AdapterFactory, ConnectorAdapter, PushTarget, RemoteSnapshot } from './adapter.ts';
import { callOpal, describeAnswer, readAll, writeOutcome, type OpalEndpoint } from './opal-http.ts';
import type { ConnectorRow } from './store.ts';

const enc = encodeURIComponent;

export function opalEndpoint(ctx: AppContext, connector: ConnectorRow): OpalEndpoint {
  return {
    url: connector.url!,
    signingSecret: connector.signing_secret!,
    timeoutMs: connector.timeout_ms,
    appId: connector.app_id,
    denyPrivate: ctx.config.eventStreamPrivateAddresses === 'deny',
    nowSeconds: () => Math.floor(ctx.clock.now().getTime() / 1000),
  };
}

/** Reads every user of the connector and links them to Gatehouse users by email (one short write). */
export async function refreshRemoteUsers(ctx: AppContext, connector: ConnectorRow, signal?: AbortSignal): Promise<{ id: string; email: string }[]> {
  const users = await readAll<{ id: string; email: string }>(opalEndpoint(ctx, connector), '/users', 'users', signal);
  const valid = users.filter((u) => u && typeof u.id === 'string' && typeof u.email === 'string');
  ctx.db.transaction(() => {
    for (const user of valid) ctx.stores.connectors.linkUser(connector.app_id, user.id, user.email);
  }).immediate();
  return valid;
}

function openOpalAdapter(ctx: AppContext, connector: ConnectorRow): ConnectorAdapter {
  const endpoint = opalEndpoint(ctx, connector);
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
      return outcome.ok ? outcome : { ...outcome, ok: false };
    },

    async remoteUser(ctx2, userId, signal) {
      const known = ctx2.stores.connectors.remoteUserOf(connector.app_id, userId);
      if (known) return { id: known };
      try {
        await refreshRemoteUsers(ctx2, connector, signal);
      } catch (err) {
        return { code: 'ERR_REMOTE_INTERNAL_ERROR', error: `could not read the connector's users: ${(err as Error).message}` };
      }
      const found = ctx2.stores.connectors.remoteUserOf(connector.app_id, userId);
      return found ? { id: found } : { code: 'ERR_REMOTE_USER_NOT_FOUND', error: 'the connector lists no user with this user\'s email' };
    },

    async snapshot(signal): Promise<RemoteSnapshot> {
      const users = await readAll<{ id: string; email: string }>(endpoint, '/users', 'users', signal);
      const resources: RemoteSnapshot['resources'] = [];
      const edges: RemoteSnapshot['edges'] = [];
      for (const r of await readAll<{ id: string; name: string; description?: string }>(endpoint, '/resources', 'resources', signal)) {
        const levels = await readAll<{ id: string; name: string }>(endpoint, `/resources/${enc(r.id)}/access_levels`, 'access_levels', signal);
        resources.push({ id: String(r.id), name: String(r.name ?? r.id), ...(r.description !== undefined && { description: String(r.description) }), access_levels: levels.map((l) => ({ id: String(l.id), name: String(l.name ?? l.id) })) });
        for (const u of await readAll<{ user_id: string; access_level?: { id: string } }>(endpoint, `/resources/${enc(r.id)}/users`, 'users', signal)) {
          edges.push({ kind: 'resource_user', principal: String(u.user_id), item: String(r.id), level: u.access_level?.id ? String(u.access_level.id) : '' });
        }
      }
      const groups: RemoteSnapshot['groups'] = [];
      for (const g of await readAll<{ id: string; name: string; description?: string }>(endpoint, '/groups', 'groups', signal)) {
        groups.push({ id: String(g.id), name: String(g.name ?? g.id), ...(g.description !== undefined && { description: String(g.description) }) });
        for (const u of await readAll<{ user_id: string }>(endpoint, `/groups/${enc(g.id)}/users`, 'users', signal)) {
          edges.push({ kind: 'group_user', principal: String(u.user_id), item: String(g.id), level: '' });
        }
        for (const r of await readAll<{ resource_id: string; access_level?: { id: string } }>(endpoint, `/groups/${enc(g.id)}/resources`, 'resources', signal)) {
          edges.push({ kind: 'group_resource', principal: String(g.id), item: String(r.resource_id), level: r.access_level?.id ? String(r.access_level.id) : '' });
        }
        // The spec leaves this list's shape open: member_groups or groups, each with group_id (or id); a connector without it has none.
        for (const m of await readAll<{ group_id?: string; id?: string }>(endpoint, `/groups/${enc(g.id)}/member-groups`, ['member_groups', 'groups'], signal, { missingIsEmpty: true })) {
          edges.push({ kind: 'group_group', principal: String(m.group_id ?? m.id), item: String(g.id), level: '' });
        }
      }
      return { users: users.map((u) => ({ id: String(u.id), email: String(u.email) })), resources, groups, edges };
    },
  };
}

/** Opal's connector protocol carries resource users and group users, resources and groups held by groups. */
export const opalAdapter: AdapterFactory = {
  kinds: ['resource_user', 'group_user', 'group_resource', 'group_group'],
  open: openOpalAdapter,
};
