// The configuration-templates area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, uuid, extension, described } from '../../openapi/responses.ts';
import { VisibilityInfo } from '../visibility/responses.ts';
import { RequestConfiguration, TicketPropagationConfiguration } from '../request-settings/responses.ts';

export const ConfigurationTemplate = component('ConfigurationTemplate', described(v.object({
  configuration_template_id: uuid,
  request_configuration_id: described(uuid, 'The id of the request configuration the template gives its items: derived from the template\'s id, so it never changes while the template lives (Gatehouse\'s configurations have no rows of their own; `request_configurations` shows them whole).'),
  name: v.string(),
  admin_owner_id: uuid,
  visibility: VisibilityInfo,
  linked_audit_message_channel_ids: v.array(uuid),
  member_oncall_schedule_ids: v.array(uuid),
  break_glass_user_ids: v.array(uuid),
  break_glass_group_ids: extension(v.array(uuid), 'Groups whose members may break glass on every item linked to the template (docs/break-glass.md).'),
  break_glass_max_minutes: extension(v.number(), 'The longest break-glass on the template\'s items, in minutes: 1 to 240, 60 unless set (docs/break-glass.md).'),
  require_mfa_to_approve: v.boolean(),
  require_mfa_to_connect: v.boolean(),
  ticket_propagation: v.optional(TicketPropagationConfiguration),
  custom_request_notification: v.nullable(v.pipe(v.string(), v.maxLength(800))),
  request_configurations: extension(v.array(RequestConfiguration), 'The request configurations the template gives its items, in the order written.'),
}), 'Settings that every resource and group linked to the template (by `configuration_template_id`) takes, and keeps while linked.'));
export type ConfigurationTemplate = v.InferOutput<typeof ConfigurationTemplate>;

export const PaginatedConfigurationTemplateList = component('PaginatedConfigurationTemplateList', v.object({
  results: v.array(ConfigurationTemplate),
  next: v.optional(v.nullable(extension(v.string(), 'Cursor of the next page, or null on the last one.'))),
  previous: v.optional(v.nullable(extension(v.string(), 'The cursor this page was asked with, or null on the first one.'))),
}));
