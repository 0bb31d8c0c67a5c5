// The request-templates area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts). All extensions: the reference names request_template_id but has no route for templates;
// the shapes follow the vendor's later RequestTemplate API (docs/request-templates.md).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { CreateRequestTemplateBody, ListRequestTemplatesQuery, UpdateRequestTemplateBody } from './schemas.ts';
import { RequestTemplate, PaginatedRequestTemplateList } from './responses.ts';

const ASKED =
  'A request for an item whose matching request configuration names the template must answer each required field in ' +
  '`custom_metadata` (`{name, type, value}`), with the field\'s type, and a MULTI_CHOICE answer one of its options.';

export const requestTemplateRoutes = defineRoutes('request-templates', {
  'GET /v1/request-templates': {
    role: 'read',
    summary: 'List request templates',
    description: 'Oldest first, paged by `cursor` and `page_size` like every other list. Members read them: they are the questions a request form asks.',
    extension: true,
    query: ListRequestTemplatesQuery,
    responses: { 200: PaginatedRequestTemplateList },
  },
  'POST /v1/request-templates': {
    role: 'admin',
    summary: 'Create a request template',
    description: `${ASKED} Field names are unique (any case); MULTI_CHOICE fields list their options in metadata.multi_choice_data.`,
    extension: true,
    body: CreateRequestTemplateBody,
    responses: { 200: RequestTemplate },
  },
  'PUT /v1/request-templates': {
    role: 'admin',
    summary: 'Update a request template',
    description: 'Changes the name given; `custom_fields`, when given, replaces the fields wholesale. Requests already made keep their answers.',
    extension: true,
    body: UpdateRequestTemplateBody,
    responses: { 200: RequestTemplate },
  },
  'GET /v1/request-templates/{request_template_id}': {
    role: 'read', items: { request_template_id: null },
    summary: 'Get a request template',
    extension: true,
    responses: { 200: RequestTemplate },
  },
  'DELETE /v1/request-templates/{request_template_id}': {
    role: 'admin', items: { request_template_id: null },
    summary: 'Delete a request template',
    description: 'Refused (`conflict`) while a resource, group or configuration template names it in its request settings.',
    extension: true,
    responses: { 200: EmptyObject },
  },
});
