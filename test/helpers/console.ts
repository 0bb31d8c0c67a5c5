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

/** What opening a sign-in link gave a browser: its page's form token and the cookie that goes with it (undefined when refused). */
export async function openLinkPage(link: string): Promise<{ res: Response; html: string; token: string | undefined; cookie: string | undefined }> {
  const res = await openLink(link);
  const html = await res.text();
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1];
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('gatehouse_sign_in='))?.split(';')[0];
  return { res, html, token, cookie };
}

/** Posts a sign-in link's form as the browser that opened it would (its cookie, our Origin); `headers` override. */
export function postLinkForm(link: string, opened: { token: string | undefined; cookie: string | undefined }, headers: Record<string, string | undefined> = {}): Promise<Response> {
  const sent = { origin: new URL(link).origin, cookie: opened.cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers };
  return fetch(link, {
    method: 'POST',
    redirect: 'manual',
    headers: Object.fromEntries(Object.entries(sent).filter(([, v]) => v !== undefined)) as Record<string, string>,
    body: new URLSearchParams({ token: opened.token ?? '' }).toString(),
  });
}

/** Signs in with a link as a browser does: opens it, then presses "Sign in as …". Returns the POST's response. */
export async function useLink(link: string): Promise<Response> {
  const opened = await openLinkPage(link);
  assert.equal(opened.res.status, 200, opened.html);
  return postLinkForm(link, opened);
}

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
  const res = await useLink(link);
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
