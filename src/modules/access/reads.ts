// Read use cases of the access graph, answered with mappers.ts's shapes. Every holding comes from
// holdings-store.ts (the one definition of effective access); edges are shown as stored.
import type { AppContext } from '../../context.ts';
import type { GroupUser, ResourceAccessUser } from './responses.ts';
import type { PageQuery } from '../../http/common-schemas.ts';
import type { Page } from '../../http/paging.ts';
import type { JsonText } from '../../http/json-text.ts';
import { invalidField } from '../../http/errors.ts';
import type { Caller } from '../../http/types.ts';
import { seesAllHoldingsOf, seesListed } from '../visibility/service.ts';
import type { HoldingRow, ItemType } from './holdings-store.ts';
import type { EdgeRow } from './store.ts';
import { level, expiry, nameCache, resourceAccessUser, groupUser, toGroupResource } from './mappers.ts';

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
