// The owners area's response shapes (Valibot): owners, their lists and bulk updates, the types its mappers return and its answers in the API document.
// Valibot schemas; wire facts (field names, types, formats, enums) agree with the reference, and a field Gatehouse always sends is required. See docs/openapi.md.
import * as v from 'valibot';
import { component, uuid, integer, described, paginated } from '../../openapi/responses.ts';

export const Owner = component('Owner', described(v.object({
  owner_id: uuid,
  name: v.string(),
  description: v.string(),
  access_request_escalation_period: integer,
  reviewer_message_channel_id: v.optional(v.nullable(uuid)),
  source_group_id: v.optional(v.nullable(uuid)),
}), 'A team that administers items and reviews requests for them.'));
export type Owner = v.InferOutput<typeof Owner>;

export const PaginatedOwnersList = paginated('PaginatedOwnersList', Owner);

export const UpdateOwnerInfo = component('UpdateOwnerInfo', v.object({
  owner_id: uuid,
  name: v.optional(v.string()),
  description: v.optional(v.string()),
  access_request_escalation_period: v.optional(integer),
  reviewer_message_channel_id: v.optional(v.string()),
  source_group_id: v.optional(uuid),
}));
export type UpdateOwnerInfo = v.InferOutput<typeof UpdateOwnerInfo>;

export const UpdateOwnerInfoList = component('UpdateOwnerInfoList', v.object({
  owners: v.array(UpdateOwnerInfo),
}));
