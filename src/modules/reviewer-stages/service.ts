// The reviewer stages of an item's default request configuration (priority 0), read and replaced
// through their own endpoints; one implementation for resources and groups, driven by the item kind.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Actor } from '../events/store.ts';
import { groupState, reviseGroups } from '../groups/service.ts';
import { type RequestConfigurationInput, type ReviewerStageInput } from '../request-settings/schemas.ts';
import { checkStageNumbers } from '../request-settings/service.ts';
import { type RequestSettings } from '../request-settings/columns.ts';
import { resourceState, reviseResources } from '../resources/service.ts';
import { sameJson } from '../../lib/same-json.ts';

export type ItemKind = 'resource' | 'group';

/** An item as this module needs it: its request settings, and how to store new ones (through its owner's service). */
interface Item {
  settings: RequestSettings;
  save(actor: Actor, settings: RequestSettings): void;
}

/**
 * Reads a resource or group through its owner's service; `save` writes it there, which records
 * RESOURCES_UPDATED / GROUPS_UPDATED (updated_fields `reviewer_stages`) in the caller's transaction.
 */
function readItem(ctx: AppContext, kind: ItemKind, id: string): Item | undefined {
  const updatedFields = 'reviewer_stages';
  if (kind === 'resource') {
    const state = resourceState(ctx, id);
    return state && { settings: state.settings, save: (actor, settings) => reviseResources(ctx, actor, [{ id, state: { ...state, settings }, updatedFields }]) };
  }
  const state = groupState(ctx, id);
  return state && { settings: state.settings, save: (actor, settings) => reviseGroups(ctx, actor, [{ id, state: { ...state, settings }, updatedFields }]) };
}

/** The stages of the default configuration: what request_configurations[0].reviewer_stages shows. */
function stagesOf(settings: RequestSettings): ReviewerStageInput[] {
  return settings.request_configurations.find((config) => config.priority === 0)?.reviewer_stages ?? [];
}

/** The reviewers (owner ids) of the stages: each owner once, in stage order. */
function reviewersOf(stages: ReviewerStageInput[]): string[] {
  // Stages are stored in the order given; a stage without a number is numbered by its position.
  const numbered = stages.map((stage, index) => ({ number: stage.stage ?? index + 1, owners: stage.owner_ids }));
  return [...new Set(numbered.sort((a, b) => a.number - b.number).flatMap((stage) => stage.owners))];
}

/**
 * The settings with the default configuration's stages replaced. When no default configuration is
 * stored yet, one is made from the top-level settings it mirrors (as GET already shows it).
 */
function withStages(settings: RequestSettings, stages: ReviewerStageInput[]): RequestSettings {
  const configs = settings.request_configurations;
  const base = configs.find((config) => config.priority === 0);
  const next: RequestConfigurationInput = base
    ? { ...base, reviewer_stages: stages }
    : {
        condition: null,
        allow_requests: settings.is_requestable,
        auto_approval: settings.auto_approval,
        require_mfa_to_request: settings.require_mfa_to_request,
        require_support_ticket: settings.require_support_ticket,
        max_duration_minutes: settings.max_duration,
        recommended_duration_minutes: settings.recommended_duration,
        extensions_duration_in_minutes: settings.extensions_duration_in_minutes,
        request_template_id: settings.request_template_id,
        reviewer_stages: stages,
        priority: 0,
      };
  return { ...settings, request_configurations: base ? configs.map((config) => (config === base ? next : config)) : [next, ...configs] };
}

/** The default configuration's stages of a resource or group. Throws not_found for an unknown item. */
export function getReviewerStages(ctx: AppContext, kind: ItemKind, id: string): ReviewerStageInput[] {
  const item = readItem(ctx, kind, id);
  if (!item) throw notFound(kind, id);
  return stagesOf(item.settings);
}

/** The owner ids of every stage of the default configuration. Throws not_found for an unknown item. */
export function getReviewers(ctx: AppContext, kind: ItemKind, id: string): string[] {
  return reviewersOf(getReviewerStages(ctx, kind, id));
}

/**
 * While an item is linked to a configuration template, its request configurations (stages included)
 * change only through the template, as for PUT /v1/resources: a different list → conflict naming `field`.
 */
function refuseTemplated(kind: ItemKind, id: string, current: RequestSettings, next: RequestSettings, field: string): void {
  const templateId = current.configuration_template_id;
  if (templateId === null || sameJson(stagesOf(current), stagesOf(next))) return;
  throw new AppError('conflict', `the reviewer stages of ${kind} ${id} are set by configuration template ${templateId}; change the template, or unlink the ${kind} first`, [
    { path: field, message: `is set by configuration template ${templateId}` },
  ]);
}

/** Where a refused owner id sits in the body: `stages.N.owner_ids.M` or `reviewer_ids.M`. */
type OwnerPath = (stage: number, index: number) => string;

function replaceStages(ctx: AppContext, actor: Actor, kind: ItemKind, id: string, stages: ReviewerStageInput[], ownerPath: OwnerPath) {
  return ctx.db.transaction(() => {
    const item = readItem(ctx, kind, id);
    if (!item) throw notFound(kind, id);
    stages.forEach((stage, s) => {
      stage.owner_ids.forEach((ownerId, i) => {
        if (!ctx.stores.owners.exists(ownerId)) throw notFound('owner', ownerId, ownerPath(s, i));
      });
      stage.service_user_ids.forEach((userId, i) => {
        if (!ctx.stores.users.exists(userId)) throw notFound('user', userId, `stages.${s}.service_user_ids.${i}`);
      });
    });
    const settings = withStages(item.settings, stages);
    refuseTemplated(kind, id, item.settings, settings, ownerPath(0, 0).split('.')[0]!);
    item.save(actor, settings);
    return stagesOf(settings);
  }).immediate();
}

/**
 * Replaces the default configuration's stages and records RESOURCES_UPDATED / GROUPS_UPDATED
 * (updated_fields `reviewer_stages`) in the same transaction; answers the stored stages.
 * Throws validation_failed for a repeated stage number (`stages.N.stage`); not_found for an unknown
 * item, or an owner or user a stage names (`stages.N.owner_ids.M`, `stages.N.service_user_ids.M`).
 */
export function setReviewerStages(ctx: AppContext, actor: Actor, kind: ItemKind, id: string, stages: ReviewerStageInput[]): ReviewerStageInput[] {
  checkStageNumbers(stages, 'stages');
  return replaceStages(ctx, actor, kind, id, stages, (s, i) => `stages.${s}.owner_ids.${i}`);
}

/**
 * The deprecated reviewer list: the default configuration gets one stage (AND, no manager or admin
 * approval) holding these owners, or no stage for an empty list; recorded as setReviewerStages does.
 * Answers the reviewers as stored. Throws validation_failed for an owner listed twice, not_found for
 * an unknown item or owner (`reviewer_ids.N`).
 */
export function setReviewers(ctx: AppContext, actor: Actor, kind: ItemKind, id: string, ownerIds: string[]): string[] {
  const first = new Map<string, number>();
  ownerIds.forEach((ownerId, i) => {
    if (first.has(ownerId)) throw invalidField(`reviewer_ids.${i}`, `lists an owner a second time (first at reviewer_ids.${first.get(ownerId)})`);
    first.set(ownerId, i);
  });
  const stages: ReviewerStageInput[] = ownerIds.length === 0 ? [] : [{
    stage: 1, operator: 'AND', require_manager_approval: false, require_admin_approval: false, owner_ids: ownerIds, service_user_ids: [],
  }];
  return reviewersOf(replaceStages(ctx, actor, kind, id, stages, (_s, i) => `reviewer_ids.${i}`));
}
