// The request-templates area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { CUSTOM_FIELD_TYPES } from '../requests/schemas.ts';
import { component, uuid, extension, described } from '../../openapi/responses.ts';

export const RequestTemplateCustomField = component('RequestTemplateCustomField', extension(v.object({
  name: described(v.string(), 'The label shown to the requester; the `name` of the answer in custom_metadata.'),
  description: v.optional(described(v.string(), 'Helper text shown beneath the field.')),
  type: v.picklist(CUSTOM_FIELD_TYPES),
  required: described(v.boolean(), 'Whether the requester must answer.'),
  metadata: v.optional(v.object({
    multi_choice_data: v.optional(v.object({
      options: v.array(v.string()),
    })),
  })),
}), "A question a request must answer in `custom_metadata` when an item's request configuration names the template."));
export type RequestTemplateCustomField = v.InferOutput<typeof RequestTemplateCustomField>;

export const RequestTemplate = component('RequestTemplate', extension(v.object({
  request_template_id: uuid,
  name: v.string(),
  custom_fields: described(v.array(RequestTemplateCustomField), 'In the order they are shown.'),
}), "What a requester is asked, beside the reason, when an item's request configuration names the template (`request_template_id`)."));
export type RequestTemplate = v.InferOutput<typeof RequestTemplate>;

export const PaginatedRequestTemplateList = component('PaginatedRequestTemplateList', v.pipe(v.object({
  results: v.array(RequestTemplate),
  next: v.optional(v.nullable(described(v.string(), 'Cursor of the next page, or null on the last one.'))),
  previous: v.optional(v.nullable(described(v.string(), 'The cursor this page was asked with, or null on the first one.'))),
}), v.metadata({ "x-gatehouse-extension": true })));
