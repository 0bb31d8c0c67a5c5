// How resources and groups store their request settings (columns on their own rows: booleans as 0/1,
// the configurations as JSON text) and show them (the reference's fields, the default configuration
// first). The SQL lives in the resources and groups stores, which spread these columns.
import { BREAK_GLASS_DEFAULT_MINUTES, DEFAULT_RISK_SENSITIVITY, ORGANIZATION_ID, type RequestConfigurationInput, type RiskSensitivity } from './schemas.ts';
import type { RequestConfiguration } from './responses.ts';

/** The stored request settings of one resource or group. */
export interface RequestSettings {
  max_duration: number;
  recommended_duration: number;
  extensions_duration_in_minutes: number;
  require_manager_approval: boolean;
  require_support_ticket: boolean;
  require_mfa_to_approve: boolean;
  require_mfa_to_request: boolean;
  auto_approval: boolean;
  is_requestable: boolean;
  request_template_id: string | null;
  configuration_template_id: string | null;
  request_configurations: RequestConfigurationInput[];
  custom_request_notification: string | null;
  risk_sensitivity_override: RiskSensitivity | null;
  /** Who may break glass on the item (docs/break-glass.md): these users, and the members of these groups. */
  break_glass_user_ids: string[];
  break_glass_group_ids: string[];
  /** The longest break-glass, in minutes (1–240). */
  break_glass_max_minutes: number;
}

export const DEFAULT_REQUEST_SETTINGS: RequestSettings = {
  max_duration: -1,
  recommended_duration: 0,
  extensions_duration_in_minutes: 0,
  require_manager_approval: false,
  require_support_ticket: false,
  require_mfa_to_approve: false,
  require_mfa_to_request: false,
  auto_approval: false,
  is_requestable: true,
  request_template_id: null,
  configuration_template_id: null,
  request_configurations: [],
  custom_request_notification: null,
  risk_sensitivity_override: null,
  break_glass_user_ids: [],
  break_glass_group_ids: [],
  break_glass_max_minutes: BREAK_GLASS_DEFAULT_MINUTES,
};

/** The columns the settings are stored in (booleans as 0/1, the list as JSON text). */
export function requestSettingsColumns(s: RequestSettings) {
  return {
    max_duration: s.max_duration,
    recommended_duration: s.recommended_duration,
    extensions_duration_in_minutes: s.extensions_duration_in_minutes,
    require_manager_approval: s.require_manager_approval ? 1 : 0,
    require_support_ticket: s.require_support_ticket ? 1 : 0,
    require_mfa_to_approve: s.require_mfa_to_approve ? 1 : 0,
    require_mfa_to_request: s.require_mfa_to_request ? 1 : 0,
    auto_approval: s.auto_approval ? 1 : 0,
    is_requestable: s.is_requestable ? 1 : 0,
    request_template_id: s.request_template_id,
    configuration_template_id: s.configuration_template_id,
    request_configurations: JSON.stringify(s.request_configurations),
    custom_request_notification: s.custom_request_notification,
    risk_sensitivity_override: s.risk_sensitivity_override,
    break_glass_user_ids: JSON.stringify(s.break_glass_user_ids),
    break_glass_group_ids: JSON.stringify(s.break_glass_group_ids),
    break_glass_max_minutes: s.break_glass_max_minutes,
  };
}

export type RequestSettingsRow = { [K in keyof ReturnType<typeof requestSettingsColumns>]: ReturnType<typeof requestSettingsColumns>[K] | null };

/** Reads the settings back from a row. */
export function requestSettingsFromRow(row: RequestSettingsRow): RequestSettings {
  return {
    max_duration: row.max_duration ?? -1,
    recommended_duration: row.recommended_duration ?? 0,
    extensions_duration_in_minutes: row.extensions_duration_in_minutes ?? 0,
    require_manager_approval: row.require_manager_approval === 1,
    require_support_ticket: row.require_support_ticket === 1,
    require_mfa_to_approve: row.require_mfa_to_approve === 1,
    require_mfa_to_request: row.require_mfa_to_request === 1,
    auto_approval: row.auto_approval === 1,
    is_requestable: row.is_requestable === 1,
    request_template_id: row.request_template_id,
    configuration_template_id: row.configuration_template_id,
    request_configurations: JSON.parse(row.request_configurations ?? '[]') as RequestConfigurationInput[],
    custom_request_notification: row.custom_request_notification,
    risk_sensitivity_override: row.risk_sensitivity_override as RiskSensitivity | null,
    break_glass_user_ids: JSON.parse(row.break_glass_user_ids ?? '[]') as string[],
    break_glass_group_ids: JSON.parse(row.break_glass_group_ids ?? '[]') as string[],
    break_glass_max_minutes: row.break_glass_max_minutes ?? BREAK_GLASS_DEFAULT_MINUTES,
  };
}

/** One request configuration as the API shows it. */
function toApiConfiguration(config: RequestConfigurationInput): RequestConfiguration {
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
