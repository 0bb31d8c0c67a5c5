// The configuration templates area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import { requestSettingsToApi } from '../request-settings/mappers.ts';
import type { Template } from './linking.ts';
import type { ConfigurationTemplate } from './responses.ts';
import { nameBasedUuid } from '../../lib/ids.ts';

/**
 * The namespace of the ids templates' request configurations answer (a fixed random UUID): Gatehouse's
 * configurations are identified by priority and have no row of their own, so the id is derived from the
 * template's and never changes while the template lives.
 */
const REQUEST_CONFIGURATION_NAMESPACE = '6f1c3e0a-5b7d-4c2e-9a41-3d8e2b9f0c17';

/** The reference's request_configuration_id of a template: stable, and different for every template. */
export const templateRequestConfigurationId = (templateId: string): string => nameBasedUuid(REQUEST_CONFIGURATION_NAMESPACE, templateId);

/** A template as the reference's ConfigurationTemplate, plus its request_configurations (an extension). */
export function toApiTemplate(template: Template): ConfigurationTemplate {
  return {
    configuration_template_id: template.id,
    request_configuration_id: templateRequestConfigurationId(template.id),
    name: template.name,
    admin_owner_id: template.admin_owner_id,
    visibility: template.visibility,
    linked_audit_message_channel_ids: template.linked_audit_message_channel_ids,
    member_oncall_schedule_ids: template.member_oncall_schedule_ids,
    break_glass_user_ids: template.break_glass_user_ids,
    break_glass_group_ids: template.break_glass_group_ids,
    break_glass_max_minutes: template.break_glass_max_minutes,
    require_mfa_to_approve: template.require_mfa_to_approve,
    require_mfa_to_connect: template.require_mfa_to_connect,
    ...(template.ticket_propagation !== null && { ticket_propagation: template.ticket_propagation }),
    custom_request_notification: template.custom_request_notification,
    request_configurations: requestSettingsToApi(template.settings).request_configurations,
  };
}

export type ApiTemplate = ReturnType<typeof toApiTemplate>;
