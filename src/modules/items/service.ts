// What resources and groups share as items of the catalogue: where a new one goes (its app and owner),
// the one bulk update (PUT /resources, PUT /groups) with each kind's own fields plugged in, and the
// shape those updates answer in.
import type { AppContext } from '../../context.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { replaceAccessLevels } from '../access/levels.ts';
import { applyTemplateLinks, type Template } from '../configuration-templates/linking.ts';
import type { Actor } from '../events/store.ts';
import type { AccessLevelsInput } from './schemas.ts';
import type { RequestSettingsInput } from '../request-settings/schemas.ts';
import { applyRequestSettings, checkRequestSettingReferences } from '../request-settings/service.ts';
import type { RequestSettings } from '../request-settings/columns.ts';

/**
 * Where a new resource or group goes: its app, and its admin owner — the one given, else the app's.
 * Returns both lower-cased. Throws not_found naming `app_id` or `admin_owner_id`.
 */
export function newItemPlace(ctx: AppContext, input: { app_id: string; admin_owner_id?: string | undefined }): { appId: string; ownerId: string } {
  const appId = input.app_id.toLowerCase();
  const app = ctx.stores.apps.get(appId);
  if (!app) throw notFound('app', appId, 'app_id');
  const ownerId = input.admin_owner_id?.toLowerCase() ?? app.admin_owner_id;
  if (!ctx.stores.owners.exists(ownerId)) throw notFound('owner', ownerId, 'admin_owner_id');
  return { appId, ownerId };
}

/**
 * The checks every item of a bulk update (PUT /resources, PUT /groups) starts with: the id is not
 * repeated in the call, the record exists, and a new admin owner exists. Returns the lower-cased
 * ids and the stored row. Throws validation_failed or not_found naming `<path><field>`.
 */
export function startBulkItem<Row>(
  ctx: AppContext,
  item: { id: string; admin_owner_id?: string | undefined },
  what: 'resource' | 'group',
  seen: Set<string>,
  path: string,
  getRow: (id: string) => Row | undefined,
): { id: string; row: Row; ownerId: string | undefined } {
  const id = item.id.toLowerCase();
  const idField = `${path}${what}_id`;
  if (seen.has(id)) throw invalidField(idField, `lists a ${what} a second time`);
  seen.add(id);
  const row = getRow(id);
  if (!row) throw notFound(what, id, idField);
  const ownerId = item.admin_owner_id?.toLowerCase();
  if (ownerId !== undefined && !ctx.stores.owners.exists(ownerId)) throw notFound('owner', ownerId, `${path}admin_owner_id`);
  return { id, row, ownerId };
}

/** An item as bulk updates answer it: UpdateResourceInfo/UpdateGroupInfo type request_configuration_list as an object, so it is left out. */
export function asUpdateInfo<T extends { request_configuration_list?: unknown }>(item: T): Omit<T, 'request_configuration_list'> {
  const { request_configuration_list: _deprecated, ...rest } = item;
  return rest;
}


/** The fields every item of a bulk update may carry, whatever its kind. */
export type BulkItemInput = RequestSettingsInput & {
  name?: string | undefined;
  description?: string | undefined;
  admin_owner_id?: string | undefined;
  access_levels?: AccessLevelsInput | undefined;
};

/** What a kind of item gives the shared bulk update: where its rows are, and its own fields. */
export interface BulkKind<Row, State extends { name: string; description: string; admin_owner_id: string; settings: RequestSettings }, Item, Api> {
  kind: 'resource' | 'group';
  /** The event recorded once per call, with a sub-event per item. */
  eventType: 'RESOURCES_UPDATED' | 'GROUPS_UPDATED';
  idOf(item: Item): string;
  getRow(id: string): Row | undefined;
  stateFromRow(row: Row): State;
  /**
   * The kind's own fields as `item` changes them, checked before the shared ones (naming
   * `${path}field`), and what the item's sub-event adds.
   */
  ownFields(id: string, item: Item, state: State, path: string): { fields: Partial<State>; subEvent?: Record<string, unknown> };
  /** Links the item to the configuration template its settings name (configuration-templates/linking.ts). */
  templateWrite(next: State, item: Item, path: string): { state: State; template: Template | null };
  write(id: string, state: State, at: Date): void;
  /** What else the item changes once written (a group's leaders). */
  afterWrite?(id: string, item: Item): void;
  get(id: string): Api;
}

/**
 * Updates several items of one kind, all or nothing, and records one <KINDS>_UPDATED with a sub-event
 * each. Items apply in order, so a later item's checks see an earlier item's new state. Throws
 * (naming `<kinds>.N.field`) validation_failed for an item listed twice or bad settings; not_found for
 * an unknown item, owner or request configuration reference; and whatever the kind's own checks throw.
 */
export function updateItems<Row, State extends { name: string; description: string; admin_owner_id: string; settings: RequestSettings }, Item extends BulkItemInput, Api extends { request_configuration_list?: unknown }>(
  ctx: AppContext,
  actor: Actor,
  spec: BulkKind<Row, State, Item, Api>,
  items: Item[],
): Omit<Api, 'request_configuration_list'>[] {
  const { kind } = spec;
  return ctx.db.transaction(() => {
    const seen = new Set<string>();
    const at = ctx.clock.now();
    const subEvents = items.map((item, index) => {
      const path = `${kind}s.${index}.`;
      const { id, row, ownerId } = startBulkItem(ctx, { ...item, id: spec.idOf(item) }, kind, seen, path, spec.getRow);
      const state = spec.stateFromRow(row);
      const own = spec.ownFields(id, item, state, path);
      const settings = applyRequestSettings(state.settings, item, path);
      checkRequestSettingReferences(ctx, settings, item, path);
      const next: State = {
        ...state,
        name: item.name ?? state.name,
        description: item.description ?? state.description,
        admin_owner_id: ownerId ?? state.admin_owner_id,
        ...own.fields,
        settings,
      };
      const linked = spec.templateWrite(next, item, path);
      spec.write(id, linked.state, at);
      if (linked.template) applyTemplateLinks(ctx, actor, kind, id, linked.template);
      spec.afterWrite?.(id, item);
      if (item.access_levels) replaceAccessLevels(ctx, kind, id, item.access_levels, `${path}access_levels`);
      return {
        sub_event_type: spec.eventType, [`${kind}_id`]: id, [`${kind}_name`]: next.name,
        updated_fields: Object.keys(item).filter((key) => key !== `${kind}_id`).join(','),
        ...own.subEvent,
        // Linked or unlinked by this call: the event names the template (null: unlinked).
        ...('configuration_template_id' in item && { configuration_template_id: linked.template?.id ?? null }),
      };
    });
    if (subEvents.length > 0) ctx.stores.events.record(actor, spec.eventType, subEvents);
    // Read back after every item applied, so fields that depend on other items reflect the final state.
    return items.map((item) => asUpdateInfo(spec.get(spec.idOf(item).toLowerCase())));
  }).immediate();
}

/** One item another area's act changes (reviewer stages, a configuration template): its new state, what changed, what else its sub-event says. */
export interface ItemRevision<State> {
  id: string;
  state: State;
  /** The sub-event's updated_fields. */
  updatedFields: string;
  detail?: Record<string, string>;
}

/**
 * Writes revisions of items of one kind and records one <KINDS>_UPDATED with a sub-event each, as the
 * bulk update does; the owner (resources, groups service) passes its own `write`. Inside the caller's
 * transaction; an empty list writes and records nothing.
 */
export function reviseItems<State extends { name: string }>(
  ctx: AppContext,
  actor: Actor,
  spec: { kind: 'resource' | 'group'; eventType: 'RESOURCES_UPDATED' | 'GROUPS_UPDATED'; write(id: string, state: State, at: Date): void },
  revisions: ItemRevision<State>[],
): void {
  if (revisions.length === 0) return;
  const at = ctx.clock.now();
  for (const revision of revisions) spec.write(revision.id, revision.state, at);
  ctx.stores.events.record(actor, spec.eventType, revisions.map((revision) => ({
    sub_event_type: spec.eventType, [`${spec.kind}_id`]: revision.id, [`${spec.kind}_name`]: revision.state.name,
    ...revision.detail, updated_fields: revision.updatedFields,
  })));
}
