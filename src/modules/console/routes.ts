// The console's routes, of the console protocol (protocol.ts): its pages, files and sign-in (format: src/http/route.ts).
import * as v from 'valibot';
import { described } from '../../openapi/responses.ts';
import { defineRoutes, type RouteDeclaration } from '../../http/route.ts';
import { CONSOLE } from './protocol.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { ConsoleSession, SignInEmailAnswer } from './responses.ts';
import { SIGN_IN_EMAIL_WINDOW_MS, SIGN_IN_EMAILS_PER_ADDRESS, SIGN_IN_EMAILS_PER_CLIENT } from '../web-sessions/emailed-links.ts';
import { SignInEmailBody } from '../web-sessions/schemas.ts';

/** The console's page addresses (notifications link to them); each serves the same shell, whose script draws the page. */
export const CONSOLE_PAGES = [
  '/console',
  '/console/requests/new',
  '/console/requests/{id}',
  '/console/access',
  '/console/resources/{id}',
  '/console/groups/{id}',
  '/console/users/{id}',
  '/console/events',
  '/console/reviews',
  '/console/reviews/{id}',
  '/console/account',
  '/console/people',
  '/console/teams',
  '/console/teams/{id}',
  '/console/tokens',
  '/console/settings',
  '/console/event-streams',
  '/console/access-rules',
  '/console/apps',
  '/console/apps/{id}',
  '/console/resources/{id}/settings',
  '/console/groups/{id}/settings',
  '/console/request-templates',
  '/console/break-glass/{id}',
] as const;

const html = described(v.string(), 'An HTML page.');


/** One declaration per page address, keyed as the handlers bind them. */
const pages = Object.fromEntries(
  CONSOLE_PAGES.map((path): [string, RouteDeclaration] => [`GET ${path}`, {
    summary: `Console page ${path}`,
    description: 'The console\'s HTML shell; its script draws this page from /v1 with the sign-in session (docs/console.md).',
    extension: true,
    public: true,
    ...(path.includes('{') && { pathParams: Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, { description: 'The id of what the page shows.', schema: v.string() }])) }),
    responseMediaType: 'text/html',
    responses: { 200: html },
  }]),
) as Record<`GET ${(typeof CONSOLE_PAGES)[number]}`, RouteDeclaration>;

export const consoleRoutes = defineRoutes('console', {
  ...pages,
  'GET /console/assets/console.js': {
    summary: 'The console\'s script',
    extension: true,
    public: true,
    responseMediaType: 'text/javascript',
    responses: { 200: described(v.string(), 'The console, bundled.') },
  },
  'GET /console/assets/console.css': {
    summary: 'The console\'s style sheet',
    extension: true,
    public: true,
    responseMediaType: 'text/css',
    responses: { 200: described(v.string(), 'CSS.') },
  },
  'GET /console/session': {
    summary: 'Who the console is signed in as',
    description: 'Read with the sign-in session cookie; 401 when there is none or it has ended.',
    extension: true,
    public: true,
    responses: { 200: ConsoleSession },
  },
  'POST /console/sign-in/email': {
    summary: 'Email me a sign-in link',
    description: 'The signed-out page\'s *Email me a sign-in link*: a JSON body `{email}`, or the same field as a form (then the answer is a page). ' +
      'An active person with that email is mailed a one-time link (as `gatehouse login-link` makes, GATEHOUSE_LOGIN_LINK_MINUTES); ' +
      'the answer is the same words and status whether or not anyone has the address, and nobody is mailed for an unknown or offboarded one. ' +
      `At most ${SIGN_IN_EMAILS_PER_CLIENT} asks per client address and ${SIGN_IN_EMAILS_PER_ADDRESS} per email address every ${SIGN_IN_EMAIL_WINDOW_MS / 60_000} minutes (429 with Retry-After). ` +
      '503 when email is not set up (GATEHOUSE_SMTP_URL): sign-in is then through single sign-on or a link from an admin. The link is always made from GATEHOUSE_PUBLIC_URL (or the address `serve` listens at), never from the request\'s Host.',
    extension: true,
    public: true,
    body: SignInEmailBody,
    errors: ['too_many_requests', 'unavailable'],
    responses: { 200: SignInEmailAnswer },
  },
  'GET /console/sign-in/{secret}': {
    summary: 'Open a one-time sign-in link',
    description: 'The link `gatehouse login-link` prints. Shows "Sign in as <name>" with a button that posts the form below, and sets a cookie (`gatehouse_sign_in`, SameSite=Strict) binding that form to this browser. Opening the link (GET or HEAD, as mail scanners do) never uses it. A used, expired or unknown link answers a page saying so.',
    extension: true,
    public: true,
    pathParams: { secret: { description: 'The link\'s secret.', schema: v.string() } },
    responseMediaType: 'text/html',
    responses: { 200: html },
  },
  'POST /console/sign-in/{secret}': {
    summary: 'Sign in with a one-time link',
    description: 'The button of the link\'s page: a form (`token`, as set in the `gatehouse_sign_in` cookie) posted from a page of this service (Origin or Referer). Works once, within GATEHOUSE_LOGIN_LINK_MINUTES: sets the session cookie and redirects (303) to /console. A used, expired or unknown link, or a form not sent from the link\'s page in this browser, answers a page saying so.',
    extension: true,
    public: true,
    pathParams: { secret: { description: 'The link\'s secret.', schema: v.string() } },
    responseMediaType: 'text/html',
    responses: { 200: html },
  },
  'GET /console/oidc/start': {
    summary: 'Start single sign-on',
    description: 'Redirects (303) to the identity provider (authorization code with PKCE).',
    extension: true,
    public: true,
    responseMediaType: 'text/html',
    responses: { 200: html },
  },
  'GET /console/oidc/callback': {
    summary: 'Finish single sign-on',
    description: 'Where the identity provider sends the browser back: sets the session cookie and redirects (303) into the console.',
    extension: true,
    public: true,
    responseMediaType: 'text/html',
    responses: { 200: html },
  },
  'POST /console/sign-out': {
    summary: 'Sign out of the console',
    description: 'Ends the sign-in session and clears its cookie. Needs the session cookie, an Origin of this service and `X-CSRF-Token`.',
    extension: true,
    public: true,
    responses: { 200: EmptyObject },
  },
}, CONSOLE);
