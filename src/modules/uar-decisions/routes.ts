// The uar-decisions area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { AssignBody, DecideBody, ListAssignmentsQuery, ListReviewItemsQuery, PolicyBody } from './schemas.ts';
import { AssignmentsPage, ReviewItemsAnswer, ReviewItemsPage, UARPolicy } from './responses.ts';

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
    responses: { 200: ReviewItemsPage },
  },
  'GET /v1/uar-assignments': {
    role: 'read',
    summary: 'List the reviews with items assigned to me',
    description: 'The caller\'s own assignments, oldest review first, with how many of their items still wait for an answer. `open_only=true` leaves out closed reviews.',
    extension: true,
    query: ListAssignmentsQuery,
    responses: { 200: AssignmentsPage },
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
    responses: { 200: ReviewItemsAnswer },
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
    responses: { 200: ReviewItemsAnswer },
  },
  'POST /v1/uar/{uar_id}/close': {
    role: 'member',
    items: { uar_id: null },
    summary: 'Close a review before its deadline',
    description:
      'Does now what the deadline would: the revokes reviewers decided are carried out (unless the review acted at once), the ' +
      'review\'s policy is applied to the items nobody answered (or left at LATER), and decisions are refused from then on. ' +
      'For the review\'s owner (who started it) and organization admins; a reviewer who is neither gets 403 naming `uar_id`, ' +
      'a member with no item in the review 404. Recorded as UARS_CLOSED by the caller, with `closed_early` and the deadline it ' +
      'came before. 409 once closed.',
    extension: true,
    errors: ['conflict'],
    responses: { 200: UARPolicy },
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
