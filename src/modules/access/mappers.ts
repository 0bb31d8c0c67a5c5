// The access area's mappers: edges and holdings as the API objects its responses.ts declares, with the names and propagation statuses an answer shows (read once per answer through ctx.stores; no SQL of their own).
import type { AppContext } from '../../context.ts';
import type { GroupContainingGroup, GroupResource, GroupUser, ResourceAccessUser, ResourceUser } from './responses.ts';
import { NEVER, type EndType } from './edges.ts';
import type { HoldingRow } from './holdings-store.ts';
import type { EdgeRow } from './store.ts';
import { propagationStatusReader } from '../connectors/status.ts';
import { MAX_MINUTES } from '../../lib/durations.ts';

export const level = (remoteId: string, name: string) => ({ access_level_name: name, access_level_remote_id: remoteId });

export const expiry = (exp: string | null) => (exp === null || exp === NEVER ? null : exp);

/**
 * Looks names up once per id for the length of one answer; `status` reads propagation statuses the
 * same way (connectors/status.ts: SUCCESS for items of apps without a connector).
 */
export function nameCache(ctx: AppContext) {
  const cache = new Map<string, { name: string; detail: string }>();
  const names = (type: EndType, id: string) => {
    let found = cache.get(id);
    if (!found) {
      found = ctx.stores.access.describe(type, id) ?? { name: '', detail: '' };
      cache.set(id, found);
    }
    return found;
  };
  return Object.assign(names, { status: propagationStatusReader(ctx) });
}

export type Names = ReturnType<typeof nameCache>;

export function resourceAccessUser(names: Names, row: HoldingRow): ResourceAccessUser {
  const resource = names('resource', row.item_id);
  const user = names('user', row.user_id);
  return {
    resource_id: row.item_id, resource_name: resource.name, description: resource.detail,
    user_id: row.user_id, full_name: user.name, email: user.detail,
    access_level: level(row.level, row.level_name), expiration_date: expiry(row.exp),
    has_direct_access: row.direct === 1, num_access_paths: row.paths,
    // Access through groups is pushed as the groups' edges: their statuses show on the groups' users.
    propagation_status: row.direct === 1 ? names.status('resource_user', row.user_id, row.item_id, row.level) : { status: 'SUCCESS' },
  };
}

export function groupUser(names: Names, row: { user_id: string; item_id: string; level: string; level_name: string; exp: string | null }): GroupUser {
  const group = names('group', row.item_id);
  const user = names('user', row.user_id);
  return {
    group_id: row.item_id, group_name: group.name, description: group.detail,
    user_id: row.user_id, full_name: user.name, email: user.detail,
    access_level: level(row.level, row.level_name), expiration_date: expiry(row.exp),
    propagation_status: names.status('group_user', row.user_id, row.item_id, row.level),
  };
}

export const edgeAsHolding = (row: EdgeRow) => ({
  user_id: row.principal_id, item_id: row.item_id, level: row.access_level_remote_id, level_name: row.access_level_name, exp: row.expiration_date,
});

/** An edge answer of POST/PUT …/groups/{id}/users/{user_id}: the reference's GroupUser. */
export function toGroupUser(ctx: AppContext, row: EdgeRow): GroupUser {
  return groupUser(nameCache(ctx), edgeAsHolding(row));
}

/** An edge answer of POST/PUT …/resources/{id}/users/{user_id}: the reference's ResourceUser. */
export function toResourceUser(ctx: AppContext, row: EdgeRow): ResourceUser {
  const user = ctx.stores.access.describe('user', row.principal_id)!;
  return {
    resource_id: row.item_id, user_id: row.principal_id, access_level: level(row.access_level_remote_id, row.access_level_name),
    full_name: user.name, email: user.detail, expiration_date: row.expiration_date,
  };
}

/** A group → resource edge: the reference's GroupResource. */
export function toGroupResource(ctx: AppContext, row: EdgeRow, names: Names = nameCache(ctx)): GroupResource {
  return {
    group_id: row.principal_id, group_name: names('group', row.principal_id).name,
    resource_id: row.item_id, resource_name: names('resource', row.item_id).name,
    access_level: level(row.access_level_remote_id, row.access_level_name), expiration_date: row.expiration_date,
  };
}

/**
 * A group → containing group edge: the reference's GroupContainingGroup, with the edge's level and expiry.
 * `duration_minutes` is the nesting's length from when it was given to when it ends — what a POST wrote,
 * since it is given at `created_at` and ends that many minutes later — and 0 for no expiry, the
 * reference's "indefinite". Terraform's provider reads it back and replaces the link when it differs.
 */
export function toContainingGroup(row: EdgeRow): GroupContainingGroup {
  return {
    group_id: row.principal_id, containing_group_id: row.item_id, access_level_remote_id: row.access_level_remote_id,
    duration_minutes: edgeDurationMinutes(row),
    access_level: level(row.access_level_remote_id, row.access_level_name), expiration_date: row.expiration_date,
  };
}

/** Whole minutes from an edge's start to its end, 0 when it never ends (capped at the one-year maximum). */
export function edgeDurationMinutes(row: Pick<EdgeRow, 'created_at' | 'expiration_date'>): number {
  if (row.expiration_date === null) return 0;
  const minutes = Math.round((Date.parse(row.expiration_date) - Date.parse(row.created_at)) / 60_000);
  return Math.min(Math.max(minutes, 0), MAX_MINUTES);
}
