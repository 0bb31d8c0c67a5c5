// The on-call area's use cases: adding a schedule (checked with its provider first), linking schedules to
// groups, what the sync knows of a schedule, whether a person is on call for a group now (requests'
// approval by rotation), and `lookUpIncident` — a PagerDuty incident for break-glass. Network calls happen
// before any transaction opens; every write is one transaction with its audit event.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import { credentialRefused, ON_CALL_ADAPTERS, providerCall } from './providers.ts';
import { CredentialRefused, ProviderFailure, type IncidentState, type OnCallProvider } from './provider.ts';
import { toApiSchedule } from './mappers.ts';
import { onCallAt } from './rotation.ts';
import { sameJson } from '../../lib/same-json.ts';
import { followersOf, nextSyncAt } from './sync.ts';
import type { OnCallNow, OnCallSchedule } from './responses.ts';

const unavailable = (message: string, path: string) => new AppError('unavailable', message, [{ path, message }]);

/** Throws conflict naming remote_id when the provider's schedule is already recorded. */
function refuseRecorded(ctx: AppContext, provider: OnCallProvider, remoteId: string): void {
  const existing = ctx.stores.onCall.idByRemote(provider, remoteId);
  if (existing !== undefined) {
    throw new AppError('conflict', `${provider} on-call schedule ${remoteId} is already recorded as ${existing}`, [
      { path: 'remote_id', message: `already recorded as ${existing}` },
    ]);
  }
}

/**
 * POST /v1/on-call-schedules: asks the provider for the schedule, then records it with the provider's name
 * and ON_CALL_SCHEDULES_CREATED. Throws validation_failed naming `third_party_provider` when the provider is
 * not set up or refuses its credential (401/403; the message names the setting), validation_failed naming
 * `remote_id` when the provider has no such schedule, unavailable (503) when the provider cannot be asked
 * (unreachable, 5xx, throttling, an answer its document does not allow), conflict when it is already recorded.
 * Nothing is stored unless all went well.
 */
export async function createSchedule(ctx: AppContext, actor: Actor, input: { third_party_provider: OnCallProvider; remote_id: string }): Promise<OnCallSchedule> {
  const provider = input.third_party_provider;
  const adapter = ON_CALL_ADAPTERS[provider];
  refuseRecorded(ctx, provider, input.remote_id);
  const call = providerCall(ctx, provider);
  let found: { name: string } | null;
  try {
    found = await adapter.schedule(call, input.remote_id);
  } catch (err) {
    if (err instanceof CredentialRefused) throw credentialRefused(provider);
    if (err instanceof ProviderFailure) throw unavailable(`${adapter.label} could not be asked about schedule ${input.remote_id}: ${err.message}`, 'remote_id');
    throw err;
  }
  if (found === null) throw invalidField('remote_id', `${adapter.label} has no schedule with this id`);
  return ctx.db.transaction(() => {
    refuseRecorded(ctx, provider, input.remote_id);
    const row = ctx.stores.onCall.create({ provider, remoteId: input.remote_id, name: found.name }, ctx.clock.now());
    ctx.stores.events.record(actor, 'ON_CALL_SCHEDULES_CREATED', [{
      sub_event_type: 'ON_CALL_SCHEDULES_CREATED', on_call_schedule_id: row.id, on_call_schedule_name: row.name,
      third_party_provider: provider, remote_id: input.remote_id,
    }]);
    return toApiSchedule(row);
  }).immediate();
}

/** Throws not_found naming `path` for an unknown schedule; the schedule's API object otherwise. */
export function getSchedule(ctx: AppContext, id: string, path = 'on_call_schedule_id'): OnCallSchedule {
  const row = ctx.stores.onCall.get(id);
  if (!row) throw notFound('on-call schedule', id, path);
  return toApiSchedule(row);
}

/** The schedules linked to a group, in the order set. Throws not_found for an unknown group. */
export function groupSchedules(ctx: AppContext, groupId: string): OnCallSchedule[] {
  if (!ctx.stores.groups.exists(groupId)) throw notFound('group', groupId, 'group_id');
  return ctx.stores.onCall.linked(groupId).map(toApiSchedule);
}

/** Replaces a group's links (`before` → `ids`) and records GROUP_ON_CALL_SCHEDULES_UPDATED with a sub-event per schedule that joined or left. */
function replaceLinks(ctx: AppContext, actor: Actor, groupId: string, before: string[], ids: readonly string[]): void {
  ctx.stores.onCall.setLinked(groupId, ids);
  const change = (type: string) => (id: string): SubEvent => ({ sub_event_type: type, group_id: groupId, on_call_schedule_id: id });
  ctx.stores.events.record(actor, 'GROUP_ON_CALL_SCHEDULES_UPDATED', [
    { sub_event_type: 'GROUP_ON_CALL_SCHEDULES_UPDATED', group_id: groupId, count: ids.length },
    ...ids.filter((id) => !before.includes(id)).map(change('GROUP_ON_CALL_SCHEDULES_ADDED')),
    ...before.filter((id) => !ids.includes(id)).map(change('GROUP_ON_CALL_SCHEDULES_REMOVED')),
  ]);
}

/**
 * While a group is linked to a configuration template, its schedules are the template's
 * member_oncall_schedule_ids and change only through it (as its visibility and other templated fields
 * do, docs/configuration-templates.md): a different list → conflict naming `on_call_schedule_ids`; the
 * same list (a client sending back what it read) passes.
 */
function refuseTemplated(ctx: AppContext, groupId: string, ids: readonly string[]): void {
  const templateId = ctx.stores.groups.getRow(groupId)?.configuration_template_id ?? null;
  if (templateId === null) return;
  const templated = ctx.stores.configurationTemplates.get(templateId)?.member_oncall_schedule_ids.map((id) => id.toLowerCase());
  if (templated === undefined || sameJson(templated, ids)) return;
  throw new AppError('conflict', `the on-call schedules of group ${groupId} are set by configuration template ${templateId}; change the template, or unlink the group first`, [
    { path: 'on_call_schedule_ids', message: `is set by configuration template ${templateId}` },
  ]);
}

/**
 * PUT /v1/groups/{group_id}/on-call-schedules: the ids given, each once, become the group's schedules;
 * returns them. The group's members follow them from the next sync. Throws validation_failed naming
 * `on_call_schedule_ids.N` for an id listed twice, not_found naming the group or `on_call_schedule_ids.N`,
 * conflict naming `on_call_schedule_ids` while a configuration template sets other schedules.
 */
export function setGroupSchedules(ctx: AppContext, actor: Actor, groupId: string, ids: string[]): string[] {
  ids.forEach((id, index) => {
    if (ids.indexOf(id) !== index) throw invalidField(`on_call_schedule_ids.${index}`, 'lists an on-call schedule a second time');
  });
  return ctx.db.transaction(() => {
    if (!ctx.stores.groups.exists(groupId)) throw notFound('group', groupId, 'group_id');
    refuseTemplated(ctx, groupId, ids);
    ids.forEach((id, index) => {
      if (!ctx.stores.onCall.exists(id)) throw notFound('on-call schedule', id, `on_call_schedule_ids.${index}`);
    });
    replaceLinks(ctx, actor, groupId, ctx.stores.onCall.linked(groupId).map((s) => s.id), ids);
    return ids;
  }).immediate();
}

/**
 * Gives a group the schedules its configuration template lists (member_oncall_schedule_ids), inside the
 * caller's transaction, recording GROUP_ON_CALL_SCHEDULES_UPDATED when that changes the list.
 */
export function applyTemplateSchedules(ctx: AppContext, actor: Actor, groupId: string, ids: readonly string[]): void {
  const before = ctx.stores.onCall.linked(groupId).map((s) => s.id);
  if (before.length === ids.length && before.every((id, i) => id === ids[i])) return;
  replaceLinks(ctx, actor, groupId, before, ids);
}

/**
 * GET /v1/on-call-schedules/{id}/on-call: who the last good sync found on call, still on call now (their
 * shift's end carried through a next shift of theirs, as the sync gives it), matched to users by email;
 * the groups following it and when the periodic sync next reads it (null: no group follows it, so it is
 * read only when asked). Throws not_found.
 */
export function onCallNow(ctx: AppContext, scheduleId: string): OnCallNow {
  getSchedule(ctx, scheduleId);
  const now = ctx.clock.now();
  const state = ctx.stores.onCall.state(scheduleId);
  const followers = followersOf(ctx, scheduleId);
  const onCall = onCallAt(state?.onCall ?? [], now).flatMap((cover) => {
    const user = ctx.stores.users.getByEmail(cover.email);
    return user ? [{ user_id: user.user_id, email: user.email, ends_at: cover.endsAt }] : [];
  });
  return {
    on_call_schedule_id: scheduleId,
    on_call: onCall,
    unknown_emails: state?.unknownEmails ?? [],
    last_synced_at: state?.lastSyncedAt ?? null,
    last_error: state?.lastError ?? null,
    failures: state?.failures ?? 0,
    followed_by_group_ids: followers,
    next_sync_at: nextSyncAt(ctx, followers.length > 0, state, now),
  };
}

/** Why a person holds a group through the rotation: the schedule and the end of their shift. */
export interface OnCallCover {
  scheduleId: string;
  scheduleName: string;
  endsAt: string;
}

/**
 * Whether `userId` is in `groupId` now because the rotation put them there (their shift, not a hand-added
 * membership): the schedule and when their shift ends, or null. Requests' approval by rotation caps the
 * grant at `endsAt`.
 */
export function onCallCover(ctx: AppContext, groupId: string, userId: string, now: Date): OnCallCover | null {
  const membership = ctx.stores.onCall.membership(groupId, userId);
  if (!membership || membership.shift_end <= now.toISOString()) return null;
  const held = ctx.stores.access.livePair('group_user', userId, groupId, now).find((row) => row.access_level_remote_id === '');
  if (!held || held.expiration_date !== membership.shift_end) return null;
  const schedule = ctx.stores.onCall.get(membership.schedule_id);
  return { scheduleId: membership.schedule_id, scheduleName: schedule?.name ?? schedule?.remote_id ?? membership.schedule_id, endsAt: membership.shift_end };
}

/**
 * Break-glass's incident check: asks PagerDuty (GET /incidents/{id}) whether the incident exists and its
 * status. `{exists: false}` for an id PagerDuty does not know. Throws validation_failed naming `path` when
 * PagerDuty is not set up (GATEHOUSE_PAGERDUTY_TOKEN unset; callers that treat the check as optional ask
 * `pagerDutyReady` first) and unavailable (503) naming `path` when PagerDuty cannot be asked. Never call
 * it inside a transaction: it waits on the network (at most 10 s).
 */
export async function lookUpIncident(ctx: AppContext, incidentId: string, path = 'incident_id', stop?: AbortSignal): Promise<{ exists: false } | ({ exists: true } & IncidentState)> {
  const adapter = ON_CALL_ADAPTERS.PAGER_DUTY;
  const call = providerCall(ctx, 'PAGER_DUTY', path, stop);
  try {
    const incident = await adapter.incident!(call, incidentId);
    return incident === null ? { exists: false } : { exists: true, ...incident };
  } catch (err) {
    if (err instanceof ProviderFailure) throw unavailable(`PagerDuty could not be asked about incident ${incidentId}: ${err.message}`, path);
    throw err;
  }
}

/** Whether PagerDuty is set up (GATEHOUSE_PAGERDUTY_TOKEN), so an incident can be checked. */
export const pagerDutyReady = (ctx: AppContext): boolean => {
  const token = ctx.config.pagerdutyToken;
  return typeof token === 'string' && token !== '';
};
