// Notices that time brings, checked by a background job: reminders and escalation of reviews that
// wait, warnings before access ends, and daily digests. Each pass writes in short transactions;
// dedupe keys make a notice once only however often (or after however many restarts) it runs.
import type { AppContext } from '../../context.ts';
import { givesThemselvesAccess } from '../requests/decide.ts';
import type { RequestRow } from '../requests/store.ts';
import { escalationMinutes, waitingSlots, type WaitingSlot } from './plan.ts';
import type { ReviewToRemind } from '../uar-decisions/store.ts';
import { slackChannelOf, tellChannel, tellUser } from './queue.ts';
import { durationInWords } from './words.ts';
import { forgetOnLoss } from '../../db/group-commit.ts';
import type { ExpiringEdge } from './store.ts';

/** Pending requests looked at per pass. */
const MAX_REQUESTS = 5_000;
/** Requests looked at per transaction, with a yield to the event loop between two, so a long pass never stalls requests. */
const BATCH = 20;
/**
 * Reminders and expiry warnings count in minutes: their scans (every pending request, every edge
 * ending within a day) run at most once a minute, however short GATEHOUSE_NOTIFY_INTERVAL_MS is.
 */
const SCAN_EVERY_MS = 60_000;
const lastScan = new WeakMap<object, number>();

/** When the slot's stage became current: the request's creation, or the last approval of the stage before. */
function stageStart(ctx: AppContext, row: RequestRow, slot: WaitingSlot): number {
  if (slot.stageIndex === 1) return Date.parse(row.created_at);
  const before = ctx.stores.requests.reviewers(row.id)
    .filter((r) => r.item_position === slot.item.position && r.stage_index === slot.stageIndex - 1 && r.decided_at !== null)
    .map((r) => Date.parse(r.decided_at!));
  return before.length > 0 ? Math.max(...before) : Date.parse(row.created_at);
}

/**
 * The escalation ladder of one waiting slot, `periods` whole escalation periods after its stage
 * began. An owner's slot walks the owner's escalation order: after each period the reviewers told so
 * far are reminded (once) and the next one is told; once everyone in the order has had a period,
 * the organization's administrators are told (they may approve at level ADMIN). An owner's reviewer
 * channel, or a slot without an owner, is reminded after one period and escalated to the
 * administrators after two.
 */
function escalate(ctx: AppContext, row: RequestRow, slot: WaitingSlot, periods: number, now: Date): void {
  const where = `${row.id}:${slot.item.position}:${slot.stageIndex}`;
  const stageText = `stage ${slot.stageIndex} of "${slot.item.item_name}"`;
  const remind = (userId: string) => tellUser(ctx, userId, {
    type: 'REVIEW_REMINDER', requestId: row.id, key: `reminder:${where}`, reason: `you review ${stageText} and it is still waiting`,
  }, now);
  const toAdmins = () => {
    for (const adminId of ctx.stores.requests.adminUserIds()) {
      if (givesThemselvesAccess(ctx, row, adminId, now)) continue;
      tellUser(ctx, adminId, {
        type: 'REVIEW_ESCALATED', requestId: row.id, key: `escalated:${where}`,
        reason: `you are an administrator and ${stageText} waited past every reviewer's escalation period`,
      }, now);
    }
  };
  const channelId = slot.ownerId !== null ? ctx.stores.owners.get(slot.ownerId)?.reviewer_message_channel_id ?? null : null;
  if (channelId !== null && slackChannelOf(ctx, channelId) !== null) {
    tellChannel(ctx, channelId, { type: 'REVIEW_REMINDER', requestId: row.id, key: `reminder:${where}`, reason: `${stageText} is still waiting` }, now);
    if (periods >= 2) toAdmins();
    return;
  }
  if (slot.ownerId === null) {
    for (const reviewer of slot.reviewers) remind(reviewer.userId);
    if (periods >= 2) toAdmins();
    return;
  }
  const order = slot.reviewers;
  for (let i = 0; i < Math.min(periods, order.length); i += 1) remind(order[i]!.userId);
  for (let i = 1; i <= Math.min(periods, order.length - 1); i += 1) {
    tellUser(ctx, order[i]!.userId, {
      type: 'REVIEW_ESCALATED', requestId: row.id, key: `escalated:${where}`,
      reason: `you are next in the owner's escalation order for ${stageText}, which waited past its escalation period`,
    }, now);
  }
  if (periods >= order.length) toAdmins();
}

/** Reminders and escalation for every pending request at `now`. Resolves to how many slots were past a period. */
export async function remindAndEscalate(ctx: AppContext, now: Date): Promise<number> {
  const { requests, notifications } = ctx.stores;
  if (!notifications.anyEscalation()) return 0;
  const ids = requests.pendingSince(now, MAX_REQUESTS);
  let late = 0;
  for (let start = 0; start < ids.length; start += BATCH) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    ctx.db.transaction(() => {
      for (const id of ids.slice(start, start + BATCH)) {
        const row = requests.get(id);
        if (row?.status !== 'PENDING') continue;
        for (const slot of waitingSlots(ctx, row, now)) {
          const minutes = escalationMinutes(ctx, slot);
          if (minutes <= 0) continue;
          const periods = Math.floor((now.getTime() - stageStart(ctx, row, slot)) / (minutes * 60_000));
          if (periods < 1) continue;
          late += 1;
          escalate(ctx, row, slot, periods, now);
        }
      }
    }).immediate();
  }
  return late;
}

const within = (minutes: number) => `within ${durationInWords(minutes)}`;

/** Expiring edges read and warned of per transaction, with a yield to the event loop between two. */
const EXPIRY_SLICE = 100;

/** When the expiry warnings last ran to their end, per context (cleared when a batch is lost: the next pass reads everything again). */
const expiryScanned = new WeakMap<AppContext, number>();
const watchingLoss = new WeakSet<AppContext>();

/**
 * The windows of expiry instants a pass at `now` reads. The first pass in a process (or after the clock
 * went back, or a lost batch) reads every edge ending within the widest warning. Later ones read only
 * what crossed a warning since the last pass: for each warning w, the edges ending in (last + w, now + w].
 * Nothing is missed: a warning is due when its moment (the end minus w) has come, and it is sent only
 * when that moment came after the edge got its expiry — so after any write to the edge that a pass
 * could not have seen. Overlapping windows are merged, so no edge is read twice in one pass.
 */
export function expiryWindows(warnings: readonly number[], now: number, last: number | undefined): Array<[number, number]> {
  const widest = Math.max(...warnings) * 60_000;
  if (last === undefined || last > now) return [[now, now + widest]];
  const windows = warnings
    .map((minutes): [number, number] => [Math.max(now, last + minutes * 60_000), now + minutes * 60_000])
    .filter(([from, to]) => from < to)
    .sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const window of windows) {
    const previous = merged.at(-1);
    if (previous && window[0] <= previous[1]) previous[1] = Math.max(previous[1], window[1]);
    else merged.push([...window]);
  }
  return merged;
}

/**
 * Warns holders before their access ends, at the warnings of GATEHOUSE_EXPIRY_WARNING_MINUTES: once
 * the end is a warning's length away, the closest such warning is queued once — and only when that
 * moment came after the access got its expiry (granted, extended, moved to another level). So a
 * 4-hour grant hears the hour's warning alone and a 1-day grant no day's warning at its start; each
 * warning says the time really left when it is sent (render.ts). The edges are read in slices of
 * EXPIRY_SLICE, each warned of in its own transaction with a yield between two, and only those whose
 * warning came due since the last pass (expiryWindows): the event loop belongs to the requests.
 */
export async function warnExpiring(ctx: AppContext, now: Date): Promise<number> {
  const warnings = [...ctx.config.expiryWarningMinutes].sort((a, b) => a - b);
  if (warnings.length === 0) return 0;
  if (!watchingLoss.has(ctx)) {
    watchingLoss.add(ctx);
    forgetOnLoss(ctx.db, () => expiryScanned.delete(ctx));
  }
  const { notifications } = ctx.stores;
  let queued = 0;
  let sliced = false;
  for (const [from, to] of expiryWindows(warnings, now.getTime(), expiryScanned.get(ctx))) {
    let after: ExpiringEdge | undefined;
    for (;;) {
      if (sliced) await new Promise((resolve) => setImmediate(resolve));
      sliced = true;
      const edges = notifications.expiringBetween(new Date(from), new Date(to), after, EXPIRY_SLICE);
      ctx.db.transaction(() => {
        for (const edge of edges) {
          const ends = Date.parse(edge.expiration_date);
          const warning = warnings.find((minutes) => ends - now.getTime() <= minutes * 60_000)!;
          // The warning's moment was already past when this expiry was set: it would tell of less time than the grant's own.
          if (ends - warning * 60_000 <= Date.parse(edge.expiry_set_at)) continue;
          const key = `expiring:${edge.item_type}:${edge.item_id}:${edge.access_level_remote_id}:${edge.expiration_date}:${warning}`;
          // A point read on the unique key spares the writes of notices already queued in an earlier pass.
          if (notifications.has(`${key}:user:${edge.user_id}`)) continue;
          const { expiry_set_at: _, edge_seq: __, ...data } = edge;
          const id = tellUser(ctx, edge.user_id, {
            type: 'ACCESS_EXPIRING',
            key,
            reason: `you hold this access and it ends ${within(warning)}`,
            data,
          }, now);
          if (id !== null) queued += 1;
        }
      }).immediate();
      if (edges.length < EXPIRY_SLICE) break;
      after = edges.at(-1);
    }
  }
  expiryScanned.set(ctx, now.getTime());
  return queued;
}

/**
 * The minutes before a review's deadline at which its reviewers are reminded. The reference's
 * `reminder_schedule` when the review has one: whole days before the deadline, 0 meaning its last hour
 * (`[]`: no reminders). Without one, a review that tells its reviewers
 * (`send_reviewer_assignment_notification`) reminds them at GATEHOUSE_EXPIRY_WARNING_MINUTES (a day
 * and an hour before, as for expiring access); a quiet review reminds nobody.
 */
export function reminderMinutes(ctx: AppContext, review: ReviewToRemind): number[] {
  if (review.reminder_schedule === null) return review.send_reviewer_assignment_notification === 1 ? [...ctx.config.expiryWarningMinutes] : [];
  return [...new Set((JSON.parse(review.reminder_schedule) as number[]).map((days) => (days === 0 ? 60 : days * 1440)))];
}

/** The review reminders (dedupe key prefixes) this process has already sent, per context. */
const remindersSent = new WeakMap<object, Set<string>>();

/**
 * Reminds the reviewers of each open access review who still have rows unanswered (or put off with
 * LATER): once per reminder of its schedule (reminderMinutes), only the closest that applies. With
 * the reference's `reminder_include_manager`, each such reviewer's manager is told too (once per
 * reminder, naming how many of their reports' items wait). Nobody who has answered everything, and
 * nobody once the review has closed, is reminded. A reminder whose moment was already past when the
 * review started is skipped, as expiry warnings are (warnExpiring).
 */
export function remindReviewDeadlines(ctx: AppContext, now: Date): number {
  const { uarDecisions, users, notifications } = ctx.stores;
  let sent = remindersSent.get(ctx);
  if (!sent) remindersSent.set(ctx, (sent = new Set()));
  let queued = 0;
  for (const review of uarDecisions.openReviewsAhead(now)) {
    const warnings = reminderMinutes(ctx, review).sort((a, b) => a - b);
    const left = (Date.parse(review.deadline) - now.getTime()) / 60_000;
    const warning = warnings.find((minutes) => left <= minutes);
    if (warning === undefined) continue;
    // As for expiring access: a reminder whose moment was past when the review started would say less than the truth.
    const started = ctx.stores.accessReviews.snapshotTakenAt(review.uar_id);
    if (started !== undefined && Date.parse(review.deadline) - warning * 60_000 <= Date.parse(started)) continue;
    const key = `uar-reminder:${review.uar_id}:${warning}`;
    // Each reminder reads the review's rows once per process (a big review has tens of thousands);
    // after a restart it reads them once more, and the dedupe keys keep anyone from hearing twice.
    if (sent.has(key)) continue;
    ctx.db.transaction(() => {
      const managers = new Map<string, string[]>();
      for (const { reviewer_user_id: reviewer } of uarDecisions.waitingReviewers(review.uar_id)) {
        if (!notifications.has(`${key}:user:${reviewer}`)) {
          const id = tellUser(ctx, reviewer, {
            type: 'UAR_REMINDER', key, reason: `you review items of this access review and its deadline is ${within(warning)}`,
            data: { uar_id: review.uar_id },
          }, now);
          if (id !== null) queued += 1;
        }
        const manager = review.reminder_include_manager === 1 ? users.get(reviewer)?.manager_id ?? null : null;
        if (manager !== null && manager !== reviewer) managers.set(manager, [...(managers.get(manager) ?? []), reviewer]);
      }
      for (const [manager, reports] of managers) {
        if (notifications.has(`${key}:manager:user:${manager}`)) continue;
        const id = tellUser(ctx, manager, {
          type: 'UAR_REMINDER', key: `${key}:manager`, reason: `people who report to you review items of this access review, and its deadline is ${within(warning)}`,
          data: { uar_id: review.uar_id, reports },
        }, now);
        if (id !== null) queued += 1;
      }
    }).immediate();
    sent.add(key);
  }
  return queued;
}

/**
 * From GATEHOUSE_DIGEST_HOUR_UTC each day, everyone with held notices gets one digest of them (once a
 * day: the date is in its dedupe key); notices held later wait for the next day's.
 */
export function sendDigests(ctx: AppContext, now: Date): number {
  if (now.getUTCHours() < ctx.config.digestHourUtc) return 0;
  const { notifications } = ctx.stores;
  const day = now.toISOString().slice(0, 10);
  let sent = 0;
  for (const userId of notifications.usersWithHeld(now)) {
    ctx.db.transaction(() => {
      const held = notifications.held(userId, now);
      if (held.length === 0) return;
      const digestId = tellUser(ctx, userId, { type: 'DIGEST', key: `digest:${day}`, reason: 'you chose one daily digest instead of single messages' }, now);
      if (digestId === null) return;
      for (const notice of held) notifications.markDigested(notice.id, digestId);
      sent += 1;
    }).immediate();
  }
  return sent;
}

/**
 * One pass of the notification schedule at `now` (src/jobs.ts); tests call it with a moved clock.
 * The reminder and expiry scans run when a minute has passed since they last ran in this process
 * (and on its first pass); digests on every pass.
 */
export async function tick(ctx: AppContext, now: Date): Promise<{ late: number; expiring: number; reviewDeadlines: number; digests: number }> {
  const last = lastScan.get(ctx);
  let late = 0;
  let expiring = 0;
  let reviewDeadlines = 0;
  if (last === undefined || now.getTime() - last >= SCAN_EVERY_MS || now.getTime() < last) {
    lastScan.set(ctx, now.getTime());
    late = await remindAndEscalate(ctx, now);
    expiring = await warnExpiring(ctx, now);
    reviewDeadlines = remindReviewDeadlines(ctx, now);
  }
  return { late, expiring, reviewDeadlines, digests: sendDigests(ctx, now) };
}
