// The requests area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { component, extensionField } from '../../openapi/schema.ts';
import { TicketingProviderEnum } from '../../openapi/components/enums.ts';
import { PageInfo } from '../queries/openapi.ts';
import {
  ApproveRequestBody, CommentBody, CreateRequestBody, CreateRequestQuery, CUSTOM_FIELD_TYPES, DenyRequestBody, ListRequestsQuery,
  RelayRequestsQuery, REQUEST_STATUSES,
} from './schemas.ts';

const uuid = { type: 'string', format: 'uuid' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;

export const RequestStatusEnum = component('RequestStatusEnum', { type: 'string', enum: [...REQUEST_STATUSES] });

export const RequestReviewer = component('RequestReviewer', {
  description: 'A reviewer in a stage. A reviewer who denied reads REJECTED.',
  type: 'object',
  properties: {
    id: uuid,
    full_name: { type: 'string' },
    status: { type: 'string', enum: ['PENDING', 'APPROVED', 'REJECTED'] },
    delegated_from_user_id: extensionField(uuid, 'The reviewer this user reviews (or reviewed) in place of, through a delegation in force.'),
  },
  required: ['id', 'status'],
});

export const RequestStage = component('RequestStage', {
  type: 'object',
  properties: { stage: { type: 'integer' }, operator: { type: 'string', enum: ['AND', 'OR'] }, reviewers: { type: 'array', items: RequestReviewer } },
  required: ['stage', 'operator', 'reviewers'],
});

export const RequestReviewerStages = component('RequestReviewerStages', {
  description: 'The review stages of one requested item.',
  type: 'object',
  properties: {
    access_level_name: { type: 'string' },
    access_level_remote_id: { type: 'string' },
    item_id: uuid,
    item_name: { type: 'string' },
    requestedItemName: extensionField({ type: 'string' }, 'The spec\'s name for item_name.'),
    requestedRoleName: extensionField({ type: 'string' }, 'The spec\'s name for access_level_name.'),
    stages: { type: 'array', items: RequestStage },
  },
  required: ['item_name', 'item_id', 'stages'],
});

export const RequestItemStages = component('RequestItemStages', {
  description:
    'Deprecated in the reference (read reviewer_stages): the review stages of the request\'s first item, for clients ' +
    'generated from older versions of the reference, which read who must approve only here.',
  deprecated: true,
  type: 'object',
  properties: {
    requestedRoleName: { type: 'string' },
    requestedItemName: { type: 'string' },
    stages: { type: 'array', items: RequestStage },
  },
  required: ['requestedItemName', 'stages'],
});

export const RequestedItem = component('RequestedItem', {
  type: 'object',
  properties: {
    access_level_name: { type: 'string' },
    access_level_remote_id: { type: 'string' },
    group_id: uuid,
    name: { type: 'string' },
    remote_id: { type: 'string' },
    remote_name: { type: 'string' },
    resource_id: uuid,
  },
});

export const RequestComment = component('RequestComment', {
  type: 'object',
  properties: {
    id: extensionField(uuid, 'The spec lists the comment\'s id.'),
    created_at: dateTime,
    updated_at: extensionField(dateTime, 'The spec lists updated_at.'),
    request_id: uuid,
    user_id: uuid,
    user_full_name: { type: 'string' },
    user_email: { type: 'string' },
    comment: { type: 'string' },
  },
  required: ['created_at', 'request_id', 'user_id', 'comment'],
});

export const RequestCustomFieldResponse = component('RequestCustomFieldResponse', {
  type: 'object',
  properties: {
    field_name: { type: 'string' },
    field_type: { type: 'string', enum: [...CUSTOM_FIELD_TYPES] },
    field_value: { oneOf: [{ type: 'string' }, { type: 'boolean' }] },
  },
  required: ['field_name', 'field_type', 'field_value'],
});

export const Request = component('Request', {
  description: 'An access request. status is upper case (PENDING, APPROVED, DENIED, CANCELED).',
  type: 'object',
  properties: {
    id: uuid,
    created_at: dateTime,
    updated_at: dateTime,
    requester_id: uuid,
    target_user_id: uuid,
    target_group_id: uuid,
    status: RequestStatusEnum,
    reason: { type: 'string' },
    duration_minutes: { type: 'integer' },
    requested_duration_minutes: extensionField(
      { type: 'integer' },
      'Present when a reviewer approved for less than was asked: what the requester asked for (duration_minutes is then the shortened duration the grant used).',
    ),
    requested_items_list: { type: 'array', items: RequestedItem },
    reviewer_stages: { type: 'array', items: RequestReviewerStages },
    stages: RequestItemStages,
    request_comments: extensionField({ type: 'array', items: RequestComment }, 'The spec lists the request\'s comments on the Request.'),
    custom_fields_responses: { type: 'array', items: RequestCustomFieldResponse },
    support_ticket: extensionField({
      type: 'object',
      properties: { ticketing_provider: TicketingProviderEnum, remote_id: { type: 'string' }, identifier: { type: 'string' }, url: { type: 'string' } },
      required: ['ticketing_provider', 'remote_id', 'identifier', 'url'],
    }, 'The support ticket given with the request, as given.'),
  },
  required: ['id', 'created_at', 'updated_at', 'requester_id', 'status', 'reason'],
});

const RequestAnswer = { type: 'object', properties: { request: Request }, required: ['request'] } as const;

const DryRunReviewer = {
  type: 'object',
  properties: {
    id: uuid, full_name: { type: 'string' }, why: { type: 'string' }, delegated_from_user_id: uuid, delegation_id: uuid,
  },
  required: ['id', 'full_name', 'why'],
};

export const RequestDryRun = component('RequestDryRun', {
  description: 'What POST /v1/requests would create, and why: nothing is written.',
  'x-gatehouse-extension': true,
  type: 'object',
  properties: {
    dry_run: { type: 'boolean', enum: [true] },
    requester_id: uuid,
    target_user_id: uuid,
    target_group_id: uuid,
    duration_minutes: { type: 'integer' },
    would_be_approved_at_once: { type: 'boolean' },
    custom_fields: {
      type: 'array',
      description:
        'What the items\' request templates ask (docs/request-templates.md): each field once, required if any template asking it requires it, ' +
        'with the template and the items (`resources.N`, `groups.N`) it is asked for. The dry run does not refuse a missing answer; the request does.',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          description: { type: 'string' },
          type: { type: 'string', enum: [...CUSTOM_FIELD_TYPES] },
          required: { type: 'boolean' },
          metadata: { type: 'object', properties: { multi_choice_data: { type: 'object', properties: { options: { type: 'array', items: { type: 'string' } } }, required: ['options'] } } },
          request_template_id: uuid,
          asked_for: { type: 'array', items: { type: 'string' } },
        },
        required: ['name', 'type', 'required', 'request_template_id', 'asked_for'],
      },
    },
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          resource_id: uuid,
          group_id: uuid,
          name: { type: 'string' },
          access_level_remote_id: { type: 'string' },
          access_level_name: { type: 'string' },
          configuration: {
            type: 'object',
            properties: { priority: { type: 'integer' }, matched_group_id: uuid, why: { type: 'string' } },
            required: ['priority', 'why'],
          },
          auto_approved: { type: 'boolean' },
          stages: {
            type: 'array',
            items: {
              type: 'object',
              properties: { stage: { type: 'integer' }, operator: { type: 'string', enum: ['AND', 'OR'] }, reviewers: { type: 'array', items: DryRunReviewer } },
              required: ['stage', 'operator', 'reviewers'],
            },
          },
        },
        required: ['name', 'access_level_remote_id', 'access_level_name', 'configuration', 'auto_approved', 'stages'],
      },
    },
  },
  required: ['dry_run', 'requester_id', 'duration_minutes', 'would_be_approved_at_once', 'custom_fields', 'items'],
});

export const RequestList = component('RequestList', {
  type: 'object',
  properties: { cursor: { type: 'string' }, requests: { type: 'array', items: Request } },
});

export const RequestEdge = component('RequestEdge', {
  type: 'object',
  properties: { cursor: { type: 'string' }, node: Request },
  required: ['node', 'cursor'],
});

export const RequestConnection = component('RequestConnection', {
  type: 'object',
  properties: { edges: { type: 'array', items: RequestEdge }, pageInfo: PageInfo, totalCount: { type: 'integer' } },
  required: ['edges', 'pageInfo', 'totalCount'],
});

export const RequestCommentList = component('RequestCommentList', {
  type: 'object',
  properties: { comments: { type: 'array', items: RequestComment } },
  required: ['comments'],
});

const DECIDED = 'A decided request (APPROVED, DENIED, CANCELED) never changes: 409.';

const RequestCounts = component('RequestCounts', {
  type: 'object',
  description: 'The caller\'s request counts, exact (extension).',
  properties: {
    awaiting_my_review: { type: 'integer', description: 'PENDING requests waiting for your decision now.' },
    my_pending: { type: 'integer', description: 'PENDING requests you made.' },
  },
  required: ['awaiting_my_review', 'my_pending'],
});

export const requestRoutes = defineRoutes('requests', {
  'GET /v1/requests': {
    role: 'read',
    summary: 'List access requests',
    description: 'Newest first. show_pending_only accepts true/false in any case. A bare end_date_filter includes that whole UTC day. ' +
      '`awaiting_my_review=true` (extension) keeps the PENDING requests waiting for your decision now: you review a current stage of an item (or hold a reviewer\'s delegation), undecided, and it is not your own request or for you.',
    query: ListRequestsQuery,
    responses: { 200: RequestList },
  },
  'POST /v1/requests': {
    role: 'member',
    summary: 'Create an access request',
    description: 'With `dry_run=true` (extension) nothing is written and the answer is a RequestDryRun: each item\'s configuration, stages and reviewers, and why.',
    query: CreateRequestQuery,
    body: CreateRequestBody,
    responses: { 200: { oneOf: [{ type: 'object', properties: { id: uuid }, required: ['id'] }, RequestDryRun] } },
  },
  'GET /v1/requests/counts': {
    role: 'read',
    summary: 'Count the caller\'s requests to decide and pending',
    description: 'What the console\'s Home shows, exact at any size: `awaiting_my_review`, the PENDING requests waiting for your decision now ' +
      '(as `awaiting_my_review=true` lists them), and `my_pending`, the PENDING requests you made.',
    extension: true,
    responses: { 200: RequestCounts },
  },
  'GET /v1/requests/relay': {
    role: 'read',
    summary: 'List access requests, relay style (deprecated)',
    description: 'Newest first; `first`/`after` page forward, `last`/`before` backward (20 by default). `to` filters by reviewer, `from` by requester. Like every list page, a page stops at `GATEHOUSE_MAX_PAGE_BYTES` of JSON (one edge at least): fewer edges, with `hasNextPage` (forward) or `hasPreviousPage` (backward) true.',
    query: RelayRequestsQuery,
    responses: { 200: RequestConnection },
  },
  'GET /v1/requests/{id}': { role: 'read', items: { id: null }, summary: 'Get an access request', responses: { 200: Request } },
  'POST /v1/requests/{id}/approve': {
    role: 'member', items: { id: null },
    summary: 'Approve an access request',
    description: `REGULAR: a reviewer of a current stage (or their delegate); ADMIN: administrators, completing it at once. Nobody approves their own request. `
      + '`duration_minutes` (extension) shortens the access granted: never longer than the request\'s duration (400 naming it), kept for later stages, '
      + `shown on the request and in the event. ${DECIDED}`,
    body: ApproveRequestBody,
    responses: { 200: RequestAnswer },
  },
  'POST /v1/requests/{id}/deny': {
    role: 'member', items: { id: null },
    summary: 'Deny an access request',
    description: `A reviewer of a current stage (or their delegate) or an administrator; one denial denies the request. ${DECIDED}`,
    body: DenyRequestBody,
    responses: { 200: RequestAnswer },
  },
  'POST /v1/requests/{id}/cancel': {
    role: 'member', items: { id: null },
    summary: 'Cancel an access request',
    description: `The requester or an administrator. ${DECIDED}`,
    extension: true,
    responses: { 200: RequestAnswer },
  },
  'GET /v1/requests/{id}/comments': { role: 'read', items: { id: null }, summary: 'List the comments of an access request', responses: { 200: RequestCommentList } },
  'POST /v1/requests/{id}/comments': {
    role: 'member', items: { id: null },
    summary: 'Comment on an access request',
    description: 'The requester, the target user, a reviewer (or their delegate) or an administrator.',
    body: CommentBody,
    responses: { 200: RequestAnswer },
  },
});
