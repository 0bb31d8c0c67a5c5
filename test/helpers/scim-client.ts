// A SCIM 2.0 client for tests: sends what identity providers send (application/scim+json, a bearer
// SCIM token) and checks every answer against Gatehouse's API document, as the /v1 client does.
import assert from 'node:assert/strict';
import { assertMatchesDocument } from './api-document.ts';
import type { TestApp } from './app.ts';
import { cli } from './cli.ts';

export interface ScimResponse {
  status: number;
  // Bodies are read loosely: the document check has vouched for their shape.
  body: any;
  headers: Headers;
}

export class ScimClient {
  /** `root` is the service's origin (no /v1); `token` the SCIM token, or undefined for none. */
  constructor(readonly root: string, readonly token: string | undefined) {}

  as(token: string | undefined): ScimClient {
    return new ScimClient(this.root, token);
  }

  get(path: string, query: Record<string, string | number> = {}): Promise<ScimResponse> {
    return this.request('GET', path, undefined, query);
  }
  post(path: string, body: unknown): Promise<ScimResponse> {
    return this.request('POST', path, body);
  }
  put(path: string, body: unknown): Promise<ScimResponse> {
    return this.request('PUT', path, body);
  }
  patch(path: string, body: unknown): Promise<ScimResponse> {
    return this.request('PATCH', path, body);
  }
  delete(path: string): Promise<ScimResponse> {
    return this.request('DELETE', path);
  }

  /** `body` is JSON-encoded unless it is a string (sent as is, for malformed input). */
  async request(method: string, path: string, body?: unknown, query: Record<string, string | number> = {}): Promise<ScimResponse> {
    const url = new URL(`${this.root}/scim/v2${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { accept: 'application/scim+json' };
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/scim+json; charset=utf-8';
    const res = await fetch(url, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown;
    if (text.length > 0) {
      const type = res.headers.get('content-type') ?? '';
      assert.ok(type.startsWith('application/scim+json'), `${method} ${path} → ${res.status} answered ${type}: ${text.slice(0, 200)}`);
      parsed = JSON.parse(text);
    }
    assert.ok(res.status < 500, `${method} ${path} → ${res.status}: the server failed: ${text.slice(0, 300)}`);
    assertMatchesDocument(method, url.pathname, res.status, parsed);
    return { status: res.status, body: parsed, headers: res.headers };
  }
}

/**
 * A SCIM client for `app` with a new SCIM token of the admin `email` (the first admin unless given), made
 * as an operator makes one: `gatehouse token create --scim`.
 */
export async function scimClientFor(app: TestApp, email = 'admin@gatehouse.local'): Promise<ScimClient> {
  const made = await cli(['token', 'create', '--db', app.dbFile, '--email', email, '--label', `idp-${process.pid}-${++tokens}`, '--scim']);
  assert.equal(made.code, 0, made.stderr);
  return new ScimClient(app.url.replace(/\/v1$/, ''), made.stdout.trim());
}
let tokens = 0;
