// The access-reviews area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { PaginatedUARsList, UAR, UARSnapshotPage } from './responses.ts';
import { defineRoutes } from '../../http/route.ts';
import { CreateUarBody, ListUarsQuery } from './schemas.ts';

export const accessReviewRoutes = defineRoutes('uars', {
  'POST /v1/uar': {
    role: 'admin',
    summary: 'Start a user access review',
    description:
      'Stores the review and, in the same transaction, a snapshot of the access in its scope at this instant ' +
      '(read with `GET /v1/uar/{uar_id}/snapshot`). `deadline` must be in the future; `time_zone` an IANA name. ' +
      'Every id in `uar_scope` must exist, and every tag filter match a tag (404 naming `uar_scope.<field>.N`). ' +
      'Nothing is sent to anyone: notification and reminder settings are stored only.',
    body: CreateUarBody,
    responses: { 200: UAR },
  },
  'GET /v1/uars': {
    role: 'admin-read',
    summary: 'List user access reviews',
    description: 'Oldest first.',
    query: ListUarsQuery,
    responses: { 200: PaginatedUARsList },
  },
  'GET /v1/uar/{uar_id}': {
    role: 'read', items: { uar_id: null },
    summary: 'Get a user access review',
    description: 'Organization admins read any review; a member only one with rows assigned to them to review (404 otherwise, as for an unknown id).',
    responses: { 200: UAR },
  },
  'GET /v1/uar/{uar_id}/snapshot': {
    role: 'admin-read', items: { uar_id: null },
    summary: 'Read the snapshot a review took',
    description:
      'Who held what, at which level, until when and through which groups, when the review started, as the ' +
      'access reads answered then. Later changes to access never change it. Paged by `cursor` and `page_size`.',
    extension: true,
    query: ListUarsQuery,
    responses: { 200: UARSnapshotPage },
  },
});
