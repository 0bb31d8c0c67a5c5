// The uar-decisions area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { ResourceAccessLevel } from '../../openapi/components/access.ts';
import { defineRoutes } from '../../http/route.ts';
import { component } from '../../openapi/schema.ts';
import { DecideBody, ListReviewItemsQuery, PolicyBody } from './schemas.ts';

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
    reviewer_user_id: { type: ['string', 'null'], format: 'uuid' },
    decided_at: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['uar_item_id', 'uar_id', 'item_type', 'item_id', 'item_name', 'user_id', 'access_level', 'has_direct_access', 'decision'],
});

const UARPolicy = component('UARPolicy', {
  'x-gatehouse-extension': true,
  type: 'object',
  properties: { uar_id: { type: 'string', format: 'uuid' }, ...policy },
  required: ['uar_id', 'unanswered_decision', 'closed_at'],
});

export const uarDecisionRoutes = defineRoutes('uars', {
  'GET /v1/uar/{uar_id}/items': {
    role: 'admin-read',
    items: { uar_id: null },
    summary: 'List a review\'s items with their decisions',
    description: 'The snapshot\'s rows in order, each with its decision (null: not answered), and the review\'s policy for unanswered rows.',
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
  'POST /v1/uar/{uar_id}/decisions': {
    role: 'admin',
    items: { uar_id: null },
    summary: 'Decide items of a review',
    description:
      'KEEP, REVOKE or LATER for each listed item, all or nothing. REVOKE ends the user\'s direct grant at once through the access graph ' +
      '(its `…_REMOVED` event, sessions ended); an item held only through groups cannot be revoked here (409 naming `decisions.N.decision`). ' +
      'A decision may be changed until the deadline; a REVOKE is not undone by a later KEEP. Recorded as UAR_REVIEWS_DECIDED. 409 once the review has closed.',
    extension: true,
    body: DecideBody,
    errors: ['conflict'],
    responses: { 200: { type: 'object', properties: { results: { type: 'array', items: UARItem } }, required: ['results'] } },
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
