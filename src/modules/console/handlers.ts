// The console at /console: its pages (one HTML shell; the script draws the page the path names), its
// two files, and signing in and out. Everything else the console shows comes from /v1 with the
// sign-in session's cookie (docs/console.md).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { readUpTo } from '../../http/body.ts';
import { AppError, toAppError } from '../../http/errors.ts';
import { parse } from '../../http/parse.ts';
import { ok, seeOther, text, type ApiRouter, type Page } from '../../http/router.ts';
import type { GatehouseRequest } from '../../http/types.ts';
import {
  checkCsrf, checkOrigin, OIDC_STATE_COOKIE, oidcStateCookie, ownBase, readCookie, SESSION_COOKIE, sessionCookie, SIGN_IN_COOKIE, signInCookie,
} from '../web-sessions/cookie.ts';
import { createFailureThrottle } from '../../http/throttle.ts';
import { finishOidcSignIn, OIDC_STARTS_PER_MINUTE, safeReturnTo, startOidcSignIn } from '../web-sessions/oidc.ts';
import { callerForSession, csrfTokenFor, endWebSession, peekLoginLink, redeemLoginLink, type ClientFacts } from '../web-sessions/service.ts';
import {
  emailConfigured, emailLinkOnRequest, SIGN_IN_EMAIL_ANSWER, SIGN_IN_EMAIL_WINDOW_MS, SIGN_IN_EMAILS_PER_ADDRESS, SIGN_IN_EMAILS_PER_CLIENT,
} from '../web-sessions/emailed-links.ts';
import { SignInEmailBody } from '../web-sessions/schemas.ts';
import { CONSOLE_CSS, consoleScript } from './assets.ts';
import { messagePage, PAGE_HEADERS, escapeHtml, shell } from './pages.ts';
import { CONSOLE_PAGES, type consoleRoutes } from './routes.ts';

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

const clientFacts = (req: GatehouseRequest): ClientFacts => ({ ip: req.clientIp, userAgent: req.headers['user-agent'] ?? null });

/** The problem page (with the status of its error) for a failed sign-in, never a stack. */
function signInFailed(ctx: AppContext, req: GatehouseRequest, err: unknown): Page {
  const known = toAppError(err);
  if (!known) ctx.log.error('sign-in failed', { request_id: req.requestId, error: err instanceof Error ? err.message : String(err) });
  const error = known ?? new AppError('internal', `something went wrong; quote request id ${req.requestId} when reporting it`);
  return text('text/html', problemPage('Could not sign you in', error.message), { ...PAGE_HEADERS, ...error.headers }, error.status);
}

/** Binds the console's pages, files, sign-in and sign-out; its protocol (protocol.ts) answers their failures. */
export function registerConsoleRoutes(router: ApiRouter<typeof consoleRoutes>, ctx: AppContext): void {
  for (const page of CONSOLE_PAGES) router.on(`GET ${page}`, () => text('text/html', shell(ctx), PAGE_HEADERS));
  router.on('GET /console/assets/console.css', () => text('text/css', CONSOLE_CSS, { 'Cache-Control': 'no-cache' }));
  router.on('GET /console/assets/console.js', async (req) => {
    try {
      return text('text/javascript', await consoleScript(), { 'Cache-Control': 'no-cache' });
    } catch (err) {
      ctx.log.error('could not bundle the console', { request_id: req.requestId, error: err instanceof Error ? err.message : String(err) });
      throw new AppError('internal', 'the console\'s script could not be built; see the log');
    }
  });

  // Who is signed in, and the CSRF token the console sends with every write. 401 when no one is.
  router.on('GET /console/session', (req) => {
    const secret = readCookie(req.http, SESSION_COOKIE);
    if (!secret) throw new AppError('unauthenticated', 'you are not signed in');
    const { session } = callerForSession(ctx, secret, req.http.clientIp);
    const user = ctx.stores.users.get(session.user_id)!;
    return ok({ user, web_session_id: session.id, expires_at: session.expires_at, csrf_token: csrfTokenFor(secret) });
  });

  // "Email me a sign-in link". Bound before the link's own routes, which would take `email` for a
  // secret. Answered the same whether or not anyone has the address; the mail goes out after the answer.
  const perClient = createFailureThrottle(SIGN_IN_EMAILS_PER_CLIENT, SIGN_IN_EMAIL_WINDOW_MS);
  const perAddress = createFailureThrottle(SIGN_IN_EMAILS_PER_ADDRESS, SIGN_IN_EMAIL_WINDOW_MS);
  router.on('POST /console/sign-in/email', async ({ http: req }) => {
    // The console's script sends JSON and reads JSON (a failure in the one error shape); a form posted
    // without JavaScript gets a page.
    const asJson = /json/i.test(req.headers['content-type'] ?? '') || /json/i.test(req.headers.accept ?? '');
    try {
      const body = await readUpTo(req, SIGN_IN_EMAIL_BYTES);
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
      // Only after the answer is sent is the address looked up (and a link written for a known one), so
      // how long the answer takes says nothing about whether anyone has it.
      setImmediate(() => {
        emailLinkOnRequest(ctx, email, safeReturnTo(returnTo)).catch((err: unknown) => {
          ctx.log.error('sign-in email failed', { request_id: req.requestId, error: err instanceof Error ? err.message : String(err) });
        });
      });
      return asJson ? ok({ message: SIGN_IN_EMAIL_ANSWER }) : text('text/html', messagePage('Check your email', SIGN_IN_EMAIL_ANSWER, 'status'), PAGE_HEADERS);
    } catch (err) {
      const known = toAppError(err);
      if (asJson || !known) throw err;
      return text('text/html', messagePage('Could not send a sign-in link', known.message, 'alert'), { ...PAGE_HEADERS, ...known.headers }, known.status);
    }
  });

  // Opening a link (GET, or HEAD as a mail scanner may) shows whom it signs in and spends nothing;
  // its button's POST, from that page in that browser, spends it and starts the session.
  router.on('GET /console/sign-in/{secret}', ({ http: req }) => {
    try {
      const user = peekLoginLink(ctx, req.params.secret ?? '');
      const token = randomBytes(32).toString('base64url');
      return text('text/html', signInPage(user.full_name, req.params.secret ?? '', token, safeReturnTo(req.query.return_to)), { ...PAGE_HEADERS, 'Set-Cookie': signInCookie(ctx, req, token) });
    } catch (err) {
      return signInFailed(ctx, req, err);
    }
  });
  router.on('POST /console/sign-in/{secret}', async ({ http: req }) => {
    try {
      const body = await readUpTo(req, SIGN_IN_FORM_BYTES);
      checkSignInForm(ctx, req, body);
      const started = redeemLoginLink(ctx, req.params.secret ?? '', clientFacts(req));
      // Back to the page the sign-in began on (a notice's link), never outside the console.
      return seeOther(safeReturnTo(req.query.return_to), { 'Set-Cookie': [sessionCookie(ctx, req, started.secret), signInCookie(ctx, req, undefined)] });
    } catch (err) {
      return signInFailed(ctx, req, err);
    }
  });

  // Each start writes a row (the sign-in in flight): a client address may start OIDC_STARTS_PER_MINUTE a
  // minute. The throttle counts starts as it counts failures elsewhere, and tracks at most MAX_TRACKED addresses.
  const oidcStarts = createFailureThrottle(OIDC_STARTS_PER_MINUTE, 60_000);
  router.on('GET /console/oidc/start', async ({ http: req }) => {
    const nowMs = ctx.clock.now().getTime();
    const wait = oidcStarts.retryAfter(req.clientIp, nowMs);
    if (wait > 0) {
      return signInFailed(ctx, req, new AppError('too_many_requests', `too many sign-ins were started from your address; try again in ${wait} s`, [], { 'Retry-After': String(wait) }));
    }
    oidcStarts.fail(req.clientIp, nowMs);
    try {
      const { location, state } = await startOidcSignIn(ctx, ownBase(ctx, req), safeReturnTo(req.query.return_to));
      // The state also goes into a cookie of this browser: a callback is only finished in the browser
      // that started it (else someone could sign a victim in as themselves by sending their callback link).
      return seeOther(location, { 'Set-Cookie': oidcStateCookie(ctx, req, state) });
    } catch (err) {
      return signInFailed(ctx, req, err);
    }
  });

  router.on('GET /console/oidc/callback', async ({ http: req }) => {
    const url = new URL(req.url ?? '/', 'http://callback.invalid');
    try {
      const started = await finishOidcSignIn(ctx, ownBase(ctx, req), url, readCookie(req, OIDC_STATE_COOKIE), clientFacts(req));
      return seeOther(started.returnTo, { 'Set-Cookie': sessionCookie(ctx, req, started.secret) });
    } catch (err) {
      return signInFailed(ctx, req, err);
    }
  });

  // Signing out is a write: the same CSRF check as every other. Ends the session and clears the cookie.
  router.on('POST /console/sign-out', ({ http: req }) => {
    const secret = readCookie(req, SESSION_COOKIE);
    if (!secret) throw new AppError('unauthenticated', 'you are not signed in');
    const { caller, session } = callerForSession(ctx, secret, req.clientIp);
    checkCsrf(ctx, req, secret);
    endWebSession(ctx, caller, session.id, 'SIGNED_OUT');
    return { status: 200, body: {}, headers: { 'Set-Cookie': sessionCookie(ctx, req, undefined) } };
  });
}
