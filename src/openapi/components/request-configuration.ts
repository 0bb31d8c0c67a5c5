// Response components — how an item may be requested: request configurations, their conditions and reviewer stages.
// Wire facts (field names, types, formats, enums, required) agree with the reference; see docs/openapi.md.
import { component } from '../schema.ts';
import { TicketingProviderEnum } from './enums.ts';

export const Condition = component('Condition', {
  type: 'object',
  properties: {
    group_ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
    role_remote_ids: { type: 'array', items: { type: 'string' } },
  },
});

export const ReviewerStage = component('ReviewerStage', {
  description: 'One stage of review: which owners approve, and how.',
  type: 'object',
  properties: {
    stage: { type: 'integer', minimum: 1, description: 'The stage\'s position, from 1.' },
    require_manager_approval: { type: 'boolean' },
    require_admin_approval: { type: 'boolean' },
    operator: { type: 'string', enum: ['AND', 'OR'] },
    owner_ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
    service_user_ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
  },
  required: ['operator', 'require_manager_approval', 'owner_ids', 'stage'],
});

export const TicketPropagationConfiguration = component('TicketPropagationConfiguration', {
  type: 'object',
  properties: {
    enabled_on_grant: { type: 'boolean' },
    enabled_on_revocation: { type: 'boolean' },
    ticket_provider: TicketingProviderEnum,
    ticket_project_id: { type: 'string' },
  },
  required: ['enabled_on_grant', 'enabled_on_revocation'],
});

export const RequestConfiguration = component('RequestConfiguration', {
  description: 'How an item may be requested, and who reviews a request.',
  type: 'object',
  properties: {
    organization_id: { type: 'string', format: 'uuid', description: 'Always the nil UUID: a Gatehouse serves one organization.' },
    condition: Condition,
    allow_requests: { type: 'boolean' },
    auto_approval: { type: 'boolean' },
    require_mfa_to_request: { type: 'boolean' },
    max_duration_minutes: { type: 'integer' },
    recommended_duration_minutes: { type: 'integer' },
    require_support_ticket: { type: 'boolean' },
    extensions_duration_in_minutes: { type: 'integer' },
    request_template_id: { type: 'string', format: 'uuid' },
    reviewer_stages: { type: 'array', items: ReviewerStage },
    priority: { type: 'integer' },
  },
  required: [
    'organization_id', 'allow_requests', 'auto_approval', 'require_mfa_to_request',
    'require_support_ticket', 'priority',
  ],
});
