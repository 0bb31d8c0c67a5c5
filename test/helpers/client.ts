// A small HTTP client for tests: JSON in and out, and every response checked against Gatehouse's API document.
import { assertMatchesDocument } from './api-document.ts';

export type Query = Record<string, string | number | boolean | (string | number)[] | undefined>;

export interface ApiResponse {
  status: number;
  // Tests read bodies loosely; the API document check has already vouched for their shape.
  body: any;
  headers: Headers;
}

export interface RequestOptions {
  query?: Query;
  /** Sent as given instead of JSON-encoding `body`. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /** A 5xx fails the test unless the test is about one. */
  expectServerError?: boolean;
}

export class ApiClient {
  constructor(
    /** Base URL ending in /v1. */
    readonly baseUrl: string,
    readonly token: string | undefined,
  ) {}

  /** The same client with another token (or none). */
  as(token: string | undefined): ApiClient {
    return new ApiClient(this.baseUrl, token);
  }

  get(path: string, query?: Query): Promise<ApiResponse> {
    return this.request('GET', path, undefined, { query });
  }
  post(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse> {
    return this.request('POST', path, body, options);
  }
  put(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse> {
    return this.request('PUT', path, body, options);
  }
  patch(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse> {
    return this.request('PATCH', path, body, options);
  }
  delete(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse> {
    return this.request('DELETE', path, body, options);
  }

  async request(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<ApiResponse> {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
    }
    const headers: Record<string, string> = { ...options.headers };
    if (this.token !== undefined) headers.authorization ??= `Bearer ${this.token}`;
    let payload: string | Buffer | undefined = options.rawBody;
    if (payload === undefined && body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = undefined;
    if (text.length > 0) {
      if (!(res.headers.get('content-type') ?? '').startsWith('application/json')) {
        throw new Error(`${method} ${path} → ${res.status} answered ${res.headers.get('content-type')}, not JSON: ${text.slice(0, 200)}`);
      }
      parsed = JSON.parse(text);
    }
    if (res.status >= 500 && !options.expectServerError) {
      throw new Error(`${method} ${path} → ${res.status}: the server failed (see its log): ${text.slice(0, 300)}`);
    }
    assertMatchesDocument(method, url.pathname, res.status, parsed);
    return { status: res.status, body: parsed, headers: res.headers };
  }
}
