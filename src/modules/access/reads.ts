// Read use cases of the access graph, answered with mappers.ts's shapes. Every holding comes from
// holdings-store.ts (the one definition of effective access); edges are shown as stored.
import type { AppContext } from '../../context.ts';
import type { GroupUser, ResourceAccessUser } from './responses.ts';
import type { PageQuery } from '../../http/common-schemas.ts';
import type { Page } from '../../http/paging.ts';
import type { JsonText } from '../../http/json-text.ts';
import { NEVER } from './edges.ts';
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
  return holders(ctx, type, itemId, query, ctx.clock.now()).page;
}

/** holdersPage at `now`, and the first time a holding it read ends (null: none ends): until then time alone changes nothing it shows. */
function holders<T extends ItemType>(ctx: AppContext, type: T, itemId: string, query: PageQuery, now: Date): { page: JsonText<Page<HoldingOf<T>>>; until: string | null } {
  const list = `holders_of_${type}`;
  const start = afterKey(ctx, list, query);
  // One user more than needed: the user the cursor stopped in may have no levels left to serve.
  const read = ctx.stores.holdings.holdersOf(type, itemId, now, start?.[0] ?? '', query.page_size + 2);
  const rows = read.filter((row) => after([row.user_id, row.level], start));
  const names = nameCache(ctx);
  const keyOf = (row: HoldingRow): [string, number] => [JSON.stringify([row.user_id, row.level]), 0];
  const toItem = (row: HoldingRow) => (type === 'resource' ? resourceAccessUser(names, row) : groupUser(names, row)) as HoldingOf<T>;
  return { page: ctx.pager.pageJson(list, query, rows, keyOf, toItem), until: firstEnd(read) };
}

/**
 * The first time one of `rows` ends (its `exp`: the latest of its paths' ends, when it drops out of
 * every list), or null when none does. A GroupUser shows nothing else that time changes (no path count).
 */
function firstEnd(rows: readonly HoldingRow[]): string | null {
  let first: string | null = null;
  for (const row of rows) if (row.exp !== NEVER && (first === null || row.exp < first)) first = row.exp;
  return first;
}

/**
 * GET /v1/groups/{group_id}/users: holdersPage of the group, kept per group and query until a write
 * changes what it was built from (the holdings store's GROUP_MEMBER_PAGE_SOURCES) or one of its holdings
 * ends. The same for every caller (whether they may read the group was decided before).
 */
export function groupMembersPage(ctx: AppContext, groupId: string, query: PageQuery): JsonText<Page<GroupUser>> {
  const now = ctx.clock.now();
  return ctx.stores.holdings.keptGroupMembers.answer(groupId, query, now, () => holders(ctx, 'group', groupId, query, now));
}

/**
 * A page of what `userId` holds (resources or groups), ordered by item id and level. A member reading
 * someone else's holdings sees only the items they may see themselves (visibility), filtered before
 * paging so pages stay full; a holder reading their own, and admins, see everything.
 */
export function holdingsOfUserPage<T extends ItemType>(ctx: AppContext, type: T, userId: string, query: PageQuery, caller: Caller): JsonText<Page<HoldingOf<T>>> {
  return holdings(ctx, type, userId, query, seesAllHoldingsOf(ctx, caller, userId) ? null : caller, ctx.clock.now()).page;
}

/** holdingsOfUserPage at `now`, filtered for `caller` unless null (who sees all of them), and the first time a holding it read ends. */
function holdings<T extends ItemType>(ctx: AppContext, type: T, userId: string, query: PageQuery, caller: Caller | null, now: Date): { page: JsonText<Page<HoldingOf<T>>>; until: string | null } {
  const list = `holdings_of_user_${type}`;
  const start = afterKey(ctx, list, query);
  const all = type === 'resource' ? ctx.stores.holdings.resourcesOfUser(userId, now) : ctx.stores.holdings.groupsOfUser(userId, now);
  // The holder (and their manager) sees all of their holdings; anyone else only the items visible to them.
  const visible = caller === null ? () => true : seesListed(ctx, caller, type);
  // Stop at one row past the page: the visibility check is a query per item.
  const rows: HoldingRow[] = [];
  for (const row of all) {
    if (rows.length > query.page_size) break;
    if (after([row.item_id, row.level], start) && visible(row.item_id)) rows.push(row);
  }
  const names = nameCache(ctx);
  const keyOf = (row: HoldingRow): [string, number] => [JSON.stringify([row.item_id, row.level]), 0];
  const toItem = (row: HoldingRow) => (type === 'resource' ? resourceAccessUser(names, row) : groupUser(names, row)) as HoldingOf<T>;
  return { page: ctx.pager.pageJson(list, query, rows, keyOf, toItem), until: firstEnd(all) };
}

/**
 * GET /v1/groups/users/{user_id}: holdingsOfUserPage of groups, kept per user and query, for callers who
 * see all of the user's holdings (admins, the user, their manager: the page is then the same for each),
 * until a write changes what it was built from (the holdings store's USER_GROUP_PAGE_SOURCES) or one of
 * the user's holdings ends. Anyone else's page is filtered by what they see, and built each time.
 */
export function userGroupsPage(ctx: AppContext, userId: string, query: PageQuery, caller: Caller): JsonText<Page<GroupUser>> {
  const now = ctx.clock.now();
  if (!seesAllHoldingsOf(ctx, caller, userId)) return holdings(ctx, 'group', userId, query, caller, now).page;
  return ctx.stores.holdings.keptUserGroups.answer(userId, query, now, () => holdings(ctx, 'group', userId, query, null, now));
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
