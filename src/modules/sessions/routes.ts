// The sessions area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { Session, SessionsList } from './responses.ts';
import { ListSessionsQuery, OpenSessionBody } from './schemas.ts';

export const sessionRoutes = defineRoutes('sessions', {
  'GET /v1/sessions': {
    role: 'read',
    summary: 'List a resource\'s open sessions',
    description: 'Sessions that have not ended or expired, optionally of one user.',
    query: ListSessionsQuery,
    errors: ['not_found'],
    responses: { 200: SessionsList },
  },
  'POST /v1/sessions': {
    role: 'member',
    summary: 'Open a session',
    description: 'For the caller or `user_id`, who must hold unexpired access to the resource at that level.',
    extension: true,
    body: OpenSessionBody,
    responses: { 200: Session },
  },
  'DELETE /v1/sessions/{connection_id}': {
    role: 'member', items: { connection_id: null },
    summary: 'End a session',
    extension: true,
    responses: { 200: EmptyObject },
  },
});
