// The web-sessions area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { component, EmptyObject } from '../../openapi/schema.ts';
import { ListWebSessionsQuery, SendSignInLinkBody } from './schemas.ts';

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

export const SentSignInLink = component('SentSignInLink', {
  type: 'object',
  description: 'A one-time sign-in link (or invitation) an admin sent a person. The link itself is shown only when `send_email` was false.',
  properties: {
    user_id: { type: 'string', format: 'uuid' },
    email: { type: 'string', description: 'Where it was (or would be) mailed.' },
    kind: { type: 'string', enum: ['SIGN_IN', 'INVITATION'] },
    expires_at: { type: 'string', format: 'date-time', description: 'It works once, until then.' },
    url: { type: 'string', description: 'The link, shown this once, only when `send_email` was false: pass it on to the person yourself.' },
  },
  required: ['user_id', 'email', 'kind', 'expires_at'],
});

export const webSessionRoutes = defineRoutes('web-sessions', {
  'POST /v1/users/{user_id}/sign-in-link': {
    role: 'admin',
    items: { user_id: null },
    summary: 'Send a person a sign-in link or an invitation',
    description: 'Emails the person a one-time link to the console: `kind` SIGN_IN lasts GATEHOUSE_LOGIN_LINK_MINUTES, INVITATION (a welcome naming you) ' +
      'GATEHOUSE_INVITATION_HOURS. Answers once the mail server took it (503 when it refused). With `send_email` false nothing is mailed and ' +
      'the link is in the answer, shown once, for you to pass on (the way when email is not set up; 400 naming `send_email` otherwise). ' +
      'Refused (403) for an offboarded person. Recorded as LOGIN_LINKS_CREATED, acted by you, with how it was delivered.',
    extension: true,
    body: SendSignInLinkBody,
    errors: ['unavailable'],
    responses: { 200: SentSignInLink },
  },
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
