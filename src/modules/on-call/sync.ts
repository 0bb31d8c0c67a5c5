// The on-call sync: read each followed schedule from its provider (outside any transaction), record what it
// learned or why it failed (back-off, and a notice to admins after repeated failures), then bring each group
// that follows schedules in line, one transaction per group, through the access area's one change path.
//
// Rules (docs/on-call.md): a member the rotation adds holds the group until their shift ends (the edge's
// expiration, so it ends on time even if the provider is unreachable then); the next shift being theirs
// too renews it; a person no longer on call loses it at the next sync; members added by hand are never
// touched; a schedule whose last sync failed adds and extends nobody and removes nobody.
import type { AppContext } from '../../context.ts';
import { systemActor } from '../../lib/system-actor.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import { announce } from '../../signals.ts';
import { changeAccess } from '../access/changes.ts';
import type { SubEvent } from '../events/store.ts';
import type { EventType } from '../events/types.ts';
import { ON_CALL_ADAPTERS, providerCall } from './providers.ts';
import { ProviderFailure, type OnCallShift } from './provider.ts';
import { onCallAt, type Cover } from './rotation.ts';
import type { ScheduleRow } from './store.ts';

/** The actor of every change the sync makes. */
export const ON_CALL_ACTOR = systemActor('Gatehouse (on-call sync)');

/** Failed syncs in a row after which admins are told (once per run of failures). */
export const FAILURES_BEFORE_NOTICE = 3;
/** The longest wait between retries of a failing schedule. */
const MAX_BACKOFF_MS = 3_600_000;
/** The most shifts kept from one schedule's answer. */
const MAX_SHIFTS = 10_000;

const intervalMs = (ctx: AppContext) => ctx.config.onCallSyncSeconds * 1000;

/** How far ahead shifts are read: far enough to see the next shift of whoever is on call, before theirs ends. */
const lookAheadMs = (ctx: AppContext) => Math.max(2 * intervalMs(ctx), 3_600_000);

/** Every (group, schedule) pair followed: links, templates' schedules (copied into links) and on-call group types. */
function followedPairs(ctx: AppContext) {
  const types = Object.entries(ON_CALL_ADAPTERS).flatMap(([provider, adapter]) =>
    adapter.groupType ? [{ type: adapter.groupType.type, kind: adapter.groupType.remoteInfoKind, field: adapter.groupType.field, provider }] : []);
  return ctx.stores.onCall.followedPairs(types);
}

/**
 * The groups following a schedule (links, templates', on-call group types), in id order. A schedule no
 * group follows is read only when asked (POST …/sync): nobody's access depends on it, and the provider's
 * rate limit is shared with everything else the team runs against it (docs/on-call.md).
 */
export function followersOf(ctx: AppContext, scheduleId: string): string[] {
  return [...new Set(followedPairs(ctx).filter((pair) => pair.schedule_id === scheduleId).map((pair) => pair.group_id))].sort();
}

/**
 * When the periodic sync next reads a schedule: null when no group follows it (read only when asked);
 * else the end of its back-off while failing, one interval after its last attempt, or now when never tried.
 */
export function nextSyncAt(ctx: AppContext, followed: boolean, state: { lastAttemptAt: string | null; nextAttemptAt: string | null } | undefined, now: Date): string | null {
  if (!followed) return null;
  if (state?.nextAttemptAt != null) return state.nextAttemptAt;
  if (state?.lastAttemptAt != null) return new Date(Math.max(Date.parse(state.lastAttemptAt) + intervalMs(ctx), now.getTime())).toISOString();
  return now.toISOString();
}

type Outcome = { name: string; shifts: OnCallShift[] } | { error: string; retryAfterMs?: number };

/**
 * Reads one schedule from its provider: its name (so a schedule renamed there is renamed here) and its
 * shifts. A schedule the provider no longer has is a failure like any other (it extends nobody). Never
 * throws: a failure is its words.
 */
async function readSchedule(ctx: AppContext, schedule: ScheduleRow, now: Date, stop?: AbortSignal): Promise<Outcome> {
  const adapter = ON_CALL_ADAPTERS[schedule.third_party_provider];
  try {
    const call = providerCall(ctx, schedule.third_party_provider, 'third_party_provider', stop);
    const found = await adapter.schedule(call, schedule.remote_id);
    if (found === null) return { error: `${adapter.label} no longer has schedule ${schedule.remote_id} (deleted there?): add the schedule that replaced it` };
    const shifts = await adapter.onCall(call, schedule.remote_id, now, new Date(now.getTime() + lookAheadMs(ctx)));
    if (shifts.length > MAX_SHIFTS) return { error: `${adapter.label} stated more than ${MAX_SHIFTS} shifts for schedule ${schedule.remote_id}` };
    return { name: found.name, shifts };
  } catch (err) {
    if (err instanceof ProviderFailure) return { error: err.message, ...(err.retryAfterMs !== undefined && { retryAfterMs: err.retryAfterMs }) };
    if (err instanceof Error && 'code' in err && err.code === 'validation_failed') return { error: err.message };
    throw err;
  }
}

/**
 * Records a read's outcome in one short transaction: what was learned (and the provider's name for the
 * schedule, with ON_CALL_SCHEDULES_UPDATED when it changed), or the failure, its back-off and (the third
 * in a row) admins' notice.
 */
function recordOutcome(ctx: AppContext, schedule: ScheduleRow, outcome: Outcome, now: Date): void {
  const { onCall, users, events } = ctx.stores;
  ctx.db.transaction(() => {
    const current = onCall.get(schedule.id);
    if (!current) return;
    if ('shifts' in outcome) {
      const unknown = onCallAt(outcome.shifts, now).filter((cover) => users.getByEmail(cover.email) === undefined).map((cover) => cover.email);
      onCall.recordSynced(schedule.id, outcome.shifts, unknown, now);
      if (outcome.name !== current.name) {
        onCall.rename(schedule.id, outcome.name);
        events.record(ON_CALL_ACTOR, 'ON_CALL_SCHEDULES_UPDATED', [{
          sub_event_type: 'ON_CALL_SCHEDULES_UPDATED', on_call_schedule_id: schedule.id, on_call_schedule_name: outcome.name,
          previous_name: current.name, third_party_provider: schedule.third_party_provider, remote_id: schedule.remote_id,
        }]);
      }
      return;
    }
    const failures = (onCall.state(schedule.id)?.failures ?? 0) + 1;
    // Doubling from the interval, at most an hour; longer if the provider asked (Retry-After).
    const backoff = Math.max(Math.min(intervalMs(ctx) * 2 ** (failures - 1), MAX_BACKOFF_MS), outcome.retryAfterMs ?? 0);
    const state = onCall.recordFailed(schedule.id, outcome.error, now, new Date(now.getTime() + backoff));
    if (state.failures >= FAILURES_BEFORE_NOTICE && !state.failureNoticed) {
      onCall.markFailureNoticed(schedule.id);
      announce(ctx, 'on-call.sync-failing', {
        scheduleId: schedule.id, scheduleName: schedule.name ?? schedule.remote_id, provider: ON_CALL_ADAPTERS[schedule.third_party_provider].label,
        error: outcome.error, failures: state.failures,
      }, now);
    }
  }).immediate();
}

/** Who the schedule's last good sync says is on call now; null when its last attempt failed (or none was made). */
function coverOf(ctx: AppContext, scheduleId: string, now: Date): Cover[] | null {
  const state = ctx.stores.onCall.state(scheduleId);
  if (!state || state.lastSyncedAt === null || state.lastError !== null) return null;
  return onCallAt(state.onCall, now);
}

interface Wanted {
  scheduleId: string;
  scheduleName: string;
  startsAt: string | null;
  endsAt: string;
}

/** The sub-event fields saying which schedule and shift a change comes from. */
const why = (w: Pick<Wanted, 'scheduleId' | 'scheduleName' | 'startsAt' | 'endsAt'>) => ({
  on_call_schedule_id: w.scheduleId, on_call_schedule_name: w.scheduleName, shift_start: w.startsAt, shift_end: w.endsAt,
});

/**
 * Brings one group in line with the schedules it follows, in one transaction: adds whoever is on call and
 * not a member, renews or shortens the rotation's memberships to the shift's end, removes the rotation's
 * members no longer on call. Each kind of change is one event (GROUP_USERS_ADDED/UPDATED/REMOVED) by the
 * on-call sync, each sub-event naming the schedule and shift. Returns the number of changes.
 */
export function applyGroup(ctx: AppContext, groupId: string, scheduleIds: readonly string[], now: Date): number {
  const { onCall, access, users, accessRules, groups, events } = ctx.stores;
  return ctx.db.transaction(() => {
    if (!groups.exists(groupId)) return 0;
    const healthy = new Set<string>();
    const wanted = new Map<string, Wanted>();
    for (const scheduleId of scheduleIds) {
      const cover = coverOf(ctx, scheduleId, now);
      if (cover === null) continue;
      healthy.add(scheduleId);
      const schedule = onCall.get(scheduleId)!;
      for (const person of cover) {
        const user = users.getByEmail(person.email);
        if (!user || isOffboarded(user.hr_idp_status)) continue;
        const known = wanted.get(user.user_id);
        if (!known || known.endsAt < person.endsAt) {
          wanted.set(user.user_id, { scheduleId, scheduleName: schedule.name ?? schedule.remote_id, startsAt: person.startsAt, endsAt: person.endsAt });
        }
      }
    }
    const added: SubEvent[] = [];
    const updated: SubEvent[] = [];
    const removed: SubEvent[] = [];
    // The rotation's memberships still as it left them; one changed by hand (or ended) is no longer its.
    const ours = new Map<string, { schedule_id: string; shift_start: string | null; shift_end: string }>();
    for (const m of onCall.memberships(groupId)) {
      const edge = access.live('group_user', { principalId: m.user_id, itemId: groupId, level: '' }, now);
      if (edge && edge.expiration_date === m.shift_end) ours.set(m.user_id, m);
      else onCall.dropMembership(groupId, m.user_id);
    }
    const renewBefore = new Date(now.getTime() + Math.max(3 * intervalMs(ctx), 3_600_000)).toISOString();
    const rule = accessRules.isRule(groupId);
    for (const [userId, w] of [...wanted].sort(([a], [b]) => a.localeCompare(b))) {
      const key = { principalId: userId, itemId: groupId, level: '' };
      const mine = ours.get(userId);
      if (mine) {
        // Shortened at once (an override); moved later only near its end, so a moving window is not an update a minute.
        const change = w.endsAt < mine.shift_end || (w.endsAt > mine.shift_end && mine.shift_end <= renewBefore);
        if (change) {
          changeAccess(ctx, ON_CALL_ACTOR, [{ op: 'update', kind: 'group_user', key, expiresAt: w.endsAt, source: 'DIRECT', sourceId: null }], { record: updated, at: now, sessions: w.endsAt < mine.shift_end });
          tag(updated, w);
          if (w.endsAt < mine.shift_end) announce(ctx, 'on-call.cover-shortened', { groupId, userId, endsAt: w.endsAt }, now);
          onCall.putMembership({ group_id: groupId, user_id: userId, schedule_id: w.scheduleId, shift_start: w.startsAt, shift_end: w.endsAt });
        } else if (mine.schedule_id !== w.scheduleId && mine.shift_end === w.endsAt) {
          onCall.putMembership({ group_id: groupId, user_id: userId, schedule_id: w.scheduleId, shift_start: w.startsAt, shift_end: mine.shift_end });
        }
        continue;
      }
      // Held some other way (added by hand, a request): theirs, not the rotation's, and left alone.
      if (access.live('group_user', key, now) || rule) continue;
      changeAccess(ctx, ON_CALL_ACTOR, [{ op: 'endDead', kind: 'group_user', key }], { at: now });
      const levelName = access.groupLevelName(groupId, '') ?? '';
      changeAccess(ctx, ON_CALL_ACTOR, [{ op: 'add', kind: 'group_user', write: { ...key, levelName, expiresAt: w.endsAt, source: 'DIRECT', sourceId: null } }], { record: added, at: now });
      tag(added, w);
      onCall.putMembership({ group_id: groupId, user_id: userId, schedule_id: w.scheduleId, shift_start: w.startsAt, shift_end: w.endsAt });
    }
    for (const [userId, m] of ours) {
      if (wanted.has(userId)) continue;
      // From a schedule whose sync is failing: nobody knows whether they handed over; it ends at its own time.
      if (scheduleIds.includes(m.schedule_id) && !healthy.has(m.schedule_id)) continue;
      changeAccess(ctx, ON_CALL_ACTOR, [{ op: 'remove', kind: 'group_user', key: { principalId: userId, itemId: groupId, level: '' } }], { record: removed, at: now });
      announce(ctx, 'on-call.cover-shortened', { groupId, userId, endsAt: now.toISOString() }, now);
      const schedule = onCall.get(m.schedule_id);
      tag(removed, { scheduleId: m.schedule_id, scheduleName: schedule?.name ?? schedule?.remote_id ?? '', startsAt: m.shift_start, endsAt: m.shift_end });
      onCall.dropMembership(groupId, userId);
    }
    const record = (type: EventType, sub: SubEvent[]) => {
      if (sub.length > 0) events.record(ON_CALL_ACTOR, type, sub);
    };
    record('GROUP_USERS_ADDED', added);
    record('GROUP_USERS_UPDATED', updated);
    record('GROUP_USERS_REMOVED', removed);
    return added.length + updated.length + removed.length;
  }).immediate();
}

/** Adds the schedule and shift to the sub-events changeAccess just pushed (those without them yet). */
function tag(sub: SubEvent[], w: Pick<Wanted, 'scheduleId' | 'scheduleName' | 'startsAt' | 'endsAt'>): void {
  for (const event of sub) if (!('on_call_schedule_id' in event)) Object.assign(event, why(w));
}

/**
 * One pass: reads every followed schedule that is due (a failing one waits out its back-off; `force`
 * names schedules read now whatever their back-off), records each outcome, then brings every following
 * group in line. The network calls happen one at a time, outside any transaction; `stop` aborts them.
 */
export async function syncOnCall(ctx: AppContext, now: Date, stop?: AbortSignal, force: readonly string[] = []): Promise<void> {
  const pairs = followedPairs(ctx);
  const scheduleIds = [...new Set([...pairs.map((p) => p.schedule_id), ...force])];
  const at = now.toISOString();
  for (const id of scheduleIds) {
    if (stop?.aborted) return;
    const schedule = ctx.stores.onCall.get(id);
    if (!schedule) continue;
    const state = ctx.stores.onCall.state(id);
    if (!force.includes(id) && state?.nextAttemptAt != null && state.nextAttemptAt > at) continue;
    const outcome = await readSchedule(ctx, schedule, now, stop);
    // Stopped by the service shutting down: not the provider's failure, so nothing is recorded.
    if (stop?.aborted) return;
    recordOutcome(ctx, schedule, outcome, now);
  }
  const byGroup = new Map<string, string[]>();
  for (const pair of pairs) byGroup.set(pair.group_id, [...(byGroup.get(pair.group_id) ?? []), pair.schedule_id]);
  for (const [groupId, ids] of byGroup) applyGroup(ctx, groupId, ids, now);
  // Groups with rotation members that no longer follow any schedule: those members go.
  for (const groupId of ctx.stores.onCall.groupsWithMemberships()) if (!byGroup.has(groupId)) applyGroup(ctx, groupId, [], now);
}

/** The on-call area's job: every GATEHOUSE_ONCALL_SYNC_SECONDS. */
export const onCallSyncJob = {
  name: 'on-call-sync',
  everyMs: (config: { onCallSyncSeconds: number }) => config.onCallSyncSeconds * 1000,
  tick: (ctx: AppContext, now: Date, stop: AbortSignal) => syncOnCall(ctx, now, stop),
};
