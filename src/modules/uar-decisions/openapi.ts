// The uar-decisions area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { ResourceAccessLevel } from '../../openapi/components/access.ts';
import { defineRoutes } from '../../http/route.ts';
import { component } from '../../openapi/schema.ts';
import { AssignBody, DecideBody, ListAssignmentsQuery, ListReviewItemsQuery, PolicyBody } from './schemas.ts';

const decision = { type: ['string', 'null'], enum: ['KEEP', 'REVOKE', 'LATER', null] };
const policy = {
  unanswered_decision: { type: 'string', enum: ['KEEP', 'REVOKE'], description: 'What the deadline does to rows nobody answered (or put off with LATER).' },
  closed_at: { type: ['string', 'null'], format: 'date-time', description: 'When the deadline\'s policy was applied; decisions are refused after.' },
};

export const UARItem = component('UARItem', {
  description: 'One row of a review\'s snapshot (who held what at which level) with its decision, if any.',
  'x-gatehouse-extension': true,
  type: 'object',
  properties: {
    uar_item_id: { type: 'integer' },
    uar_id: { type: 'string', format: 'uuid' },
    item_type: { type: 'string', enum: ['RESOURCE', 'GROUP'] },
    item_id: { type: 'string', format: 'uuid' },
    item_name: { type: 'string' },
    user_id: { type: 'string', format: 'uuid' },
    full_name: { type: 'string' },
    email: { type: 'string' },
    access_level: ResourceAccessLevel,
    expiration_date: { type: ['string', 'null'], format: 'date-time' },
    has_direct_access: { type: 'boolean' },
    num_access_paths: { type: 'integer' },
    decision,
    reviewer_user_id: { type: ['string', 'null'], format: 'uuid', description: 'Who made the decision.' },
    decided_at: { type: ['string', 'null'], format: 'date-time' },
    assigned_reviewer_ids: {
      type: 'array', items: { type: 'string', format: 'uuid' },
      description: 'Who is asked to review this row (any one of them decides it), ascending; empty: organization admins only.',
    },
  },
  required: ['uar_item_id', 'uar_id', 'item_type', 'item_id', 'item_name', 'user_id', 'access_level', 'has_direct_access', 'decision', 'assigned_reviewer_ids'],
});

const UARAssignment = component('UARAssignment', {
  description: 'A review with rows assigned to the caller: how many, and how many still wait for an answer (none yet, or LATER).',
  'x-gatehouse-extension': true,
  type: 'object',
  properties: {
    uar_id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    deadline: { type: 'string', format: 'date-time' },
    ...policy,
    assigned_items: { type: 'integer' },
    unanswered_items: { type: 'integer' },
  },
  required: ['uar_id', 'name', 'deadline', 'closed_at', 'unanswered_decision', 'assigned_items', 'unanswered_items'],
});

const itemsAnswer = { type: 'object', properties: { results: { type: 'array', items: UARItem } }, required: ['results'] };

const UARPolicy = component('UARPolicy', {
  'x-gatehouse-extension': true,
  type: 'object',
  properties: { uar_id: { type: 'string', format: 'uuid' }, ...policy },
  required: ['uar_id', 'unanswered_decision', 'closed_at'],
});

export const uarDecisionRoutes = defineRoutes('uars', {
  'GET /v1/uar/{uar_id}/items': {
    role: 'read',
    items: { uar_id: null },
    summary: 'List a review\'s items with their decisions',
    description:
      'The snapshot\'s rows in order, each with its decision (null: not answered) and its assigned reviewers, and the review\'s policy ' +
      'for unanswered rows. An organization admin reads every row (`assigned_to_me=true`: only theirs); a member only the rows ' +
      'assigned to them, and 404 for a review with none.',
    extension: true,
    query: ListReviewItemsQuery,
    responses: {
      200: {
        type: 'object',
        properties: { results: { type: 'array', items: UARItem }, next: { type: ['string', 'null'] }, previous: { type: ['string', 'null'] }, ...policy },
        required: ['results', 'unanswered_decision', 'closed_at'],
      },
    },
  },
  'GET /v1/uar-assignments': {
    role: 'read',
    summary: 'List the reviews with items assigned to me',
    description: 'The caller\'s own assignments, oldest review first, with how many of their items still wait for an answer. `open_only=true` leaves out closed reviews.',
    extension: true,
    query: ListAssignmentsQuery,
    responses: {
      200: {
        type: 'object',
        properties: { results: { type: 'array', items: UARAssignment }, next: { type: ['string', 'null'] }, previous: { type: ['string', 'null'] } },
        required: ['results'],
      },
    },
  },
  'POST /v1/uar/{uar_id}/decisions': {
    role: 'member',
    items: { uar_id: null },
    summary: 'Decide items of a review',
    description:
      'KEEP, REVOKE or LATER for each listed item, all or nothing. An assigned reviewer decides their own items, an organization admin any; ' +
      'nobody an item of their own access (403 naming `decisions.N.uar_item_id`), and a member no item assigned to others (403, the same path). ' +
      'A member with no item in the review gets 404. REVOKE ends the user\'s direct grant through the access graph ' +
      '(its `…_REMOVED` event, sessions ended) when the review closes, so a later KEEP or LATER undoes it until then; in a review started with ' +
      '`instantly_action_reviews` it ends at once, and that item can no longer be changed (409 naming `decisions.N.decision`). ' +
      'An item held only through groups cannot be revoked here (409 naming `decisions.N.decision`). ' +
      'Recorded as UAR_REVIEWS_DECIDED. 409 once the review has closed.',
    extension: true,
    body: DecideBody,
    errors: ['conflict'],
    responses: { 200: itemsAnswer },
  },
  'POST /v1/uar/{uar_id}/assignments': {
    role: 'admin',
    items: { uar_id: null },
    summary: 'Choose who reviews items of a review',
    description:
      'Replaces the reviewers of each listed item, all or nothing (an empty list leaves it to organization admins). A reviewer must be ' +
      'an existing user who is not offboarded and not the user whose access the item is (400/404 naming `assignments.N.reviewer_ids.M`). ' +
      'Recorded as UAR_REVIEWERS_UPDATED. 409 once closed.',
    extension: true,
    body: AssignBody,
    errors: ['conflict'],
    responses: { 200: itemsAnswer },
  },
  'PUT /v1/uar/{uar_id}/policy': {
    role: 'admin',
    items: { uar_id: null },
    summary: 'Choose what a review\'s deadline does to unanswered items',
    description: 'KEEP (the default) leaves them; REVOKE ends their direct grants when the deadline passes. Recorded as UARS_UPDATED. 409 once closed.',
    extension: true,
    body: PolicyBody,
    errors: ['conflict'],
    responses: { 200: UARPolicy },
  },
});
