// The tags area's response shapes (Valibot): tags and their lists, the types its mappers return and its answers in the API document.
// Valibot schemas; wire facts (field names, types, formats, enums) agree with the reference, and a field Gatehouse always sends is required. See docs/openapi.md.
import * as v from 'valibot';
import { component, uuid, dateTime, extension, described, paginated } from '../../openapi/responses.ts';

export const Tag = component('Tag', described(v.object({
  admin_owner_id: v.optional(extension(uuid, 'The owner administering the tag; absent when none does.')),
  tag_id: uuid,
  created_at: dateTime,
  updated_at: dateTime,
  user_creator_id: uuid,
  key: v.string(),
  value: v.string(),
}), 'A key and value attached to users, groups and resources.'));
export type Tag = v.InferOutput<typeof Tag>;

export const PaginatedTagsList = paginated('PaginatedTagsList', Tag);

export const TagsList = component('TagsList', v.object({
  tags: v.array(Tag),
}));
