// Configuration templates: create, change (handing the change on to every linked resource and group in
// the same transaction), delete; and what a resource or group write must do when it links one.
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import { applyRequestSettings, checkRequestSettingReferences } from '../request-settings/service.ts';
import { DEFAULT_REQUEST_SETTINGS, requestSettingsToApi, type RequestSettings } from '../request-settings/store.ts';
import { stateFromRow as stateOfGroup, type GroupState } from '../groups/store.ts';
import { stateFromRow as stateOfResource, type ResourceState } from '../resources/store.ts';
import type { VisibilityInfo } from '../visibility/store.ts';
import type { TemplateInput } from './schemas.ts';
import type { LinkedKind, StoredTemplate, TemplateFields } from './store.ts';
import { sameJson } from '../../lib/same-json.ts';
import type { ConfigurationTemplate } from './responses.ts';

/** A template as the services use it: its stored fields, its visibility and the request settings it gives. */
export interface Template extends StoredTemplate {
  visibility: VisibilityInfo;
  settings: RequestSettings;
}

/**
 * The request settings a template sets on its items: the ones its request configurations mirror, the
 * configurations themselves, require_mfa_to_approve and the approval notification. Every other
 * setting (require_manager_approval, risk_sensitivity_override) stays the item's own.
 */
const TEMPLATED_SETTINGS = [
  'is_requestable', 'auto_approval', 'require_mfa_to_request', 'require_support_ticket', 'max_duration', 'recommended_duration',
  'extensions_duration_in_minutes', 'request_template_id', 'request_configurations', 'require_mfa_to_approve', 'custom_request_notification',
] as const satisfies readonly (keyof RequestSettings)[];

/** The request settings a template's fields give (no configurations given: the default configuration). */
function settingsOf(fields: Pick<TemplateFields, 'request_configurations' | 'require_mfa_to_approve' | 'custom_request_notification'>): RequestSettings {
  return applyRequestSettings(DEFAULT_REQUEST_SETTINGS, {
    request_configurations: fields.request_configurations,
    require_mfa_to_approve: fields.require_mfa_to_approve,
    custom_request_notification: fields.custom_request_notification,
  });
}

/** The template with this id, or undefined. */
export function findTemplate(ctx: AppContext, id: string): Template | undefined {
  const stored = ctx.stores.configurationTemplates.get(id);
  if (!stored) return undefined;
  return { ...stored, visibility: ctx.stores.visibility.get('configuration_template', id)!, settings: settingsOf(stored) };
}

/** The template, or not_found naming `path`. */
function requireTemplate(ctx: AppContext, id: string, path: string): Template {
  const template = findTemplate(ctx, id);
  if (!template) throw notFound('configuration template', id, path);
  return template;
}

/** A template as the reference's ConfigurationTemplate, plus its request_configurations (an extension). */
export function toApiTemplate(template: Template): ConfigurationTemplate {
  return {
    configuration_template_id: template.id,
    name: template.name,
    admin_owner_id: template.admin_owner_id,
    visibility: template.visibility,
    linked_audit_message_channel_ids: template.linked_audit_message_channel_ids,
    member_oncall_schedule_ids: template.member_oncall_schedule_ids,
    break_glass_user_ids: template.break_glass_user_ids,
    require_mfa_to_approve: template.require_mfa_to_approve,
    require_mfa_to_connect: template.require_mfa_to_connect,
    ...(template.ticket_propagation !== null && { ticket_propagation: template.ticket_propagation }),
    custom_request_notification: template.custom_request_notification,
    request_configurations: requestSettingsToApi(template.settings).request_configurations,
  };
}
export type ApiTemplate = ReturnType<typeof toApiTemplate>;

function templatedSettings(current: RequestSettings, template: Template): RequestSettings {
  const next: RequestSettings = { ...current };
  for (const key of TEMPLATED_SETTINGS) (next as unknown as Record<string, unknown>)[key] = template.settings[key];
  return next;
}

/**
 * What a template sets on each kind of linked item besides its admin owner and request settings, and
 * how those fields read: resources also take require_mfa_to_connect and ticket_propagation.
 */
const RESOURCE_FIELDS = (from: { require_mfa_to_connect: boolean; ticket_propagation: ResourceState['ticket_propagation'] }) => ({
  require_mfa_to_connect: from.require_mfa_to_connect,
  ticket_propagation: from.ticket_propagation,
});
const GROUP_FIELDS = () => ({});

/** The item as the template makes it. */
function templated<S extends { admin_owner_id: string; settings: RequestSettings }>(state: S, template: Template, fields: (from: Template) => Partial<S>): S {
  return {
    ...state,
    admin_owner_id: template.admin_owner_id,
    ...fields(template),
    settings: { ...templatedSettings(state.settings, template), configuration_template_id: template.id },
  };
}
const templatedResource = (state: ResourceState, template: Template): ResourceState => templated(state, template, RESOURCE_FIELDS);
const templatedGroup = (state: GroupState, template: Template): GroupState => templated(state, template, GROUP_FIELDS);

/**
 * Throws conflict naming `${path}field` for the first field the input gives whose value differs from
 * what the template sets: while linked, an item's templated settings change only through the template.
 */
function refuseOverrides(template: Template, input: object, given: Record<string, unknown>, templated: Record<string, unknown>, path: string): void {
  const field = Object.keys(templated).find((key) => key in input && !sameJson(given[key], templated[key]));
  if (field === undefined) return;
  throw new AppError(
    'conflict',
    `${path}${field} is set by configuration template ${template.id}; change the template, or unlink the item (configuration_template_id: null) first`,
    [{ path: `${path}${field}`, message: `is set by configuration template ${template.id}` }],
  );
}

/** The template a write links the item to (lower-cased), or null. */
function linkedId(settings: RequestSettings): string | null {
  return settings.configuration_template_id === null ? null : settings.configuration_template_id.toLowerCase();
}

/**
 * For a resource or group create or update that has computed `next` from `input`: when `next` is linked to a
 * template, the state the template gives, and the template (to hand its visibility and channels on
 * with `applyTemplateLinks` once the row exists). A field the input gives that the template sets
 * differently is refused. Unlinking (null) keeps the current values.
 * Throws not_found naming `${path}configuration_template_id`; conflict naming `${path}field`.
 */
function templateWrite<S extends { admin_owner_id: string; settings: RequestSettings }>(
  ctx: AppContext, next: S, input: object, path: string, fields: (from: S | Template) => Partial<S>,
): { state: S; template: Template | null } {
  const id = linkedId(next.settings);
  if (id === null) return { state: next, template: null };
  const template = requireTemplate(ctx, id, `${path}configuration_template_id`);
  const given: S = { ...next, settings: { ...next.settings, configuration_template_id: id } };
  const state = templated(given, template, fields);
  // The templated fields as the API shows them, to compare what was given with what the template sets.
  const view = (s: S): Record<string, unknown> => ({ admin_owner_id: s.admin_owner_id, ...fields(s), ...requestSettingsToApi(s.settings) });
  refuseOverrides(template, input, view(given), view(state), path);
  return { state, template };
}

export const templateResourceWrite = (ctx: AppContext, next: ResourceState, input: object, path: string) => templateWrite(ctx, next, input, path, RESOURCE_FIELDS);
export const templateGroupWrite = (ctx: AppContext, next: GroupState, input: object, path: string) => templateWrite(ctx, next, input, path, GROUP_FIELDS);

/** Gives a linked item the template's visibility, audit message channels and (groups) on-call schedules. Inside the caller's transaction. */
export function applyTemplateLinks(ctx: AppContext, kind: LinkedKind, itemId: string, template: Template): void {
  const { visibility, integrationRecords } = ctx.stores;
  visibility.set(kind, itemId, template.visibility);
  if (kind === 'resource') {
    integrationRecords.setLinked('resource_message_channels', itemId, template.linked_audit_message_channel_ids);
  } else {
    integrationRecords.setLinked('group_message_channels', itemId, template.linked_audit_message_channel_ids);
    integrationRecords.setLinked('group_on_call_schedules', itemId, template.member_oncall_schedule_ids);
  }
}

/**
 * The visibility a linked item must keep, or undefined when the item is not linked: PUT …/visibility
 * refuses any other while the item is linked.
 */
export function templateVisibilityOf(ctx: AppContext, templateId: string | null): { templateId: string; visibility: VisibilityInfo } | undefined {
  if (templateId === null) return undefined;
  const visibility = ctx.stores.visibility.get('configuration_template', templateId);
  return visibility && { templateId, visibility };
}

/** Throws not_found naming the field for an owner, group, channel, schedule or user the input names that does not exist. */
function checkReferences(ctx: AppContext, input: TemplateInput, settings: RequestSettings): void {
  const { owners, groups, users, integrationRecords } = ctx.stores;
  const adminOwnerId = input.admin_owner_id?.toLowerCase();
  if (adminOwnerId !== undefined && !owners.exists(adminOwnerId)) throw notFound('owner', adminOwnerId, 'admin_owner_id');
  input.visibility?.visibility_group_ids.forEach((id, i) => {
    if (!groups.exists(id)) throw notFound('group', id, `visibility.visibility_group_ids.${i}`);
  });
  input.linked_audit_message_channel_ids?.forEach((id, i) => {
    if (!integrationRecords.exists('message_channel', id)) throw notFound('message channel', id, `linked_audit_message_channel_ids.${i}`);
  });
  input.member_oncall_schedule_ids?.forEach((id, i) => {
    if (!integrationRecords.exists('on_call_schedule', id)) throw notFound('on-call schedule', id, `member_oncall_schedule_ids.${i}`);
  });
  input.break_glass_user_ids?.forEach((id, i) => {
    if (!users.exists(id)) throw notFound('user', id, `break_glass_user_ids.${i}`);
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
  };
  return { fields, settings: settingsOf(fields) };
}

const EMPTY: TemplateFields = {
  name: '', admin_owner_id: '', require_mfa_to_approve: false, require_mfa_to_connect: false, request_configurations: [],
  ticket_propagation: null, custom_request_notification: null, linked_audit_message_channel_ids: [], member_oncall_schedule_ids: [], break_glass_user_ids: [],
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
  const { configurationTemplates, visibility, events } = ctx.stores;
  const { fields, settings } = mergeFields(EMPTY, input);
  return ctx.db.transaction(() => {
    checkReferences(ctx, input, settings);
    const id = configurationTemplates.create(fields, input.visibility.visibility, ctx.clock.now());
    visibility.set('configuration_template', id, input.visibility);
    events.record(actor, 'CONFIGURATION_TEMPLATES_CREATED', [templateSubEvent('CONFIGURATION_TEMPLATES_CREATED', { id, name: fields.name })]);
    return toApiTemplate(findTemplate(ctx, id)!);
  }).immediate();
}

/**
 * Changes the fields given, then gives every linked resource and group the template's settings, all
 * in one transaction with one CONFIGURATION_TEMPLATES_UPDATED event: a sub-event for the template,
 * then RESOURCES_UPDATED / GROUPS_UPDATED for each linked item. Throws not_found naming
 * configuration_template_id or a referenced field (as createTemplate); validation_failed.
 */
export function updateTemplate(ctx: AppContext, actor: Actor, id: string, input: TemplateInput): ApiTemplate {
  const { configurationTemplates, visibility, resources, groups, events } = ctx.stores;
  return ctx.db.transaction(() => {
    const current = requireTemplate(ctx, id, 'configuration_template_id');
    const { fields, settings } = mergeFields(current, input);
    checkReferences(ctx, input, settings);
    const at = ctx.clock.now();
    configurationTemplates.update(id, fields, at);
    if (input.visibility !== undefined) visibility.set('configuration_template', id, input.visibility);
    const template = findTemplate(ctx, id)!;
    const subEvents: SubEvent[] = [
      templateSubEvent('CONFIGURATION_TEMPLATES_UPDATED', template, { updated_fields: Object.keys(input).join(',') }),
    ];
    for (const resourceId of configurationTemplates.linked('resource', id)) {
      const row = resources.getRow(resourceId)!;
      resources.update(resourceId, templatedResource(stateOfResource(row), template), at);
      applyTemplateLinks(ctx, 'resource', resourceId, template);
      subEvents.push({ sub_event_type: 'RESOURCES_UPDATED', resource_id: resourceId, resource_name: row.name, configuration_template_id: id, updated_fields: 'configuration_template' });
    }
    for (const groupId of configurationTemplates.linked('group', id)) {
      const row = groups.getRow(groupId)!;
      groups.update(groupId, templatedGroup(stateOfGroup(row), template), at);
      applyTemplateLinks(ctx, 'group', groupId, template);
      subEvents.push({ sub_event_type: 'GROUPS_UPDATED', group_id: groupId, group_name: row.name, configuration_template_id: id, updated_fields: 'configuration_template' });
    }
    events.record(actor, 'CONFIGURATION_TEMPLATES_UPDATED', subEvents);
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
