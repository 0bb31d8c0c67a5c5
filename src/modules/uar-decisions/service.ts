// Access reviews that act: reviewers' decisions on a review's snapshot rows (an assigned reviewer on
// their own rows, an organization admin on any; nobody on their own access), admins' changes to who
// reviews which row, and the review's policy at its deadline. A REVOKE ends the direct grant through
// the access graph's one revoke path (access/service.ts revokeEdge: its own …_REMOVED event, sessions
// ended) when the review closes, so a later KEEP undoes it until then; a review started with
// instantly_action_reviews revokes at once, in the same transaction as the decision and its event.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Caller } from '../../http/types.ts';
import { inWriteTransaction, revokeEdge } from '../access/service.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import { actorFor, systemActor } from '../../lib/system-actor.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import { tellReviewers } from './assign.ts';
import type { AssignInput, DecideInput } from './schemas.ts';
import type { ReviewItemRow, UnansweredDecision } from './store.ts';

const DEADLINE_ACTOR: Actor = systemActor('Gatehouse (access review deadline)');

/** Ends the row's direct grant (a user's on a resource, or membership of a group). */
function revokeRow(ctx: AppContext, actor: Actor, row: ReviewItemRow): void {
  const key = { principalId: row.user_id, itemId: row.item_id, level: row.access_level_remote_id };
  revokeEdge(ctx, actor, row.item_type === 'RESOURCE' ? 'resource_user' : 'group_user', key, { type: 'ACCESS_REVIEW', uarId: row.uar_id });
}

/**
 * At close: ends the row's direct grant unless that is no longer possible (the item or person was
 * deleted since the snapshot, or the grant now comes from an access rule); then says why, in words,
 * for the UARS_CLOSED sub-event, and the close goes on. revokeEdge writes nothing before it refuses.
 */
function revokeRowAtClose(ctx: AppContext, row: ReviewItemRow, actor: Actor = DEADLINE_ACTOR): string | undefined {
  try {
    revokeRow(ctx, actor, row);
    return undefined;
  } catch (err) {
    if (err instanceof AppError) return err.message;
    throw err;
  }
}

/** The reviewer whose decision a revoke at the close carries out: the removal's actor, and the holder's notice names them. */
function deciderOf(ctx: AppContext, row: ReviewItemRow): Actor {
  const user = row.reviewer_user_id ? ctx.stores.users.get(row.reviewer_user_id) : undefined;
  return user ? actorFor(user) : DEADLINE_ACTOR;
}

/**
 * Throws not_found unless the review exists and `caller` may see it: an organization admin, or a
 * member with rows of it to review (anyone else gets the answer an unknown id gets).
 */
export function requireVisibleReview(ctx: AppContext, caller: Pick<Caller, 'userId' | 'role'>, uarId: string): void {
  if (!ctx.stores.accessReviews.get(uarId)) throw notFound('UAR', uarId, 'uar_id');
  if (caller.role !== 'ADMIN' && !ctx.stores.uarDecisions.reviewsIn(uarId, caller.userId)) throw notFound('UAR', uarId, 'uar_id');
}

function requireOpen(ctx: AppContext, uarId: string): void {
  if (!ctx.stores.accessReviews.get(uarId)) throw notFound('UAR', uarId, 'uar_id');
  const { closed_at } = ctx.stores.uarDecisions.policy(uarId);
  if (closed_at !== null) throw new AppError('conflict', `the review closed at ${closed_at} (its deadline); decisions no longer change anything`);
}

const noSuchItem = (uarId: string, seq: number, path: string) =>
  new AppError('not_found', `review ${uarId} has no item ${seq}`, [{ path, message: 'no such item in this review' }]);

/**
 * Records decisions on a review's rows, all or nothing. Who: an assigned reviewer of the row, or an
 * organization admin; never the person whose access the row is (403 naming `decisions.N.uar_item_id`,
 * admins included), and a member only on rows assigned to them (403 naming the same). REVOKE ends the
 * direct grant when the review closes (a later KEEP or LATER undoes it until then), or at once in a
 * review started with instantly_action_reviews — whose revoked rows then cannot be changed (409 naming
 * `decisions.N.decision`: grant the access again instead). A row held only through groups cannot be
 * revoked here (409 naming `decisions.N.decision`: remove the group membership instead). Throws
 * not_found for a review the caller may not see or `decisions.N.uar_item_id` not in it, conflict for a
 * closed review. Records UAR_REVIEWS_DECIDED with a sub-event per row, saying whether its decider was
 * an assigned REVIEWER or an ADMIN.
 */
export function decide(ctx: AppContext, caller: Caller, uarId: string, input: DecideInput): ReviewItemRow[] {
  const { uarDecisions, events } = ctx.stores;
  return inWriteTransaction(ctx, () => {
    requireVisibleReview(ctx, caller, uarId);
    requireOpen(ctx, uarId);
    const instant = ctx.stores.accessReviews.get(uarId)!.instantly_action_reviews;
    const now = ctx.clock.now().toISOString();
    const subEvents: SubEvent[] = [];
    input.decisions.forEach(({ uar_item_id: seq, decision }, i) => {
      const row = uarDecisions.item(uarId, seq);
      if (!row) throw noSuchItem(uarId, seq, `decisions.${i}.uar_item_id`);
      if (row.user_id === caller.userId) {
        throw new AppError('forbidden', 'nobody decides a review of their own access; another reviewer or an admin decides it', [
          { path: `decisions.${i}.uar_item_id`, message: 'is a review of your own access' },
        ]);
      }
      const assigned = uarDecisions.isAssigned(seq, caller.userId);
      if (!assigned && caller.role !== 'ADMIN') {
        throw new AppError('forbidden', `item ${seq} is assigned to other reviewers; you may decide only the items assigned to you`, [
          { path: `decisions.${i}.uar_item_id`, message: 'is assigned to other reviewers' },
        ]);
      }
      if (decision === 'REVOKE' && row.has_direct_access !== 1) {
        throw new AppError('conflict', `${row.user_full_name} holds ${row.item_name} only through groups; revoke their membership of those groups instead`, [
          { path: `decisions.${i}.decision`, message: 'held only through groups' },
        ]);
      }
      if (instant && row.decision === 'REVOKE' && decision !== 'REVOKE') {
        throw new AppError('conflict', `${row.user_full_name}'s access to ${row.item_name} was already revoked (this review acts at once); grant it again to give it back`, [
          { path: `decisions.${i}.decision`, message: 'the revoke has already ended the access' },
        ]);
      }
      if (instant && decision === 'REVOKE' && row.decision !== 'REVOKE') revokeRow(ctx, caller, row);
      uarDecisions.decide(seq, uarId, decision, caller.userId, now);
      subEvents.push({
        sub_event_type: `UAR_ITEM_${decision}`, uar_id: uarId, uar_item_id: seq, user_id: row.user_id,
        [row.item_type === 'RESOURCE' ? 'resource_id' : 'group_id']: row.item_id, access_level_remote_id: row.access_level_remote_id,
        decided_as: assigned ? 'REVIEWER' : 'ADMIN',
      });
    });
    events.record(caller, 'UAR_REVIEWS_DECIDED', subEvents);
    return input.decisions.map(({ uar_item_id: seq }) => uarDecisions.item(uarId, seq)!);
  });
}

/**
 * Replaces the reviewers of each listed row (an admin's manual assignment, as the reference allows
 * after a review starts), all or nothing. An empty list leaves the row to organization admins.
 * Throws not_found (`assignments.N.uar_item_id`, `assignments.N.reviewer_ids.M`), validation_failed
 * for the row's own user or an offboarded user (`assignments.N.reviewer_ids.M`), conflict once closed.
 * Records UAR_REVIEWERS_UPDATED with a sub-event per row; tells the reviewers (UAR_ASSIGNED) when the
 * review was started with send_reviewer_assignment_notification.
 */
export function assignItems(ctx: AppContext, actor: Actor, uarId: string, input: AssignInput): ReviewItemRow[] {
  const { uarDecisions, users, events, accessReviews } = ctx.stores;
  return inWriteTransaction(ctx, () => {
    requireOpen(ctx, uarId);
    const subEvents: SubEvent[] = [];
    const told = new Set<string>();
    input.assignments.forEach(({ uar_item_id: seq, reviewer_ids: ids }, i) => {
      const row = uarDecisions.item(uarId, seq);
      if (!row) throw noSuchItem(uarId, seq, `assignments.${i}.uar_item_id`);
      const reviewers = new Set<string>();
      ids.forEach((id, j) => {
        const path = `assignments.${i}.reviewer_ids.${j}`;
        const user = users.get(id);
        if (!user) throw notFound('user', id, path);
        if (id === row.user_id) throw invalidField(path, 'is the user whose access this item is: nobody reviews their own access');
        if (isOffboarded(user.hr_idp_status)) throw invalidField(path, `is ${user.hr_idp_status}, and cannot review`);
        reviewers.add(id);
      });
      uarDecisions.unassign(seq);
      for (const id of reviewers) uarDecisions.assign(seq, uarId, id, 'ADMIN');
      for (const id of reviewers) told.add(id);
      subEvents.push({ sub_event_type: 'UAR_REVIEWERS_UPDATED', uar_id: uarId, uar_item_id: seq, user_id: row.user_id, reviewer_ids: [...reviewers].join(',') });
    });
    if (accessReviews.get(uarId)!.send_reviewer_assignment_notification) tellReviewers(ctx, uarId, told, actor.userId, ctx.clock.now());
    events.record(actor, 'UAR_REVIEWERS_UPDATED', subEvents);
    return input.assignments.map(({ uar_item_id: seq }) => uarDecisions.item(uarId, seq)!);
  });
}

/** Sets what happens at the deadline to rows nobody answered (KEEP by default); conflict once closed. */
export function setUnansweredPolicy(ctx: AppContext, actor: Actor, uarId: string, decision: UnansweredDecision) {
  return inWriteTransaction(ctx, () => {
    requireOpen(ctx, uarId);
    ctx.stores.uarDecisions.setPolicy(uarId, decision);
    ctx.stores.events.record(actor, 'UARS_UPDATED', [{ sub_event_type: 'UARS_UPDATED', uar_id: uarId, unanswered_decision: decision }]);
    return { uar_id: uarId, ...ctx.stores.uarDecisions.policy(uarId) };
  });
}

/**
 * Closes one open review now, inside the caller's transaction: ends the direct grants its reviewers
 * decided to revoke (unless the review acted at once; each removal's actor is the reviewer who decided
 * it), applies its policy to the rows nobody answered (or put off with LATER) — KEEP leaves them, REVOKE
 * ends their direct grants, `closer` being the removal's actor — and records UARS_CLOSED by `closer`.
 * Rows held only through groups are kept and named in the event; a grant that can no longer be ended
 * (its item deleted since) is named with the reason.
 */
function closeReview(ctx: AppContext, review: { id: string; name: string }, closer: Actor, now: Date, earlyFrom?: string): void {
  const { uarDecisions, events, accessReviews } = ctx.stores;
  const { unanswered_decision: policy } = uarDecisions.policy(review.id);
  const subEvents: SubEvent[] = [];
  const itemOf = (row: ReviewItemRow) => ({ uar_id: review.id, uar_item_id: row.seq, user_id: row.user_id, [row.item_type === 'RESOURCE' ? 'resource_id' : 'group_id']: row.item_id });
  if (!accessReviews.get(review.id)!.instantly_action_reviews) {
    for (const row of uarDecisions.revoked(review.id)) {
      const refused = revokeRowAtClose(ctx, row, deciderOf(ctx, row));
      subEvents.push({ sub_event_type: 'UAR_ITEM_REVOKE', ...itemOf(row), decided_by: row.reviewer_user_id ?? '', ...(refused ? { not_revoked: refused } : {}) });
    }
  }
  for (const row of uarDecisions.unanswered(review.id)) {
    const revoke = policy === 'REVOKE' && row.has_direct_access === 1;
    const refused = revoke ? revokeRowAtClose(ctx, row, closer) : undefined;
    subEvents.push({ sub_event_type: revoke ? 'UAR_ITEM_REVOKE' : 'UAR_ITEM_KEEP', ...itemOf(row), unanswered: true, ...(refused ? { not_revoked: refused } : {}) });
  }
  uarDecisions.close(review.id, now.toISOString());
  events.record(closer, 'UARS_CLOSED', [{
    sub_event_type: 'UARS_CLOSED', uar_id: review.id, uar_name: review.name, unanswered_decision: policy,
    ...(earlyFrom !== undefined && { closed_early: true, deadline: earlyFrom }),
  }, ...subEvents]);
}

/** The deadline job: closes each review past its deadline, each in its own transaction (closeReview). */
export function closeDueReviews(ctx: AppContext, now: Date): void {
  for (const review of ctx.stores.uarDecisions.due(now.toISOString())) {
    inWriteTransaction(ctx, () => closeReview(ctx, review, DEADLINE_ACTOR, now));
  }
}

/**
 * Closes a review before its deadline (POST /v1/uar/{uar_id}/close, extension): what the deadline would
 * do, done now by `caller` — an organization admin or the review's owner (who started it). Throws
 * not_found (unknown, or a member who takes no part), forbidden (a reviewer who is neither), conflict
 * (already closed). Returns the review's policy and close time.
 */
export function closeReviewEarly(ctx: AppContext, caller: Caller, uarId: string) {
  return inWriteTransaction(ctx, () => {
    const review = ctx.stores.accessReviews.get(uarId);
    if (!review) throw notFound('UAR', uarId, 'uar_id');
    if (caller.role !== 'ADMIN' && ctx.stores.accessReviews.ownerOf(uarId) !== caller.userId) {
      requireVisibleReview(ctx, caller, uarId);
      throw new AppError('forbidden', 'only the review\'s owner (who started it) or an organization admin may close it early', [{ path: 'uar_id', message: 'you review items of it, but do not own it' }]);
    }
    const { closed_at } = ctx.stores.uarDecisions.policy(uarId);
    if (closed_at !== null) throw new AppError('conflict', `the review already closed at ${closed_at}`, [{ path: 'uar_id', message: 'is already closed' }]);
    const now = ctx.clock.now();
    closeReview(ctx, { id: uarId, name: review.name }, caller, now, review.deadline);
    return { uar_id: uarId, ...ctx.stores.uarDecisions.policy(uarId) };
  });
}
