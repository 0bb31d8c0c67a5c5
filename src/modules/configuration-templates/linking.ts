// What a resource or group write does when it names a configuration template: the template as the
// services use it, the state it gives the item (refusing a direct change of a templated field), and the
// links it hands on. The resources and groups services call this; service.ts (the template's own writes)
// calls them, so this file imports neither.
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Actor } from '../events/store.ts';
import { applyRequestSettings } from '../request-settings/service.ts';
import { DEFAULT_REQUEST_SETTINGS, type RequestSettings } from '../request-settings/columns.ts';
import { requestSettingsToApi } from '../request-settings/mappers.ts';
import type { GroupState } from '../groups/mappers.ts';
import type { ResourceState } from '../resources/mappers.ts';
import { applyTemplateRecords } from '../integration-records/service.ts';
import { applyTemplateSchedules } from '../on-call/service.ts';
import { applyTemplateVisibility } from '../visibility/service.ts';
import type { VisibilityInfo } from '../visibility/store.ts';
import type { LinkedKind, StoredTemplate, TemplateFields } from './store.ts';
import { sameJson } from '../../lib/same-json.ts';

/** A template as the services use it: its stored fields, its visibility and the request settings it gives. */
export interface Template extends StoredTemplate {
  visibility: VisibilityInfo;
  settings: RequestSettings;
}

/**
 * The request settings a template sets on its items: the ones its request configurations mirror, the
 * configurations themselves, require_mfa_to_approve, the approval notification and who may break glass
 * for how long (docs/break-glass.md). Every other
 * setting (require_manager_approval, risk_sensitivity_override) stays the item's own.
 */
const TEMPLATED_SETTINGS = [
  'is_requestable', 'auto_approval', 'require_mfa_to_request', 'require_support_ticket', 'max_duration', 'recommended_duration',
  'extensions_duration_in_minutes', 'request_template_id', 'request_configurations', 'require_mfa_to_approve', 'custom_request_notification',
  'break_glass_user_ids', 'break_glass_group_ids', 'break_glass_max_minutes',
] as const satisfies readonly (keyof RequestSettings)[];

type BreakGlassField = 'break_glass_user_ids' | 'break_glass_group_ids' | 'break_glass_max_minutes';

/** The request settings a template's fields give (no configurations given: the default configuration). */
export function settingsOf(fields: Pick<TemplateFields, 'request_configurations' | 'require_mfa_to_approve' | 'custom_request_notification' | BreakGlassField>): RequestSettings {
  return applyRequestSettings(DEFAULT_REQUEST_SETTINGS, {
    request_configurations: fields.request_configurations,
    require_mfa_to_approve: fields.require_mfa_to_approve,
    custom_request_notification: fields.custom_request_notification,
    break_glass_user_ids: fields.break_glass_user_ids,
    break_glass_group_ids: fields.break_glass_group_ids,
    break_glass_max_minutes: fields.break_glass_max_minutes,
  });
}

/** The template with this id, or undefined. */
export function findTemplate(ctx: AppContext, id: string): Template | undefined {
  const stored = ctx.stores.configurationTemplates.get(id);
  if (!stored) return undefined;
  return { ...stored, visibility: ctx.stores.visibility.get('configuration_template', id)!, settings: settingsOf(stored) };
}

/** The template, or not_found naming `path`. */
export function requireTemplate(ctx: AppContext, id: string, path: string): Template {
  const template = findTemplate(ctx, id);
  if (!template) throw notFound('configuration template', id, path);
  return template;
}

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
export const templatedResource = (state: ResourceState, template: Template): ResourceState => templated(state, template, RESOURCE_FIELDS);
export const templatedGroup = (state: GroupState, template: Template): GroupState => templated(state, template, GROUP_FIELDS);

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

/**
 * Gives a linked item the template's visibility, audit message channels and (groups) on-call schedules,
 * through their owners' services, which record their events when the item's value changes. Inside the
 * caller's transaction.
 */
export function applyTemplateLinks(ctx: AppContext, actor: Actor, kind: LinkedKind, itemId: string, template: Template): void {
  applyTemplateVisibility(ctx, actor, kind, itemId, template.visibility);
  if (kind === 'resource') {
    applyTemplateRecords(ctx, actor, 'resource_message_channels', itemId, template.linked_audit_message_channel_ids);
  } else {
    applyTemplateRecords(ctx, actor, 'group_message_channels', itemId, template.linked_audit_message_channel_ids);
    applyTemplateSchedules(ctx, actor, itemId, template.member_oncall_schedule_ids);
  }
}
