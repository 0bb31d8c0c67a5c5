// Use cases that write resources: reference and tree checks, then one transaction with the audit event.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Actor } from '../events/store.ts';
import { newItemPlace, reviseItems, updateItems, type ItemRevision } from '../items/service.ts';
import { applyRequestSettings, checkRequestSettingReferences } from '../request-settings/service.ts';
import { DEFAULT_REQUEST_SETTINGS } from '../request-settings/columns.ts';
import { checkMetadata, checkRemoteInfo, remoteIdOf } from '../items/kinds.ts';
import { applyTemplateLinks, templateResourceWrite } from '../configuration-templates/linking.ts';
import { replaceAccessLevels } from '../access/levels.ts';
import { deleteWithEdges } from '../access/service.ts';
import { RESOURCE_METADATA_KINDS, RESOURCE_REMOTE_ID_FIELDS, RESOURCE_REMOTE_INFO_KINDS } from './kinds.ts';
import type { CreateResourceInput, UpdateResourceInput } from './schemas.ts';
import { stateFromRow, type ResourceState, type ApiResource } from './mappers.ts';

/** Throws not_found naming `path` when the parent does not exist, validation_failed when it would close a cycle. */
function checkParent(ctx: AppContext, resourceId: string | null, parentId: string, path: string): void {
  const { resources } = ctx.stores;
  if (!resources.exists(parentId)) throw notFound('resource', parentId, path);
  if (resourceId !== null && (parentId === resourceId || resources.isDescendant(resourceId, parentId))) {
    throw invalidField(path, 'would make the resource its own ancestor');
  }
}

/**
 * Creates a resource (its owner defaults to its app's owner) with its access levels, and records
 * RESOURCES_CREATED. Throws validation_failed for bad metadata, remote_info or settings; not_found
 * naming app_id, admin_owner_id, parent_resource_id or a request configuration's reference.
 */
export function createResource(ctx: AppContext, actor: Actor, input: CreateResourceInput): ApiResource {
  const { resources, events } = ctx.stores;
  if (input.metadata !== undefined) checkMetadata(input.metadata, RESOURCE_METADATA_KINDS, input.resource_type, 'metadata');
  if (input.remote_info !== undefined) checkRemoteInfo(input.remote_info, RESOURCE_REMOTE_INFO_KINDS, input.resource_type, 'remote_info');
  const settings = applyRequestSettings(DEFAULT_REQUEST_SETTINGS, input);
  return ctx.db.transaction(() => {
    const { appId, ownerId } = newItemPlace(ctx, input);
    const parentId = input.parent_resource_id?.toLowerCase() ?? null;
    if (parentId !== null) checkParent(ctx, null, parentId, 'parent_resource_id');
    checkRequestSettingReferences(ctx, settings, input);
    const state: ResourceState = {
      app_id: appId,
      name: input.name,
      description: input.description,
      admin_owner_id: ownerId,
      resource_type: input.resource_type,
      // remote_info replaces the deprecated remote_resource_id; an explicit one still wins.
      remote_resource_id: input.remote_resource_id ?? (input.remote_info ? remoteIdOf(input.remote_info, RESOURCE_REMOTE_INFO_KINDS, RESOURCE_REMOTE_ID_FIELDS) : null),
      remote_resource_name: input.remote_resource_name ?? null,
      remote_info: input.remote_info ?? null,
      metadata: input.metadata ?? null,
      parent_resource_id: parentId,
      require_mfa_to_connect: input.require_mfa_to_connect ?? false,
      ticket_propagation: input.ticket_propagation ?? null,
      settings,
    };
    const linked = templateResourceWrite(ctx, state, input, '');
    const id = resources.create(linked.state, ctx.clock.now());
    if (input.access_levels) replaceAccessLevels(ctx, 'resource', id, input.access_levels, 'access_levels');
    events.record(actor, 'RESOURCES_CREATED', [
      {
        sub_event_type: 'RESOURCES_CREATED', resource_id: id, resource_name: state.name, resource_type: state.resource_type,
        app_id: appId, admin_owner_id: linked.state.admin_owner_id, ...(parentId !== null && { parent_resource_id: parentId }),
        ...(linked.template && { configuration_template_id: linked.template.id }),
      },
    ]);
    // After the creation event, so the trail tells the item's creation before what its template gave it.
    if (linked.template) applyTemplateLinks(ctx, actor, 'resource', id, linked.template);
    return resources.get(id)!;
  }).immediate();
}

/**
 * Updates several resources, all or nothing, and records one RESOURCES_UPDATED with a sub-event each.
 * Items apply in order, so a later item's tree check sees an earlier item's new parent.
 * Throws (naming `resources.N.field`) validation_failed for a resource listed twice, a cycle or bad
 * settings; not_found for an unknown resource, owner, parent or request configuration reference.
 */
export function updateResources(ctx: AppContext, actor: Actor, items: UpdateResourceInput[]) {
  const { resources } = ctx.stores;
  return updateItems(ctx, actor, {
    kind: 'resource',
    eventType: 'RESOURCES_UPDATED',
    idOf: (item) => item.resource_id,
    getRow: resources.getRow,
    stateFromRow,
    ownFields(id, item, state, path) {
      const parentId = item.parent_resource_id === undefined ? state.parent_resource_id : item.parent_resource_id?.toLowerCase() ?? null;
      if (parentId !== null && parentId !== state.parent_resource_id) checkParent(ctx, id, parentId, `${path}parent_resource_id`);
      return {
        fields: {
          parent_resource_id: parentId,
          require_mfa_to_connect: item.require_mfa_to_connect ?? state.require_mfa_to_connect,
          ticket_propagation: item.ticket_propagation === undefined ? state.ticket_propagation : item.ticket_propagation,
        },
        subEvent: parentId !== null ? { parent_resource_id: parentId } : {},
      };
    },
    templateWrite: (next, item, path) => templateResourceWrite(ctx, next, item, path),
    write: resources.update,
    get: (id) => resources.get(id)!,
  }, items);
}

/**
 * Deletes a resource and records RESOURCES_DELETED; its access levels, tags, bundle items, access and
 * sessions go with it. Throws not_found for an unknown id, conflict while it has child resources.
 */
export function deleteResource(ctx: AppContext, actor: Actor, id: string): void {
  const { resources, events } = ctx.stores;
  ctx.db.transaction(() => {
    const row = resources.getRow(id);
    if (!row) throw notFound('resource', id);
    if (resources.hasChildren(id)) {
      throw new AppError('conflict', `resource ${id} has child resources; delete or move them first`, [
        { path: 'resource_id', message: 'has child resources' },
      ]);
    }
    const now = ctx.clock.now();
    // Its open sessions go with it (by foreign key): say so, as a group's deletion does.
    const ended = ctx.stores.sessions.openWhere({ resourceId: id }, now).map((session) => ({
      sub_event_type: 'SESSIONS_ENDED', connection_id: session.connection_id, resource_id: id, user_id: session.user_id,
    }));
    const removed = deleteWithEdges(ctx, actor, 'resource', id, () => resources.delete(id));
    events.record(actor, 'RESOURCES_DELETED', [
      { sub_event_type: 'RESOURCES_DELETED', resource_id: id, resource_name: row.name, app_id: row.app_id },
      ...removed,
      ...ended,
    ]);
  }).immediate();
}

/** A resource's stored state (what its writes start from), or undefined for an unknown id. */
export function resourceState(ctx: AppContext, id: string): ResourceState | undefined {
  const row = ctx.stores.resources.getRow(id);
  return row && stateFromRow(row);
}

/**
 * Writes resources another area's act changes (reviewer stages, a configuration template) and records one
 * RESOURCES_UPDATED with a sub-event each, as PUT /v1/resources does. Inside the caller's transaction.
 */
export function reviseResources(ctx: AppContext, actor: Actor, revisions: ItemRevision<ResourceState>[]): void {
  reviseItems(ctx, actor, { kind: 'resource', eventType: 'RESOURCES_UPDATED', write: ctx.stores.resources.update }, revisions);
}
