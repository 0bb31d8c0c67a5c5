// How resources and groups store their request settings (columns on their own rows: booleans as 0/1,
// the configurations as JSON text; mappers.ts shows them). The SQL lives in the resources and groups
// stores, which spread these columns.
import { BREAK_GLASS_DEFAULT_MINUTES, type RequestConfigurationInput, type RiskSensitivity } from './schemas.ts';

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

