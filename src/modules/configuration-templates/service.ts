// Configuration templates: create, change (handing the change on to every linked resource and group in
// the same transaction, through the resources and groups services), delete. What a resource or group
// write does when it links one is linking.ts.
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import { applyRequestSettings, checkRequestSettingReferences } from '../request-settings/service.ts';
import { DEFAULT_REQUEST_SETTINGS, type RequestSettings } from '../request-settings/columns.ts';
import { groupState, reviseGroups } from '../groups/service.ts';
import { resourceState, reviseResources } from '../resources/service.ts';
import { setTemplateVisibility } from '../visibility/service.ts';
import type { VisibilityInfo } from '../visibility/store.ts';
import type { TemplateInput } from './schemas.ts';
import type { TemplateFields } from './store.ts';
import { applyTemplateLinks, findTemplate, requireTemplate, settingsOf, templatedGroup, templatedResource } from './linking.ts';
import { toApiTemplate, type ApiTemplate } from './mappers.ts';

/** Throws not_found naming the field for an owner, group, channel, schedule or user the input names that does not exist. */
function checkReferences(ctx: AppContext, input: TemplateInput, settings: RequestSettings): void {
  const { owners, groups, integrationRecords } = ctx.stores;
  const adminOwnerId = input.admin_owner_id?.toLowerCase();
  if (adminOwnerId !== undefined && !owners.exists(adminOwnerId)) throw notFound('owner', adminOwnerId, 'admin_owner_id');
  input.visibility?.visibility_group_ids.forEach((id, i) => {
    if (!groups.exists(id)) throw notFound('group', id, `visibility.visibility_group_ids.${i}`);
  });
  input.linked_audit_message_channel_ids?.forEach((id, i) => {
    if (!integrationRecords.exists('message_channel', id)) throw notFound('message channel', id, `linked_audit_message_channel_ids.${i}`);
  });
  input.member_oncall_schedule_ids?.forEach((id, i) => {
    if (!ctx.stores.onCall.exists(id)) throw notFound('on-call schedule', id, `member_oncall_schedule_ids.${i}`);
  });
  checkRequestSettingReferences(ctx, settings, input);
}

/** `current` with what `input` gives; validates the request configurations (400 naming the field). */
function mergeFields(current: TemplateFields, input: TemplateInput): { fields: TemplateFields; settings: RequestSettings } {
  // Validation with the input's own keys, so errors name request_configurations or request_configuration_list as given.
  applyRequestSettings(DEFAULT_REQUEST_SETTINGS, {
    ...(input.request_configurations !== undefined && { request_configurations: input.request_configurations }),
    ...(input.request_configuration_list !== undefined && { request_configuration_list: input.request_configuration_list }),
  });
  const fields: TemplateFields = {
    name: input.name ?? current.name,
    admin_owner_id: input.admin_owner_id?.toLowerCase() ?? current.admin_owner_id,
    require_mfa_to_approve: input.require_mfa_to_approve ?? current.require_mfa_to_approve,
    require_mfa_to_connect: input.require_mfa_to_connect ?? current.require_mfa_to_connect,
    request_configurations: input.request_configurations ?? input.request_configuration_list?.request_configurations ?? current.request_configurations,
    ticket_propagation: input.ticket_propagation === undefined ? current.ticket_propagation : input.ticket_propagation,
    custom_request_notification: input.custom_request_notification === undefined ? current.custom_request_notification : input.custom_request_notification,
    linked_audit_message_channel_ids: input.linked_audit_message_channel_ids ?? current.linked_audit_message_channel_ids,
    member_oncall_schedule_ids: input.member_oncall_schedule_ids ?? current.member_oncall_schedule_ids,
    break_glass_user_ids: input.break_glass_user_ids ?? current.break_glass_user_ids,
    break_glass_group_ids: input.break_glass_group_ids ?? current.break_glass_group_ids,
    break_glass_max_minutes: input.break_glass_max_minutes ?? current.break_glass_max_minutes,
  };
  return { fields, settings: settingsOf(fields) };
}

const EMPTY: TemplateFields = {
  name: '', admin_owner_id: '', require_mfa_to_approve: false, require_mfa_to_connect: false, request_configurations: [],
  ticket_propagation: null, custom_request_notification: null, linked_audit_message_channel_ids: [], member_oncall_schedule_ids: [], break_glass_user_ids: [],
  break_glass_group_ids: [], break_glass_max_minutes: 60,
};

const templateSubEvent = (type: string, template: { id: string; name: string }, extra: Record<string, string> = {}): SubEvent => ({
  sub_event_type: type, configuration_template_id: template.id, configuration_template_name: template.name, ...extra,
});

/**
 * Creates a template and records CONFIGURATION_TEMPLATES_CREATED. Throws validation_failed for bad
 * request configurations; not_found naming admin_owner_id, visibility.visibility_group_ids.N,
 * linked_audit_message_channel_ids.N, member_oncall_schedule_ids.N, break_glass_user_ids.N or a
 * request configuration's reference.
 */
export function createTemplate(ctx: AppContext, actor: Actor, input: TemplateInput & { visibility: VisibilityInfo }): ApiTemplate {
  const { configurationTemplates, events } = ctx.stores;
  const { fields, settings } = mergeFields(EMPTY, input);
  return ctx.db.transaction(() => {
    checkReferences(ctx, input, settings);
    const id = configurationTemplates.create(fields, input.visibility.visibility, ctx.clock.now());
    setTemplateVisibility(ctx, id, input.visibility);
    events.record(actor, 'CONFIGURATION_TEMPLATES_CREATED', [templateSubEvent('CONFIGURATION_TEMPLATES_CREATED', { id, name: fields.name })]);
    return toApiTemplate(findTemplate(ctx, id)!);
  }).immediate();
}

/**
 * Changes the fields given and records CONFIGURATION_TEMPLATES_UPDATED, then gives every linked resource
 * and group the template's settings through their owners' services, all in one transaction: one
 * RESOURCES_UPDATED and one GROUPS_UPDATED (a sub-event per linked item, with configuration_template_id
 * and updated_fields `configuration_template`), and the visibility and channel events of the items
 * whose values change. Throws not_found naming configuration_template_id or a referenced field (as
 * createTemplate); validation_failed.
 */
export function updateTemplate(ctx: AppContext, actor: Actor, id: string, input: TemplateInput): ApiTemplate {
  const { configurationTemplates, events } = ctx.stores;
  return ctx.db.transaction(() => {
    const current = requireTemplate(ctx, id, 'configuration_template_id');
    const { fields, settings } = mergeFields(current, input);
    checkReferences(ctx, input, settings);
    configurationTemplates.update(id, fields, ctx.clock.now());
    if (input.visibility !== undefined) setTemplateVisibility(ctx, id, input.visibility);
    const template = findTemplate(ctx, id)!;
    events.record(actor, 'CONFIGURATION_TEMPLATES_UPDATED', [
      templateSubEvent('CONFIGURATION_TEMPLATES_UPDATED', template, { updated_fields: Object.keys(input).join(',') }),
    ]);
    const revision = { configuration_template_id: id };
    const resourceIds = configurationTemplates.linked('resource', id);
    reviseResources(ctx, actor, resourceIds.map((resourceId) => ({
      id: resourceId, state: templatedResource(resourceState(ctx, resourceId)!, template), updatedFields: 'configuration_template', detail: revision,
    })));
    for (const resourceId of resourceIds) applyTemplateLinks(ctx, actor, 'resource', resourceId, template);
    const groupIds = configurationTemplates.linked('group', id);
    reviseGroups(ctx, actor, groupIds.map((groupId) => ({
      id: groupId, state: templatedGroup(groupState(ctx, groupId)!, template), updatedFields: 'configuration_template', detail: revision,
    })));
    for (const groupId of groupIds) applyTemplateLinks(ctx, actor, 'group', groupId, template);
    return toApiTemplate(template);
  }).immediate();
}

/**
 * Deletes a template and records CONFIGURATION_TEMPLATES_DELETED. Throws not_found for an unknown id;
 * conflict (configuration_template_id) while a resource or group is linked to it.
 */
export function deleteTemplate(ctx: AppContext, actor: Actor, id: string): void {
  const { configurationTemplates, events } = ctx.stores;
  ctx.db.transaction(() => {
    const template = requireTemplate(ctx, id, 'configuration_template_id');
    const resources = configurationTemplates.linked('resource', id).length;
    const groups = configurationTemplates.linked('group', id).length;
    if (resources + groups > 0) {
      const what = [resources && `${resources} resource${resources === 1 ? '' : 's'}`, groups && `${groups} group${groups === 1 ? '' : 's'}`].filter(Boolean).join(' and ');
      throw new AppError('conflict', `configuration template ${id} is linked to ${what}; unlink them (configuration_template_id: null) first`, [
        { path: 'configuration_template_id', message: `is linked to ${what}` },
      ]);
    }
    configurationTemplates.delete(id);
    events.record(actor, 'CONFIGURATION_TEMPLATES_DELETED', [templateSubEvent('CONFIGURATION_TEMPLATES_DELETED', template)]);
  }).immediate();
}
