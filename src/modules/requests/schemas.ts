// Valibot schemas for access requests: the reference's CreateRequestInfo, approve/deny/comment bodies and list filters.
import { MAX_MINUTES } from '../../lib/durations.ts';
import * as v from 'valibot';
import { PageQueryEntries, QueryBoolean, QueryDate, QueryInteger, Text, Uuid } from '../../http/common-schemas.ts';

export const REQUEST_STATUSES = ['PENDING', 'APPROVED', 'DENIED', 'CANCELED'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const CUSTOM_FIELD_TYPES = ['SHORT_TEXT', 'LONG_TEXT', 'BOOLEAN', 'MULTI_CHOICE'] as const;
export const TICKETING_PROVIDERS = ['JIRA', 'LINEAR', 'SERVICE_NOW'] as const;

const LowerUuid = v.pipe(Uuid, v.toLowerCase());
const NonEmpty = (max: number) => v.pipe(Text(max), v.trim(), v.minLength(1, 'must not be empty'));

/** One requested resource or group; the level defaults to the default level (''). */
const RequestedItemInput = v.object({
  id: LowerUuid,
  access_level_remote_id: v.optional(Text(1000)),
  // Deprecated in the reference ("populated from access_level_remote_id"): ignored beside a remote id;
  // alone, it names the level (planRequest's requestedLevel).
  access_level_name: v.optional(Text(1000)),
});
const RequestedItems = v.pipe(v.array(RequestedItemInput, 'must be a list of items'), v.maxLength(100, 'must list at most 100 items'));

const SupportTicket = v.object({
  ticketing_provider: v.picklist(TICKETING_PROVIDERS, `must be one of ${TICKETING_PROVIDERS.join(', ')}`),
  remote_id: NonEmpty(1000),
  identifier: NonEmpty(1000),
  url: NonEmpty(2000),
});

/** The most characters a request's custom field values may total (each is at most 10,000). */
export const MAX_CUSTOM_METADATA_CHARS = 20_000;

const CustomField = v.object({
  name: NonEmpty(200),
  type: v.picklist(CUSTOM_FIELD_TYPES, `must be one of ${CUSTOM_FIELD_TYPES.join(', ')}`),
  value: Text(10000),
});

export const CreateRequestBody = v.object({
  resources: RequestedItems,
  groups: RequestedItems,
  reason: NonEmpty(5000),
  duration_minutes: v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number of minutes'),
    v.minValue(-1, 'must be -1 (indefinite) or at least 1'),
    v.check((n) => n !== 0, 'must be -1 (indefinite) or at least 1'),
    // The reference sets no maximum; approval grants an access edge, and no edge lasts longer.
    v.maxValue(MAX_MINUTES, `must be at most ${MAX_MINUTES} (a year), or -1 for indefinite`),
  ),
  target_user_id: v.optional(LowerUuid),
  target_group_id: v.optional(LowerUuid),
  support_ticket: v.optional(SupportTicket),
  custom_metadata: v.optional(
    v.pipe(
      v.array(CustomField, 'must be a list of custom fields'),
      v.maxLength(100, 'must list at most 100 fields'),
      // A request is a record people read in lists: its fields together stay small (docs/client-compatibility.md).
      v.check((fields) => fields.reduce((sum, f) => sum + f.value.length, 0) <= MAX_CUSTOM_METADATA_CHARS, `values must total at most ${MAX_CUSTOM_METADATA_CHARS} characters`),
    ),
    [],
  ),
});
export type CreateRequestInput = v.InferOutput<typeof CreateRequestBody>;

export const CreateRequestQuery = v.object({ dry_run: v.optional(QueryBoolean) });

export const APPROVAL_LEVELS = ['REGULAR', 'ADMIN'] as const;
const Level = v.picklist(APPROVAL_LEVELS, 'must be REGULAR or ADMIN');

export const ApproveRequestBody = v.object({
  level: Level,
  comment: v.optional(Text(5000)),
  // Extension: the reviewer grants for less than was asked (never more; the service checks against the request).
  duration_minutes: v.optional(v.nullable(v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number of minutes'),
    v.minValue(1, 'must be at least 1 minute'),
    v.maxValue(MAX_MINUTES, `must be at most ${MAX_MINUTES} (a year)`),
    v.metadata({ openapi: {
      type: ['integer', 'null'], minimum: 1, maximum: MAX_MINUTES, 'x-gatehouse-extension': true,
      description: 'Grant for this many minutes instead of what the request asks: at most the request\'s duration_minutes (any, for an indefinite one). Absent or null: as asked.',
    } }),
  ))),
});
export const DenyRequestBody = v.object({ comment: NonEmpty(5000), level: v.optional(Level) });
export const CommentBody = v.object({ comment: NonEmpty(5000) });

export const ListRequestsQuery = v.object({
  ...PageQueryEntries,
  start_date_filter: v.optional(QueryDate),
  end_date_filter: v.optional(QueryDate),
  requester_id: v.optional(LowerUuid),
  target_user_id: v.optional(LowerUuid),
  resource_id: v.optional(LowerUuid),
  group_id: v.optional(LowerUuid),
  show_pending_only: v.optional(QueryBoolean),
  /** Extension: only the PENDING requests waiting for the caller's decision now (as a reviewer of a current stage, or a delegate). */
  awaiting_my_review: v.optional(QueryBoolean),
  /** Extension: only the requests approved at once by the break-glass rule (true), or only the others (false). */
  break_glass: v.optional(QueryBoolean),
});
export type ListRequestsInput = v.InferOutput<typeof ListRequestsQuery>;

/** A status in any case (pending, Pending, PENDING). */
const AnyCaseStatus = v.pipe(
  v.string('must be given once'),
  v.metadata({ openapi: { type: 'string', enum: [...REQUEST_STATUSES] } }),
  v.toUpperCase(),
  v.picklist(REQUEST_STATUSES, `must be one of ${REQUEST_STATUSES.join(', ')} (any case)`),
);

export const RelayRequestsQuery = v.object({
  first: v.optional(QueryInteger(1, 100)),
  after: v.optional(v.pipe(v.string('must be given once'), v.minLength(1, 'must not be empty'))),
  last: v.optional(QueryInteger(1, 100)),
  before: v.optional(v.pipe(v.string('must be given once'), v.minLength(1, 'must not be empty'))),
  status: v.optional(AnyCaseStatus),
  to: v.optional(LowerUuid),
  from: v.optional(LowerUuid),
});
export type RelayRequestsInput = v.InferOutput<typeof RelayRequestsQuery>;
