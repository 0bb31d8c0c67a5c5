// GET /v1/break-glass's page: what the caller may read, with the list's filters, newest first.
import type { AppContext } from '../../context.ts';
import type { Caller } from '../../http/types.ts';
import type { ListBreakGlassInput } from './schemas.ts';
import type { BreakGlassFilter } from './store.ts';
import { toApiBreakGlass } from './mappers.ts';

/** The groups `userId` holds at `now`, as the JSON list the store's owner filter reads. */
const groupsOf = (ctx: AppContext, userId: string, now: Date) =>
  JSON.stringify([...new Set(ctx.stores.holdings.groupsOfUser(userId, now).map((held) => held.item_id))]);

/** One page for `caller` at `now`. Throws validation_failed for a foreign cursor. */
export function listBreakGlass(ctx: AppContext, query: ListBreakGlassInput, caller: Pick<Caller, 'userId' | 'role'>, now: Date) {
  const { breakGlass: store } = ctx.stores;
  const admin = caller.role === 'ADMIN';
  const groups = admin ? undefined : groupsOf(ctx, caller.userId, now);
  const filter: BreakGlassFilter = {
    state: query.state,
    userId: query.user_id,
    itemId: query.resource_id ?? query.group_id,
    startedSince: query.start_date_filter?.at.toISOString(),
    ...(!admin && { viewerId: caller.userId, viewerGroups: groups }),
    // What the caller may decide: an admin any OPEN one but their own; an owner's user those of its items.
    ...(query.awaiting_my_review === true && (admin ? { state: 'OPEN' as const, notUserId: caller.userId } : { reviewerId: caller.userId, reviewerGroups: groups })),
  };
  const rows = store.list(filter, ctx.pager.afterSeq('break-glass', query), query.page_size + 1);
  const page = ctx.pager.page('break-glass', query, rows, (row) => row.seq, (row) => toApiBreakGlass(row, now));
  return { ...page, total_count: store.count(filter) };
}
