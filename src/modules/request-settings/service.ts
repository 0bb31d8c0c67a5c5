// The request settings' rules: applying a body to stored settings (the default configuration mirrors
// the top-level fields), the checks of durations, priorities and stage numbers, and the references a
// configuration makes (owners, users, groups) checked on write and on delete.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import { sameJson } from '../../lib/same-json.ts';
import type { RequestConfigurationInput, RequestSettingsInput, ReviewerStageInput } from './schemas.ts';
import { DEFAULT_REQUEST_SETTINGS, type RequestSettings } from './columns.ts';

/** Throws validation_failed naming `${path}.N.stage` for a stage number a previous stage already uses. */
export function checkStageNumbers(stages: ReviewerStageInput[], path: string): void {
  const seen = new Set<number>();
  stages.forEach((stage, s) => {
    if (seen.has(stage.stage)) {
      throw invalidField(`${path}.${s}.stage`, `is ${stage.stage}, which another stage already has (a stage sent without \`stage\` takes its position in the list)`);
    }
    seen.add(stage.stage);
  });
}

/** The top-level settings the default request configuration (priority 0, no condition) mirrors. */
const MIRRORED = [
  ['is_requestable', 'allow_requests'],
  ['auto_approval', 'auto_approval'],
  ['require_mfa_to_request', 'require_mfa_to_request'],
  ['require_support_ticket', 'require_support_ticket'],
  ['max_duration', 'max_duration_minutes'],
  ['recommended_duration', 'recommended_duration_minutes'],
  ['extensions_duration_in_minutes', 'extensions_duration_in_minutes'],
  ['request_template_id', 'request_template_id'],
] as const;

function checkDurations(max: number, recommended: number, path: string): void {
  if (max !== -1 && (recommended === -1 || recommended > max)) {
    throw invalidField(path, `must not exceed the maximum duration (${max} minutes)`);
  }
}

/** Priorities 0..n-1, each once; 0 (the default) without a condition and every other one with a condition. */
function checkConfigurations(configs: RequestConfigurationInput[], path: string): void {
  const seen = new Set<number>();
  configs.forEach((config, index) => {
    if (seen.has(config.priority)) throw invalidField(`${path}.${index}.priority`, 'is used by another configuration');
    if (config.priority >= configs.length) throw invalidField(`${path}.${index}.priority`, `priorities must run from 0 to ${configs.length - 1} without gaps`);
    seen.add(config.priority);
    const isDefault = config.priority === 0;
    if (isDefault && config.condition) throw invalidField(`${path}.${index}.condition`, 'must be null on the default configuration (priority 0)');
    if (!isDefault && !config.condition) throw invalidField(`${path}.${index}.condition`, 'is required on every configuration but the default (priority 0)');
    // A condition naming no group and no role could never match: the configuration would never apply.
    if (!isDefault && config.condition && !config.condition.group_ids?.length && !config.condition.role_remote_ids?.length) {
      throw invalidField(`${path}.${index}.condition`, 'must name at least one group (group_ids) or role (role_remote_ids): one naming nothing never matches');
    }
    checkDurations(config.max_duration_minutes ?? -1, config.recommended_duration_minutes ?? 0, `${path}.${index}.recommended_duration_minutes`);
    checkStageNumbers(config.reviewer_stages, `${path}.${index}.reviewer_stages`);
  });
}

/**
 * The settings after applying `input` to `current`. A given request_configurations list replaces the
 * stored one, kept in the order written, and its default entry sets the top-level fields it mirrors.
 * A top-level field given beside it with another value is not refused (Terraform's provider sets the
 * two independently): the configuration's value is the one that applies and the one the top-level
 * field reads back, except `extensions_duration_in_minutes`, which the reference deprecates on writes
 * without calling it a mirror, so it is kept and read back as written. Given alone, the top-level
 * field still sets the default configuration's. Throws validation_failed naming `${prefix}field`.
 */
export function applyRequestSettings(current: RequestSettings, input: RequestSettingsInput, prefix = ''): RequestSettings {
  // Both come back from a client that sends an item whole, as answers carry both; they must agree.
  if (
    input.request_configurations !== undefined &&
    input.request_configuration_list !== undefined &&
    !sameJson(input.request_configurations, input.request_configuration_list.request_configurations)
  ) {
    throw invalidField(`${prefix}request_configuration_list`, 'disagrees with request_configurations; give one, or both the same');
  }
  const listPath = input.request_configurations !== undefined ? 'request_configurations' : 'request_configuration_list.request_configurations';
  const configs = input.request_configurations ?? input.request_configuration_list?.request_configurations;
  const next: RequestSettings = { ...current };
  for (const key of Object.keys(DEFAULT_REQUEST_SETTINGS) as (keyof RequestSettings)[]) {
    const given = (input as Record<string, unknown>)[key];
    if (given !== undefined && key !== 'request_configurations') (next as unknown as Record<string, unknown>)[key] = given;
  }
  if (configs !== undefined) {
    checkConfigurations(configs, prefix + listPath);
    next.request_configurations = configs;
    const base = configs.find((config) => config.priority === 0);
    if (base) {
      for (const [field, inConfig] of MIRRORED) {
        const value = base[inConfig];
        if (value === undefined) continue;
        if (field === 'extensions_duration_in_minutes' && input.extensions_duration_in_minutes !== undefined) continue;
        (next as unknown as Record<string, unknown>)[field] = value;
      }
    }
  } else if (input.extensions_duration_in_minutes !== undefined) {
    next.request_configurations = next.request_configurations.map((config) =>
      config.priority === 0 ? { ...config, extensions_duration_in_minutes: input.extensions_duration_in_minutes } : config);
  }
  checkDurations(next.max_duration, next.recommended_duration, `${prefix}recommended_duration`);
  return next;
}

/**
 * Throws not_found naming the field for an owner, user or group a request configuration names that does
 * not exist, or a break-glass user or group the input names (break_glass_user_ids.N, break_glass_group_ids.N).
 */
export function checkRequestSettingReferences(ctx: AppContext, settings: RequestSettings, input: RequestSettingsInput, prefix = ''): void {
  const { owners, users, groups } = ctx.stores;
  input.break_glass_user_ids?.forEach((id, i) => {
    if (!users.exists(id)) throw notFound('user', id, `${prefix}break_glass_user_ids.${i}`);
  });
  input.break_glass_group_ids?.forEach((id, i) => {
    if (!groups.exists(id)) throw notFound('group', id, `${prefix}break_glass_group_ids.${i}`);
  });
  if (input.request_configurations === undefined && input.request_configuration_list === undefined) return;
  const path = prefix + (input.request_configurations !== undefined ? 'request_configurations' : 'request_configuration_list.request_configurations');
  settings.request_configurations.forEach((config, c) => {
    config.condition?.group_ids?.forEach((id, i) => {
      if (!groups.exists(id)) throw notFound('group', id, `${path}.${c}.condition.group_ids.${i}`);
    });
    config.reviewer_stages.forEach((stage, s) => {
      stage.owner_ids.forEach((id, i) => {
        if (!owners.exists(id)) throw notFound('owner', id, `${path}.${c}.reviewer_stages.${s}.owner_ids.${i}`);
      });
      stage.service_user_ids.forEach((id, i) => {
        if (!users.exists(id)) throw notFound('user', id, `${path}.${c}.reviewer_stages.${s}.service_user_ids.${i}`);
      });
    });
  });
}

/**
 * Throws conflict when a request configuration of any resource or group still names `id` (as a
 * reviewer owner, a service user or a condition's group), so deleting it would leave a dangling id.
 * `path` is the field the error names (the deleted record's id parameter).
 */
export function refuseIfNamedInConfigurations(ctx: AppContext, what: string, id: string, path: string): void {
  const resources = ctx.stores.resources.countConfigurationsNaming(id);
  const groups = ctx.stores.groups.countConfigurationsNaming(id);
  const templates = ctx.stores.configurationTemplates.countNaming(id);
  if (resources + groups + templates === 0) return;
  const where = [
    resources && `${resources} resource${resources === 1 ? '' : 's'}`,
    groups && `${groups} group${groups === 1 ? '' : 's'}`,
    templates && `${templates} configuration template${templates === 1 ? '' : 's'}`,
  ].filter(Boolean).join(' and ');
  throw new AppError('conflict', `${what} ${id} is named in the request configurations of ${where}; change those first`, [
    { path, message: `is named in the request configurations of ${where}` },
  ]);
}

