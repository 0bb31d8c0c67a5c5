// Valibot schemas for access edges of every kind and the reads of effective access.
import { MAX_MINUTES } from '../../lib/durations.ts';
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { EdgeDurationMinutes, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, QueryInteger, Uuid } from '../../http/common-schemas.ts';

/** An access level's remote id; '' is the item's default level. Numbers (as in one reference sample) are kept as text. */
export const AccessLevelRemoteId = v.pipe(
  v.union([v.string(), v.number()], 'must be a string'),
  v.transform(String),
  v.maxLength(1000, 'must be at most 1000 characters'),
);

/** The same in a query string, where a repeated key arrives as an array. */
export const QueryAccessLevelRemoteId = v.pipe(v.string('must be given once'), v.maxLength(1000, 'must be at most 1000 characters'));

const QueryDuration = QueryInteger(0, MAX_MINUTES);

/** POST …/users/{user_id} (resources and groups): the reference's deprecated query parameters, still honoured. */
export const AddEdgeQuery = v.object({
  duration_minutes: v.optional(QueryDuration),
  access_level_remote_id: v.optional(QueryAccessLevelRemoteId),
});

const AddEdgeFields = v.object({
  duration_minutes: v.optional(EdgeDurationMinutes),
  access_level_remote_id: v.optional(AccessLevelRemoteId),
});

/**
 * POST bodies are optional, since the query string may carry everything; a JSON null is "no body".
 * The API document shows the object alone (an absent body is the documented way to send none).
 */
export const AddEdgeBody = v.pipe(
  v.optional(v.nullable(AddEdgeFields), {}),
  v.metadata({ openapi: toJsonSchema(AddEdgeFields, { target: 'draft-2020-12', typeMode: 'input', errorMode: 'ignore' }) }),
  v.transform((body) => body ?? {}),
);

export const UpdateEdgeBody = v.object({
  duration_minutes: EdgeDurationMinutes,
  access_level_remote_id: v.optional(AccessLevelRemoteId),
});

export const RemoveEdgeQuery = v.object({
  access_level_remote_id: v.optional(QueryAccessLevelRemoteId, ''),
});

/** The largest `limit` served in one answer: far above any real resource's holders, low enough to bound one response. */
export const LIMIT_MAX = 100_000;

/**
 * Per-item edge lists: cursor and page_size as every list, plus the reference's `limit`, which has no
 * maximum there (a client that knows only `limit` must be able to read every holder in one call).
 * page_size wins when both are given.
 */
export const ListEdgesQuery = v.pipe(
  v.object({
    cursor: v.optional(v.pipe(v.string('must be given once'), v.minLength(1, 'must not be empty'))),
    page_size: v.optional(QueryInteger(1, PAGE_SIZE_MAX)),
    limit: v.optional(QueryInteger(1, LIMIT_MAX)),
  }),
  v.transform((q) => ({ cursor: q.cursor, page_size: q.page_size ?? q.limit ?? PAGE_SIZE_DEFAULT })),
);

export const AccessStatusQuery = v.object({
  access_level_remote_id: v.optional(QueryAccessLevelRemoteId, ''),
  cursor: v.optional(v.string()),
  page_size: v.optional(v.string()),
});

/** POST /groups/{group_id}/containing-groups: the reference's GroupContainingGroup. */
export const AddContainingGroupBody = v.object({
  containing_group_id: Uuid,
  duration_minutes: v.optional(EdgeDurationMinutes, 0),
  access_level_remote_id: v.optional(AccessLevelRemoteId, ''),
});

export const ContainingGroupsQuery = v.object({
  access_level_remote_id: v.optional(QueryAccessLevelRemoteId),
});

/** PUT /groups/{group_id}/resources: the reference's UpdateGroupResourcesInfo; replaces the set. */
export const SetGroupResourcesBody = v.object({
  resources: v.pipe(
    v.array(v.object({ resource_id: Uuid, access_level_remote_id: v.optional(AccessLevelRemoteId, '') }), 'must be a list of resources'),
    v.maxLength(10_000, 'must list at most 10000 resources'),
  ),
});
