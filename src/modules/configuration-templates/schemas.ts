// Valibot schemas for configuration templates: create, update and the list query.
import * as v from 'valibot';
import { IdList, Name, PageQueryEntries, Text, Uuid } from '../../http/common-schemas.ts';
import { RequestSettingEntries } from '../request-settings/schemas.ts';
import { UpdateResourceItem } from '../resources/schemas.ts';
import { VisibilityInfoBody } from '../visibility/schemas.ts';


/** The fields create and update share, each optional here; create makes the reference's required ones required. */
const TemplateEntries = {
  name: v.optional(Name(200)),
  admin_owner_id: v.optional(Uuid),
  visibility: v.optional(VisibilityInfoBody),
  linked_audit_message_channel_ids: v.optional(IdList('message channel')),
  member_oncall_schedule_ids: v.optional(IdList('on-call schedule')),
  break_glass_user_ids: RequestSettingEntries.break_glass_user_ids,
  break_glass_group_ids: RequestSettingEntries.break_glass_group_ids,
  break_glass_max_minutes: RequestSettingEntries.break_glass_max_minutes,
  require_mfa_to_approve: v.optional(v.boolean('must be true or false')),
  require_mfa_to_connect: v.optional(v.boolean('must be true or false')),
  request_configurations: RequestSettingEntries.request_configurations,
  // Deprecated: the reference wraps the same list in an object here.
  request_configuration_list: RequestSettingEntries.request_configuration_list,
  ticket_propagation: UpdateResourceItem.entries.ticket_propagation,
  custom_request_notification: v.optional(v.nullable(Text(800))),
};

export const CreateConfigurationTemplateBody = v.object({
  ...TemplateEntries,
  name: Name(200),
  admin_owner_id: Uuid,
  visibility: VisibilityInfoBody,
  require_mfa_to_approve: v.boolean('must be true or false'),
  require_mfa_to_connect: v.boolean('must be true or false'),
});

export const UpdateConfigurationTemplateBody = v.object({
  configuration_template_id: Uuid,
  ...TemplateEntries,
});

/** What create and update pass to the service: every field optional, ids lower-cased. */
export type TemplateInput = v.InferOutput<v.ObjectSchema<typeof TemplateEntries, undefined>>;

export const ListConfigurationTemplatesQuery = v.object({ ...PageQueryEntries });
