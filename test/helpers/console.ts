// Signing in to the console in tests: a one-time link made as `gatehouse login-link` makes it, opened
// over HTTP, and a client that calls /v1 with the session cookie, an Origin and the CSRF token as the console does.
import assert from 'node:assert/strict';
import { createLoginLink } from '../../src/modules/web-sessions/service.ts';
import type { TestApp } from './app.ts';
import { ApiClient, type ApiResponse, type RequestOptions } from './client.ts';

/** Calls /v1 as a browser signed in to the console would: cookie, Origin and X-CSRF-Token on every call. */
export class SessionClient extends ApiClient {
  constructor(baseUrl: string, readonly cookie: string, readonly csrf: string, readonly origin: string) {
    super(baseUrl, undefined);
  }

  /** The same session with other default headers (`origin: undefined` sends none). */
  withHeaders(headers: Record<string, string | undefined>): ApiClient {
    const parent = this;
    return new (class extends ApiClient {
      override request(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<ApiResponse> {
        const base: Record<string, string | undefined> = { cookie: parent.cookieHeader, origin: parent.origin, 'x-csrf-token': parent.csrf, ...headers };
        const sent = Object.fromEntries(Object.entries({ ...base, ...options.headers }).filter(([, v]) => v !== undefined)) as Record<string, string>;
        return super.request(method, path, body, { ...options, headers: sent });
      }
    })(this.baseUrl, undefined);
  }

  get cookieHeader(): string {
    return `gatehouse_session=${this.cookie}`;
  }

  override request(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers = { cookie: this.cookieHeader, origin: this.origin, 'x-csrf-token': this.csrf, ...options.headers };
    return super.request(method, path, body, { ...options, headers });
  }
}

/** Opens a sign-in link with fetch (no redirect following); returns the response. */
export const openLink = (link: string, headers: Record<string, string> = {}) => fetch(link, { redirect: 'manual', headers });

/** The session cookie's value set by a response, if any. */
export function sessionCookieOf(res: Response): string | undefined {
  const header = res.headers.getSetCookie().find((c) => c.startsWith('gatehouse_session='));
  return header?.slice('gatehouse_session='.length).split(';')[0];
}

/** Signs `email` in through a fresh sign-in link and returns a client acting through that session. */
export async function signIn(app: TestApp, email: string): Promise<SessionClient> {
  const user = app.ctx.stores.users.getByEmail(email);
  assert.ok(user, `no user ${email}`);
  const link = createLoginLink(app.ctx, user).replace(/^http:\/\/[^/]+/, new URL(app.url).origin);
  const res = await openLink(link);
  assert.equal(res.status, 303, await res.text());
  const cookie = sessionCookieOf(res);
  assert.ok(cookie, 'no session cookie');
  return sessionClient(app, cookie);
}

/** A client for an existing session cookie: reads /console/session for the CSRF token. */
export async function sessionClient(app: TestApp, cookie: string): Promise<SessionClient> {
  const origin = new URL(app.url).origin;
  const who = await fetch(`${origin}/console/session`, { headers: { cookie: `gatehouse_session=${cookie}` } });
  assert.equal(who.status, 200, await who.clone().text());
  const body = (await who.json()) as { csrf_token: string };
  return new SessionClient(app.url, cookie, body.csrf_token, origin);
}
