// The idp-group-mappings area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, uuid } from '../../openapi/responses.ts';

export const IdpGroupMapping = component('IdpGroupMapping', v.object({
  app_resource_id: uuid,
  group_id: uuid,
  alias: v.optional(v.string()),
  hidden_from_end_user: v.boolean(),
}));
export type IdpGroupMapping = v.InferOutput<typeof IdpGroupMapping>;

export const IdpGroupMappingList = component('IdpGroupMappingList', v.object({
  mappings: v.array(IdpGroupMapping),
}));
