// Use cases that write integration records: checks, then one transaction with the audit event.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import { LINK_KINDS, RECORD_KINDS, SCOPED_ROLE_TYPE, type LinkKind, type RecordKind } from './kinds.ts';
import type { CreateRecordInput, ScopedRolePermissionInput } from './schemas.ts';
import type { Caller } from '../../http/types.ts';
import { assertVisible, seesListed } from '../visibility/service.ts';
import type { ScopedRolePermission } from './store.ts';
import type { ApiRecord } from './mappers.ts';

/**
 * Records a message channel or on-call schedule and its creation event. Throws conflict naming
 * remote_id when the provider's object is already recorded (with the existing id in the message).
 */
export function createRecord(ctx: AppContext, actor: Actor, kind: RecordKind, input: CreateRecordInput): ApiRecord {
  const { integrationRecords, events } = ctx.stores;
  const { idField, label, createdEvent } = RECORD_KINDS[kind];
  return ctx.db.transaction(() => {
    const existing = integrationRecords.idByRemote(kind, input.third_party_provider, input.remote_id);
    if (existing !== undefined) {
      throw new AppError('conflict', `${input.third_party_provider} ${label} ${input.remote_id} is already recorded as ${existing}`, [
        { path: 'remote_id', message: `already recorded as ${existing}` },
      ]);
    }
    const record = integrationRecords.create(
      kind,
      { third_party_provider: input.third_party_provider, remote_id: input.remote_id, name: input.name ?? null, is_private: input.is_private ?? null },
      ctx.clock.now(),
    );
    events.record(actor, createdEvent, [
      { sub_event_type: createdEvent, [idField]: record[idField] as string, third_party_provider: input.third_party_provider, remote_id: input.remote_id },
    ]);
    return record;
  }).immediate();
}

/** Throws not_found naming the owner's id field when the resource or group does not exist. */
function requireOwner(ctx: AppContext, kind: LinkKind, ownerId: string): void {
  const { owner, ownerColumn } = LINK_KINDS[kind];
  const exists = owner === 'resource' ? ctx.stores.resources.exists(ownerId) : ctx.stores.groups.exists(ownerId);
  if (!exists) throw notFound(owner, ownerId, ownerColumn);
}

/** The records a resource or group names, in the order set. Throws not_found for an unknown owner. */
export function linkedRecords(ctx: AppContext, kind: LinkKind, ownerId: string): ApiRecord[] {
  requireOwner(ctx, kind, ownerId);
  return ctx.stores.integrationRecords.linked(kind, ownerId);
}

/**
 * Replaces the records a resource or group names and records the link kind's event, with a
 * sub-event per record that joined or left. Returns the ids in order. Throws validation_failed
 * naming `${field}.N` for an id listed twice, not_found naming the owner or `${field}.N`.
 */
export function setLinkedRecords(ctx: AppContext, actor: Actor, kind: LinkKind, ownerId: string, ids: string[], field: string): string[] {
  const { integrationRecords } = ctx.stores;
  const { record } = LINK_KINDS[kind];
  const { idField, label } = RECORD_KINDS[record];
  ids.forEach((id, index) => {
    if (ids.indexOf(id) !== index) throw invalidField(`${field}.${index}`, `lists a ${label} a second time`);
  });
  return ctx.db.transaction(() => {
    requireOwner(ctx, kind, ownerId);
    ids.forEach((id, index) => {
      if (!integrationRecords.exists(record, id)) throw notFound(label, id, `${field}.${index}`);
    });
    replaceLinked(ctx, actor, kind, ownerId, integrationRecords.linked(kind, ownerId).map((r) => r[idField] as string), ids);
    return ids;
  }).immediate();
}

/** Replaces the links (`before` → `ids`) and records the link kind's event, a sub-event per record that joined or left. */
function replaceLinked(ctx: AppContext, actor: Actor, kind: LinkKind, ownerId: string, before: string[], ids: string[]): void {
  const { ownerColumn, record, event } = LINK_KINDS[kind];
  const { idField } = RECORD_KINDS[record];
  ctx.stores.integrationRecords.setLinked(kind, ownerId, ids);
  const change = (type: string) => (id: string): SubEvent => ({ sub_event_type: type, [ownerColumn]: ownerId, [idField]: id });
  ctx.stores.events.record(actor, event, [
    { sub_event_type: event, [ownerColumn]: ownerId, count: ids.length },
    ...ids.filter((id) => !before.includes(id)).map(change(`${event.replace(/_UPDATED$/, '')}_ADDED`)),
    ...before.filter((id) => !ids.includes(id)).map(change(`${event.replace(/_UPDATED$/, '')}_REMOVED`)),
  ]);
}

/**
 * Gives a resource or group the records its configuration template links (message channels, on-call
 * schedules), inside the caller's transaction, and records the link kind's event as setLinkedRecords
 * does when that changes the list.
 */
export function applyTemplateRecords(ctx: AppContext, actor: Actor, kind: LinkKind, ownerId: string, ids: string[]): void {
  const { idField } = RECORD_KINDS[LINK_KINDS[kind].record];
  const before = ctx.stores.integrationRecords.linked(kind, ownerId).map((r) => r[idField] as string);
  if (before.length === ids.length && before.every((id, i) => id === ids[i])) return;
  replaceLinked(ctx, actor, kind, ownerId, before, ids);
}

/** Throws not_found (unknown) or validation_failed (another type) naming resource_id unless it is an OPAL_SCOPED_ROLE resource. */
function requireScopedRole(ctx: AppContext, resourceId: string): void {
  const type = ctx.stores.resources.resourceType(resourceId);
  if (type === undefined) throw notFound('resource', resourceId, 'resource_id');
  if (type !== SCOPED_ROLE_TYPE) {
    throw invalidField('resource_id', `must be an ${SCOPED_ROLE_TYPE} resource; resource ${resourceId} is ${type}`);
  }
}

/** The scoped role's permissions. Throws as requireScopedRole does. */
export function scopedRolePermissions(ctx: AppContext, resourceId: string): ScopedRolePermission[] {
  requireScopedRole(ctx, resourceId);
  return ctx.stores.integrationRecords.permissions(resourceId);
}

/** How to check that a target of each type exists (ACCESS_REVIEW: an access review, `/v1/uar`). */
function targetExists(ctx: AppContext, type: ScopedRolePermissionInput['target_type'], id: string): boolean {
  switch (type) {
    case 'RESOURCE': return ctx.stores.resources.exists(id);
    case 'CONNECTION': return ctx.stores.apps.exists(id);
    case 'GROUP': return ctx.stores.groups.exists(id);
    case 'BUNDLE': return ctx.stores.bundles.exists(id);
    case 'USER': return ctx.stores.users.exists(id);
    case 'OWNER': return ctx.stores.owners.exists(id);
    case 'ACCESS_REVIEW': return ctx.stores.accessReviews.get(id) !== undefined;
  }
}

/** 400s for contradictions within the list, naming `permissions.N.field`. */
function checkPermissionShapes(items: ScopedRolePermissionInput[]): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const path = `permissions.${index}.`;
    const key = `${item.target_type}/${item.permission_name}`;
    if (seen.has(key)) throw invalidField(`${path}permission_name`, `${item.permission_name} on ${item.target_type} is listed a second time`);
    seen.add(key);
    const targets = item.target_ids ?? [];
    if (item.allow_all && targets.length > 0) throw invalidField(`${path}target_ids`, 'must be empty when allow_all is true');
    targets.forEach((id, t) => {
      if (targets.indexOf(id) !== t) throw invalidField(`${path}target_ids.${t}`, 'lists a target a second time');
    });
  });
}

/**
 * Replaces the scoped role's permissions (in the order given) and records
 * SCOPED_ROLE_PERMISSIONS_UPDATED. Throws as requireScopedRole does; validation_failed for a
 * permission listed twice, targets with allow_all, or a target listed twice; not_found naming
 * `permissions.N.target_ids.M` for a target that does not exist.
 */
export function setScopedRolePermissions(ctx: AppContext, actor: Actor, resourceId: string, items: ScopedRolePermissionInput[]): ScopedRolePermission[] {
  const { integrationRecords, events } = ctx.stores;
  checkPermissionShapes(items);
  return ctx.db.transaction(() => {
    requireScopedRole(ctx, resourceId);
    items.forEach((item, index) =>
      (item.target_ids ?? []).forEach((id, t) => {
        if (!targetExists(ctx, item.target_type, id)) {
          throw notFound(item.target_type.toLowerCase().replace('_', ' '), id, `permissions.${index}.target_ids.${t}`);
        }
      }),
    );
    integrationRecords.setPermissions(resourceId, items);
    events.record(actor, 'SCOPED_ROLE_PERMISSIONS_UPDATED', [
      { sub_event_type: 'SCOPED_ROLE_PERMISSIONS_UPDATED', resource_id: resourceId, permission_count: items.length },
    ]);
    return integrationRecords.permissions(resourceId);
  }).immediate();
}

/**
 * Sync errors for the filters given, those about an item only where the caller sees it. Throws
 * not_found naming an unknown filter id (or one naming an item the caller does not see).
 */
export function syncErrors(ctx: AppContext, caller: Caller, filter: { app_id?: string | undefined; resource_id?: string | undefined; group_id?: string | undefined }) {
  if (filter.app_id !== undefined && !ctx.stores.apps.exists(filter.app_id)) throw notFound('app', filter.app_id, 'app_id');
  // An item the caller does not see answers as a missing one, so the filter cannot tell it exists.
  if (filter.resource_id !== undefined) assertVisible(ctx, caller, 'resource', filter.resource_id, 'resource_id');
  if (filter.group_id !== undefined) assertVisible(ctx, caller, 'group', filter.group_id, 'group_id');
  // An error about one resource or group (drift names the item and who holds it) is shown only to those
  // who see that item, as every list applies visibility per row; an error about the app as a whole to all.
  const seesResource = seesListed(ctx, caller, 'resource');
  const seesGroup = seesListed(ctx, caller, 'group');
  // Connectors' syncs record them (src/modules/connectors/sync.ts), newest first. The reference answers
  // an array of SyncErrorList: one list holding them all (none: an empty array, as before connectors).
  const errors = ctx.stores.connectors.syncErrors({ appId: filter.app_id, resourceId: filter.resource_id, groupId: filter.group_id })
    .filter((row) => (row.resource_id === '' || seesResource(row.resource_id)) && (row.group_id === '' || seesGroup(row.group_id)))
    .map((row) => ({ app_id: row.app_id, first_seen: row.first_seen, last_seen: row.last_seen, error_message: row.error_message }));
  return errors.length === 0 ? [] : [{ sync_errors: errors }];
}
