// Response shapes of the request settings resources, groups and configuration templates carry (Valibot): request configurations, their conditions and reviewer stages, as answers show them.
// Valibot schemas; wire facts (field names, types, formats, enums) agree with the reference, and a field Gatehouse always sends is required. See docs/openapi.md.
import * as v from 'valibot';
import { component, uuid, integer, extension, described } from '../../openapi/responses.ts';
import { RiskSensitivityEnum, TicketingProviderEnum } from '../../openapi/enums.ts';

export const Condition = component('Condition', v.object({
  group_ids: v.optional(v.array(uuid)),
  role_remote_ids: v.optional(v.array(v.string())),
}));
export type Condition = v.InferOutput<typeof Condition>;

export const ReviewerStage = component('ReviewerStage', described(v.object({
  stage: described(v.pipe(integer, v.minValue(1)), "The stage's position, from 1."),
  require_manager_approval: v.boolean(),
  require_admin_approval: v.optional(v.boolean()),
  operator: v.picklist(['AND', 'OR']),
  owner_ids: v.array(uuid),
  service_user_ids: v.optional(v.array(uuid)),
}), 'One stage of review: which owners approve, and how.'));
export type ReviewerStage = v.InferOutput<typeof ReviewerStage>;

export const TicketPropagationConfiguration = component('TicketPropagationConfiguration', v.object({
  enabled_on_grant: v.boolean(),
  enabled_on_revocation: v.boolean(),
  ticket_provider: v.optional(TicketingProviderEnum),
  ticket_project_id: v.optional(v.string()),
}));
export type TicketPropagationConfiguration = v.InferOutput<typeof TicketPropagationConfiguration>;

export const RequestConfiguration = component('RequestConfiguration', described(v.object({
  organization_id: described(uuid, 'Always the nil UUID: a Gatehouse serves one organization.'),
  condition: v.optional(Condition),
  allow_requests: v.boolean(),
  auto_approval: v.boolean(),
  require_mfa_to_request: v.boolean(),
  max_duration_minutes: v.optional(integer),
  recommended_duration_minutes: v.optional(integer),
  require_support_ticket: v.boolean(),
  extensions_duration_in_minutes: v.optional(integer),
  request_template_id: v.optional(uuid),
  reviewer_stages: v.optional(v.array(ReviewerStage)),
  priority: integer,
}), 'How an item may be requested, and who reviews a request.'));
export type RequestConfiguration = v.InferOutput<typeof RequestConfiguration>;

/**
 * The request settings resources and groups both carry (requestSettingsToApi, request-settings/columns.ts), optional as
 * the reference has them: a bulk update's answer (UpdatedGroupList) leaves some out.
 */
export const requestSettingsFields = {
  max_duration: v.optional(integer),
  recommended_duration: v.optional(integer),
  extensions_duration_in_minutes: v.optional(integer),
  require_manager_approval: v.optional(v.boolean()),
  require_support_ticket: v.optional(v.boolean()),
  require_mfa_to_approve: v.optional(v.boolean()),
  require_mfa_to_request: v.optional(v.boolean()),
  auto_approval: v.optional(v.boolean()),
  is_requestable: v.optional(v.boolean()),
  request_template_id: v.optional(uuid),
  configuration_template_id: v.optional(uuid),
  request_configurations: v.optional(v.array(RequestConfiguration)),
  request_configuration_list: v.optional(v.array(RequestConfiguration)),
  custom_request_notification: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(800)))),
  risk_sensitivity: v.optional(RiskSensitivityEnum),
  risk_sensitivity_override: v.optional(RiskSensitivityEnum),
  break_glass_user_ids: v.optional(extension(v.array(uuid), 'Who may break glass on the item: take its access at once, for at most break_glass_max_minutes, told to its owners and admins and reviewed afterwards (docs/break-glass.md). Set by the item\'s configuration template while linked.')),
  break_glass_group_ids: v.optional(extension(v.array(uuid), 'Groups whose members may break glass on the item, as break_glass_user_ids (docs/break-glass.md).')),
  break_glass_max_minutes: v.optional(extension(integer, 'The longest break-glass on the item, in minutes: 1 to 240, 60 unless set (docs/break-glass.md).')),
};
