// Who reviews one requested item: the request configuration whose condition matches the target,
// else the default one, and its stages resolved to users — with the reason each was chosen.
import type { AppContext } from '../../context.ts';
import type { RequestConfigurationInput } from '../request-settings/schemas.ts';
import type { RequestSettings } from '../request-settings/columns.ts';
import { ownerUserIds } from '../owners/service.ts';

export interface PlannedReviewer {
  /** What an AND stage needs every one of: `owner:<id>`, `user:<id>`, `manager`, `admin`. */
  slot: string;
  userId: string;
  reason: string;
}

export interface PlannedStage {
  stage: number;
  operator: 'AND' | 'OR';
  slots: string[];
  reviewers: PlannedReviewer[];
}

/** The configuration that decides how an item is requested and reviewed for one target. */
export interface ChosenConfiguration {
  /** 0 is the default configuration. */
  priority: number;
  /** The condition's group the target belongs to, when a conditional configuration matched. */
  matchedGroupId: string | null;
  why: string;
  allowRequests: boolean;
  autoApproval: boolean;
  requireSupportTicket: boolean;
  /** -1: no limit. */
  maxDuration: number;
  /** The request template whose custom fields a request must answer (request-templates), or null. */
  requestTemplateId: string | null;
  stages: RequestConfigurationInput['reviewer_stages'];
}

export type Target = { type: 'user'; id: string } | { type: 'group'; id: string };

/** The groups a condition can match for the target: a user's effective groups; a group and the groups it sits in. */
export function targetGroups(ctx: AppContext, target: Target, now: Date): Set<string> {
  if (target.type === 'group') return new Set(ctx.stores.requests.groupAndContaining(target.id, now));
  return new Set(ctx.stores.holdings.groupsOfUser(target.id, now).map((h) => h.item_id));
}

/**
 * The configuration for a target. Conditional configurations are tried from priority 1 upwards
 * (1 is the most specific, as the reference numbers them after the default 0); the first whose
 * condition.group_ids names a group the target belongs to wins. Otherwise the default applies,
 * its request fields read from the item's top-level settings (which it mirrors).
 */
export function chooseConfiguration(settings: RequestSettings, groups: Set<string>): ChosenConfiguration {
  const conditional = settings.request_configurations.filter((c) => c.priority !== 0).sort((a, b) => a.priority - b.priority);
  for (const config of conditional) {
    const matched = config.condition?.group_ids?.find((id) => groups.has(id));
    if (matched === undefined) continue;
    return {
      priority: config.priority,
      matchedGroupId: matched,
      why: `configuration with priority ${config.priority}: its condition names group ${matched}, which the target belongs to`,
      allowRequests: config.allow_requests,
      autoApproval: config.auto_approval,
      requireSupportTicket: config.require_support_ticket,
      maxDuration: config.max_duration_minutes ?? -1,
      requestTemplateId: config.request_template_id ?? null,
      stages: config.reviewer_stages,
    };
  }
  const base = settings.request_configurations.find((c) => c.priority === 0);
  return {
    priority: 0,
    matchedGroupId: null,
    why: conditional.length === 0
      ? 'the default configuration (priority 0): the item has no conditional configuration'
      : 'the default configuration (priority 0): no condition names a group the target belongs to',
    allowRequests: settings.is_requestable,
    autoApproval: settings.auto_approval,
    requireSupportTicket: settings.require_support_ticket,
    maxDuration: settings.max_duration,
    requestTemplateId: settings.request_template_id,
    stages: base?.reviewer_stages ?? [],
  };
}

/**
 * Resolves the configuration's stages to reviewers. Stage order: `stage` (or, where omitted, the
 * stage's position in the list). A slot nobody can fill (an owner without users, no manager) is
 * given to the item's admin owner's users, and the reason says so; so is a stage that names nobody.
 * No stages at all: one OR stage of the item's admin owner.
 */
export function resolveStages(ctx: AppContext, chosen: ChosenConfiguration, adminOwnerId: string, target: Target): PlannedStage[] {
  const { owners, users, requests } = ctx.stores;
  const ownerName = (id: string) => owners.get(id)?.name ?? id;
  const adminOwner = (slot: string, because: string): PlannedReviewer[] =>
    ownerUserIds(ctx, adminOwnerId).map((userId) => ({ slot, userId, reason: `${because}; the team that owns the item, "${ownerName(adminOwnerId)}", reviews instead` }));
  if (chosen.stages.length === 0) {
    const slot = `owner:${adminOwnerId}`;
    const reviewers = ownerUserIds(ctx, adminOwnerId).map((userId) => ({
      slot, userId, reason: `a member of "${ownerName(adminOwnerId)}", the team that owns the item (no reviewer stages are set)`,
    }));
    return [{ stage: 1, operator: 'OR', slots: [slot], reviewers }];
  }
  const ordered = chosen.stages
    .map((stage, index) => ({ ...stage, number: (stage as { stage?: number }).stage ?? index + 1 }))
    .sort((a, b) => a.number - b.number);
  return ordered.map((stage) => {
    const slots: string[] = [];
    const reviewers: PlannedReviewer[] = [];
    const fill = (slot: string, found: PlannedReviewer[], emptyBecause: string) => {
      slots.push(slot);
      reviewers.push(...(found.length > 0 ? found : adminOwner(slot, emptyBecause)));
    };
    for (const ownerId of stage.owner_ids) {
      const slot = `owner:${ownerId}`;
      fill(slot, ownerUserIds(ctx, ownerId).map((userId) => ({ slot, userId, reason: `a member of the team "${ownerName(ownerId)}"` })),
        `the team "${ownerName(ownerId)}" has no members`);
    }
    for (const userId of stage.service_user_ids) {
      const slot = `user:${userId}`;
      fill(slot, users.exists(userId) ? [{ slot, userId, reason: 'named as a service-user reviewer' }] : [], `service user ${userId} no longer exists`);
    }
    if (stage.require_manager_approval) {
      const manager = target.type === 'user' ? users.get(target.id)?.manager_id : undefined;
      fill('manager', manager ? [{ slot: 'manager', userId: manager, reason: 'the target user\'s manager' }] : [],
        target.type === 'group' ? 'manager approval was asked for but the target is a group' : 'the target user has no manager');
    }
    if (stage.require_admin_approval) {
      fill('admin', requests.adminUserIds().map((userId) => ({ slot: 'admin', userId, reason: 'an administrator (admin approval)' })), 'no administrator can act');
    }
    if (slots.length === 0) fill(`owner:${adminOwnerId}`, [], 'the stage names no reviewers');
    return { stage: stage.number, operator: stage.operator, slots, reviewers };
  });
}
