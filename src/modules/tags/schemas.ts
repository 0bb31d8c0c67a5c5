// Valibot schemas for tags: creating one (query and/or body), finding one, listing, attaching.
import * as v from 'valibot';
import { PageQueryEntries, Uuid } from '../../http/common-schemas.ts';

export const TAG_KEY_MAX = 128;
export const TAG_VALUE_MAX = 256;

const TagKey = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(TAG_KEY_MAX, `must be at most ${TAG_KEY_MAX} characters`),
);
// A value may be empty: "no value" and "" are the same tag.
const TagValue = v.pipe(v.string('must be a string'), v.trim(), v.maxLength(TAG_VALUE_MAX, `must be at most ${TAG_VALUE_MAX} characters`));

// In the query string a repeated key arrives as a list, which these refuse.
const QueryTagKey = v.pipe(v.string('must be given once'), TagKey);
const QueryTagValue = v.pipe(v.string('must be given once'), TagValue);

/** POST /tag's deprecated query parameters (the reference still lists them). */
export const CreateTagQuery = v.object({
  tag_key: v.optional(QueryTagKey),
  tag_value: v.optional(QueryTagValue),
  admin_owner_id: v.optional(Uuid),
});

/** POST /tag's body, the reference's CreateTagInfo plus admin_owner_id; the whole body is optional. */
// A top-level array body is refused by the router (src/http/router.ts) before these run.
export const CreateTagBody = v.optional(
  v.object({
    tag_key: v.optional(TagKey),
    tag_value: v.optional(TagValue),
    admin_owner_id: v.optional(v.nullable(Uuid)),
  }),
);

export const GetTagQuery = v.object({
  tag_key: QueryTagKey,
  tag_value: v.optional(QueryTagValue, ''),
});

export const ListTagsQuery = v.object({ ...PageQueryEntries });

/** The reference allows an (unused) object body on attach; anything but an object is refused. */
export const AttachTagBody = v.optional(v.object({}));
