// The non-human identities area's response shapes (Valibot): their direct access to resources, the types its mappers return and its answers in the API document.
// Valibot schemas; wire facts (field names, types, formats, enums) agree with the reference, and a field Gatehouse always sends is required. See docs/openapi.md.
import * as v from 'valibot';
import { component, uuid, dateTime, integer, extension, described } from '../../openapi/responses.ts';
import { EntityTypeEnum } from '../../openapi/enums.ts';
import { ResourceAccessLevel } from '../access/responses.ts';

export const Access = component('Access', described(v.object({
  principal_id: uuid,
  principal_type: EntityTypeEnum,
  entity_id: uuid,
  entity_type: EntityTypeEnum,
  access_level: v.optional(ResourceAccessLevel),
  expiration_date: v.optional(v.nullable(dateTime)),
  has_direct_access: v.boolean(),
  num_access_paths: v.pipe(integer, v.metadata({ format: 'int32' })),
}), 'Who holds access to what, at which level, until when.'));
export type Access = v.InferOutput<typeof Access>;

export const AccessList = component('AccessList', v.object({
  results: v.optional(v.array(Access)),
  next: v.optional(v.nullable(extension(v.string(), 'The cursor of the next page, or null on the last: `limit` never cuts the list short unsaid.'))),
  previous: v.optional(v.nullable(extension(v.string(), 'The cursor this page was asked with, or null on the first.'))),
}));

export const ResourceNHI = component('ResourceNHI', described(v.object({
  resource_id: uuid,
  non_human_identity_id: uuid,
  access_level: v.optional(ResourceAccessLevel),
  expiration_date: v.optional(v.nullable(dateTime)),
}), "A non-human identity's direct access to a resource."));
export type ResourceNHI = v.InferOutput<typeof ResourceNHI>;
