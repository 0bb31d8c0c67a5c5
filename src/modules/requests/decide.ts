// Deciding a request: approve (REGULAR by a current-stage reviewer or their delegate, ADMIN by an
// administrator), deny, cancel. Each runs in one immediate transaction with its event; approval grants
// every item there too. Nothing leaves a final state: of racing decisions one wins, the rest get 409.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Caller } from '../../http/types.ts';
import { addMinutes, expiryAfter } from '../../lib/durations.ts';
import { systemActor } from '../../lib/system-actor.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import { grantForRequest } from '../access/service.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import { effectiveReviewer } from '../delegations/service.ts';
import type { ItemRow, RequestRow, ReviewerRow } from './store.ts';
import type { RequestStatus } from './schemas.ts';
import { announce } from '../../signals.ts';
import { onCallCover } from '../on-call/service.ts';

export const AUTO_APPROVAL_ACTOR = systemActor('Gatehouse (auto-approval)');
export const TIMEOUT_ACTOR = systemActor('Gatehouse (request timeout)');

const forbidden = (message: string) => new AppError('forbidden', message);

/** Where a decision was made, when not through the API (Slack's buttons): added to its event, e.g. `{ decided_from: 'SLACK' }`. */
export type DecidedVia = Record<string, string>;

/** The request's sub-events: one for the request, one per item (so the object filter finds either). */
export function requestSubEvents(ctx: AppContext, type: string, row: RequestRow, extra: Record<string, string | number | boolean | null> = {}): SubEvent[] {
  const request: SubEvent = {
    sub_event_type: type,
    request_id: row.id,
    requester_id: row.requester_id,
    ...(row.target_user_id !== null && { target_user_id: row.target_user_id }),
    ...(row.target_group_id !== null && { target_group_id: row.target_group_id }),
    status: row.status,
    ...extra,
  };
  const items = ctx.stores.requests.items(row.id).map((item): SubEvent => ({
    sub_event_type: type,
    request_id: row.id,
    [item.item_type === 'resource' ? 'resource_id' : 'group_id']: item.item_id,
    [item.item_type === 'resource' ? 'resource_name' : 'group_name']: item.item_name,
    access_level_remote_id: item.access_level_remote_id,
  }));
  return [request, ...items];
}

/**
 * Loads a request the caller may read, and so act on: 404 naming `id` when unknown or, for a member,
 * when they take no part in it at `now` (docs/requests.md "Who may read"), else the row. The one
 * definition of who may read a request (the list filter, readableBy, is the same rule in SQL).
 */
export function readableRequest(ctx: AppContext, caller: Pick<Caller, 'userId' | 'role'>, id: string, now: Date): RequestRow {
  const { requests } = ctx.stores;
  const row = requests.get(id);
  if (!row || (caller.role !== 'ADMIN' && !requests.involves(id, caller.userId, now))) throw notFound('request', id, 'id');
  return row;
}

/**
 * The creation time at or before which a PENDING request has timed out at `now`, or null when the
 * timeout is off (GATEHOUSE_REQUEST_TIMEOUT_MINUTES=0). The timeout job cancels the requests created
 * by then (requests.pendingSince compares the same way); nobody decides one meanwhile.
 */
export function timeoutCutoff(ctx: AppContext, now: Date): Date | null {
  const minutes = ctx.config.requestTimeoutMinutes;
  return minutes === 0 ? null : addMinutes(now, -minutes);
}

/**
 * Loads a request for a decision: as requestFor, then 409 when it is no longer PENDING, or when its
 * pending time is up (the timeout job cancels it at its next run; nobody decides it meanwhile).
 */
function pendingRequest(ctx: AppContext, caller: Caller, id: string, now: Date): RequestRow {
  const row = readableRequest(ctx, caller, id, now);
  if (row.status !== 'PENDING') throw new AppError('conflict', `request ${id} is already ${row.status}; a decided request cannot change`);
  const cutoff = timeoutCutoff(ctx, now);
  if (cutoff !== null && row.created_at <= cutoff.toISOString()) {
    throw new AppError('conflict', `request ${id} was pending for ${ctx.config.requestTimeoutMinutes} minutes and has timed out; it is being canceled`);
  }
  return row;
}

/**
 * Nobody decides a request they made, or one that gives themselves access (as its target user, or
 * as a member of its target group) — administrators included.
 */
function refuseOwnRequest(ctx: AppContext, row: RequestRow, caller: Caller, now: Date): void {
  if (row.requester_id === caller.userId) throw forbidden('nobody reviews their own request; the requester may cancel it');
  if (row.target_user_id === caller.userId) throw forbidden('nobody reviews a request that would give themselves access');
  if (inTargetGroup(ctx, row, caller.userId, now)) {
    throw forbidden('nobody reviews a request that would give themselves access: you are a member of its target group');
  }
}

/** Whether `userId` holds the request's target group at `now` (directly or through nesting). */
function inTargetGroup(ctx: AppContext, row: Pick<RequestRow, 'target_group_id'>, userId: string, now: Date): boolean {
  return row.target_group_id !== null && ctx.stores.holdings.groupsOfUser(userId, now).some((g) => g.item_id === row.target_group_id);
}

/**
 * Whether a decision by `userId` would give themselves access: they made the request, are its target
 * user, or are a member of its target group. The one definition the decisions and the dry run share.
 */
export function givesThemselvesAccess(ctx: AppContext, row: Pick<RequestRow, 'requester_id' | 'target_user_id' | 'target_group_id'>, userId: string, now: Date): boolean {
  return userId === row.requester_id || userId === row.target_user_id || inTargetGroup(ctx, row, userId, now);
}

/**
 * Throws conflict naming `requested_items_list.N` when an item, its level or the target is gone (or
 * the target can no longer hold access), so an approval grants all of its items or none.
 */
function checkGrantable(ctx: AppContext, row: RequestRow, items: ItemRow[]): void {
  const { resources, groups, users, access } = ctx.stores;
  const gone = (path: string, message: string) => new AppError('conflict', `cannot grant: ${message}`, [{ path, message }]);
  if (row.target_group_id !== null && !groups.exists(row.target_group_id)) throw gone('target_group_id', 'the target group was deleted');
  if (row.target_user_id !== null && isOffboarded(users.get(row.target_user_id)!.hr_idp_status)) {
    throw gone('target_user_id', 'the target user is suspended, deprovisioned or deleted');
  }
  items.forEach((item, i) => {
    const path = `requested_items_list.${i}`;
    const exists = item.item_type === 'resource' ? resources.exists(item.item_id) : groups.exists(item.item_id);
    if (!exists) throw gone(path, `${item.item_type} ${item.item_id} was deleted after the request was made`);
    const level = item.item_type === 'resource'
      ? resources.accessLevel(item.item_id, item.access_level_remote_id)
      : access.groupLevelName(item.item_id, item.access_level_remote_id);
    if (level === undefined) throw gone(path, `the ${item.item_type} no longer offers access level "${item.access_level_remote_id}"`);
    if (item.item_type === 'group' && row.target_group_id !== null && access.wouldCycle(row.target_group_id, item.item_id)) {
      throw gone(path, 'the target group now contains this group, so nesting would make a cycle');
    }
  });
}

/**
 * The latest end an item the rotation approved may be granted to (request_items.on_call_until): the end
 * of the target's shift now, when they are on call for its group now (a later shift of theirs counts as
 * the rotation approving it now), else the end of the shift that approved it — which may have passed
 * while reviewers of the request's other items decided. Null for an item the rotation did not approve.
 */
function onCallCap(ctx: AppContext, row: RequestRow, item: ItemRow, now: Date): string | null {
  if (item.on_call_until === null) return null;
  const cover = row.target_user_id !== null && item.matched_group_id !== null ? onCallCover(ctx, item.matched_group_id, row.target_user_id, now) : null;
  return cover?.endsAt ?? item.on_call_until;
}

/**
 * Marks the request APPROVED, records REQUESTS_APPROVED and grants every item to the target from
 * `now` for duration_minutes (-1: no expiry), extending access already held — but an item the on-call
 * rotation approved never past the end of the shift that approved it (docs/on-call.md). Such an item
 * whose shift ended before the approval came (the rest waited for reviewers) is not granted: the
 * event names it (`not_granted_item_ids`) and the item's approval_reason says why. Call inside the transaction.
 */
export function completeApproval(ctx: AppContext, actor: Actor, row: RequestRow, now: Date, extra: Record<string, string | number | boolean> = {}): void {
  const { requests, events } = ctx.stores;
  const items = requests.items(row.id);
  checkGrantable(ctx, row, items);
  if (!requests.decide(row.id, 'APPROVED', now)) throw new AppError('conflict', `request ${row.id} was decided meanwhile`);
  const at = now.toISOString();
  const caps = new Map(items.map((item) => [item.position, onCallCap(ctx, row, item, now)]));
  const lapsed = items.filter((item) => { const cap = caps.get(item.position); return cap != null && cap <= at; });
  for (const item of lapsed) {
    requests.setItemApprovalReason(row.id, item.position,
      `not granted: the on-call rotation approved it until ${item.on_call_until!.slice(0, 16).replace('T', ' ')} UTC, and that shift ended before the rest of the request was approved; request it again`);
  }
  const decided = requests.get(row.id)!;
  events.record(actor, 'REQUESTS_APPROVED', requestSubEvents(ctx, 'REQUESTS_APPROVED', decided, {
    ...extra, ...(lapsed.length > 0 && { not_granted_item_ids: lapsed.map((item) => item.item_id).join(',') }),
  }));
  announce(ctx, 'requests.decided', { requestId: row.id, decision: 'APPROVED', actorId: actor.userId }, now);
  const asked = expiryAfter(now, row.duration_minutes, -1);
  const principal = row.target_user_id !== null ? { type: 'user' as const, id: row.target_user_id } : { type: 'group' as const, id: row.target_group_id! };
  for (const item of items) {
    if (lapsed.includes(item)) continue;
    const cap = caps.get(item.position) ?? null;
    const expiresAt = cap !== null && (asked === null || asked > cap) ? cap : asked;
    grantForRequest(ctx, actor, {
      principalType: principal.type, principalId: principal.id, itemType: item.item_type, itemId: item.item_id,
      level: item.access_level_remote_id, expiresAt, requestId: row.id,
    });
  }
}

/**
 * A reviewer may grant for less than the request asks, never more: 400 naming `duration_minutes`
 * when longer than the request's duration (an indefinite request takes any).
 */
function checkShorter(row: RequestRow, minutes: number | null): void {
  if (minutes === null || row.duration_minutes === -1 || minutes <= row.duration_minutes) return;
  throw invalidField('duration_minutes', `must be at most ${row.duration_minutes} minutes, what the request asks for: a reviewer may shorten access, never lengthen it`);
}

/** Whether every slot an AND stage needs (or one, for OR) has an approval. */
function stageComplete(slots: string[], operator: 'AND' | 'OR', rows: ReviewerRow[]): boolean {
  const approved = new Set(rows.filter((r) => r.status === 'APPROVED').map((r) => r.slot));
  return operator === 'AND' ? slots.length > 0 && slots.every((slot) => approved.has(slot)) : approved.size > 0;
}

/**
 * Whether a reviewer row may still be acted on: not the requester's, the target user's or a target
 * group member's own (their delegate must not approve for them either: that would be deciding one's
 * own request by proxy), and an `admin` slot only while its user is still an administrator.
 */
function countsNow(ctx: AppContext, row: RequestRow, reviewer: ReviewerRow, now: Date): boolean {
  if (givesThemselvesAccess(ctx, row, reviewer.user_id, now)) return false;
  if (reviewer.slot === 'admin' && ctx.stores.users.get(reviewer.user_id)?.organization_role !== 'ADMIN') return false;
  return true;
}

/** The undecided reviewer rows of current stages the caller may act on (as reviewer or in-force delegate), and whether any were theirs at all. */
function callerRows(ctx: AppContext, row: RequestRow, caller: Caller, now: Date) {
  const { requests } = ctx.stores;
  const items = requests.items(row.id);
  const current = (r: ReviewerRow) => {
    const item = items.find((i) => i.position === r.item_position)!;
    return item.current_stage <= item.stage_count && r.stage_index === item.current_stage;
  };
  // The caller's rows first, so countsNow (a membership walk for group targets) runs only on those.
  const mine = requests.reviewers(row.id).filter(current)
    .map((r) => ({ row: r, acting: effectiveReviewer(ctx, r.user_id, now) }))
    .filter(({ row: r, acting }) => acting.userId === caller.userId || r.acted_by_user_id === caller.userId)
    .filter(({ row: r }) => countsNow(ctx, row, r, now));
  return { items, mine, open: mine.filter(({ row: r }) => r.status === 'PENDING') };
}

/**
 * Approves: level ADMIN (administrators only) completes the request at once; level REGULAR records
 * the caller's approval on every current stage they review (or review in a delegator's place),
 * advances completed stages, and completes the request when every item's last stage has.
 * `durationMinutes` (not null) shortens the request's duration first, for this grant and later stages.
 * Throws 404, 409 (decided, already reviewed, an item gone), 403 (own request, not a current
 * reviewer) and 400 naming duration_minutes (longer than the request's).
 */
export function approveRequest(ctx: AppContext, caller: Caller, id: string, level: 'REGULAR' | 'ADMIN', comment: string | undefined, via: DecidedVia = {}, durationMinutes: number | null = null): RequestStatus {
  const { requests, events } = ctx.stores;
  return ctx.db.transaction(() => {
    const now = ctx.clock.now();
    let row = pendingRequest(ctx, caller, id, now);
    refuseOwnRequest(ctx, row, caller, now);
    if (level === 'ADMIN' && caller.role !== 'ADMIN') throw forbidden('only an administrator may approve at level ADMIN');
    const rows = level === 'REGULAR' ? callerRows(ctx, row, caller, now) : undefined;
    if (rows && rows.mine.length === 0) throw forbidden('you are not a reviewer of the current stage of any item of this request (nor a delegate of one)');
    if (rows && rows.open.length === 0) throw new AppError('conflict', 'you have already reviewed the current stages of this request');
    checkShorter(row, durationMinutes);
    const commented = comment !== undefined && comment.trim() !== '';
    if (commented) requests.addComment(id, caller.userId, comment, now);
    // The decider's words go into the chained trail with the decision (docs/audit-log.md).
    const words: Record<string, string | number> = commented ? { comment } : {};
    if (durationMinutes !== null && durationMinutes !== row.duration_minutes) {
      requests.shorten(id, durationMinutes, now);
      words.duration_minutes = durationMinutes;
      words.requested_duration_minutes = row.requested_duration_minutes ?? row.duration_minutes;
      row = requests.get(id)!;
    }
    if (level === 'ADMIN') {
      completeApproval(ctx, caller, row, now, { level: 'ADMIN', ...words, ...via });
      return 'APPROVED';
    }
    const { items, open } = rows!;
    for (const { row: r, acting } of open) requests.markReviewer(r, 'APPROVED', caller.userId, acting.delegation?.id ?? null, now);
    const stages = requests.stages(id);
    const reviewers = requests.reviewers(id);
    for (const item of items) {
      const stage = stages.find((s) => s.item_position === item.position && s.stage_index === item.current_stage);
      if (!stage) continue;
      const rows = reviewers.filter((r) => r.item_position === item.position && r.stage_index === stage.stage_index);
      if (stageComplete(JSON.parse(stage.slots) as string[], stage.operator, rows)) {
        item.current_stage += 1;
        requests.setCurrentStage(id, item.position, item.current_stage);
      }
    }
    const delegations = [...new Set(open.map(({ acting }) => acting.delegation?.id).filter((d): d is string => d !== undefined))];
    const extra = { level: 'REGULAR', ...(delegations.length > 0 && { delegation_id: delegations.join(',') }), ...words, ...via };
    if (items.every((item) => item.current_stage > item.stage_count)) {
      completeApproval(ctx, caller, row, now, extra);
      return 'APPROVED';
    }
    requests.touch(id, now);
    events.record(caller, 'REQUEST_REVIEWS_ADDED', requestSubEvents(ctx, 'REQUEST_REVIEWS_ADDED', row, { ...extra, reviewer_id: caller.userId }));
    announce(ctx, 'requests.reviewed', { requestId: id }, now);
    return 'PENDING';
  }).immediate();
}

/**
 * Denies: by a current-stage reviewer (or delegate) or an administrator; level ADMIN needs the
 * administrator role. One denial denies the request. Records the comment and REQUESTS_DENIED.
 */
export function denyRequest(ctx: AppContext, caller: Caller, id: string, comment: string, level: 'REGULAR' | 'ADMIN' | undefined, via: DecidedVia = {}): void {
  const { requests, events } = ctx.stores;
  ctx.db.transaction(() => {
    const now = ctx.clock.now();
    const row = pendingRequest(ctx, caller, id, now);
    refuseOwnRequest(ctx, row, caller, now);
    const { open, mine } = callerRows(ctx, row, caller, now);
    if (level === 'ADMIN' && caller.role !== 'ADMIN') throw forbidden('only an administrator may deny at level ADMIN');
    if (mine.length === 0 && caller.role !== 'ADMIN') throw forbidden('you are not a reviewer of the current stage of any item of this request (nor a delegate of one)');
    for (const { row: r, acting } of open) requests.markReviewer(r, 'REJECTED', caller.userId, acting.delegation?.id ?? null, now);
    requests.addComment(id, caller.userId, comment, now);
    if (!requests.decide(id, 'DENIED', now)) throw new AppError('conflict', `request ${id} was decided meanwhile`);
    events.record(caller, 'REQUESTS_DENIED', requestSubEvents(ctx, 'REQUESTS_DENIED', requests.get(id)!, { level: level ?? 'REGULAR', comment, ...via }));
    announce(ctx, 'requests.decided', { requestId: id, decision: 'DENIED', actorId: caller.userId }, now);
  }).immediate();
}

/** Cancels a PENDING request: its requester or an administrator. Records REQUESTS_CANCELED. */
export function cancelRequest(ctx: AppContext, caller: Caller, id: string): void {
  const { requests, events } = ctx.stores;
  ctx.db.transaction(() => {
    const now = ctx.clock.now();
    const row = pendingRequest(ctx, caller, id, now);
    if (row.requester_id !== caller.userId && caller.role !== 'ADMIN') throw forbidden('only the requester or an administrator may cancel a request');
    requests.decide(id, 'CANCELED', now);
    events.record(caller, 'REQUESTS_CANCELED', requestSubEvents(ctx, 'REQUESTS_CANCELED', requests.get(id)!, { cause: 'canceled' }));
    announce(ctx, 'requests.decided', { requestId: id, decision: 'CANCELED', actorId: caller.userId }, now);
  }).immediate();
}

/**
 * Adds a comment: the requester, the target user, anyone who reviews or reviewed the request (or is
 * a delegate of a reviewer now) and administrators may. Records REQUEST_COMMENTS_CREATED.
 */
export function commentOnRequest(ctx: AppContext, caller: Caller, id: string, comment: string): void {
  const { requests, events } = ctx.stores;
  ctx.db.transaction(() => {
    const now = ctx.clock.now();
    // Who may comment is who may read it (INVOLVES); to anyone else the request does not exist.
    readableRequest(ctx, caller, id, now);
    const commentId = requests.addComment(id, caller.userId, comment, now);
    events.record(caller, 'REQUEST_COMMENTS_CREATED', [{ sub_event_type: 'REQUEST_COMMENTS_CREATED', request_id: id, comment_id: commentId, user_id: caller.userId, comment }]);
    announce(ctx, 'requests.commented', { requestId: id, commentId, authorId: caller.userId }, now);
  }).immediate();
}
