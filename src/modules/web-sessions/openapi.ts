// The web-sessions area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { component, EmptyObject } from '../../openapi/schema.ts';
import { ListWebSessionsQuery } from './schemas.ts';

export const WebSession = component('WebSession', {
  description:
    'A console sign-in session: a browser signed in as a person (a sign-in link or single sign-on). ' +
    'Not a `Session`, which is a connection to a resource. The cookie\'s secret is never shown.',
  type: 'object',
  properties: {
    web_session_id: { type: 'string', format: 'uuid' },
    user_id: { type: 'string', format: 'uuid' },
    sign_in_method: { type: 'string', enum: ['LOGIN_LINK', 'OIDC'] },
    ip_address: { type: 'string' },
    user_agent: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    last_seen_at: { type: 'string', format: 'date-time', description: 'Updated at most once a minute.' },
    expires_at: { type: 'string', format: 'date-time', description: 'The absolute limit; the idle limit may end it sooner.' },
  },
  required: ['web_session_id', 'user_id', 'sign_in_method', 'created_at', 'last_seen_at', 'expires_at'],
});

export const PaginatedWebSessionsList = component('PaginatedWebSessionsList', {
  type: 'object',
  properties: {
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: WebSession },
  },
  required: ['results'],
});

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
