// Who sees what: the checks reads and the requests module use, and setting an item's visibility.
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Caller } from '../../http/types.ts';
import type { Actor } from '../events/store.ts';
import type { Viewer, VisibleKind } from './sql.ts';
import type { VisibilityInfo } from './store.ts';
import { sameJson } from '../../lib/same-json.ts';

/** What the caller's reads are filtered as: null for an admin (who sees everything), else the caller at now. */
export function viewerOf(ctx: AppContext, caller: Pick<Caller, 'userId' | 'role'>): Viewer | null {
  return caller.role === 'ADMIN' ? null : { userId: caller.userId, now: ctx.clock.now() };
}

/**
 * Whether the caller may see the item, and so request it: false for an item that does not exist.
 * Admins see everything; anyone else sees a GLOBAL item, and a LIMITED one when they are an effective
 * member of one of its visibility groups (docs/access-graph.md), a user of its admin owner, or hold it.
 * The requests module calls this for each item of POST /v1/requests (an unseen item answers as unknown).
 */
export function canSee(ctx: AppContext, caller: Pick<Caller, 'userId' | 'role'>, kind: VisibleKind, id: string): boolean {
  const viewer = viewerOf(ctx, caller);
  if (viewer === null) return ctx.stores.visibility.get(kind, id) !== undefined;
  return ctx.stores.visibility.sees(kind, id, viewer);
}

/**
 * Until when a list filtered for `viewer` (visibleToViewer) holds as far as their visibility goes: the
 * first expiry among the edges their visible set was read through (null: none expires); undefined when
 * nothing read now may be kept (inside a transaction). Lists kept between reads use it (resources/pages.ts).
 */
export function visibleSetHorizon(ctx: AppContext, viewer: Viewer): string | null | undefined {
  return ctx.stores.visibility.horizon(viewer);
}

/**
 * For filtering a list of items the caller reached through something they see: whether they see
 * each one. Admins see every listed item without a lookup; each item is judged once.
 */
export function seesListed(ctx: AppContext, caller: Pick<Caller, 'userId' | 'role'>, kind: VisibleKind): (id: string) => boolean {
  if (caller.role === 'ADMIN') return () => true;
  const judged = new Map<string, boolean>();
  return (id) => {
    let sees = judged.get(id);
    if (sees === undefined) judged.set(id, (sees = canSee(ctx, caller, kind, id)));
    return sees;
  };
}

/**
 * Whether the caller sees everything `userId` holds, whatever each item's visibility: the user
 * themselves, an admin, or the user's manager (`manager_id`: a manager answers for their direct
 * reports' access, so hiding a LIMITED item a report holds would hide what they must review).
 * Anyone else sees only the held items they may see themselves (seesListed).
 */
export function seesAllHoldingsOf(ctx: AppContext, caller: Pick<Caller, 'userId' | 'role'>, userId: string): boolean {
  if (caller.role === 'ADMIN' || caller.userId === userId) return true;
  return ctx.stores.users.get(userId)?.manager_id === caller.userId;
}

/** Throws not_found (naming `path` when given) unless the caller sees the item: an unseen item reads as one that does not exist. */
export function assertVisible(ctx: AppContext, caller: Pick<Caller, 'userId' | 'role'>, kind: VisibleKind, id: string, path?: string): void {
  if (!canSee(ctx, caller, kind, id)) throw notFound(kind, id, path);
}

/** The item's visibility; not_found (`<kind>_id`) when it does not exist or the caller does not see it. */
export function getVisibility(ctx: AppContext, caller: Caller, kind: VisibleKind, id: string): VisibilityInfo {
  assertVisible(ctx, caller, kind, id, `${kind}_id`);
  return ctx.stores.visibility.get(kind, id)!;
}

const EVENT_TYPES = { resource: 'RESOURCE_VISIBILITY_UPDATED', group: 'GROUP_VISIBILITY_UPDATED', bundle: 'BUNDLE_VISIBILITY_UPDATED' } as const;

/** An item's <KIND>_VISIBILITY_UPDATED sub-event. */
const visibilitySubEvent = (kind: VisibleKind, id: string, info: VisibilityInfo) => ({
  sub_event_type: EVENT_TYPES[kind], [`${kind}_id`]: id, visibility: info.visibility, visibility_group_ids: info.visibility_group_ids.join(','),
});

/**
 * The visibility a linked item must keep, or undefined when the item is not linked: PUT …/visibility
 * refuses any other while the item is linked. A template's visibility is stored here, with the items'.
 */
function templateVisibilityOf(ctx: AppContext, templateId: string | null): { templateId: string; visibility: VisibilityInfo } | undefined {
  if (templateId === null) return undefined;
  const visibility = ctx.stores.visibility.get('configuration_template', templateId);
  return visibility && { templateId, visibility };
}

/**
 * Stores a configuration template's own visibility (what it hands on to the items linked to it), inside
 * the template's create or update, whose CONFIGURATION_TEMPLATES_… event names the change.
 */
export function setTemplateVisibility(ctx: AppContext, templateId: string, info: VisibilityInfo): void {
  ctx.stores.visibility.set('configuration_template', templateId, info);
}

/**
 * Gives a resource or group the visibility its configuration template sets, inside the caller's
 * transaction, and records <KIND>_VISIBILITY_UPDATED when that changes it (as setVisibility does).
 */
export function applyTemplateVisibility(ctx: AppContext, actor: Actor, kind: 'resource' | 'group', id: string, info: VisibilityInfo): void {
  const { visibility, events } = ctx.stores;
  if (sameJson(visibility.get(kind, id), info)) return;
  visibility.set(kind, id, info);
  events.record(actor, EVENT_TYPES[kind], [visibilitySubEvent(kind, id, info)]);
}

/**
 * Replaces the item's visibility and records <KIND>_VISIBILITY_UPDATED. Throws not_found naming
 * `<kind>_id` or `visibility_group_ids.N`; conflict naming `visibility` when the item is linked to a
 * configuration template that sets another visibility.
 */
export function setVisibility(ctx: AppContext, actor: Actor, kind: VisibleKind, id: string, info: VisibilityInfo): VisibilityInfo {
  const { visibility, groups, resources, events } = ctx.stores;
  return ctx.db.transaction(() => {
    if (visibility.get(kind, id) === undefined) throw notFound(kind, id, `${kind}_id`);
    info.visibility_group_ids.forEach((groupId, i) => {
      if (!groups.exists(groupId)) throw notFound('group', groupId, `visibility_group_ids.${i}`);
    });
    const templateId = kind === 'resource' ? resources.getRow(id)!.configuration_template_id : kind === 'group' ? groups.getRow(id)!.configuration_template_id : null;
    const templated = templateVisibilityOf(ctx, templateId);
    if (templated && !sameJson(templated.visibility, info)) {
      throw new AppError('conflict', `the visibility of ${kind} ${id} is set by configuration template ${templated.templateId}; change the template, or unlink the ${kind} first`, [
        { path: 'visibility', message: `is set by configuration template ${templated.templateId}` },
      ]);
    }
    visibility.set(kind, id, info);
    events.record(actor, EVENT_TYPES[kind], [visibilitySubEvent(kind, id, info)]);
    return visibility.get(kind, id)!;
  }).immediate();
}
