// Valibot schemas for request templates: create, update (the body names the template) and the list query.
import * as v from 'valibot';
import { Name, PageQueryEntries, Text, Uuid } from '../../http/common-schemas.ts';
import { CUSTOM_FIELD_TYPES } from '../requests/schemas.ts';

const Option = v.pipe(Text(200), v.trim(), v.minLength(1, 'must not be empty'));

/** A field to put on a template (the vendor's RequestTemplateCustomFieldInput, without display-only callouts). */
export const CustomFieldInput = v.object({
  name: Name(200),
  description: v.optional(v.nullable(Text(1000))),
  type: v.picklist(CUSTOM_FIELD_TYPES, `must be one of ${CUSTOM_FIELD_TYPES.join(', ')}`),
  required: v.optional(v.boolean('must be true or false'), false),
  metadata: v.optional(v.nullable(v.object({
    multi_choice_data: v.optional(v.nullable(v.object({
      options: v.pipe(v.array(Option, 'must be a list of options'), v.minLength(1, 'must list at least one option'), v.maxLength(100, 'must list at most 100 options')),
    }))),
  }))),
});
export type CustomFieldInputType = v.InferOutput<typeof CustomFieldInput>;

const CustomFields = v.pipe(v.array(CustomFieldInput, 'must be a list of custom fields'), v.maxLength(50, 'must list at most 50 fields'));

export const CreateRequestTemplateBody = v.object({
  name: Name(200),
  custom_fields: v.optional(CustomFields, []),
});

export const UpdateRequestTemplateBody = v.object({
  request_template_id: Uuid,
  name: v.optional(Name(200)),
  custom_fields: v.optional(CustomFields),
});

export const ListRequestTemplatesQuery = v.object({ ...PageQueryEntries });
