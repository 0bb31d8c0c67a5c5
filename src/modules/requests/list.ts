// GET /requests' page as a plain function of its query and caller, so a read worker can build it (src/reads/tasks.ts).
import type { AppContext } from '../../context.ts';
import type { Caller } from '../../http/types.ts';
import type { ListRequestsInput } from './schemas.ts';
import type { RequestFilter } from './store.ts';
import { requestReader } from './mappers.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The list's filters; a bare end date includes that whole (UTC) day, as for events. */
function listFilter(query: ListRequestsInput): RequestFilter {
  const filter: RequestFilter = {
    requesterId: query.requester_id,
    targetUserId: query.target_user_id,
    // Both given: requests asking for that resource and that group.
    resourceId: query.resource_id,
    groupId: query.group_id,
    ...(query.show_pending_only === true && { status: 'PENDING' as const }),
    ...(query.break_glass !== undefined && { breakGlass: query.break_glass ? 1 as const : 0 as const }),
  };
  if (query.start_date_filter) filter.startAt = query.start_date_filter.at.toISOString();
  const end = query.end_date_filter;
  if (end?.wholeDay) filter.endBefore = new Date(end.at.getTime() + DAY_MS).toISOString();
  else if (end) filter.endAt = end.at.toISOString();
  return filter;
}

/** For a member, the filter that keeps their list to the requests they take part in; nothing for an admin. */
export function readableBy(caller: Pick<Caller, 'userId' | 'role'>, now: Date): RequestFilter {
  return caller.role === 'ADMIN' ? {} : { involvedUserId: caller.userId, involvedAt: now.toISOString() };
}

/**
 * The filter of the PENDING requests waiting for `caller`'s decision at `now` (the store's AWAITS): not
 * one for a group they hold, which deciding would refuse (it would give themselves access).
 */
export function awaitingReviewBy(ctx: AppContext, caller: Pick<Caller, 'userId'>, now: Date): RequestFilter {
  const held = [...new Set(ctx.stores.holdings.groupsOfUser(caller.userId, now).map((g) => g.item_id))];
  return { awaitingUserId: caller.userId, awaitingAt: now.toISOString(), awaitingHeldGroups: JSON.stringify(held) };
}

/**
 * What Home counts for `caller`, exactly at any size (two counts over indexes, never a page):
 * the requests waiting for their decision now, and their own PENDING requests.
 */
export function requestCounts(ctx: AppContext, caller: Pick<Caller, 'userId'>, now: Date): { awaiting_my_review: number; my_pending: number } {
  const { requests } = ctx.stores;
  return {
    awaiting_my_review: requests.count(awaitingReviewBy(ctx, caller, now)),
    my_pending: requests.count({ requesterId: caller.userId, status: 'PENDING' }),
  };
}

/** One page of the requests `caller` may read, at `now`. Throws validation_failed for a foreign cursor. */
export function listRequests(ctx: AppContext, query: ListRequestsInput, caller: Pick<Caller, 'userId' | 'role'>, now: Date) {
  const { requests } = ctx.stores;
  const filter = { ...listFilter(query), ...readableBy(caller, now), ...(query.awaiting_my_review === true && awaitingReviewBy(ctx, caller, now)) };
  const rows = requests.list(filter, ctx.pager.afterSeq('requests', query), query.page_size + 1);
  const page = ctx.pager.page('requests', query, rows, (row) => row.seq, requestReader(ctx, now));
  return { requests: page.results, ...(page.next !== null && { cursor: page.next }) };
}
