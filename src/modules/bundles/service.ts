// Use cases that write bundles and their items: each change and its audit event commit together.
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import { BUNDLE_ITEM_KINDS, type BundleFields } from './store.ts';
import type { BundleItemKind, ApiBundle, ApiBundleItem } from './mappers.ts';

/** Event type of each item change, by kind. */
const ITEM_EVENTS = {
  resource: { added: 'BUNDLE_RESOURCES_ADDED', removed: 'BUNDLE_RESOURCES_REMOVED' },
  group: { added: 'BUNDLE_GROUPS_ADDED', removed: 'BUNDLE_GROUPS_REMOVED' },
} as const;

function requireBundle(ctx: AppContext, bundleId: string): ApiBundle {
  const bundle = ctx.stores.bundles.get(bundleId);
  if (!bundle) throw notFound('bundle', bundleId, 'bundle_id');
  return bundle;
}

function requireOwner(ctx: AppContext, ownerId: string): void {
  if (!ctx.stores.owners.exists(ownerId)) throw notFound('owner', ownerId, 'admin_owner_id');
}

const bundleSubEvent = (type: string, bundle: ApiBundle): SubEvent => ({
  sub_event_type: type, bundle_id: bundle.id, bundle_name: bundle.name, admin_owner_id: bundle.admin_owner_id,
});

const itemSubEvent = (type: string, kind: BundleItemKind, item: ApiBundleItem): SubEvent => ({
  sub_event_type: type,
  bundle_id: item.bundle_id,
  [BUNDLE_ITEM_KINDS[kind].column]: item[BUNDLE_ITEM_KINDS[kind].column]!,
  access_level_remote_id: item.access_level_remote_id,
  access_level_name: item.access_level_name,
});

/** Creates a bundle and records BUNDLES_CREATED; throws not_found (admin_owner_id) for an unknown owner. */
export function createBundle(ctx: AppContext, actor: Actor, fields: BundleFields): ApiBundle {
  const { bundles, events } = ctx.stores;
  return ctx.db.transaction(() => {
    requireOwner(ctx, fields.admin_owner_id);
    const bundle = bundles.create(fields, ctx.clock.now());
    events.record(actor, 'BUNDLES_CREATED', [bundleSubEvent('BUNDLES_CREATED', bundle)]);
    return bundle;
  }).immediate();
}

/**
 * Changes the fields given and records BUNDLES_UPDATED naming them; a change that changes nothing
 * returns the bundle untouched and records nothing.
 * Throws not_found for an unknown bundle (bundle_id) or owner (admin_owner_id).
 */
export function updateBundle(ctx: AppContext, actor: Actor, bundleId: string, changes: Partial<BundleFields>): ApiBundle {
  const { bundles, events } = ctx.stores;
  return ctx.db.transaction(() => {
    const bundle = requireBundle(ctx, bundleId);
    if (changes.admin_owner_id !== undefined) requireOwner(ctx, changes.admin_owner_id);
    const next: BundleFields = {
      name: changes.name ?? bundle.name,
      description: changes.description ?? bundle.description,
      admin_owner_id: changes.admin_owner_id ?? bundle.admin_owner_id,
    };
    const changed = (Object.keys(next) as (keyof BundleFields)[]).filter((field) => next[field] !== bundle[field]);
    if (changed.length === 0) return bundle;
    const updated = bundles.update(bundleId, next, ctx.clock.now());
    events.record(actor, 'BUNDLES_UPDATED', [{ ...bundleSubEvent('BUNDLES_UPDATED', updated), updated_fields: changed.join(',') }]);
    return updated;
  }).immediate();
}

/**
 * Deletes a bundle with its items and records one BUNDLES_DELETED event: the bundle, then one
 * BUNDLE_RESOURCES_REMOVED / BUNDLE_GROUPS_REMOVED sub-event per item it held.
 * Throws not_found (bundle_id) for an unknown bundle.
 */
export function deleteBundle(ctx: AppContext, actor: Actor, bundleId: string): void {
  const { bundles, events } = ctx.stores;
  ctx.db.transaction(() => {
    const bundle = requireBundle(ctx, bundleId);
    const items = (Object.keys(BUNDLE_ITEM_KINDS) as BundleItemKind[]).flatMap((kind) =>
      bundles.allItems(kind, bundleId).map((item) => itemSubEvent(ITEM_EVENTS[kind].removed, kind, item)),
    );
    bundles.delete(bundleId);
    events.record(actor, 'BUNDLES_DELETED', [bundleSubEvent('BUNDLES_DELETED', bundle), ...items]);
  }).immediate();
}

export interface BundleItemInput {
  itemId: string;
  remoteId: string;
  /** The access level name the caller gave, if any. */
  name: string | undefined;
}

/**
 * The access level name to store with an item. A resource's level must exist on the resource ('' always
 * does) and its stored name is used whatever name was given; groups keep no catalogue of levels, so any
 * level is taken as given.
 */
function itemLevelName(ctx: AppContext, kind: BundleItemKind, input: BundleItemInput): string {
  if (kind === 'group') return input.name ?? '';
  const level = ctx.stores.resources.accessLevel(input.itemId, input.remoteId);
  if (!level) {
    throw new AppError('not_found', `resource ${input.itemId} has no access level with remote id "${input.remoteId}"`, [
      { path: 'access_level_remote_id', message: 'no access level with this remote id on this resource' },
    ]);
  }
  // The reference marks access_level_name deprecated and derived from the remote id: a name that
  // differs (stale, or a client's own label) is accepted and the stored name wins.
  return level.access_level_name;
}

function requireItemTarget(ctx: AppContext, kind: BundleItemKind, id: string): void {
  const exists = kind === 'resource' ? ctx.stores.resources.exists(id) : ctx.stores.groups.exists(id);
  if (!exists) throw notFound(kind, id, BUNDLE_ITEM_KINDS[kind].column);
}

/**
 * Adds a resource or group to a bundle at an access level and records BUNDLE_RESOURCES_ADDED / BUNDLE_GROUPS_ADDED.
 * Throws not_found for an unknown bundle, resource/group or resource access level; conflict when the
 * bundle already holds it at that level.
 */
export function addBundleItem(ctx: AppContext, actor: Actor, bundleId: string, kind: BundleItemKind, input: BundleItemInput): ApiBundleItem {
  const { bundles, events } = ctx.stores;
  const column = BUNDLE_ITEM_KINDS[kind].column;
  return ctx.db.transaction(() => {
    requireBundle(ctx, bundleId);
    requireItemTarget(ctx, kind, input.itemId);
    const name = itemLevelName(ctx, kind, input);
    const key = { bundleId, itemId: input.itemId, remoteId: input.remoteId };
    if (!bundles.addItem(kind, key, name)) {
      throw new AppError('conflict', `bundle ${bundleId} already holds ${kind} ${input.itemId} at this access level`, [
        { path: column, message: 'already in this bundle at this access level' },
      ]);
    }
    const now = ctx.clock.now();
    bundles.touch(bundleId, now);
    const item = bundles.getItem(kind, key)!;
    events.record(actor, ITEM_EVENTS[kind].added, [itemSubEvent(ITEM_EVENTS[kind].added, kind, item)]);
    return item;
  }).immediate();
}

/**
 * Removes a resource or group (at one access level) from a bundle and records BUNDLE_RESOURCES_REMOVED /
 * BUNDLE_GROUPS_REMOVED. Removing what the bundle does not hold is an empty success that records nothing.
 * Throws not_found for an unknown bundle or resource/group.
 */
export function removeBundleItem(ctx: AppContext, actor: Actor, bundleId: string, kind: BundleItemKind, itemId: string, remoteId: string): void {
  const { bundles, events } = ctx.stores;
  ctx.db.transaction(() => {
    requireBundle(ctx, bundleId);
    requireItemTarget(ctx, kind, itemId);
    const key = { bundleId, itemId, remoteId };
    const item = bundles.getItem(kind, key);
    if (!item || !bundles.removeItem(kind, key)) return;
    bundles.touch(bundleId, ctx.clock.now());
    events.record(actor, ITEM_EVENTS[kind].removed, [itemSubEvent(ITEM_EVENTS[kind].removed, kind, item)]);
  }).immediate();
}
