// Valibot schemas for the request settings resources, groups and configuration templates share:
// durations, flags, reviewer stages, request configurations (the reference's RequestConfiguration).
import * as v from 'valibot';
import { IdList, Text, Uuid } from '../../http/common-schemas.ts';
import { MAX_MINUTES } from '../../lib/durations.ts';

export const RISK_SENSITIVITIES = ['UNKNOWN', 'CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'NONE'] as const;
export type RiskSensitivity = (typeof RISK_SENSITIVITIES)[number];
/** What risk_sensitivity reads when no override is set: nothing assesses risk here. */
export const DEFAULT_RISK_SENSITIVITY: RiskSensitivity = 'UNKNOWN';

/** Gatehouse serves one organization; request configurations name it with this id (the reference requires one). */
export const ORGANIZATION_ID = '00000000-0000-0000-0000-000000000000';


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

/** The longest break-glass an item allows (docs/break-glass.md): four hours; the default is one. */
export const BREAK_GLASS_MAX_MINUTES = 240;
export const BREAK_GLASS_DEFAULT_MINUTES = 60;
const BreakGlassMinutes = v.pipe(
  v.number('must be a number'),
  v.integer('must be a whole number of minutes'),
  v.minValue(1, 'must be at least 1'),
  v.maxValue(BREAK_GLASS_MAX_MINUTES, `must be at most ${BREAK_GLASS_MAX_MINUTES} (four hours): break-glass is for an emergency`),
);

const RiskSensitivityValue = v.picklist(RISK_SENSITIVITIES, `must be one of ${RISK_SENSITIVITIES.join(', ')}`);

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
  // Extensions (docs/break-glass.md): who may give themselves access at once, and for how long at most.
  break_glass_user_ids: v.optional(IdList('user')),
  break_glass_group_ids: v.optional(IdList('group')),
  break_glass_max_minutes: v.optional(BreakGlassMinutes),
};

/** What a body may carry of the entries above, as parsed. */
export type RequestSettingsInput = { [K in keyof typeof RequestSettingEntries]?: v.InferOutput<(typeof RequestSettingEntries)[K]> };

