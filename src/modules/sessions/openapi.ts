// The sessions module's operations in Gatehouse's API document (format: src/openapi/operations.ts).
import { defineOperations } from '../../openapi/operations.ts';
import { EmptyObject } from '../../openapi/schema.ts';
import { Session, SessionsList } from '../../openapi/components/people.ts';
import { ListSessionsQuery, OpenSessionBody } from './schemas.ts';

export const sessionOperations = defineOperations('sessions', {
  'GET /v1/sessions': {
    summary: 'List a resource\'s open sessions',
    description: 'Sessions that have not ended or expired, optionally of one user.',
    query: ListSessionsQuery,
    errors: ['not_found'],
    responses: { 200: SessionsList },
  },
  'POST /v1/sessions': {
    summary: 'Open a session',
    description: 'For the caller or `user_id`, who must hold unexpired access to the resource at that level.',
    extension: true,
    body: OpenSessionBody,
    responses: { 200: Session },
  },
  'DELETE /v1/sessions/{connection_id}': {
    summary: 'End a session',
    extension: true,
    responses: { 200: EmptyObject },
  },
});
