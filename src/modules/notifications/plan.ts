// Who hears what about a request (docs/notifications.md "Who hears what"). Each function runs inside
// the transaction of the change it reports and only queues notices (queue.ts); nothing here sends.
import type { AppContext } from '../../context.ts';
import { effectiveReviewer } from '../delegations/service.ts';
import { givesThemselvesAccess } from '../requests/decide.ts';
import type { RequestDecision } from '../requests/area.ts';
import type { ItemRow, RequestRow, ReviewerRow } from '../requests/store.ts';
import { ownerUserIds } from '../owners/service.ts';
import { slackChannelOf, tellAddress, tellChannel, tellUser, updateSlackMessages, type NoticeType } from './queue.ts';

/** One current-stage slot of one item, and who is asked to act on it now. */
export interface WaitingSlot {
  item: ItemRow;
  stageIndex: number;
  slot: string;
  /** The owner of an `owner:` slot. */
  ownerId: string | null;
  /** The reviewers still to act, as the people who act (a delegate in a delegator's place), in escalation order. */
  reviewers: { userId: string; reviewerId: string }[];
}

/**
 * The slots waiting for a review at `now`: every item's current stage, its undecided reviewer rows
 * whose approval would count (not the requester's, the target's, or a lapsed admin's), each as the
 * user who acts (a delegate, while one is in force). An owner's reviewers come in its escalation order.
 */
export function waitingSlots(ctx: AppContext, row: RequestRow, now: Date): WaitingSlot[] {
  const { requests, users } = ctx.stores;
  const items = requests.items(row.id);
  const reviewers = requests.reviewers(row.id);
  const slots: WaitingSlot[] = [];
  for (const item of items) {
    if (item.current_stage > item.stage_count) continue;
    const rows = reviewers.filter((r) => r.item_position === item.position && r.stage_index === item.current_stage);
    const bySlot = new Map<string, ReviewerRow[]>();
    for (const r of rows) bySlot.set(r.slot, [...(bySlot.get(r.slot) ?? []), r]);
    for (const [slot, slotRows] of bySlot) {
      // A slot someone approved is done (an AND stage waits on its other slots).
      if (slotRows.some((r) => r.status !== 'PENDING')) continue;
      const ownerId = slot.startsWith('owner:') ? slot.slice('owner:'.length) : null;
      const order = ownerId !== null ? ownerUserIds(ctx, ownerId) : [];
      const rank = (id: string) => (order.indexOf(id) === -1 ? order.length : order.indexOf(id));
      const counting = slotRows
        .filter((r) => !givesThemselvesAccess(ctx, row, r.user_id, now))
        .filter((r) => r.slot !== 'admin' || users.get(r.user_id)?.organization_role === 'ADMIN')
        .sort((a, b) => rank(a.user_id) - rank(b.user_id));
      const seen = new Set<string>();
      const acting = counting
        .map((r) => ({ userId: effectiveReviewer(ctx, r.user_id, now).userId, reviewerId: r.user_id }))
        .filter((r) => !seen.has(r.userId) && (seen.add(r.userId), true));
      slots.push({ item, stageIndex: item.current_stage, slot, ownerId, reviewers: acting });
    }
  }
  return slots;
}

/** The owner's reviewer channel, when it has one Slack can reach (queue.ts decides reachability). */
function reviewerChannelOf(ctx: AppContext, ownerId: string | null): string | null {
  if (ownerId === null) return null;
  return ctx.stores.owners.get(ownerId)?.reviewer_message_channel_id ?? null;
}

/** The owner's escalation period in minutes (0: none) — for a slot without an owner, the item's admin owner's. */
export function escalationMinutes(ctx: AppContext, slot: WaitingSlot): number {
  const ownerId = slot.ownerId ?? adminOwnerOf(ctx, slot.item);
  return (ownerId && ctx.stores.owners.get(ownerId)?.access_request_escalation_period) || 0;
}

function adminOwnerOf(ctx: AppContext, item: ItemRow): string | null {
  const row = item.item_type === 'resource' ? ctx.stores.resources.getRow(item.item_id) : ctx.stores.groups.getRow(item.item_id);
  return row?.admin_owner_id ?? null;
}

/**
 * Tells the current stage's reviewers that a review waits for them: an owner's reviewer channel
 * instead of its people when it has one; with an escalation period, only the first reviewer in the
 * owner's escalation order (the next ones follow period by period: schedule.ts); else everyone.
 */
function tellWaitingReviewers(ctx: AppContext, row: RequestRow, type: NoticeType, now: Date): void {
  for (const slot of waitingSlots(ctx, row, now)) {
    const base = type === 'REQUEST_CREATED' ? `created:${row.id}` : `stage:${row.id}:${slot.item.position}:${slot.stageIndex}`;
    const notice = {
      type, requestId: row.id, key: base,
      reason: type === 'REQUEST_CREATED'
        ? `you review stage ${slot.stageIndex} of "${slot.item.item_name}" in this request`
        : `the request reached stage ${slot.stageIndex} of "${slot.item.item_name}", which you review`,
    };
    const channel = reviewerChannelOf(ctx, slot.ownerId);
    if (channel !== null && slackChannelOf(ctx, channel) !== null) {
      tellChannel(ctx, channel, { ...notice, reason: `the reviewer channel of the owner who reviews stage ${slot.stageIndex} of "${slot.item.item_name}"` }, now);
      continue;
    }
    const first = slot.ownerId !== null && escalationMinutes(ctx, slot) > 0 ? slot.reviewers.slice(0, 1) : slot.reviewers;
    for (const reviewer of first) tellUser(ctx, reviewer.userId, notice, now);
  }
}

/** A request was created (and is PENDING): its current stage's reviewers. Call in createRequest's transaction. */
export function requestCreated(ctx: AppContext, requestId: string, now: Date): void {
  const row = ctx.stores.requests.get(requestId);
  if (row?.status !== 'PENDING') return;
  tellWaitingReviewers(ctx, row, 'REQUEST_CREATED', now);
}

/** Reviews were added and the request stays PENDING: the reviewers of stages that became current; Slack messages updated. */
export function reviewsAdded(ctx: AppContext, requestId: string, now: Date): void {
  const row = ctx.stores.requests.get(requestId);
  if (row?.status !== 'PENDING') return;
  tellWaitingReviewers(ctx, row, 'REQUEST_STAGE_ADVANCED', now);
  const stages = ctx.stores.requests.items(requestId).map((item) => item.current_stage).join('.');
  updateSlackMessages(ctx, requestId, `stages-${stages}`, now);
}

/**
 * A request was decided: its requester and target user learn the outcome (unless they decided it
 * themselves); everyone told of a review for it who did not act is told once that nothing is left
 * for them; every Slack message about it is updated. Call in the deciding transaction.
 */
export function requestDecided(ctx: AppContext, requestId: string, decision: RequestDecision, actorId: string | null, now: Date): void {
  const { requests, notifications } = ctx.stores;
  const row = requests.get(requestId);
  if (!row) return;
  const told = new Set<string>();
  // Auto-approved (every item auto-approves, so it was approved as it was made): the requester read
  // the outcome in the answer to their request; a different target user still learns of it.
  const sawIt = decision === 'APPROVED' && requests.items(requestId).every((item) => item.auto_approved === 1) ? row.requester_id : null;
  for (const userId of [row.requester_id, row.target_user_id]) {
    if (userId === null || userId === actorId || userId === sawIt || told.has(userId)) continue;
    told.add(userId);
    tellUser(ctx, userId, {
      type: 'REQUEST_DECIDED', requestId, key: `decided:${requestId}`, data: { decision },
      reason: userId === row.requester_id ? 'you made this request' : 'this request is for your access',
    }, now);
  }
  const asked = new Set(notifications.ofRequest(requestId)
    .filter((n) => n.user_id !== null && ['REQUEST_CREATED', 'REQUEST_STAGE_ADVANCED', 'REVIEW_ESCALATED', 'REVIEW_REMINDER'].includes(n.type))
    .map((n) => n.user_id!));
  const acted = new Set(requests.reviewers(requestId).filter((r) => r.acted_by_user_id !== null).map((r) => r.acted_by_user_id!));
  for (const userId of asked) {
    if (userId === actorId || told.has(userId) || acted.has(userId)) continue;
    tellUser(ctx, userId, {
      type: 'REVIEW_CLOSED', requestId, key: `closed:${requestId}`, data: { decision },
      reason: 'you were asked to review this request; it was decided, so nothing is left for you to do',
    }, now);
  }
  updateSlackMessages(ctx, requestId, decision, now);
}

/** A comment was added: the request's participants except its author. Call in the comment's transaction. */
export function commentAdded(ctx: AppContext, requestId: string, commentId: string, authorId: string, now: Date): void {
  const { requests } = ctx.stores;
  const row = requests.get(requestId);
  if (!row) return;
  const people = new Set<string>([row.requester_id]);
  if (row.target_user_id !== null) people.add(row.target_user_id);
  // Reviewers who were asked already (stages reached so far) or acted; later stages' have not taken part yet.
  const reached = new Map(requests.items(requestId).map((item) => [item.position, item.current_stage]));
  for (const r of requests.reviewers(requestId)) {
    if (r.acted_by_user_id !== null) people.add(r.acted_by_user_id);
    else if (r.stage_index <= (reached.get(r.item_position) ?? 0)) people.add(effectiveReviewer(ctx, r.user_id, now).userId);
  }
  people.delete(authorId);
  for (const userId of people) {
    tellUser(ctx, userId, {
      type: 'REQUEST_COMMENTED', requestId, key: `comment:${commentId}`, data: { comment_id: commentId, author_id: authorId },
      reason: userId === row.requester_id ? 'you made this request' : userId === row.target_user_id ? 'this request is for your access' : 'you review this request',
    }, now);
  }
}

/**
 * Reviewers were given rows of an access review: UAR_ASSIGNED for each but the actor (who started the
 * review or assigned the rows, and knows): once per review and person (a later assignment in the same
 * review tells nobody twice). The message is written when sent, with the counts then.
 */
export function reviewersAssigned(ctx: AppContext, uarId: string, reviewerIds: readonly string[], actorId: string, now: Date): void {
  for (const id of reviewerIds) {
    if (id === actorId) continue;
    tellUser(ctx, id, { type: 'UAR_ASSIGNED', key: `uar-assigned:${uarId}`, reason: 'you are asked to review items of an access review', data: { uar_id: uarId, started_by: actorId } }, now);
  }
}

/**
 * An access change could not be applied in a connected system, for good (its outbox row FAILED):
 * the users of the app's admin owner are told, once per `key` (the failed outbox row, say). Call
 * inside the transaction that records the failure (the connector handler's `settled`).
 */
export function propagationFailed(ctx: AppContext, input: { appId: string; key: string; error: string; detail?: string }, now: Date): void {
  const app = ctx.stores.apps.get(input.appId);
  if (!app) return;
  for (const userId of ownerUserIds(ctx, app.admin_owner_id)) {
    tellUser(ctx, userId, {
      type: 'PROPAGATION_FAILED', key: `propagation:${input.key}`,
      reason: `you are a user of the admin owner of the app "${app.name}"`,
      data: { app_id: input.appId, app_name: app.name, error: input.error, ...(input.detail !== undefined && { detail: input.detail }) },
    }, now);
  }
}

/**
 * A person's email changed: the old address and the new one are each told, by email (tellAddress), who
 * changed it and that their sessions and sign-in links ended — so whoever has the old mailbox learns the
 * account moved, and the new one learns it arrived. Call inside the change's transaction.
 */
export function emailChanged(ctx: AppContext, input: { userId: string; previousEmail: string; email: string; actorName: string | null }, now: Date): void {
  const key = `email-changed:${input.userId}:${now.toISOString()}`;
  const data = { previous_email: input.previousEmail, email: input.email, by: input.actorName };
  tellAddress(ctx, input.userId, input.previousEmail, { type: 'EMAIL_CHANGED', key, reason: 'this address was the email of the account', data }, now);
  tellAddress(ctx, input.userId, input.email, { type: 'EMAIL_CHANGED', key, reason: 'this address is now the email of the account', data }, now);
}

/**
 * An identity provider asked to offboard someone it may not (an admin, a service user): every other
 * active administrator is told, once a day per person however often it asks, to offboard them in the console if
 * that is meant. Call inside a write transaction.
 */
export function offboardingRefused(ctx: AppContext, input: { userId: string; status: string; why: string }, now: Date): void {
  const key = `offboarding-refused:${input.userId}:${now.toISOString().slice(0, 10)}`;
  for (const adminId of ctx.stores.requests.adminUserIds()) {
    if (adminId === input.userId) continue;
    tellUser(ctx, adminId, {
      type: 'OFFBOARDING_REFUSED', key, reason: 'you are an administrator',
      data: { user_id: input.userId, status: input.status, why: input.why },
    }, now);
  }
}

/**
 * An on-call schedule failed its sync several times in a row (the on-call area announces it once per run of
 * failures): every administrator is told, once per run (keyed by the instant it was announced). Inside the recording transaction.
 */
export function onCallSyncFailing(ctx: AppContext, input: { scheduleId: string; scheduleName: string; provider: string; error: string; failures: number }, now: Date): void {
  for (const userId of ctx.stores.requests.adminUserIds()) {
    tellUser(ctx, userId, {
      type: 'ON_CALL_SYNC_FAILING', key: `on-call-failing:${input.scheduleId}:${now.toISOString()}`,
      reason: 'you are an administrator of Gatehouse',
      data: { on_call_schedule_id: input.scheduleId, schedule_name: input.scheduleName, provider: input.provider, error: input.error, failures: input.failures },
    }, now);
  }
}
