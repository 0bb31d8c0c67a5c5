// Use cases for identity-provider group mappings: the app resource and groups checked, then one
// transaction with the audit event.
import type { AppContext } from '../../context.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import type { ReplaceMappingInput, UpsertMappingInput } from './schemas.ts';
import type { MappingFields } from './store.ts';
import type { ApiIdpGroupMapping } from './mappers.ts';

/**
 * The reference describes every operation as "for an Okta app": an app resource is a resource of
 * this type. Any other resource is refused rather than silently given mappings nothing would read.
 */
export const APP_RESOURCE_TYPES: readonly string[] = ['OKTA_APP'];

/** Throws not_found for an unknown resource, validation_failed when it is not an app resource (both naming app_resource_id). */
export function requireAppResource(ctx: AppContext, id: string): void {
  const type = ctx.stores.resources.resourceType(id);
  if (type === undefined) throw notFound('resource', id, 'app_resource_id');
  if (!APP_RESOURCE_TYPES.includes(type)) {
    throw invalidField('app_resource_id', `must be a resource of type ${APP_RESOURCE_TYPES.join(' or ')}; resource ${id} is ${type}`);
  }
}

function requireGroup(ctx: AppContext, id: string, path: string): void {
  if (!ctx.stores.groups.exists(id)) throw notFound('group', id, path);
}

const subEvent = (type: string, appResourceId: string, mapping: { group_id: string } & MappingFields): SubEvent => ({
  sub_event_type: type,
  app_resource_id: appResourceId,
  group_id: mapping.group_id,
  alias: mapping.alias,
  hidden_from_end_user: mapping.hidden_from_end_user,
});

const fieldsOf = (mapping: ApiIdpGroupMapping): MappingFields => ({
  alias: mapping.alias ?? null,
  hidden_from_end_user: mapping.hidden_from_end_user,
});

/** The app's mappings. Throws as requireAppResource does. */
export function listMappings(ctx: AppContext, appResourceId: string): ApiIdpGroupMapping[] {
  requireAppResource(ctx, appResourceId);
  return ctx.stores.idpGroupMappings.list(appResourceId);
}

/** One mapping. Throws as requireAppResource does, and not_found naming group_id for an unknown group or one not mapped. */
export function getMapping(ctx: AppContext, appResourceId: string, groupId: string): ApiIdpGroupMapping {
  requireAppResource(ctx, appResourceId);
  requireGroup(ctx, groupId, 'group_id');
  const mapping = ctx.stores.idpGroupMappings.get(appResourceId, groupId);
  if (!mapping) throw notFound(`mapping of app resource ${appResourceId} to group`, groupId, 'group_id');
  return mapping;
}

/**
 * Creates the mapping, or changes the fields given on an existing one, and records
 * IDP_GROUP_MAPPINGS_CREATED or IDP_GROUP_MAPPINGS_UPDATED. Throws as getMapping does for unknown ends.
 */
export function upsertMapping(ctx: AppContext, actor: Actor, appResourceId: string, groupId: string, input: UpsertMappingInput): ApiIdpGroupMapping {
  const { idpGroupMappings, events } = ctx.stores;
  return ctx.db.transaction(() => {
    requireAppResource(ctx, appResourceId);
    requireGroup(ctx, groupId, 'group_id');
    const current = idpGroupMappings.get(appResourceId, groupId);
    const base: MappingFields = current ? fieldsOf(current) : { alias: null, hidden_from_end_user: false };
    const fields: MappingFields = {
      alias: input.alias === undefined ? base.alias : input.alias,
      hidden_from_end_user: input.hidden_from_end_user ?? base.hidden_from_end_user,
    };
    const at = ctx.clock.now();
    if (current) idpGroupMappings.update(appResourceId, groupId, fields, at);
    else idpGroupMappings.insert(appResourceId, groupId, fields, at);
    const type = current ? 'IDP_GROUP_MAPPINGS_UPDATED' : 'IDP_GROUP_MAPPINGS_CREATED';
    events.record(actor, type, [subEvent(type, appResourceId, { group_id: groupId, ...fields })]);
    return idpGroupMappings.get(appResourceId, groupId)!;
  }).immediate();
}

/**
 * Replaces the app's mappings with `items` (in that order), all or nothing, and records one
 * IDP_GROUP_MAPPINGS_UPDATED with a sub-event per mapping created, changed or deleted. Throws
 * validation_failed naming `mappings.N.group_id` for a group listed twice, not_found naming it for
 * an unknown group, and as requireAppResource does.
 */
export function replaceMappings(ctx: AppContext, actor: Actor, appResourceId: string, items: ReplaceMappingInput[]): ApiIdpGroupMapping[] {
  const { idpGroupMappings, events } = ctx.stores;
  items.forEach((item, index) => {
    if (items.findIndex((other) => other.group_id === item.group_id) !== index) {
      throw invalidField(`mappings.${index}.group_id`, 'lists a group a second time');
    }
  });
  return ctx.db.transaction(() => {
    requireAppResource(ctx, appResourceId);
    items.forEach((item, index) => requireGroup(ctx, item.group_id, `mappings.${index}.group_id`));
    const before = new Map(idpGroupMappings.list(appResourceId).map((m) => [m.group_id, fieldsOf(m)]));
    const at = ctx.clock.now();
    idpGroupMappings.removeAll(appResourceId);
    const subEvents: SubEvent[] = [{ sub_event_type: 'IDP_GROUP_MAPPINGS_REPLACED', app_resource_id: appResourceId, mapping_count: items.length }];
    for (const item of items) {
      const fields: MappingFields = { alias: item.alias, hidden_from_end_user: item.hidden_from_end_user };
      idpGroupMappings.insert(appResourceId, item.group_id, fields, at);
      const old = before.get(item.group_id);
      if (!old) subEvents.push(subEvent('IDP_GROUP_MAPPINGS_CREATED', appResourceId, item));
      else if (old.alias !== fields.alias || old.hidden_from_end_user !== fields.hidden_from_end_user) {
        subEvents.push(subEvent('IDP_GROUP_MAPPINGS_UPDATED', appResourceId, item));
      }
    }
    for (const [groupId, old] of before) {
      if (!items.some((item) => item.group_id === groupId)) subEvents.push(subEvent('IDP_GROUP_MAPPINGS_DELETED', appResourceId, { group_id: groupId, ...old }));
    }
    events.record(actor, 'IDP_GROUP_MAPPINGS_UPDATED', subEvents);
    return idpGroupMappings.list(appResourceId);
  }).immediate();
}

/**
 * Deletes one mapping and records IDP_GROUP_MAPPINGS_DELETED. A mapping that does not exist is an
 * empty success that records nothing. Throws as getMapping does for an unknown app resource or group.
 */
export function deleteMapping(ctx: AppContext, actor: Actor, appResourceId: string, groupId: string): void {
  const { idpGroupMappings, events } = ctx.stores;
  ctx.db.transaction(() => {
    requireAppResource(ctx, appResourceId);
    requireGroup(ctx, groupId, 'group_id');
    const current = idpGroupMappings.get(appResourceId, groupId);
    if (!current || !idpGroupMappings.remove(appResourceId, groupId)) return;
    events.record(actor, 'IDP_GROUP_MAPPINGS_DELETED', [subEvent('IDP_GROUP_MAPPINGS_DELETED', appResourceId, { group_id: groupId, ...fieldsOf(current) })]);
  }).immediate();
}
