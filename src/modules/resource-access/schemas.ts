// Valibot schemas for users' direct access to resources (access edges).
import * as v from 'valibot';
import { EdgeDurationMinutes, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, QueryInteger, Text } from '../../http/common-schemas.ts';

/** An access level's remote id; '' is the resource's default level. */
export const AccessLevelRemoteId = Text(1000);

/** The same in a query string, where a repeated key arrives as an array. */
export const QueryAccessLevelRemoteId = v.pipe(v.string('must be given once'), v.maxLength(1000, 'must be at most 1000 characters'));

/** POST …/users/{user_id}: the reference's deprecated query parameters, still honoured. */
export const AddResourceUserQuery = v.object({
  duration_minutes: v.optional(QueryInteger(0, 525960)),
  access_level_remote_id: v.optional(QueryAccessLevelRemoteId),
});

/** POST …/users/{user_id}: the body is optional, since the query string may carry everything. */
export const AddResourceUserBody = v.optional(
  v.object({
    duration_minutes: v.optional(EdgeDurationMinutes),
    access_level_remote_id: v.optional(AccessLevelRemoteId),
  }),
  {},
);

export const UpdateResourceUserBody = v.object({
  duration_minutes: EdgeDurationMinutes,
  access_level_remote_id: v.optional(AccessLevelRemoteId, ''),
});

export const RemoveEdgeQuery = v.object({
  access_level_remote_id: v.optional(QueryAccessLevelRemoteId, ''),
});

/**
 * Per-resource edge lists: cursor and page_size as every list, plus the reference's `limit`
 * as another name for the page size (page_size wins when both are given).
 */
export const ListEdgesQuery = v.pipe(
  v.object({
    cursor: v.optional(v.pipe(v.string('must be given once'), v.minLength(1, 'must not be empty'))),
    page_size: v.optional(QueryInteger(1, PAGE_SIZE_MAX)),
    limit: v.optional(QueryInteger(1, PAGE_SIZE_MAX)),
  }),
  v.transform((q) => ({ cursor: q.cursor, page_size: q.page_size ?? q.limit ?? PAGE_SIZE_DEFAULT })),
);
