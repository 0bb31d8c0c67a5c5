// The requests area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, uuid, dateTime, integer, extension, described } from '../../openapi/responses.ts';
import { PageInfo } from '../queries/responses.ts';
import { TicketingProviderEnum } from '../../openapi/enums.ts';
import { CUSTOM_FIELD_TYPES, REQUEST_STATUSES } from './schemas.ts';

export const RequestStatusEnum = component('RequestStatusEnum', v.picklist(REQUEST_STATUSES));

export const RequestReviewer = component('RequestReviewer', described(v.object({
  id: uuid,
  full_name: v.optional(v.string()),
  status: v.picklist(['PENDING', 'APPROVED', 'REJECTED']),
  delegated_from_user_id: v.optional(extension(uuid, 'The reviewer this user reviews (or reviewed) in place of, through a delegation in force.')),
  decision_needed: v.optional(extension(v.boolean(), 'Whether this reviewer\'s decision is still awaited: false once they decided, once another reviewer settled their part of the stage (any one of an OR stage, one member of a team in an AND stage), once the stage is passed, or once the request is decided.')),
}), 'A reviewer in a stage. A reviewer who denied reads REJECTED.'));
export type RequestReviewer = v.InferOutput<typeof RequestReviewer>;

export const RequestStage = component('RequestStage', v.object({
  stage: integer,
  operator: v.picklist(['AND', 'OR']),
  reviewers: v.array(RequestReviewer),
}));
export type RequestStage = v.InferOutput<typeof RequestStage>;

export const RequestReviewerStages = component('RequestReviewerStages', described(v.object({
  access_level_name: v.optional(v.string()),
  access_level_remote_id: v.optional(v.string()),
  item_id: uuid,
  item_name: v.string(),
  requestedItemName: v.optional(extension(v.string(), "The spec's name for item_name.")),
  requestedRoleName: v.optional(extension(v.string(), "The spec's name for access_level_name.")),
  stages: v.array(RequestStage),
}), 'The review stages of one requested item.'));
export type RequestReviewerStages = v.InferOutput<typeof RequestReviewerStages>;

export const RequestItemStages = component('RequestItemStages', v.pipe(v.object({
  requestedRoleName: v.optional(v.string()),
  requestedItemName: v.string(),
  stages: v.array(RequestStage),
}), v.description("Deprecated in the reference (read reviewer_stages): the review stages of the request's first item, for clients generated from older versions of the reference, which read who must approve only here."), v.metadata({ deprecated: true })));
export type RequestItemStages = v.InferOutput<typeof RequestItemStages>;

export const RequestedItem = component('RequestedItem', v.object({
  access_level_name: v.optional(v.string()),
  access_level_remote_id: v.optional(v.string()),
  group_id: v.optional(uuid),
  name: v.optional(v.string()),
  remote_id: v.optional(v.string()),
  remote_name: v.optional(v.string()),
  resource_id: v.optional(uuid),
  approval_reason: v.optional(extension(v.string(), 'Why the on-call rotation approved this item, in words ("approved because you are on call for Payments primary until 18:00 UTC"), or why it was then not granted (its shift ended before the rest of the request was approved); absent for items the rotation did not approve (docs/on-call.md).')),
  on_call_until: v.optional(extension(dateTime, 'For an item the on-call rotation approved: the end of the shift that approved it (moved sooner when a handover or an override ends that shift sooner). Its grant ends no later than that, whenever the rest of the request is approved (docs/on-call.md).')),
}));
export type RequestedItem = v.InferOutput<typeof RequestedItem>;

export const RequestComment = component('RequestComment', v.object({
  id: v.optional(extension(uuid, "The spec lists the comment's id.")),
  created_at: dateTime,
  updated_at: v.optional(extension(dateTime, 'The spec lists updated_at.')),
  request_id: uuid,
  user_id: uuid,
  user_full_name: v.optional(v.string()),
  user_email: v.optional(v.string()),
  comment: v.string(),
}));
export type RequestComment = v.InferOutput<typeof RequestComment>;

export const RequestCustomFieldResponse = component('RequestCustomFieldResponse', v.object({
  field_name: v.string(),
  field_type: v.picklist(CUSTOM_FIELD_TYPES),
  field_value: v.union([v.string(), v.boolean()]),
}));
export type RequestCustomFieldResponse = v.InferOutput<typeof RequestCustomFieldResponse>;

export const Request = component('Request', described(v.object({
  id: uuid,
  created_at: dateTime,
  updated_at: dateTime,
  requester_id: uuid,
  target_user_id: v.optional(uuid),
  target_group_id: v.optional(uuid),
  status: RequestStatusEnum,
  reason: v.string(),
  duration_minutes: v.optional(integer),
  requested_duration_minutes: v.optional(extension(integer, 'Present when a reviewer approved for less than was asked: what the requester asked for (duration_minutes is then the shortened duration the grant used).')),
  requested_items_list: v.optional(v.array(RequestedItem)),
  reviewer_stages: v.optional(v.array(RequestReviewerStages)),
  stages: v.optional(RequestItemStages),
  request_comments: v.optional(extension(v.array(RequestComment), "The spec lists the request's comments on the Request.")),
  custom_fields_responses: v.optional(v.array(RequestCustomFieldResponse)),
  support_ticket: v.optional(extension(v.object({
    ticketing_provider: TicketingProviderEnum,
    remote_id: v.string(),
    identifier: v.string(),
    url: v.string(),
  }), 'The support ticket given with the request, as given.')),
  break_glass: v.optional(extension(v.boolean(), 'True for a request approved at once by the break-glass rule: its requester broke glass (POST /v1/break-glass; docs/break-glass.md).')),
  approval_reason: v.optional(extension(v.string(), 'Why a rule approved the request at once, in words: "approved because you are on call for Payments primary until 18:00 UTC" (docs/on-call.md); the grant then ends no later than the shift.')),
}), 'An access request. status is upper case (PENDING, APPROVED, DENIED, CANCELED).'));
export type Request = v.InferOutput<typeof Request>;

const DryRunReviewer = v.object({
  id: uuid,
  full_name: v.string(),
  why: v.string(),
  delegated_from_user_id: v.optional(uuid),
  delegation_id: v.optional(uuid),
});

export const RequestDryRun = component('RequestDryRun', extension(v.object({
  dry_run: v.literal(true),
  requester_id: uuid,
  target_user_id: v.optional(uuid),
  target_group_id: v.optional(uuid),
  duration_minutes: integer,
  would_be_approved_at_once: v.boolean(),
  approval_reason: v.optional(described(v.string(), 'Why it would be approved at once, when the rotation does it: "approved because you are on call for Payments primary until 18:00 UTC" — the grant would end no later than the shift (docs/on-call.md).')),
  custom_fields: described(v.array(v.object({
    name: v.string(),
    description: v.optional(v.string()),
    type: v.picklist(CUSTOM_FIELD_TYPES),
    required: v.boolean(),
    metadata: v.optional(v.object({
      multi_choice_data: v.optional(v.object({
        options: v.array(v.string()),
      })),
    })),
    request_template_id: uuid,
    asked_for: v.array(v.string()),
  })), "What the items' request templates ask (docs/request-templates.md): each field once, required if any template asking it requires it, with the template and the items (`resources.N`, `groups.N`) it is asked for. The dry run does not refuse a missing answer; the request does."),
  items: v.array(v.object({
    resource_id: v.optional(uuid),
    group_id: v.optional(uuid),
    name: v.string(),
    access_level_remote_id: v.string(),
    access_level_name: v.string(),
    configuration: v.object({
      priority: integer,
      matched_group_id: v.optional(uuid),
      why: v.string(),
    }),
    auto_approved: v.boolean(),
    warning: v.optional(described(v.string(), 'Present when the level asked for grants nothing in the system the item\'s app is connected to (a PostgreSQL database\'s default level): the request would be accepted and approved, yet change nothing there. `GET /v1/resources/{resource_id}/access-levels` lists the levels that do.')),
    on_call: v.optional(described(v.object({
      on_call_schedule_id: uuid,
      schedule_name: v.string(),
      ends_at: dateTime,
    }), 'The target is in the matched group because they are on call: the schedule, and when their shift ends (the grant\'s latest end).')),
    stages: v.array(v.object({
      stage: integer,
      operator: v.picklist(['AND', 'OR']),
      reviewers: v.array(DryRunReviewer),
    })),
  })),
}), 'What POST /v1/requests would create, and why: nothing is written.'));
export type RequestDryRun = v.InferOutput<typeof RequestDryRun>;

export const RequestList = component('RequestList', v.object({
  cursor: v.optional(v.string()),
  requests: v.optional(v.array(Request)),
}));

export const RequestEdge = component('RequestEdge', v.object({
  cursor: v.string(),
  node: Request,
}));
export type RequestEdge = v.InferOutput<typeof RequestEdge>;

export const RequestConnection = component('RequestConnection', v.object({
  edges: v.array(RequestEdge),
  pageInfo: PageInfo,
  totalCount: integer,
}));
export type RequestConnection = v.InferOutput<typeof RequestConnection>;

export const RequestCommentList = component('RequestCommentList', v.object({
  comments: v.array(RequestComment),
}));

/** The answer of a decision or a comment on a request: the request as it now stands. */
export const RequestAnswer = v.object({ request: Request });

/** What POST /v1/requests answers: the new request's id, or with `dry_run=true` what it would have created. */
export const RequestCreated = v.union([v.object({ id: uuid }), RequestDryRun]);

/** The caller's request counts, exact at any size (GET /v1/requests/counts, extension). */
export const RequestCounts = component('RequestCounts', described(v.object({
  awaiting_my_review: described(integer, 'PENDING requests waiting for your decision now.'),
  my_pending: described(integer, 'PENDING requests you made.'),
}), 'The caller\'s request counts, exact (extension).'));
export type RequestCounts = v.InferOutput<typeof RequestCounts>;
