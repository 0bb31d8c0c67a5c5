// The web-sessions area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { ListWebSessionsQuery, SendSignInLinkBody } from './schemas.ts';
import { PaginatedWebSessionsList, SentSignInLink } from './responses.ts';


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
