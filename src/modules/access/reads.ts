// Read use cases of the access graph and the API shapes they answer with. Every holding comes from
// holdings-store.ts (the one definition of effective access); edges are shown as stored.
import type { AppContext } from '../../context.ts';
import type { GroupContainingGroup, GroupResource, GroupUser, ResourceAccessUser, ResourceUser } from './responses.ts';
import type { PageQuery } from '../../http/common-schemas.ts';
import type { Page } from '../../http/paging.ts';
import type { JsonText } from '../../http/json-text.ts';
import { invalidField } from '../../http/errors.ts';
import type { Caller } from '../../http/types.ts';
import { seesAllHoldingsOf, seesListed } from '../visibility/service.ts';
import { NEVER, type EndType } from './edges.ts';
import type { HoldingRow, ItemType } from './holdings-store.ts';
import type { EdgeRow } from './store.ts';
import { propagationStatusReader } from '../connectors/status.ts';
import { MAX_MINUTES } from '../../lib/durations.ts';

const level = (remoteId: string, name: string) => ({ access_level_name: name, access_level_remote_id: remoteId });
const expiry = (exp: string | null) => (exp === null || exp === NEVER ? null : exp);
/**
 * Looks names up once per id for the length of one answer; `status` reads propagation statuses the
 * same way (connectors/status.ts: SUCCESS for items of apps without a connector).
 */
function nameCache(ctx: AppContext) {
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
type Names = ReturnType<typeof nameCache>;

function resourceAccessUser(names: Names, row: HoldingRow): ResourceAccessUser {
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

function groupUser(names: Names, row: { user_id: string; item_id: string; level: string; level_name: string; exp: string | null }): GroupUser {
  const group = names('group', row.item_id);
  const user = names('user', row.user_id);
  return {
    group_id: row.item_id, group_name: group.name, description: group.detail,
    user_id: row.user_id, full_name: user.name, email: user.detail,
    access_level: level(row.level, row.level_name), expiration_date: expiry(row.exp),
    propagation_status: names.status('group_user', row.user_id, row.item_id, row.level),
  };
}

const edgeAsHolding = (row: EdgeRow) => ({
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

export const groupResourcesAnswer = (ctx: AppContext, rows: EdgeRow[]) => {
  const names = nameCache(ctx);
  return { group_resources: rows.map((row) => toGroupResource(ctx, row, names)) };
};

/** Keyset of holding lists: (principal or item id, level), signed into the cursor as one string. */
function afterKey(ctx: AppContext, list: string, query: PageQuery): [string, string] | null {
  const key = ctx.pager.after(list, query);
  if (key === null) return null;
  try {
    const parsed: unknown = typeof key === 'number' ? null : JSON.parse(key[0]);
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((x) => typeof x === 'string')) return parsed as [string, string];
  } catch { /* refused below */ }
  throw invalidField('cursor', 'is not a cursor this list issued; start again without one');
}
const after = (a: [string, string], b: [string, string] | null) => b === null || a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);

/**
 * One page of the holders of a resource or group (direct and through groups), ordered by user id and
 * level. Deep pages cost what the first does: see holdings-store holdersOf.
 */
/** What a holding of a resource (ResourceAccessUser) or a group (GroupUser) is answered as. */
type HoldingOf<T extends ItemType> = T extends 'resource' ? ResourceAccessUser : GroupUser;

export function holdersPage<T extends ItemType>(ctx: AppContext, type: T, itemId: string, query: PageQuery): JsonText<Page<HoldingOf<T>>> {
  const list = `holders_of_${type}`;
  const start = afterKey(ctx, list, query);
  // One user more than needed: the user the cursor stopped in may have no levels left to serve.
  const rows = ctx.stores.holdings.holdersOf(type, itemId, ctx.clock.now(), start?.[0] ?? '', query.page_size + 2)
    .filter((row) => after([row.user_id, row.level], start));
  const names = nameCache(ctx);
  const keyOf = (row: HoldingRow): [string, number] => [JSON.stringify([row.user_id, row.level]), 0];
  const toItem = (row: HoldingRow) => (type === 'resource' ? resourceAccessUser(names, row) : groupUser(names, row)) as HoldingOf<T>;
  return ctx.pager.pageJson(list, query, rows, keyOf, toItem);
}

/**
 * A page of what `userId` holds (resources or groups), ordered by item id and level. A member reading
 * someone else's holdings sees only the items they may see themselves (visibility), filtered before
 * paging so pages stay full; a holder reading their own, and admins, see everything.
 */
export function holdingsOfUserPage<T extends ItemType>(ctx: AppContext, type: T, userId: string, query: PageQuery, caller: Caller): JsonText<Page<HoldingOf<T>>> {
  const list = `holdings_of_user_${type}`;
  const start = afterKey(ctx, list, query);
  const now = ctx.clock.now();
  const all = type === 'resource' ? ctx.stores.holdings.resourcesOfUser(userId, now) : ctx.stores.holdings.groupsOfUser(userId, now);
  // The holder (and their manager) sees all of their holdings; anyone else only the items visible to them.
  const visible = seesAllHoldingsOf(ctx, caller, userId) ? () => true : seesListed(ctx, caller, type);
  // Stop at one row past the page: the visibility check is a query per item.
  const rows: HoldingRow[] = [];
  for (const row of all) {
    if (rows.length > query.page_size) break;
    if (after([row.item_id, row.level], start) && visible(row.item_id)) rows.push(row);
  }
  const names = nameCache(ctx);
  const keyOf = (row: HoldingRow): [string, number] => [JSON.stringify([row.item_id, row.level]), 0];
  const toItem = (row: HoldingRow) => (type === 'resource' ? resourceAccessUser(names, row) : groupUser(names, row)) as HoldingOf<T>;
  return ctx.pager.pageJson(list, query, rows, keyOf, toItem);
}

/** Every level at which the user holds the resource, as ResourceUser objects (direct or through groups). */
export function userLevelsOnResource(ctx: AppContext, resourceId: string, userId: string) {
  const names = nameCache(ctx);
  return ctx.stores.holdings.resourcesOfUser(userId, ctx.clock.now(), resourceId).map((row) => {
    const { resource_name: _n, description: _d, has_direct_access: _h, num_access_paths: _p, propagation_status: _s, ...rest } = resourceAccessUser(names, row);
    return rest;
  });
}

/**
 * The reference's ResourceUserAccessStatus: AUTHORIZED when held, REQUESTED when a pending request
 * for the user asks for it, else UNAUTHORIZED. `seesRequests`: whether the caller may know of the
 * user's pending requests (an admin, or the user themselves; requests are private to those in them).
 */
export function accessStatus(ctx: AppContext, resourceId: string, userId: string, levelId: string, seesRequests: boolean) {
  const held = ctx.stores.holdings.resourcesOfUser(userId, ctx.clock.now(), resourceId).find((row) => row.level === levelId);
  return {
    resource_id: resourceId,
    user_id: userId,
    access_level: level(levelId, held?.level_name ?? ctx.stores.resources.accessLevel(resourceId, levelId)?.access_level_name ?? ''),
    status: held ? 'AUTHORIZED' as const : seesRequests && ctx.stores.requests.hasPending(resourceId, levelId, userId) ? 'REQUESTED' as const : 'UNAUTHORIZED' as const,
    expiration_date: held ? expiry(held.exp) : null,
  };
}
