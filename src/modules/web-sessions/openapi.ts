// The web-sessions area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { ListWebSessionsQuery } from './schemas.ts';
import { PaginatedWebSessionsList } from './responses.ts';

export const webSessionRoutes = defineRoutes('web-sessions', {
  'GET /v1/web-sessions': {
    role: 'read',
    summary: 'List console sign-in sessions',
    description: 'Sessions that still work. A member sees only their own; an admin anyone\'s, or one user\'s with `user_id`.',
    extension: true,
    query: ListWebSessionsQuery,
    responses: { 200: PaginatedWebSessionsList },
  },
  'DELETE /v1/web-sessions/{web_session_id}': {
    role: 'member',
    items: { web_session_id: null },
    summary: 'End a console sign-in session',
    description: 'Its next request gets 401 and the console shows the sign-in page. A member may end only their own.',
    extension: true,
    responses: { 200: EmptyObject },
  },
});
