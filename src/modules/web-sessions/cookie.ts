// The console's cookie and the checks that make a write from a browser safe: the session cookie
// (HttpOnly, SameSite=Lax, Secure over TLS), the Origin/Referer check and the CSRF token header.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { AppContext } from '../../context.ts';
import { trustedProxyList } from '../../http/client-address.ts';
import { AppError } from '../../http/errors.ts';
import type { Caller, GatehouseRequest } from '../../http/types.ts';
import { callerForSession, csrfTokenMatches } from './service.ts';

export const SESSION_COOKIE = 'gatehouse_session';
export const CSRF_HEADER = 'x-csrf-token';
/** Binds a single sign-on in flight to the browser that started it (oidc.ts). */
export const OIDC_STATE_COOKIE = 'gatehouse_oidc_state';
/** Binds a sign-in link's "Sign in" button to the browser that opened the link (console/handlers.ts). */
export const SIGN_IN_COOKIE = 'gatehouse_sign_in';
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The value of cookie `name`, if the request carries it. */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Whether the browser reached us over TLS: our own socket is TLS, GATEHOUSE_PUBLIC_URL is https, or
 * a trusted proxy (GATEHOUSE_TRUSTED_PROXIES) says so in X-Forwarded-Proto. Decides the Secure flag.
 */
export function isSecureRequest(ctx: AppContext, req: IncomingMessage): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  if (ctx.config.publicUrl?.startsWith('https://')) return true;
  const peer = (req.socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.)/i, '');
  if (ctx.config.trustedProxies.length === 0 || isIP(peer) === 0) return false;
  const trusted = trustedProxyList(ctx.config.trustedProxies).check(peer, isIP(peer) === 4 ? 'ipv4' : 'ipv6');
  return trusted && String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim().toLowerCase() === 'https';
}

/** The Set-Cookie value for a new session (`secret`), or one that clears it (`undefined`). */
export function sessionCookie(ctx: AppContext, req: IncomingMessage, secret: string | undefined): string {
  const flags = `Path=/; HttpOnly; SameSite=Lax${isSecureRequest(ctx, req) ? '; Secure' : ''}`;
  return secret === undefined
    ? `${SESSION_COOKIE}=; ${flags}; Max-Age=0`
    : `${SESSION_COOKIE}=${secret}; ${flags}; Max-Age=${ctx.config.webSessionMaxMinutes * 60}`;
}

/**
 * The address the browser reached us at: GATEHOUSE_PUBLIC_URL when set, else the request's Host with
 * the scheme isSecureRequest decides. (A forged Host only breaks the sign-in: the provider accepts
 * only the redirect URI registered with it.)
 */
export function ownBase(ctx: AppContext, req: IncomingMessage): string {
  if (ctx.config.publicUrl) return ctx.config.publicUrl;
  return `${isSecureRequest(ctx, req) ? 'https' : 'http'}://${(req.headers.host ?? `${ctx.config.host}:${ctx.config.port}`).toLowerCase()}`;
}

/** The Set-Cookie value carrying a sign-in's `state`, for the callback only, as long as a sign-in may take. */
export function oidcStateCookie(ctx: AppContext, req: IncomingMessage, state: string): string {
  const secure = isSecureRequest(ctx, req) ? '; Secure' : '';
  return `${OIDC_STATE_COOKIE}=${state}; Path=/console/oidc; HttpOnly; SameSite=Lax${secure}; Max-Age=${ctx.config.loginLinkMinutes * 60}`;
}

/**
 * The Set-Cookie value carrying the token of a sign-in link's page (`undefined` clears it): SameSite=Strict,
 * so a page of another site cannot post the form with it, and only for the links' paths.
 */
export function signInCookie(ctx: AppContext, req: IncomingMessage, token: string | undefined): string {
  const flags = `Path=/console/sign-in; HttpOnly; SameSite=Strict${isSecureRequest(ctx, req) ? '; Secure' : ''}`;
  return token === undefined ? `${SIGN_IN_COOKIE}=; ${flags}; Max-Age=0` : `${SIGN_IN_COOKIE}=${token}; ${flags}; Max-Age=${ctx.config.loginLinkMinutes * 60}`;
}

/** The origins a page of ours is served from: the public URL's, and the one the request names itself. */
function ownOrigins(ctx: AppContext, req: IncomingMessage): string[] {
  const origins: string[] = [];
  if (ctx.config.publicUrl) origins.push(new URL(ctx.config.publicUrl).origin);
  const host = req.headers.host;
  if (host) origins.push(`${isSecureRequest(ctx, req) ? 'https' : 'http'}://${host.toLowerCase()}`);
  return origins;
}

/** Throws forbidden unless the request comes from one of our own pages (Origin, or Referer when a browser sends no Origin). */
export function checkOrigin(ctx: AppContext, req: IncomingMessage): void {
  const origins = ownOrigins(ctx, req);
  const origin = req.headers.origin;
  let from: string | undefined;
  if (origin !== undefined && origin !== 'null') from = origin.toLowerCase();
  else if (typeof req.headers.referer === 'string') {
    try {
      from = new URL(req.headers.referer).origin;
    } catch {
      from = undefined;
    }
  }
  if (from === undefined || !origins.includes(from)) {
    throw new AppError('forbidden', 'this write did not come from a Gatehouse console page (Origin or Referer missing or foreign); reload the console and try again');
  }
}

/**
 * Throws forbidden unless a write carries the session's CSRF token and comes from one of our own
 * pages (checkOrigin). Either alone is not enough: the token stops a forged form, the origin check a
 * token leaked into another site's page.
 */
export function checkCsrf(ctx: AppContext, req: IncomingMessage, secret: string): void {
  checkOrigin(ctx, req);
  const token = req.headers[CSRF_HEADER];
  if (typeof token !== 'string' || !csrfTokenMatches(secret, token)) {
    throw new AppError('forbidden', `this write lacks the console's CSRF token (the ${CSRF_HEADER} header); reload the console and try again`);
  }
}

/**
 * The caller a console session cookie stands for, or undefined when the request carries none.
 * Throws unauthenticated for an ended session and forbidden for a write that fails the CSRF check.
 */
export function consoleCaller(ctx: AppContext, req: GatehouseRequest): Caller | undefined {
  const secret = readCookie(req, SESSION_COOKIE);
  if (!secret) return undefined;
  const { caller } = callerForSession(ctx, secret, req.clientIp);
  if (!READ_METHODS.has(req.method)) checkCsrf(ctx, req, secret);
  return caller;
}
