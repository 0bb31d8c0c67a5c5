// The console at /console: its pages (one HTML shell; the script draws the page the path names), its
// two files, and signing in and out. Everything else the console shows comes from /v1 with the
// sign-in session's cookie (docs/console.md).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Polka } from 'polka';
import type { AppContext } from '../../context.ts';
import { readUpTo } from '../../http/body.ts';
import { AppError, toAppError } from '../../http/errors.ts';
import { parse } from '../../http/parse.ts';
import { addPlainRoute, sendJson, type RouteTable } from '../../http/router.ts';
import type { GatehouseRequest } from '../../http/types.ts';
import {
  checkCsrf, checkOrigin, OIDC_STATE_COOKIE, oidcStateCookie, ownBase, readCookie, SESSION_COOKIE, sessionCookie, SIGN_IN_COOKIE, signInCookie,
} from '../web-sessions/cookie.ts';
import { createFailureThrottle } from '../../http/throttle.ts';
import { finishOidcSignIn, OIDC_STARTS_PER_MINUTE, oidcEnabled, safeReturnTo, startOidcSignIn } from '../web-sessions/oidc.ts';
import { callerForSession, csrfTokenFor, endWebSession, peekLoginLink, redeemLoginLink, type ClientFacts } from '../web-sessions/service.ts';
import {
  emailConfigured, emailLinkOnRequest, SIGN_IN_EMAIL_ANSWER, SIGN_IN_EMAIL_WINDOW_MS, SIGN_IN_EMAILS_PER_ADDRESS, SIGN_IN_EMAILS_PER_CLIENT,
} from '../web-sessions/emailed-links.ts';
import { SignInEmailBody } from '../web-sessions/schemas.ts';
import { CONSOLE_CSS, consoleScript } from './assets.ts';
import { CONSOLE_PAGES } from './routes.ts';

const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
const PAGE_HEADERS = {
  'Content-Security-Policy': CSP,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  // Same-origin: our own writes keep a Referer for the CSRF check; other sites learn nothing.
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function shell(ctx: AppContext): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gatehouse</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body data-sso="${oidcEnabled(ctx) ? 'on' : 'off'}" data-email="${emailConfigured(ctx) ? 'on' : 'off'}">
<div id="app"><main class="page"><p>Loading Gatehouse…</p></main></div>
<noscript><p class="page">The Gatehouse console needs JavaScript.</p></noscript>
</body>
</html>`;
}

/**
 * A page of its own for what a sign-in step came to, in words, and a way back: a failure (`alert`),
 * or what a form posted without JavaScript did (`status`).
 */
function messagePage(title: string, message: string, role: 'status' | 'alert'): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Gatehouse</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/console/assets/console.css"></head>
<body><main class="page narrow"><h1>${escapeHtml(title)}</h1><p class="${role === 'alert' ? 'error' : 'notice'}" role="${role}">${escapeHtml(message)}</p>
<p><a href="/console">Go to the sign-in page</a></p></main></body>
</html>`;
}

/** A page of its own for a sign-in that failed. */
const problemPage = (title: string, message: string): string => messagePage(title, message, 'alert');

/** The largest sign-in email form or JSON body read (one address). */
const SIGN_IN_EMAIL_BYTES = 2048;

/** The address asked for (and the page to return to), from a JSON body or a form; throws as the API does for a bad field. */
function askedEmail(req: GatehouseRequest, body: Buffer | null): { email: string; return_to?: string | undefined } {
  if (body === null) throw new AppError('payload_too_large', `the request body is larger than the ${SIGN_IN_EMAIL_BYTES}-byte limit`, [], { Connection: 'close' });
  const text = body.toString('utf8');
  let input: unknown;
  if (/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    try {
      input = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new AppError('invalid_json', 'the request body is not valid JSON');
    }
  } else {
    input = Object.fromEntries(new URLSearchParams(text));
  }
  return parse(SignInEmailBody, input);
}

/**
 * What opening a sign-in link shows: whom it signs in, and a button that does (a POST of the form,
 * carrying the token also set in this browser's cookie). Opening it spends nothing.
 */
function signInPage(name: string, secret: string, token: string, returnTo: string): string {
  const after = returnTo === '/console' ? '' : `?return_to=${encodeURIComponent(returnTo)}`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Gatehouse</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/console/assets/console.css"></head>
<body><main class="page narrow"><h1>Sign in to Gatehouse</h1>
<form method="post" action="/console/sign-in/${encodeURIComponent(secret)}${escapeHtml(after)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<p><button type="submit" class="primary">Sign in as ${escapeHtml(name)}</button></p>
</form>
<p>Not you? Close this page: the link stays unused.</p></main></body>
</html>`;
}

/** Throws forbidden unless a sign-in form was posted from our page, opened in this browser (its token matches the cookie). */
function checkSignInForm(ctx: AppContext, req: GatehouseRequest, body: Buffer | null): void {
  checkOrigin(ctx, req);
  const given = Buffer.from(new URLSearchParams(body?.toString('utf8') ?? '').get('token') ?? '');
  const expected = Buffer.from(readCookie(req, SIGN_IN_COOKIE) ?? '');
  if (expected.length === 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError('forbidden', 'this sign-in was not sent from the page the link opened in this browser; open the link again');
  }
}

/** The largest sign-in form read (it holds one token). */
const SIGN_IN_FORM_BYTES = 1024;

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(status, { ...headers, 'Content-Type': `${type}; charset=utf-8`, 'Content-Length': Buffer.byteLength(body), 'X-Content-Type-Options': 'nosniff' });
  res.end(body);
}

function redirect(res: ServerResponse, location: string, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(303, { ...headers, Location: location, 'Cache-Control': 'no-store', 'Content-Length': 0 });
  res.end();
}

const clientFacts = (req: GatehouseRequest): ClientFacts => ({ ip: req.clientIp, userAgent: req.headers['user-agent'] ?? null });

/** Answers a failed sign-in with the problem page (the status of its error), never a stack. */
function signInFailed(ctx: AppContext, req: GatehouseRequest, res: ServerResponse, err: unknown): void {
  const known = toAppError(err);
  if (!known) ctx.log.error('sign-in failed', { request_id: req.requestId, error: err instanceof Error ? err.message : String(err) });
  const error = known ?? new AppError('internal', `something went wrong; quote request id ${req.requestId} when reporting it`);
  send(res, error.status, 'text/html', problemPage('Could not sign you in', error.message), { ...PAGE_HEADERS, ...error.headers });
}

/**
 * For a GET of a console address no page has (`/console/nope`): answers 404 with the console's shell,
 * whose script shows its own "no such page" with the navigation, and says true; anything else (other
 * methods, the files under /console/assets/, addresses outside /console) is left to the JSON 404.
 */
export function answerUnknownConsolePage(ctx: AppContext, req: GatehouseRequest, res: ServerResponse): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (!req.path.startsWith('/console/') || req.path.startsWith('/console/assets/')) return false;
  send(res, 404, 'text/html', shell(ctx), PAGE_HEADERS);
  return true;
}

/** Registers the console's routes on the app, before the /v1 authentication (these do their own). */
export function registerConsoleRoutes(app: Polka<GatehouseRequest>, table: RouteTable, ctx: AppContext): void {
  /** The pattern Polka compiled for the route registered last (a POST, which addPlainRoute does not cover). */
  const lastPattern = () => (app as unknown as { routes: { pattern: RegExp }[] }).routes.at(-1)!.pattern;
  for (const page of CONSOLE_PAGES) {
    addPlainRoute(app, table, page.replace(/\{(\w+)\}/g, ':$1'), (_req, res) => send(res, 200, 'text/html', shell(ctx), PAGE_HEADERS));
  }
  addPlainRoute(app, table, '/console/assets/console.css', (_req, res) => send(res, 200, 'text/css', CONSOLE_CSS, { 'Cache-Control': 'no-cache' }));
  addPlainRoute(app, table, '/console/assets/console.js', (req, res) => {
    consoleScript().then(
      (js) => send(res, 200, 'text/javascript', js, { 'Cache-Control': 'no-cache' }),
      (err: unknown) => {
        ctx.log.error('could not bundle the console', { request_id: req.requestId, error: err instanceof Error ? err.message : String(err) });
        sendJson(res, 500, { code: 'internal', message: 'the console\'s script could not be built; see the log', request_id: req.requestId });
      },
    );
  });

  // Who is signed in, and the CSRF token the console sends with every write. 401 when no one is.
  addPlainRoute(app, table, '/console/session', (req, res) => {
    const secret = readCookie(req, SESSION_COOKIE);
    if (!secret) throw new AppError('unauthenticated', 'you are not signed in');
    const { session } = callerForSession(ctx, secret, req.clientIp);
    const user = ctx.stores.users.get(session.user_id)!;
    sendJson(res, 200, { user, web_session_id: session.id, expires_at: session.expires_at, csrf_token: csrfTokenFor(secret) });
  });

  // "Email me a sign-in link". Registered before the link's own routes, which would take `email` for a
  // secret. Answered the same whether or not anyone has the address; the mail goes out after the answer.
  const perClient = createFailureThrottle(SIGN_IN_EMAILS_PER_CLIENT, SIGN_IN_EMAIL_WINDOW_MS);
  const perAddress = createFailureThrottle(SIGN_IN_EMAILS_PER_ADDRESS, SIGN_IN_EMAIL_WINDOW_MS);
  app.post('/console/sign-in/email', (req, res) => {
    req.routeTemplate = '/console/sign-in/email';
    // The console's script sends JSON and reads JSON (a failure in the one error shape, from onError);
    // a form posted without JavaScript gets a page.
    const asJson = /json/i.test(req.headers['content-type'] ?? '') || /json/i.test(req.headers.accept ?? '');
    return readUpTo(req, SIGN_IN_EMAIL_BYTES).then((body) => {
      if (!emailConfigured(ctx)) throw new AppError('unavailable', 'Gatehouse cannot send email here: sign in with single sign-on, or ask an administrator for a sign-in link.');
      const { email, return_to: returnTo } = askedEmail(req, body);
      const nowMs = ctx.clock.now().getTime();
      const address = email.toLowerCase();
      const wait = Math.max(perClient.retryAfter(req.clientIp, nowMs), perAddress.retryAfter(address, nowMs));
      if (wait > 0) {
        throw new AppError('too_many_requests', `Too many sign-in links were asked for; try again in ${Math.ceil(wait / 60)} minute${wait > 60 ? 's' : ''}.`, [], { 'Retry-After': String(wait) });
      }
      perClient.fail(req.clientIp, nowMs);
      perAddress.fail(address, nowMs);
      if (asJson) sendJson(res, 200, { message: SIGN_IN_EMAIL_ANSWER });
      else send(res, 200, 'text/html', messagePage('Check your email', SIGN_IN_EMAIL_ANSWER, 'status'), PAGE_HEADERS);
      // Only after the answer is sent is the address looked up (and a link written for a known one), so
      // how long the answer takes says nothing about whether anyone has it.
      setImmediate(() => {
        emailLinkOnRequest(ctx, email, safeReturnTo(returnTo)).catch((err: unknown) => {
          ctx.log.error('sign-in email failed', { request_id: req.requestId, error: err instanceof Error ? err.message : String(err) });
        });
      });
    }).catch((err: unknown) => {
      const known = toAppError(err);
      if (asJson || !known) throw err;
      send(res, known.status, 'text/html', messagePage('Could not send a sign-in link', known.message, 'alert'), { ...PAGE_HEADERS, ...known.headers });
    });
  });
  table.add({ method: 'POST', template: '/console/sign-in/email', key: 'POST /console/sign-in/email', pattern: lastPattern() });

  // Opening a link (GET, or HEAD as a mail scanner may) shows whom it signs in and spends nothing;
  // its button's POST, from that page in that browser, spends it and starts the session.
  addPlainRoute(app, table, '/console/sign-in/:secret', (req, res) => {
    try {
      const user = peekLoginLink(ctx, req.params.secret ?? '');
      const token = randomBytes(32).toString('base64url');
      send(res, 200, 'text/html', signInPage(user.full_name, req.params.secret ?? '', token, safeReturnTo(req.query.return_to)), { ...PAGE_HEADERS, 'Set-Cookie': signInCookie(ctx, req, token) });
    } catch (err) {
      signInFailed(ctx, req, res, err);
    }
  });
  app.post('/console/sign-in/:secret', (req, res) => {
    req.routeTemplate = '/console/sign-in/:secret';
    readUpTo(req, SIGN_IN_FORM_BYTES).then((body) => {
      checkSignInForm(ctx, req, body);
      const started = redeemLoginLink(ctx, req.params.secret ?? '', clientFacts(req));
      // Back to the page the sign-in began on (a notice's link), never outside the console.
      redirect(res, safeReturnTo(req.query.return_to), { 'Set-Cookie': [sessionCookie(ctx, req, started.secret), signInCookie(ctx, req, undefined)] });
    }).catch((err: unknown) => signInFailed(ctx, req, res, err));
  });
  table.add({ method: 'POST', template: '/console/sign-in/:secret', key: 'POST /console/sign-in/:secret', pattern: lastPattern() });

  // Each start writes a row (the sign-in in flight): a client address may start OIDC_STARTS_PER_MINUTE a
  // minute. The throttle counts starts as it counts failures elsewhere, and tracks at most MAX_TRACKED addresses.
  const oidcStarts = createFailureThrottle(OIDC_STARTS_PER_MINUTE, 60_000);
  addPlainRoute(app, table, '/console/oidc/start', (req, res) => {
    const nowMs = ctx.clock.now().getTime();
    const wait = oidcStarts.retryAfter(req.clientIp, nowMs);
    if (wait > 0) {
      signInFailed(ctx, req, res, new AppError('too_many_requests', `too many sign-ins were started from your address; try again in ${wait} s`, [], { 'Retry-After': String(wait) }));
      return;
    }
    oidcStarts.fail(req.clientIp, nowMs);
    startOidcSignIn(ctx, ownBase(ctx, req), safeReturnTo(req.query.return_to)).then(
      // The state also goes into a cookie of this browser: a callback is only finished in the browser
      // that started it (else someone could sign a victim in as themselves by sending their callback link).
      ({ location, state }) => redirect(res, location, { 'Set-Cookie': oidcStateCookie(ctx, req, state) }),
      (err: unknown) => signInFailed(ctx, req, res, err),
    );
  });

  addPlainRoute(app, table, '/console/oidc/callback', (req, res) => {
    const url = new URL(req.url ?? '/', 'http://callback.invalid');
    finishOidcSignIn(ctx, ownBase(ctx, req), url, readCookie(req, OIDC_STATE_COOKIE), clientFacts(req)).then(
      (started) => redirect(res, started.returnTo, { 'Set-Cookie': sessionCookie(ctx, req, started.secret) }),
      (err: unknown) => signInFailed(ctx, req, res, err),
    );
  });

  // Signing out is a write: the same CSRF check as every other. Ends the session and clears the cookie.
  app.post('/console/sign-out', (req, res) => {
    req.routeTemplate = '/console/sign-out';
    const secret = readCookie(req, SESSION_COOKIE);
    if (!secret) throw new AppError('unauthenticated', 'you are not signed in');
    const { caller, session } = callerForSession(ctx, secret, req.clientIp);
    checkCsrf(ctx, req, secret);
    endWebSession(ctx, caller, session.id, 'SIGNED_OUT');
    sendJson(res, 200, {}, { 'Set-Cookie': sessionCookie(ctx, req, undefined) });
  });
  table.add({ method: 'POST', template: '/console/sign-out', key: 'POST /console/sign-out', pattern: lastPattern() });
}
