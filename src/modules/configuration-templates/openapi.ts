// The configuration-templates area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { RequestConfiguration, TicketPropagationConfiguration } from '../../openapi/components/request-configuration.ts';
import { component, EmptyObject, extensionField } from '../../openapi/schema.ts';
import { VisibilityInfo } from '../visibility/openapi.ts';
import { CreateConfigurationTemplateBody, ListConfigurationTemplatesQuery, UpdateConfigurationTemplateBody } from './schemas.ts';

const Ids = { type: 'array', items: { type: 'string', format: 'uuid' } };

export const ConfigurationTemplate = component('ConfigurationTemplate', {
  type: 'object',
  description: 'Settings that every resource and group linked to the template (by `configuration_template_id`) takes, and keeps while linked.',
  properties: {
    configuration_template_id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    admin_owner_id: { type: 'string', format: 'uuid' },
    visibility: VisibilityInfo,
    linked_audit_message_channel_ids: Ids,
    member_oncall_schedule_ids: Ids,
    break_glass_user_ids: Ids,
    require_mfa_to_approve: { type: 'boolean' },
    require_mfa_to_connect: { type: 'boolean' },
    ticket_propagation: TicketPropagationConfiguration,
    custom_request_notification: { type: ['string', 'null'], maxLength: 800 },
    request_configurations: extensionField(
      { type: 'array', items: RequestConfiguration },
      'The request configurations the template gives its items, the default one (priority 0) first.',
    ),
  },
  required: [
    'configuration_template_id', 'name', 'admin_owner_id', 'visibility', 'linked_audit_message_channel_ids', 'member_oncall_schedule_ids',
    'break_glass_user_ids', 'require_mfa_to_approve', 'require_mfa_to_connect', 'custom_request_notification', 'request_configurations',
  ],
});

export const PaginatedConfigurationTemplateList = component('PaginatedConfigurationTemplateList', {
  type: 'object',
  properties: {
    results: { type: 'array', items: ConfigurationTemplate },
    next: extensionField({ type: ['string', 'null'] }, 'Cursor of the next page, or null on the last one.'),
    previous: extensionField({ type: ['string', 'null'] }, 'The cursor this page was asked with, or null on the first one.'),
  },
  required: ['results'],
});

const APPLIES =
  'Every linked resource and group takes the template\'s admin owner, visibility, request configurations (and the durations and ' +
  'flags they mirror), require_mfa_to_approve, custom_request_notification and audit message channels; resources also ' +
  'require_mfa_to_connect and ticket_propagation, groups the on-call schedules.';

export const configurationTemplateRoutes = defineRoutes('configuration-templates', {
  'GET /v1/configuration-templates': {
    role: 'read',
    summary: 'List configuration templates',
    description: 'Oldest first, paged by `cursor` and `page_size` like every other list.',
    query: ListConfigurationTemplatesQuery,
    responses: { 200: PaginatedConfigurationTemplateList },
  },
  'POST /v1/configuration-templates': {
    role: 'admin',
    summary: 'Create a configuration template',
    description: 'Without request configurations the template gives the default one (requestable, no approval steps, no duration limit).',
    body: CreateConfigurationTemplateBody,
    responses: { 200: ConfigurationTemplate },
  },
  'PUT /v1/configuration-templates': {
    role: 'admin',
    summary: 'Update a configuration template',
    description: `Changes the fields given. ${APPLIES} The change reaches every linked item in the same transaction.`,
    body: UpdateConfigurationTemplateBody,
    responses: { 200: ConfigurationTemplate },
  },
  'DELETE /v1/configuration-templates/{configuration_template_id}': {
    role: 'admin', items: { configuration_template_id: null },
    summary: 'Delete a configuration template',
    description: 'Refused (`conflict`) while a resource or group is linked to it.',
    responses: { 200: EmptyObject },
  },
});
