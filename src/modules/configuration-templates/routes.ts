// The configuration-templates area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { CreateConfigurationTemplateBody, ListConfigurationTemplatesQuery, UpdateConfigurationTemplateBody } from './schemas.ts';
import { ConfigurationTemplate, PaginatedConfigurationTemplateList } from './responses.ts';

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
