// Break-glass (docs/break-glass.md): a named person gives themselves access to an item at once, for at
// most the item's cap, through a request the break-glass rule approves; everyone who should know is
// told (notifications hears the signals); an owner reviews it afterwards, and NOT_JUSTIFIED ends it.
// A refusal of any kind records BREAK_GLASS_REFUSED and nothing else.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Caller } from '../../http/types.ts';
import { addMinutes } from '../../lib/durations.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import { announce } from '../../signals.ts';
import { revokeEdge, kindFor } from '../access/service.ts';
import { ownerHasUser } from '../owners/service.ts';
import { requestSettingsFromRow } from '../request-settings/columns.ts';
import { recordBreakGlassRequest } from '../requests/break-glass-rule.ts';
import { canSee } from '../visibility/service.ts';
import type { SubEvent } from '../events/store.ts';
import { checkIncident, type IncidentFound } from './incident.ts';
import type { BreakGlassInput, ReviewBreakGlassInput } from './schemas.ts';
import type { BreakGlassRow } from './store.ts';
import { toApiBreakGlass } from './mappers.ts';
import type { BreakGlass } from './responses.ts';

const forbidden = (path: string, message: string) => new AppError('forbidden', message, [{ path, message }]);

/** The item a body names: exactly one of resource_id and group_id. */
function itemOf(input: Pick<BreakGlassInput, 'resource_id' | 'group_id'>): { type: 'resource' | 'group'; id: string; path: string } {
  if (input.resource_id !== undefined && input.group_id !== undefined) throw invalidField('group_id', 'give resource_id or group_id, not both');
  if (input.resource_id !== undefined) return { type: 'resource', id: input.resource_id, path: 'resource_id' };
  if (input.group_id !== undefined) return { type: 'group', id: input.group_id, path: 'group_id' };
  throw invalidField('resource_id', 'name the item: resource_id or group_id');
}

/**
 * Whether `userId` may break glass on an item with these settings at `now`: named in its
 * break_glass_user_ids, or holding (directly or through nesting) a group of its break_glass_group_ids.
 */
export function mayBreakGlass(ctx: AppContext, settings: { break_glass_user_ids: string[]; break_glass_group_ids: string[] }, userId: string, now: Date): boolean {
  if (settings.break_glass_user_ids.includes(userId)) return true;
  if (settings.break_glass_group_ids.length === 0) return false;
  const named = new Set(settings.break_glass_group_ids);
  return ctx.stores.holdings.groupsOfUser(userId, now).some((held) => named.has(held.item_id));
}

/** The item's row, its settings and whether `caller` may break glass on it (the console's Break glass action asks this). */
export function breakGlassEligibility(ctx: AppContext, caller: Pick<Caller, 'userId'>, type: 'resource' | 'group', id: string, now: Date) {
  const row = type === 'resource' ? ctx.stores.resources.getRow(id) : ctx.stores.groups.getRow(id);
  if (!row) return undefined;
  const settings = requestSettingsFromRow(row);
  return { row, settings, eligible: mayBreakGlass(ctx, settings, caller.userId, now) };
}

/** Checks the whole break-glass (reads only); throws the refusal naming the field. */
function planBreakGlass(ctx: AppContext, caller: Caller, input: BreakGlassInput, now: Date) {
  const { users, resources, access } = ctx.stores;
  const item = itemOf(input);
  const found = breakGlassEligibility(ctx, caller, item.type, item.id, now);
  // An item the caller may not see and is not named on answers exactly as a missing one.
  if (!found || (!found.eligible && !canSee(ctx, caller, item.type, item.id))) throw notFound(item.type, item.id, item.path);
  const { row, settings, eligible } = found;
  const user = users.get(caller.userId);
  if (!user || isOffboarded(user.hr_idp_status)) throw forbidden('user_id', 'you are suspended, deprovisioned or deleted, and such a user holds no access');
  if (settings.break_glass_user_ids.length + settings.break_glass_group_ids.length === 0) {
    throw forbidden(item.path, `the ${item.type} has no break-glass: it names nobody who may (break_glass_user_ids, break_glass_group_ids)`);
  }
  if (!eligible) throw forbidden(item.path, `you are not named for break-glass on this ${item.type}: ask its owners or an administrator`);
  const level = input.access_level_remote_id;
  const levelName = item.type === 'resource' ? resources.accessLevel(item.id, level)?.access_level_name : access.groupLevelName(item.id, level);
  if (levelName === undefined) throw invalidField('access_level_remote_id', `the ${item.type} offers no access level with this remote id`);
  const minutes = input.duration_minutes ?? settings.break_glass_max_minutes;
  if (minutes > settings.break_glass_max_minutes) {
    throw invalidField('duration_minutes', `must be at most ${settings.break_glass_max_minutes} minutes: the ${item.type}'s break_glass_max_minutes`);
  }
  const running = ctx.stores.breakGlass.active(caller.userId, item.id, now);
  if (running) {
    throw new AppError('conflict', `you already broke glass on this ${item.type} (${running.id}); it lasts until ${running.ends_at} and cannot be extended: break glass again once it ends`,
      [{ path: item.path, message: 'has an active break-glass of yours' }]);
  }
  return { item, row, level, levelName, minutes };
}

/** Checks the whole break-glass again and writes it; inside the transaction. */
function writeBreakGlass(ctx: AppContext, caller: Caller, input: BreakGlassInput, incident: IncidentFound, now: Date): BreakGlassRow {
  const { events } = ctx.stores;
  const { item, row, level, levelName, minutes } = planBreakGlass(ctx, caller, input, now);
  const request = recordBreakGlassRequest(ctx, caller, {
    userId: caller.userId, itemType: item.type, itemId: item.id, itemName: row.name,
    remoteId: 'remote_resource_id' in row ? row.remote_resource_id : row.remote_id,
    remoteName: 'remote_resource_name' in row ? row.remote_resource_name : row.remote_name,
    level, levelName, reason: input.reason, durationMinutes: minutes,
  }, now);
  const id = ctx.stores.breakGlass.create({
    request_id: request.id, user_id: caller.userId, item_type: item.type, item_id: item.id, item_name: row.name,
    admin_owner_id: row.admin_owner_id, access_level_remote_id: level, access_level_name: levelName, reason: input.reason,
    incident_id: input.incident_id ?? null, duration_minutes: minutes,
    started_at: now.toISOString(), ends_at: addMinutes(now, minutes).toISOString(),
  });
  const created = ctx.stores.breakGlass.get(id)!;
  events.record(caller, 'BREAK_GLASS_USED', [subEvent('BREAK_GLASS_USED', created, {
    requester_name: caller.name,
    // What PagerDuty said of the incident when it was checked (absent: PagerDuty is not set up).
    ...(incident && { incident_status: incident.status, incident_title: incident.title }),
  })]);
  announce(ctx, 'break-glass.used', { breakGlassId: id }, now);
  return created;
}

/** The sub-event naming a break-glass: who, what, how long, why, the incident. */
function subEvent(type: string, row: BreakGlassRow, extra: Record<string, string | number | boolean | null> = {}): SubEvent {
  return {
    sub_event_type: type,
    break_glass_id: row.id,
    request_id: row.request_id,
    user_id: row.user_id,
    [row.item_type === 'resource' ? 'resource_id' : 'group_id']: row.item_id,
    [row.item_type === 'resource' ? 'resource_name' : 'group_name']: row.item_name,
    access_level_remote_id: row.access_level_remote_id,
    duration_minutes: row.duration_minutes,
    ends_at: row.ends_at,
    reason: row.reason,
    ...(row.incident_id !== null && { incident_id: row.incident_id }),
    ...extra,
  };
}

/**
 * Records BREAK_GLASS_REFUSED for a refused attempt (`what` is the act: BREAK or REVIEW) with the
 * error's code, message and fields, in its own transaction: the refused act itself wrote nothing.
 */
function recordRefusal(ctx: AppContext, caller: Caller, what: 'BREAK' | 'REVIEW', error: AppError, about: Record<string, string | number>): void {
  ctx.db.transaction(() => {
    ctx.stores.events.record(caller, 'BREAK_GLASS_REFUSED', [{
      sub_event_type: 'BREAK_GLASS_REFUSED', refused: what, user_id: caller.userId, ...about,
      error_code: error.code, error: error.message, ...(error.details[0] && { error_path: error.details[0].path }),
    }]);
  }).immediate();
}

/** What a refused body named, for its refusal event (only the ids and the level: the body may not have parsed). */
function aboutBody(input: Partial<BreakGlassInput> | undefined): Record<string, string | number> {
  if (!input) return {};
  return {
    ...(input.resource_id !== undefined && { resource_id: input.resource_id }),
    ...(input.group_id !== undefined && { group_id: input.group_id }),
    ...(input.access_level_remote_id !== undefined && { access_level_remote_id: input.access_level_remote_id }),
    ...(input.duration_minutes !== undefined && { duration_minutes: input.duration_minutes }),
  };
}

/**
 * POST /v1/break-glass: reads the body (`readBody` throws validation errors), checks the incident with
 * the on-call provider outside any transaction, then checks and writes everything in one: the request
 * approved by the break-glass rule, its grant, the break-glass with its OPEN review, BREAK_GLASS_USED,
 * and the notices. Any refusal (400, 403, 404, 409) records BREAK_GLASS_REFUSED alone and is rethrown.
 */
export async function breakGlass(ctx: AppContext, caller: Caller, readBody: () => Promise<BreakGlassInput>): Promise<BreakGlass> {
  let input: BreakGlassInput | undefined;
  try {
    input = await readBody();
    // Everything but the incident first: PagerDuty is asked only for someone who may break glass here.
    planBreakGlass(ctx, caller, input, ctx.clock.now());
    const incident = input.incident_id === undefined ? null : await checkIncident(ctx, input.incident_id);
    const body = input;
    const row = ctx.db.transaction(() => writeBreakGlass(ctx, caller, body, incident, ctx.clock.now())).immediate();
    return toApiBreakGlass(row, ctx.clock.now());
  } catch (error) {
    if (error instanceof AppError && error.status < 500) recordRefusal(ctx, caller, 'BREAK', error, aboutBody(input));
    throw error;
  }
}

/** Whether `caller` may read break-glass `row`: an admin, its person, or a user of the item's owner then. */
function mayRead(ctx: AppContext, caller: Pick<Caller, 'userId' | 'role'>, row: BreakGlassRow): boolean {
  return caller.role === 'ADMIN' || row.user_id === caller.userId || ownerHasUser(ctx, row.admin_owner_id, caller.userId);
}

/** The break-glass `id` as `caller` may read it; 404 naming `id` otherwise. */
export function readableBreakGlass(ctx: AppContext, caller: Pick<Caller, 'userId' | 'role'>, id: string): BreakGlassRow {
  const row = ctx.stores.breakGlass.get(id);
  if (!row || !mayRead(ctx, caller, row)) throw notFound('break-glass', id, 'id');
  return row;
}

/**
 * Ends break-glass `row`'s access at `now` if it still lasts: the grant its request made is taken
 * away (only while the edge is still that request's: a later grant of the same access stays), and
 * it is marked ended. Returns whether it was still running. Inside the caller's transaction.
 */
function endNow(ctx: AppContext, caller: Caller, row: BreakGlassRow, now: Date): boolean {
  if (row.ended_at !== null || row.ends_at <= now.toISOString()) return false;
  const kind = kindFor('user', row.item_type);
  const key = { principalId: row.user_id, itemId: row.item_id, level: row.access_level_remote_id };
  const edge = ctx.stores.access.live(kind, key, now);
  if (edge && edge.source === 'REQUEST' && edge.source_id === row.request_id) revokeEdge(ctx, caller, kind, key);
  return ctx.stores.breakGlass.end(row.id, now);
}

/**
 * POST /v1/break-glass/{id}/review: an owner of the item (a user of its admin owner) or an admin
 * records JUSTIFIED or NOT_JUSTIFIED with a comment, and BREAK_GLASS_REVIEWED; NOT_JUSTIFIED ends the
 * access at once if it still lasts, and the admins are told. Nobody reviews their own (403). Throws
 * 404 (unknown, or not theirs to read), 403, 409 (already reviewed); each refusal records BREAK_GLASS_REFUSED.
 */
export async function reviewBreakGlass(ctx: AppContext, caller: Caller, id: string, readBody: () => Promise<ReviewBreakGlassInput>): Promise<BreakGlass> {
  try {
    const input = await readBody();
    const row = ctx.db.transaction(() => {
      const now = ctx.clock.now();
      const row = readableBreakGlass(ctx, caller, id);
      if (row.user_id === caller.userId) throw forbidden('id', 'nobody reviews their own break-glass: its item\'s owners or an administrator do');
      if (caller.role !== 'ADMIN' && !ownerHasUser(ctx, row.admin_owner_id, caller.userId)) {
        throw forbidden('id', 'only the users of the item\'s admin owner, or an administrator, review a break-glass');
      }
      if (row.review_state !== 'OPEN') throw new AppError('conflict', `break-glass ${id} was already reviewed: ${row.review_state}`, [{ path: 'id', message: 'is already reviewed' }]);
      if (!ctx.stores.breakGlass.review(id, input.decision, caller.userId, input.comment, now)) {
        throw new AppError('conflict', `break-glass ${id} was reviewed meanwhile`, [{ path: 'id', message: 'is already reviewed' }]);
      }
      const ended = input.decision === 'NOT_JUSTIFIED' && endNow(ctx, caller, row, now);
      const reviewed = ctx.stores.breakGlass.get(id)!;
      ctx.stores.events.record(caller, 'BREAK_GLASS_REVIEWED', [subEvent('BREAK_GLASS_REVIEWED', reviewed, {
        decision: input.decision, comment: input.comment, ended_access: ended,
      })]);
      announce(ctx, 'break-glass.reviewed', { breakGlassId: id, decision: input.decision, reviewerId: caller.userId, endedAccess: ended }, now);
      return reviewed;
    }).immediate();
    return toApiBreakGlass(row, ctx.clock.now());
  } catch (error) {
    if (error instanceof AppError && error.status < 500) recordRefusal(ctx, caller, 'REVIEW', error, { break_glass_id: id });
    throw error;
  }
}
