// Creating an access request: every rule of the spec checked before anything is written, the
// reviewers resolved and snapshotted, auto-approval applied, the event recorded — or, for a dry run,
// the same plan answered and nothing written.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField } from '../../http/errors.ts';
import type { Caller } from '../../http/types.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import { canSee } from '../visibility/service.ts';
import { requestSettingsFromRow } from '../request-settings/columns.ts';
import { chooseConfiguration, resolveStages, targetGroups, type ChosenConfiguration, type PlannedStage, type Target } from './reviewers.ts';
import type { CreateRequestInput } from './schemas.ts';
import { completeApproval, AUTO_APPROVAL_ACTOR, givesThemselvesAccess, requestSubEvents } from './decide.ts';
import { toApiRequest } from './mappers.ts';
import { ownerHasUser } from '../owners/service.ts';
import { announce } from '../../signals.ts';
import { fieldsAsked, type AskedField } from '../request-templates/service.ts';
import { toApiAskedField } from '../request-templates/mappers.ts';
import { levelReach } from '../connectors/levels.ts';
import { onCallCover, type OnCallCover } from '../on-call/service.ts';

export interface ItemPlan {
  path: string;
  itemType: 'resource' | 'group';
  itemId: string;
  itemName: string;
  remoteId: string | null;
  remoteName: string | null;
  level: string;
  levelName: string;
  chosen: ChosenConfiguration;
  stages: PlannedStage[];
  /** Auto-approved because the target is on call (the matched group is theirs through the rotation): the schedule and shift end. */
  onCall: OnCallCover | null;
}

/**
 * Checks another area adds for each requested item (the catalogue's visibility rules, for one):
 * each throws an AppError naming `path` (e.g. `resources.0.id`) when `caller` may not request it.
 */
export type ItemCheck = (ctx: AppContext, caller: Caller, item: { type: 'resource' | 'group'; id: string }, path: string) => void;
export const ITEM_CHECKS: ItemCheck[] = [
  // A member cannot request what they cannot see; an unseen item answers exactly as a missing one.
  (ctx, caller, item, path) => {
    if (!canSee(ctx, caller, item.type, item.id)) throw invalidField(path, `no ${item.type} with this id`);
  },
];

function forbidden(path: string, message: string): AppError {
  return new AppError('forbidden', message, [{ path, message }]);
}

/** The target and whether the caller may request for it. Throws validation_failed or forbidden naming the field. */
function checkTarget(ctx: AppContext, caller: Caller, input: CreateRequestInput): Target {
  const { users, groups } = ctx.stores;
  if (input.target_user_id !== undefined && input.target_group_id !== undefined) {
    throw invalidField('target_group_id', 'give target_user_id or target_group_id, not both');
  }
  if (input.target_group_id !== undefined) {
    const id = input.target_group_id;
    const group = groups.get(id);
    // A group the caller does not see answers exactly as one that does not exist.
    if (!group || !canSee(ctx, caller, 'group', id)) throw invalidField('target_group_id', 'no group with this id');
    const leads = group.group_leader_user_ids.includes(caller.userId);
    const administers = ownerHasUser(ctx, group.admin_owner_id, caller.userId);
    if (caller.role !== 'ADMIN' && !leads && !administers) {
      throw forbidden('target_group_id', 'a member may request for a group only as its leader or a user of its admin owner');
    }
    return { type: 'group', id };
  }
  const id = input.target_user_id ?? caller.userId;
  const user = users.get(id);
  if (!user) throw invalidField('target_user_id', 'no user with this id');
  if (isOffboarded(user.hr_idp_status)) throw invalidField('target_user_id', 'is suspended, deprovisioned or deleted, and such a user holds no access');
  if (caller.role !== 'ADMIN' && id !== caller.userId) throw forbidden('target_user_id', 'a member may request access only for themselves');
  return { type: 'user', id };
}

/** Everything about one requested item, or a 400 naming its field. */
function planItem(ctx: AppContext, caller: Caller, input: CreateRequestInput, target: Target, groupsOfTarget: Set<string>,
  type: 'resource' | 'group', entry: CreateRequestInput['resources'][number], path: string, now: Date): ItemPlan {
  const { resources, groups, access, accessRules } = ctx.stores;
  const row = type === 'resource' ? resources.getRow(entry.id) : groups.getRow(entry.id);
  if (!row) throw invalidField(`${path}.id`, `no ${type} with this id`);
  // Before anything about the item: an unseen one must answer exactly as a missing one.
  for (const check of ITEM_CHECKS) check(ctx, caller, { type, id: entry.id }, `${path}.id`);
  const level = entry.access_level_remote_id ?? '';
  const levelName = type === 'resource' ? resources.accessLevel(entry.id, level)?.access_level_name : access.groupLevelName(entry.id, level);
  if (levelName === undefined) throw invalidField(`${path}.access_level_remote_id`, `the ${type} offers no access level with this remote id`);
  if (type === 'group' && target.type === 'user' && accessRules.isRule(entry.id)) {
    throw invalidField(`${path}.id`, 'is an access rule: its members follow its clauses and cannot be requested');
  }
  if (type === 'group' && target.type === 'group' && (entry.id === target.id || access.wouldCycle(target.id, entry.id))) {
    throw invalidField(`${path}.id`, 'the target group already contains this group (or is it), so nesting would make a cycle');
  }
  const chosen = chooseConfiguration(requestSettingsFromRow(row), groupsOfTarget);
  if (!chosen.allowRequests) throw invalidField(`${path}.id`, `is not requestable (${chosen.why})`);
  if (chosen.maxDuration !== -1 && (input.duration_minutes === -1 || input.duration_minutes > chosen.maxDuration)) {
    throw invalidField('duration_minutes', `must be at most ${chosen.maxDuration} minutes for ${path} (its maximum duration)`);
  }
  if (chosen.requireSupportTicket && input.support_ticket === undefined) {
    throw invalidField('support_ticket', `is required: ${path} requires a support ticket`);
  }
  const remoteId = 'remote_resource_id' in row ? row.remote_resource_id : row.remote_id;
  const remoteName = 'remote_resource_name' in row ? row.remote_resource_name : row.remote_name;
  return {
    path, itemType: type, itemId: entry.id, itemName: row.name, remoteId, remoteName, level, levelName, chosen,
    stages: chosen.autoApproval ? [] : resolveStages(ctx, chosen, row.admin_owner_id, target),
    onCall: chosen.autoApproval && chosen.matchedGroupId !== null && target.type === 'user' ? onCallCover(ctx, chosen.matchedGroupId, target.id, now) : null,
  };
}

/** An instant as people read it in a reason: "18:00 UTC", with the day when it is not `now`'s ("18:00 UTC on 2 March"). */
function shiftEndInWords(endsAt: string, now: Date): string {
  const end = new Date(endsAt);
  const time = `${end.toISOString().slice(11, 16)} UTC`;
  if (endsAt.slice(0, 10) === now.toISOString().slice(0, 10)) return time;
  return `${time} on ${end.getUTCDate()} ${end.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' })}`;
}

/** Why the rotation approves an item, in words: "approved because you are on call for Payments primary until 18:00 UTC". */
function rotationReason(cover: OnCallCover, target: Target, caller: Caller, now: Date): string {
  const who = target.type === 'user' && target.id === caller.userId ? 'you are' : 'they are';
  return `approved because ${who} on call for ${cover.scheduleName} until ${shiftEndInWords(cover.endsAt, now)}`;
}

/**
 * When every item is approved at once and the rotation approves at least one (docs/on-call.md): the
 * earliest shift end among them and why, in words; else null. Each item the rotation approves is capped
 * at its own shift's end when granted (request_items.on_call_until, decide.ts), whether the request is
 * approved at once or waits for reviewers of its other items.
 */
export function rotationApproval(items: readonly ItemPlan[], target: Target, caller: Caller, now: Date): { reason: string; cover: OnCallCover } | null {
  if (!items.every((item) => item.chosen.autoApproval)) return null;
  const covers = items.map((item) => item.onCall).filter((c): c is OnCallCover => c !== null);
  if (covers.length === 0) return null;
  const first = covers.reduce((a, b) => (b.endsAt < a.endsAt ? b : a));
  return { cover: first, reason: rotationReason(first, target, caller, now) };
}

/**
 * Custom fields: names once each, BOOLEAN values `true` or `false`; and what the items' request
 * templates ask: an answer to a field they ask has its type (and, for MULTI_CHOICE, one of its
 * options); each required field is answered with a value that is not blank — unless `forPreview`
 * (the dry run), which lists the fields instead so a form can ask them. Fields no template asks are
 * kept as given. Throws validation_failed naming `custom_metadata` or `custom_metadata.N.…`.
 */
function checkCustomMetadata(fields: CreateRequestInput['custom_metadata'], asked: AskedField[], forPreview: boolean): void {
  const seen = new Set<string>();
  const byName = new Map(asked.map((field) => [field.name.toLowerCase(), field]));
  fields.forEach((field, i) => {
    if (seen.has(field.name.toLowerCase())) throw invalidField(`custom_metadata.${i}.name`, 'names a field a second time');
    seen.add(field.name.toLowerCase());
    if (field.type === 'BOOLEAN' && field.value !== 'true' && field.value !== 'false') {
      throw invalidField(`custom_metadata.${i}.value`, 'must be "true" or "false" for a BOOLEAN field');
    }
    const question = byName.get(field.name.toLowerCase());
    if (!question) return;
    if (field.type !== question.type) throw invalidField(`custom_metadata.${i}.type`, `must be ${question.type}: that is how the request template asks "${question.name}"`);
    const options = question.metadata?.multi_choice_data.options;
    if (options && field.value !== '' && !options.includes(field.value)) {
      throw invalidField(`custom_metadata.${i}.value`, `must be one of the choices for "${question.name}": ${options.join(', ')}`);
    }
    if (question.required && !forPreview && field.value.trim() === '') throw invalidField(`custom_metadata.${i}.value`, `must not be blank: "${question.name}" is required`);
  });
  if (forPreview) return;
  const missing = asked.filter((field) => field.required && !seen.has(field.name.toLowerCase()));
  if (missing.length > 0) {
    throw invalidField('custom_metadata', `must answer ${missing.map((f) => `"${f.name}" (asked for ${f.itemNames.join(', ')})`).join(', ')}: ${missing.length === 1 ? 'it is' : 'they are'} required`);
  }
}

/**
 * The remote id of the level an entry asks for: its `access_level_remote_id`; without one, the level
 * named `access_level_name` (deprecated in the reference, but a client may still send it alone, and
 * granting the default level instead would give them something they did not ask for); else the
 * default level. An item the caller cannot see (or that does not exist) is left to planItem.
 */
function requestedLevel(ctx: AppContext, caller: Caller, type: 'resource' | 'group', entry: CreateRequestInput['resources'][number], path: string): string | undefined {
  if (entry.access_level_remote_id !== undefined || entry.access_level_name === undefined) return entry.access_level_remote_id;
  if (!canSee(ctx, caller, type, entry.id)) return undefined;
  const levels = type === 'resource' ? ctx.stores.resources.accessLevels(entry.id) : ctx.stores.access.groupLevels(entry.id);
  const named = levels.filter((level) => level.access_level_name === entry.access_level_name);
  if (named.length === 1) return named[0]!.access_level_remote_id;
  throw invalidField(`${path}.access_level_name`, named.length === 0
    ? `the ${type} offers no access level with this name (give access_level_remote_id)`
    : `names ${named.length} of the ${type}'s access levels (give access_level_remote_id)`);
}

/** Checks the whole body and resolves every item's reviewers. Writes nothing; throws 400/403 naming the field. */
export function planRequest(ctx: AppContext, caller: Caller, input: CreateRequestInput, now: Date, forPreview = false): { target: Target; items: ItemPlan[]; asked: AskedField[] } {
  if (input.resources.length + input.groups.length === 0) throw invalidField('resources', 'list at least one resource or group');
  const target = checkTarget(ctx, caller, input);
  const groupsOfTarget = targetGroups(ctx, target, now);
  const seen = new Set<string>();
  const entries = [
    ...input.resources.map((entry, i) => ['resource', entry, `resources.${i}`] as const),
    ...input.groups.map((entry, i) => ['group', entry, `groups.${i}`] as const),
  ];
  const items = entries.map(([type, given, path]) => {
    const entry = { ...given, access_level_remote_id: requestedLevel(ctx, caller, type, given, path) };
    const key = `${entry.id}\n${entry.access_level_remote_id ?? ''}`;
    if (seen.has(key)) throw invalidField(`${path}.id`, 'requests the same item at the same level a second time');
    seen.add(key);
    return planItem(ctx, caller, input, target, groupsOfTarget, type, entry, path, now);
  });
  const asked = fieldsAsked(ctx, items.map((item) => ({ path: item.path, name: item.itemName, requestTemplateId: item.chosen.requestTemplateId })));
  checkCustomMetadata(input.custom_metadata, asked, forPreview);
  return { target, items, asked };
}

/**
 * Creates the request (PENDING), its items, stages and reviewers, and records REQUESTS_CREATED with
 * the requester's name and id. Items whose configuration auto-approves need no review; when every
 * item does, the request is approved and granted in the same transaction. Returns the new id.
 */
export function createRequest(ctx: AppContext, caller: Caller, input: CreateRequestInput): { id: string } {
  const { requests, events } = ctx.stores;
  return ctx.db.transaction(() => {
    const now = ctx.clock.now();
    const { target, items } = planRequest(ctx, caller, input, now);
    const id = requests.create({
      requester_id: caller.userId,
      target_user_id: target.type === 'user' ? target.id : null,
      target_group_id: target.type === 'group' ? target.id : null,
      reason: input.reason,
      duration_minutes: input.duration_minutes,
      support_ticket: input.support_ticket ? JSON.stringify(input.support_ticket) : null,
      custom_metadata: JSON.stringify(input.custom_metadata),
    }, now);
    items.forEach((item, index) => {
      const position = index + 1;
      requests.addItem({
        request_id: id, position, item_type: item.itemType, item_id: item.itemId, item_name: item.itemName,
        remote_id: item.remoteId, remote_name: item.remoteName, access_level_remote_id: item.level, access_level_name: item.levelName,
        configuration_priority: item.chosen.priority, matched_group_id: item.chosen.matchedGroupId,
        auto_approved: item.chosen.autoApproval ? 1 : 0, stage_count: item.stages.length,
        current_stage: 1,
        // Approved by the rotation: its grant ends no later than this shift, even if reviewers of other items decide later.
        on_call_until: item.onCall?.endsAt ?? null,
        approval_reason: item.onCall ? rotationReason(item.onCall, target, caller, now) : null,
      });
      item.stages.forEach((stage, s) => {
        requests.addStage({ request_id: id, item_position: position, stage_index: s + 1, stage: stage.stage, operator: stage.operator, slots: JSON.stringify(stage.slots) });
        for (const r of stage.reviewers) requests.addReviewer({ request_id: id, item_position: position, stage_index: s + 1, slot: r.slot, user_id: r.userId, reason: r.reason });
      });
    });
    const row = requests.get(id)!;
    events.record(caller, 'REQUESTS_CREATED', requestSubEvents(ctx, 'REQUESTS_CREATED', row, {
      // Who asked for what and why, in the chained trail itself (docs/audit-log.md).
      requester_name: caller.name, reason: row.reason, duration_minutes: row.duration_minutes,
      ...(row.support_ticket !== null && { support_ticket: row.support_ticket }),
    }));
    const rotation = rotationApproval(items, target, caller, now);
    if (rotation) {
      requests.setApprovalReason(id, rotation.reason);
      completeApproval(ctx, AUTO_APPROVAL_ACTOR, requests.get(id)!, now, {
        auto_approved: true, approval_reason: rotation.reason, on_call_schedule_id: rotation.cover.scheduleId, shift_end: rotation.cover.endsAt,
      });
    } else if (items.every((item) => item.chosen.autoApproval)) completeApproval(ctx, AUTO_APPROVAL_ACTOR, row, now, { auto_approved: true });
    else announce(ctx, 'requests.created', { requestId: id }, now);
    return { id };
  }).immediate();
}

/** A dry run item's warning when its level carries nothing in the item's connected system (connectors/levels.ts). */
function warningOf(ctx: AppContext, type: 'resource' | 'group', id: string, level: string): { warning?: string } {
  const reach = levelReach(ctx, type, id, level);
  return reach && !reach.carries && reach.why ? { warning: reach.why } : {};
}

/** The dry run: what POST /requests would create, with why each reviewer was chosen. Writes nothing. */
export function dryRunRequest(ctx: AppContext, caller: Caller, input: CreateRequestInput) {
  const now = ctx.clock.now();
  const { target, items, asked } = planRequest(ctx, caller, input, now, true);
  const rotation = rotationApproval(items, target, caller, now);
  const name = (id: string) => ctx.stores.users.get(id)?.full_name ?? '';
  // Whose approval would not count (decide.ts countsNow): theirs would give themselves access.
  const request = {
    requester_id: caller.userId,
    target_user_id: target.type === 'user' ? target.id : null,
    target_group_id: target.type === 'group' ? target.id : null,
  };
  const own = (userId: string) => givesThemselvesAccess(ctx, request, userId, now);
  const NOT_COUNTED = ' — but this approval would not count: it would give themselves access (nor would their delegate\'s); where nobody else fills the slot, only an administrator completes the request, at level ADMIN';
  return {
    dry_run: true as const,
    requester_id: caller.userId,
    ...(target.type === 'user' ? { target_user_id: target.id } : { target_group_id: target.id }),
    duration_minutes: input.duration_minutes,
    would_be_approved_at_once: items.every((item) => item.chosen.autoApproval),
    ...(rotation && { approval_reason: rotation.reason }),
    // What the items' request templates ask (the dry run does not refuse a missing answer: a form reads these to ask them).
    custom_fields: asked.map(toApiAskedField),
    items: items.map((item) => ({
      ...(item.itemType === 'resource' ? { resource_id: item.itemId } : { group_id: item.itemId }),
      name: item.itemName,
      access_level_remote_id: item.level,
      access_level_name: item.levelName,
      configuration: {
        priority: item.chosen.priority,
        ...(item.chosen.matchedGroupId !== null && { matched_group_id: item.chosen.matchedGroupId }),
        why: item.chosen.why,
      },
      auto_approved: item.chosen.autoApproval,
      ...warningOf(ctx, item.itemType, item.itemId, item.level),
      ...(item.onCall && { on_call: { on_call_schedule_id: item.onCall.scheduleId, schedule_name: item.onCall.scheduleName, ends_at: item.onCall.endsAt } }),
      stages: item.stages.map((stage) => ({
        stage: stage.stage,
        operator: stage.operator,
        reviewers: stage.reviewers.map((r) => {
          const delegation = ctx.stores.delegations.inForce(r.userId, now);
          return {
            id: delegation ? delegation.delegate_user_id : r.userId,
            full_name: name(delegation ? delegation.delegate_user_id : r.userId),
            why: own(r.userId) ? `${r.reason}${NOT_COUNTED}` : r.reason,
            ...(delegation && { delegated_from_user_id: r.userId, delegation_id: delegation.id }),
          };
        }),
      })),
    })),
  };
}

export { toApiRequest };
