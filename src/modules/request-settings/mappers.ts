// How request settings are shown: the stored settings as the reference's fields, the default configuration first (request-settings/columns.ts keeps how they are stored).
import { DEFAULT_RISK_SENSITIVITY, ORGANIZATION_ID, type RequestConfigurationInput } from './schemas.ts';
import type { RequestConfiguration } from './responses.ts';
import type { RequestSettings } from './columns.ts';

/** One request configuration as the API shows it. */
export function toApiConfiguration(config: RequestConfigurationInput): RequestConfiguration {
  return {
    organization_id: ORGANIZATION_ID,
    ...(config.condition && { condition: config.condition }),
    allow_requests: config.allow_requests,
    auto_approval: config.auto_approval,
    require_mfa_to_request: config.require_mfa_to_request,
    require_support_ticket: config.require_support_ticket,
    max_duration_minutes: config.max_duration_minutes ?? -1,
    recommended_duration_minutes: config.recommended_duration_minutes ?? 0,
    extensions_duration_in_minutes: config.extensions_duration_in_minutes ?? 0,
    ...(config.request_template_id && { request_template_id: config.request_template_id }),
    reviewer_stages: config.reviewer_stages,
    priority: config.priority,
  };
}

/**
 * The API fields of the settings. request_configurations lists the configurations in the order they
 * were written (a client that maps the list by position, as Terraform's provider does, reads back what
 * it wrote; with no default configuration stored, the one the top-level fields make comes first). The
 * default's mirrored fields read from the top-level settings so the two views never disagree, but for
 * its own extensions_duration_in_minutes, which may differ from the top-level one (applyRequestSettings).
 */
export function requestSettingsToApi(s: RequestSettings) {
  const stored = s.request_configurations;
  const base = stored.find((config) => config.priority === 0);
  const mirrored: RequestConfigurationInput = {
    ...(base ?? { reviewer_stages: [], priority: 0 }),
    condition: null,
    allow_requests: s.is_requestable,
    auto_approval: s.auto_approval,
    require_mfa_to_request: s.require_mfa_to_request,
    require_support_ticket: s.require_support_ticket,
    max_duration_minutes: s.max_duration,
    recommended_duration_minutes: s.recommended_duration,
    extensions_duration_in_minutes: base?.extensions_duration_in_minutes ?? s.extensions_duration_in_minutes,
    request_template_id: s.request_template_id,
  };
  const configurations = (base ? stored.map((config) => (config === base ? mirrored : config)) : [mirrored, ...stored]).map(toApiConfiguration);
  return {
    max_duration: s.max_duration,
    recommended_duration: s.recommended_duration,
    extensions_duration_in_minutes: s.extensions_duration_in_minutes,
    require_manager_approval: s.require_manager_approval,
    require_support_ticket: s.require_support_ticket,
    require_mfa_to_approve: s.require_mfa_to_approve,
    require_mfa_to_request: s.require_mfa_to_request,
    auto_approval: s.auto_approval,
    is_requestable: s.is_requestable,
    ...(s.request_template_id !== null && { request_template_id: s.request_template_id }),
    ...(s.configuration_template_id !== null && { configuration_template_id: s.configuration_template_id }),
    request_configurations: configurations,
    request_configuration_list: configurations,
    custom_request_notification: s.custom_request_notification,
    risk_sensitivity: s.risk_sensitivity_override ?? DEFAULT_RISK_SENSITIVITY,
    ...(s.risk_sensitivity_override !== null && { risk_sensitivity_override: s.risk_sensitivity_override }),
    break_glass_user_ids: s.break_glass_user_ids,
    break_glass_group_ids: s.break_glass_group_ids,
    break_glass_max_minutes: s.break_glass_max_minutes,
  };
}
