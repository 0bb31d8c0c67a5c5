// The thin layer between Polka and the modules: a handler gets an ApiRequest and returns a Reply;
// this file reads input, writes JSON, and records the route template for the logs.
import type { ServerResponse } from 'node:http';
import type { Polka } from 'polka';
import type * as v from 'valibot';
import type { AppContext } from '../context.ts';
import { readJsonBody } from './body.ts';
import { AppError, invalidField } from './errors.ts';
import { isUuid } from '../lib/ids.ts';
import { parse } from './parse.ts';
import { authorize, routeKey } from './policy.ts';
import type { Caller, GatehouseRequest } from './types.ts';
import { JsonText } from './json-text.ts';

export interface Reply {
  status: number;
  body?: unknown;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const created = (body: unknown): Reply => ({ status: 201, body });
/** The reference's body-less successes (deletes, detaches) answer 200 with an empty JSON object. */
export const done = (): Reply => ({ status: 200, body: {} });

export interface ApiRequest {
  readonly caller: Caller;
  readonly requestId: string;
  /** The path parameter `name`, checked to be a UUID (400 naming it otherwise). */
  uuidParam(name: string): string;
  /** The raw path parameter `name`. */
  param(name: string): string;
  /** The query string, validated by `schema`. */
  query<S extends v.GenericSchema>(schema: S): v.InferOutput<S>;
  /** The JSON body, validated by `schema`. */
  body<S extends v.GenericSchema>(schema: S): Promise<v.InferOutput<S>>;
}

export type Handler = (req: ApiRequest) => Reply | Promise<Reply>;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : body instanceof JsonText ? body.text : JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

function apiRequest(req: GatehouseRequest, maxBodyBytes: number): ApiRequest {
  return {
    get caller() {
      if (!req.caller) throw new AppError('unauthenticated', 'a bearer token is required');
      return req.caller;
    },
    requestId: req.requestId,
    param: (name) => req.params[name] ?? '',
    uuidParam: (name) => {
      const raw = req.params[name];
      if (raw === undefined || !isUuid(raw)) throw invalidField(name, 'must be a UUID');
      return raw.toLowerCase();
    },
    query: (schema) => parse(schema, req.query, 'query'),
    body: async (schema) => {
      const raw = await readJsonBody(req, maxBodyBytes);
      // Generated clients send the JSON `null` when the caller gives no body: it means "no body".
      return parse(schema, raw === null ? undefined : raw, 'body');
    },
  };
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * The routes registered through ApiRouter, with their templates: Polka keeps only compiled
 * patterns, and the logs and the 405 answer need to know what a path would have matched.
 */
export class RouteTable {
  readonly #routes: { method: string; template: string; pattern: RegExp }[] = [];

  add(method: string, template: string, pattern: RegExp): void {
    this.#routes.push({ method, template, pattern });
  }

  /** The template of the route `method path` reaches, e.g. /v1/users/:user_id. */
  templateFor(method: string, path: string): string | undefined {
    // The router answers HEAD with the GET handler, so HEAD is checked as that GET.
    const wanted = method === 'HEAD' ? 'GET' : method;
    return this.#routes.find((r) => r.method === wanted && r.pattern.test(path))?.template;
  }

  /** Every route, in registration order, as `GET /v1/users/:user_id` (the API document test compares them). */
  list(): string[] {
    return this.#routes.map((r) => `${r.method} ${r.template}`);
  }

  /** Every method registered for `path`, to tell 405 from 404. */
  methodsFor(path: string): string[] {
    return [...new Set(this.#routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
  }
}

/** The pattern Polka compiled for the route it registered last. */
function lastPattern(app: Polka<GatehouseRequest>): RegExp {
  return (app as unknown as { routes: { pattern: RegExp }[] }).routes.at(-1)!.pattern;
}

/**
 * Registers a GET outside /v1 whose handler writes its own response (the health check, the API
 * document, the /docs page), keeping its template in the table like every other route.
 */
export function addPlainRoute(
  app: Polka<GatehouseRequest>,
  table: RouteTable,
  template: string,
  handler: (req: GatehouseRequest, res: ServerResponse) => void,
): void {
  app.get(template, (req, res) => {
    req.routeTemplate = template;
    handler(req, res);
  });
  table.add('GET', template, lastPattern(app));
}

/** Registers handlers under a base path (/v1) on the one Polka instance. */
export class ApiRouter {
  constructor(
    private readonly app: Polka<GatehouseRequest>,
    private readonly ctx: AppContext,
    private readonly table: RouteTable,
    private readonly base = '/v1',
  ) {}

  get(path: string, handler: Handler): this {
    return this.add('get', path, handler);
  }
  post(path: string, handler: Handler): this {
    return this.add('post', path, handler);
  }
  put(path: string, handler: Handler): this {
    return this.add('put', path, handler);
  }
  patch(path: string, handler: Handler): this {
    return this.add('patch', path, handler);
  }
  delete(path: string, handler: Handler): this {
    return this.add('delete', path, handler);
  }

  private add(method: Method, path: string, handler: Handler): this {
    const template = this.base + path;
    const maxBodyBytes = this.ctx.config.maxBodyBytes;
    const key = routeKey(method.toUpperCase(), template);
    this.app[method](template, async (req, res) => {
      req.routeTemplate = template;
      // enforcePolicy has decided by the route it looked up; this is the route that runs. Belt and braces.
      if (req.caller) authorize(req.caller, req.method, key);
      const reply = await handler(apiRequest(req, maxBodyBytes));
      sendJson(res, reply.status, reply.body);
    });
    // Polka compiled the template into the route it just appended; keep the pair.
    const compiled = (this.app as unknown as { routes: { pattern: RegExp }[] }).routes.at(-1)!;
    this.table.add(method.toUpperCase(), template, compiled.pattern);
    return this;
  }
}
