// What resources and groups share: their request settings (durations, flags, request configurations,
// risk sensitivity, the approval notification). The one-kind checks of remote_info and metadata are in one-kind.ts.
import * as v from 'valibot';
import type { AppContext } from '../context.ts';
import { Text, Uuid } from '../http/common-schemas.ts';
import { AppError, invalidField, notFound } from '../http/errors.ts';
import { sameJson } from '../lib/same-json.ts';

export const RISK_SENSITIVITIES = ['UNKNOWN', 'CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'NONE'] as const;
export type RiskSensitivity = (typeof RISK_SENSITIVITIES)[number];
/** What risk_sensitivity reads when no override is set: nothing assesses risk here. */
export const DEFAULT_RISK_SENSITIVITY: RiskSensitivity = 'UNKNOWN';

/** Gatehouse serves one organization; request configurations name it with this id (the reference requires one). */
export const ORGANIZATION_ID = '00000000-0000-0000-0000-000000000000';

/** Longest access anything may be requested for: a year, as for access edges. */
const MAX_MINUTES = 525960;

const Minutes = (min: number, hint: string) =>
  v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number of minutes'),
    v.minValue(min, `must be at least ${min}${hint}`),
    v.maxValue(MAX_MINUTES, `must be at most ${MAX_MINUTES} (a year)`),
  );
/** -1 means indefinite; 0 is refused (nothing could be requested). */
const MaxDuration = v.pipe(Minutes(-1, ' (-1 means indefinite)'), v.check((n) => n !== 0, 'must be -1 (indefinite) or at least 1'));
/** -1 means indefinite, 0 means no recommendation. */
const RecommendedDuration = Minutes(-1, ' (-1 means indefinite, 0 unsets it)');
const ExtensionsDuration = Minutes(0, ' (0 disables extensions)');

const RiskSensitivityValue = v.picklist(RISK_SENSITIVITIES, `must be one of ${RISK_SENSITIVITIES.join(', ')}`);

const IdList = (what: string) =>
  v.pipe(
    v.array(Uuid, `must be a list of ${what} ids`),
    v.maxLength(1000, 'must list at most 1000 ids'),
    v.transform((ids) => ids.map((id) => id.toLowerCase())),
    // A repeat would be stored and shown twice (an owner twice in one AND stage asks nothing more).
    v.check((ids) => new Set(ids).size === ids.length, `must not list the same ${what} twice`),
  );

/**
 * One reviewer stage as a client sends it. `stage` may be left out (clients built from older versions
 * of the reference omit it): such a stage takes its 1-based position in the list (see ReviewerStages).
 */
export const ReviewerStage = v.object({
  stage: v.optional(v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'))),
  operator: v.picklist(['AND', 'OR'], 'must be AND or OR'),
  require_manager_approval: v.boolean('must be true or false'),
  require_admin_approval: v.optional(v.boolean('must be true or false'), false),
  owner_ids: IdList('owner'),
  service_user_ids: v.optional(IdList('user'), []),
});

/**
 * A list of reviewer stages; every stage comes out numbered: one sent without `stage` takes its
 * position (1 for the first). Numbers must still be unique: checkStageNumbers refuses a repeat.
 */
export const ReviewerStages = v.pipe(
  v.array(ReviewerStage, 'must be a list of reviewer stages'),
  v.maxLength(100, 'must list at most 100 stages'),
  v.transform((stages) => stages.map((stage, index) => ({ ...stage, stage: stage.stage ?? index + 1 }))),
);
export type ReviewerStageInput = v.InferOutput<typeof ReviewerStages>[number];

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

const Condition = v.object({
  group_ids: v.optional(IdList('group')),
  role_remote_ids: v.optional(v.pipe(v.array(Text(1000), 'must be a list of strings'), v.maxLength(1000, 'must list at most 1000 ids'))),
});

/** The reference's RequestConfiguration; organization_id is accepted and ignored (one organization). */
const RequestConfiguration = v.object({
  condition: v.optional(v.nullable(Condition)),
  allow_requests: v.boolean('must be true or false'),
  auto_approval: v.boolean('must be true or false'),
  require_mfa_to_request: v.boolean('must be true or false'),
  require_support_ticket: v.boolean('must be true or false'),
  max_duration_minutes: v.optional(MaxDuration),
  recommended_duration_minutes: v.optional(RecommendedDuration),
  extensions_duration_in_minutes: v.optional(ExtensionsDuration),
  request_template_id: v.optional(v.nullable(Uuid)),
  reviewer_stages: v.optional(ReviewerStages, []),
  priority: v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(0, 'must be at least 0')),
});
export type RequestConfigurationInput = v.InferOutput<typeof RequestConfiguration>;

const RequestConfigurations = v.pipe(
  v.array(RequestConfiguration, 'must be a list of request configurations'),
  v.maxLength(100, 'must list at most 100 configurations'),
);

/**
 * The request-setting fields both Create*Body and Update*Item accept (all optional), to spread into
 * their v.object. The resource-only ones (require_mfa_to_connect, ticket_propagation) live with resources.
 */
export const RequestSettingEntries = {
  max_duration: v.optional(MaxDuration),
  recommended_duration: v.optional(RecommendedDuration),
  extensions_duration_in_minutes: v.optional(ExtensionsDuration),
  require_manager_approval: v.optional(v.boolean('must be true or false')),
  require_support_ticket: v.optional(v.boolean('must be true or false')),
  require_mfa_to_approve: v.optional(v.boolean('must be true or false')),
  require_mfa_to_request: v.optional(v.boolean('must be true or false')),
  auto_approval: v.optional(v.boolean('must be true or false')),
  is_requestable: v.optional(v.boolean('must be true or false')),
  request_template_id: v.optional(v.nullable(Uuid)),
  configuration_template_id: v.optional(v.nullable(Uuid)),
  request_configurations: v.optional(RequestConfigurations),
  // Deprecated: the reference's update bodies wrap the same list in an object, while its Resource and
  // Group answers carry the bare list; a client sending an item back whole sends the list, so both are read.
  request_configuration_list: v.optional(
    v.union(
      [v.object({ request_configurations: RequestConfigurations }), v.pipe(RequestConfigurations, v.transform((list) => ({ request_configurations: list })))],
      'must be an object with request_configurations, or the list itself',
    ),
  ),
  custom_request_notification: v.optional(v.nullable(Text(800))),
  risk_sensitivity_override: v.optional(v.nullable(RiskSensitivityValue)),
};

/** What a body may carry of the entries above, as parsed. */
export type RequestSettingsInput = { [K in keyof typeof RequestSettingEntries]?: v.InferOutput<(typeof RequestSettingEntries)[K]> };

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
};

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
 * stored one, and its default entry sets the top-level fields it mirrors; a top-level field given
 * alongside that disagrees with it is refused. Throws validation_failed naming `${prefix}field`.
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
        const given = (input as Record<string, unknown>)[field];
        if (given !== undefined && given !== value) {
          throw invalidField(`${prefix}${field}`, `disagrees with ${inConfig} of the default request configuration`);
        }
        (next as unknown as Record<string, unknown>)[field] = value;
      }
    }
  }
  checkDurations(next.max_duration, next.recommended_duration, `${prefix}recommended_duration`);
  return next;
}

/** Throws not_found naming the field for an owner, user or group a request configuration names that does not exist. */
export function checkRequestSettingReferences(ctx: AppContext, settings: RequestSettings, input: RequestSettingsInput, prefix = ''): void {
  if (input.request_configurations === undefined && input.request_configuration_list === undefined) return;
  const path = prefix + (input.request_configurations !== undefined ? 'request_configurations' : 'request_configuration_list.request_configurations');
  const { owners, users, groups } = ctx.stores;
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

/**
 * The checks every item of a bulk update (PUT /resources, PUT /groups) starts with: the id is not
 * repeated in the call, the record exists, and a new admin owner exists. Returns the lower-cased
 * ids and the stored row. Throws validation_failed or not_found naming `<path><field>`.
 */
export function startBulkItem<Row>(
  ctx: AppContext,
  item: { id: string; admin_owner_id?: string | undefined },
  what: 'resource' | 'group',
  seen: Set<string>,
  path: string,
  getRow: (id: string) => Row | undefined,
): { id: string; row: Row; ownerId: string | undefined } {
  const id = item.id.toLowerCase();
  const idField = `${path}${what}_id`;
  if (seen.has(id)) throw invalidField(idField, `lists a ${what} a second time`);
  seen.add(id);
  const row = getRow(id);
  if (!row) throw notFound(what, id, idField);
  const ownerId = item.admin_owner_id?.toLowerCase();
  if (ownerId !== undefined && !ctx.stores.owners.exists(ownerId)) throw notFound('owner', ownerId, `${path}admin_owner_id`);
  return { id, row, ownerId };
}

/** An item as bulk updates answer it: UpdateResourceInfo/UpdateGroupInfo type request_configuration_list as an object, so it is left out. */
export function asUpdateInfo<T extends { request_configuration_list?: unknown }>(item: T): Omit<T, 'request_configuration_list'> {
  const { request_configuration_list: _deprecated, ...rest } = item;
  return rest;
}

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
  };
}

/** One request configuration as the API shows it. */
function toApiConfiguration(config: RequestConfigurationInput) {
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
 * The API fields of the settings. request_configurations always lists the default configuration first,
 * its mirrored fields read from the top-level settings so the two views never disagree.
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
    extensions_duration_in_minutes: s.extensions_duration_in_minutes,
    request_template_id: s.request_template_id,
  };
  const configurations = [mirrored, ...stored.filter((config) => config.priority !== 0).sort((a, b) => a.priority - b.priority)].map(toApiConfiguration);
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
  };
}
