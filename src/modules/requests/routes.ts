// The requests area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import {
  ApproveRequestBody, CommentBody, CreateRequestBody, CreateRequestQuery, DenyRequestBody, ListRequestsQuery,
  RelayRequestsQuery,
} from './schemas.ts';
import { Request, RequestAnswer, RequestCounts, RequestCreated, RequestList, RequestConnection, RequestCommentList } from './responses.ts';

const DECIDED = 'A decided request (APPROVED, DENIED, CANCELED) never changes: 409.';


export const requestRoutes = defineRoutes('requests', {
  'GET /v1/requests': {
    role: 'read',
    summary: 'List access requests',
    description: 'Newest first. show_pending_only accepts true/false in any case. A bare end_date_filter includes that whole UTC day. ' +
      '`awaiting_my_review=true` (extension) keeps the PENDING requests waiting for your decision now: you review a current stage of an item (or hold a reviewer\'s delegation), undecided, and it is not your own request or for you. ' +
      '`break_glass=true` (extension) keeps the requests approved at once by the break-glass rule (docs/break-glass.md), `false` the others.',
    query: ListRequestsQuery,
    responses: { 200: RequestList },
  },
  'POST /v1/requests': {
    role: 'member',
    summary: 'Create an access request',
    description: 'With `dry_run=true` (extension) nothing is written and the answer is a RequestDryRun: each item\'s configuration, stages and reviewers, and why.',
    query: CreateRequestQuery,
    body: CreateRequestBody,
    responses: { 200: RequestCreated },
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
