// The thin layer between Polka and the modules: a handler gets an ApiRequest and returns a Reply;
// this file reads input, writes JSON, and records the route template for the logs.
import type { ServerResponse } from 'node:http';
import type { Middleware, Polka } from 'polka';
import type * as v from 'valibot';
import type { AppContext } from '../context.ts';
import { readJsonBody } from './body.ts';
import { AppError, invalidField } from './errors.ts';
import { isUuid } from '../lib/ids.ts';
import { parse } from './parse.ts';
import type { Protocol, ProtocolServer } from './protocol.ts';
import type { RouteDeclaration, RouteGroup } from './route.ts';
import { splitKey, type HttpMethod, type OperationKey } from '../openapi/operations.ts';
import type { Caller, GatehouseRequest } from './types.ts';
import { JsonText } from './json-text.ts';

/**
 * What a handler answers. A JSON body is written in its protocol's media type; a `type` (`text/html`)
 * writes `body` as that text instead; `headers` go with it (a Location, a Set-Cookie).
 */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string | string[]>;
  /** The media type of a text body (a page, a script), written as is. */
  type?: string;
}

/**
 * 200 with `body`. Its type comes from where it is returned: a handler's route declares the body of each
 * status (`responses`), so `ok({...})` is checked against that schema's type, a field it lacks included.
 */
export const ok = <B>(body: NoInfer<B>): { status: 200; body: B } => ({ status: 200, body });
/** 201 with `body`, typed like ok's. */
export const created = <B>(body: NoInfer<B>): { status: 201; body: B } => ({ status: 201, body });
/** The reference's body-less successes (deletes, detaches) answer 200 with an empty JSON object. */
export const done = (): { status: 200; body: Record<string, never> } => ({ status: 200, body: {} });
/** A text answer of media type `type` (an HTML page, a script), with `headers`. */
export const text = (type: string, body: string, headers: Record<string, string | string[]> = {}, status = 200): Page => ({ status, type, body, headers });
/** 303 See Other to `location` (after a form's POST, or into a sign-in), with `headers`. */
export const seeOther = (location: string, headers: Record<string, string | string[]> = {}): Redirect => ({ status: 303, headers: { ...headers, Location: location } });

/** A text answer (a page, a script, a sign-in's problem page): its media type says what it is, not a schema. */
export interface Page extends Reply {
  type: string;
  body: string;
}

/** A redirect: no body, a Location. */
export interface Redirect extends Reply {
  status: 303;
  body?: undefined;
}

/** What a route declares of its answers: a schema per success status. */
interface DeclaresResponses {
  responses: Partial<Record<number, v.GenericSchema | undefined>>;
}

/** The body a declared response schema types: its output (or those bytes already serialised), nothing for a status without one. */
type BodyOf<S> = [S] extends [v.GenericSchema] ? v.InferOutput<S> | JsonText<v.InferOutput<S>> : undefined;

/** A JSON reply to a route declaring `Rs`: one of its statuses, with a body of one of their schemas. */
interface DeclaredReply<Rs> extends Reply {
  status: keyof Rs & number;
  body?: BodyOf<NonNullable<Rs[keyof Rs]>> | (undefined extends Rs[keyof Rs] ? undefined : never);
}

/**
 * What a handler of route `R` may answer, typed from its declaration (as @hono/zod-openapi types a
 * handler from its route's `responses`): a status it declares with that status's body, so a field the
 * schema lacks, or one it requires left out, fails the type check (test/types/replies.ts); or a page or a
 * redirect, which no JSON schema describes.
 */
export type ReplyFor<R> = R extends DeclaresResponses ? DeclaredReply<R['responses']> | Page | Redirect : Reply;

/** What every handler may read: the caller and the path parameters. */
export interface RequestBase {
  readonly caller: Caller;
  readonly requestId: string;
  /**
   * The request as it arrived, for a protocol whose handlers read what /v1's never do: cookies and forms
   * (the console), a signed raw body (Slack). A /v1 handler reads its input through `query()` and `body()`.
   */
  readonly http: GatehouseRequest;
  /** The path parameter `name`, checked to be a UUID (400 naming it otherwise). */
  uuidParam(name: string): string;
  /** The raw path parameter `name`. */
  param(name: string): string;
}

/** What a route declares of its input (a RouteDeclaration, or only the part a helper needs). */
export interface InputSchemas {
  query?: v.GenericSchema;
  body?: v.GenericSchema;
}

/** `query()` exists only when the route declares a query schema, and answers what that schema outputs. */
type QueryReader<R> = R extends { query: infer S extends v.GenericSchema } ? { query(): v.InferOutput<S> } : unknown;
/** `body()` exists only when the route declares a body schema, and answers what that schema outputs. */
type BodyReader<R> = R extends { body: infer S extends v.GenericSchema } ? { body(): Promise<v.InferOutput<S>> } : unknown;

/**
 * The request a handler of route declaration `R` gets: the query string and the JSON body are parsed by
 * the schemas the route declares (the same ones /openapi.json shows), so no handler names a schema, and
 * one whose route declares none has no `query()` or `body()` to call. Across a union of routes (one
 * handler bound to several keys) a reader exists when every route of the union declares it.
 */
export type ApiRequest<R extends InputSchemas = {}> = RequestBase & QueryReader<R> & BodyReader<R>;

export type Handler<R extends InputSchemas = {}> = (req: ApiRequest<R>) => ReplyFor<R> | Promise<ReplyFor<R>>;

/** Writes `body` as JSON of `mediaType` (not cached unless `headers` say otherwise). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = NO_HEADERS, mediaType = 'application/json'): void {
  const text = body === undefined ? '' : body instanceof JsonText ? body.body : JSON.stringify(body);
  // Shared bytes (kept between reads) are neither freed nor counted as held.
  if (body instanceof JsonText && !body.isShared) {
    // Counted as held for its client until then: a reply that can no longer be sent (the client left, or
    // the response was already answered or cut) settles now, else its bytes would stay counted for good.
    if (res.destroyed || res.headersSent || res.writableEnded) body.settle();
    else {
      if (typeof text !== 'string') res.once('finish', () => body.release());
      // A client that leaves before the end: the bytes no longer wait for it (the collector frees them).
      res.once('close', () => body.settle());
    }
  }
  const length = typeof text === 'string' ? Buffer.byteLength(text) : text.byteLength;
  const type = contentType(mediaType);
  // Most answers add no headers of their own: no spread then (one object fewer per request).
  res.writeHead(status, headers === NO_HEADERS
    ? { 'Cache-Control': 'no-store', 'Content-Type': type, 'Content-Length': length }
    : { 'Cache-Control': 'no-store', ...headers, 'Content-Type': type, 'Content-Length': length });
  res.end(text);
}

const NO_HEADERS: Record<string, string | string[]> = Object.freeze({});
const CONTENT_TYPES = new Map<string, string>();
/** `application/json; charset=utf-8`, made once per media type rather than per answer. */
function contentType(mediaType: string): string {
  let type = CONTENT_TYPES.get(mediaType);
  if (type === undefined) CONTENT_TYPES.set(mediaType, (type = `${mediaType}; charset=utf-8`));
  return type;
}

/** Thrown for a handler that reads input its route does not declare (the types prevent it; this is the guard beneath). */
const undeclared = (key: string, what: 'query' | 'body') => (): never => {
  throw new Error(`route ${key} declares no ${what} schema, so its handler cannot read one`);
};

/** Writes a handler's reply: a text body as its `type`, no body as nothing, else JSON of the protocol's `mediaType`. */
export function sendReply(res: ServerResponse, reply: Reply, mediaType: string): void {
  if (reply.type !== undefined) {
    const body = String(reply.body ?? '');
    res.writeHead(reply.status, { ...reply.headers, 'Content-Type': `${reply.type}; charset=utf-8`, 'Content-Length': Buffer.byteLength(body), 'X-Content-Type-Options': 'nosniff' });
    res.end(body);
  } else if (reply.body === undefined) {
    res.writeHead(reply.status, { 'Cache-Control': 'no-store', ...reply.headers, 'Content-Length': 0 });
    res.end();
  } else {
    sendJson(res, reply.status, reply.body, reply.headers, mediaType);
  }
}

/** What one route's handler reads its input with, fixed when the route is registered. */
interface RouteInput {
  key: string;
  route: InputSchemas;
  maxBodyBytes: number;
  bodyInput: (raw: unknown, schema: v.GenericSchema) => unknown;
}

/**
 * The request a handler gets. A class, not an object of closures: one small object per request on the
 * hot path, its readers shared on the prototype (docs/performance.md, "Allocations on the hot path").
 */
class ApiRequestOf implements RequestBase {
  constructor(
    readonly http: GatehouseRequest,
    private readonly input: RouteInput,
  ) {}

  get caller(): Caller {
    if (!this.http.caller) throw new AppError('unauthenticated', 'a bearer token is required');
    return this.http.caller;
  }

  get requestId(): string {
    return this.http.requestId;
  }

  param(name: string): string {
    return this.http.params[name] ?? '';
  }

  uuidParam(name: string): string {
    const raw = this.http.params[name];
    if (raw === undefined || !isUuid(raw)) throw invalidField(name, 'must be a UUID');
    return raw.toLowerCase();
  }

  query(): unknown {
    const schema = this.input.route.query;
    if (!schema) return undeclared(this.input.key, 'query')();
    return parse(schema, this.http.query, 'query');
  }

  async body(): Promise<unknown> {
    const { route, maxBodyBytes, bodyInput, key } = this.input;
    if (!route.body) return undeclared(key, 'body')();
    const raw = await readJsonBody(this.http, maxBodyBytes);
    // Generated clients send the JSON `null` when the caller gives no body: it means "no body".
    return parse(route.body, bodyInput(raw === null ? undefined : raw, route.body), 'body');
  }
}

/** A route as the table keeps it: Polka's template (`/v1/users/:user_id`), and its declaration. */
export interface TableRoute {
  method: string;
  /** Polka's spelling, for logs: /v1/users/:user_id. */
  template: string;
  /** The declaration's spelling: `GET /v1/users/{user_id}`. */
  key: string;
  pattern: RegExp;
  route: RouteDeclaration;
  protocol: Protocol;
}

/** `/v1/users/{user_id}` → `/v1/users/:user_id`, the form Polka compiles. */
export const polkaTemplate = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * The paths `/v1/users/{user_id}` matches, as Polka's router (regexparam) matches them: a parameter is
 * one non-empty segment, a trailing slash is allowed, and case is ignored. Kept here, so that telling 405
 * from 404 and naming a refused request's route never reads the router's private list.
 */
export const routePattern = (path: string): RegExp =>
  new RegExp(`^${path.split(/(\{\w+\})/).map((part) => (/^\{\w+\}$/.test(part) ? '([^/]+?)' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('')}/?$`, 'i');

/**
 * The routes registered, with their templates: Polka keeps only compiled patterns, and the logs and
 * the 405 answer need to know what a path would have matched. Requests that reach a route never
 * search this table: the route's own middleware knows its declaration.
 */
export class RouteTable {
  readonly #routes: TableRoute[] = [];

  add(route: TableRoute): void {
    this.#routes.push(route);
  }

  /** The template of the route `method path` reaches, e.g. /v1/users/:user_id (only for requests refused before their route). */
  templateFor(method: string, path: string): string | undefined {
    // The router answers HEAD with the GET handler, so HEAD is checked as that GET.
    const wanted = method === 'HEAD' ? 'GET' : method;
    return this.#routes.find((r) => r.method === wanted && r.pattern.test(path))?.template;
  }

  /** Every route, in registration order, as `GET /v1/users/{user_id}` (the API document test compares them). */
  list(): string[] {
    return this.#routes.map((r) => r.key);
  }

  /** Every route with its declaration and protocol, in registration order. */
  declared(): Array<{ key: string; route: RouteDeclaration; protocol: Protocol }> {
    return this.#routes.map((r) => ({ key: r.key, route: r.route, protocol: r.protocol }));
  }

  /** Every method registered for `path`, to tell 405 from 404. */
  methodsFor(path: string): string[] {
    return [...new Set(this.#routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
  }
}

/** The server of each protocol in one app, built on first use. */
export type ServerOf = (protocol: Protocol) => ProtocolServer;

/**
 * The declared keys `K` stands for: itself, or every declared key a template like
 * `PUT /v1/${string}/visibility` covers (a key built in a loop). Over routes whose keys are not known
 * (a test's made-up area), any key is itself, and its handler reads no query or body.
 */
type KeysOf<Ops, K extends string> = Extract<keyof Ops, K> | (K extends keyof Ops ? K : never);

/**
 * Binds one area's handlers to its declared routes on the one Polka instance, whatever their protocol.
 * Each route is registered with its protocol's checks in front of it, so a request is matched once (by
 * Polka) and the checks read the declaration of the route that matched. `Routes` is the area's routes (defineRoutes keeps each
 * declaration's type): a handler's `req.query()` and `req.body()` are typed by the schemas its route declares.
 */
export class ApiRouter<Routes extends RouteGroup = RouteGroup> {
  readonly #bound = new Set<string>();

  constructor(
    private readonly app: Polka<GatehouseRequest>,
    private readonly ctx: AppContext,
    private readonly table: RouteTable,
    // Kept as any area's routes: `Routes` types only the handlers `on` binds, so an area's router fits the list of areas.
    private readonly area: { name: string; routes?: RouteGroup },
    private readonly serverOf: ServerOf,
  ) {}

  /**
   * Serves the declared route `key` (`GET /v1/tags/{tag_id}`) with `handler`; throws for a route the
   * area does not declare (and a key no declaration matches does not type-check). A key built in a
   * loop (`PUT /v1/${string}/visibility`) types the handler by every declaration it could be.
   */
  on<K extends OperationKey>(
    key: K,
    handler: [KeysOf<Routes['operations'], K>] extends [never]
      ? 'no route of this area has this key'
      : Handler<NonNullable<Routes['operations'][KeysOf<Routes['operations'], K>]>>,
  ): this {
    const route: RouteDeclaration | undefined = this.area.routes?.operations[key];
    if (!route) throw new Error(`area ${this.area.name}: a handler for ${key}, which its routes do not declare`);
    if (this.#bound.has(key)) throw new Error(`area ${this.area.name}: two handlers for ${key}`);
    this.#bound.add(key);
    const { method, path } = splitKey(key);
    const template = polkaTemplate(path);
    const maxBodyBytes = this.ctx.config.maxBodyBytes;
    const protocol = route.protocol ?? this.area.routes!.protocol;
    const server = this.serverOf(protocol);
    const bodyInput = server.bodyInput ?? ((raw: unknown) => raw);
    const input: RouteInput = { key, route, maxBodyBytes, bodyInput };
    // First in the chain, so a call the checks refuse is logged under its route, and answered in its protocol's shape.
    const mark: Middleware<GatehouseRequest> = (req, _res, next) => {
      req.routeTemplate = template;
      req.protocol = protocol;
      next();
    };
    const run: Middleware<GatehouseRequest> = async (req, res) => {
      // The request has both readers; the handler's type shows only those its route declares.
      const reply = await (handler as Handler)(new ApiRequestOf(req, input) as unknown as ApiRequest);
      sendReply(res, reply, protocol.mediaType);
    };
    this.app[method.toLowerCase() as Lowercase<HttpMethod>](template, mark, ...server.checks(key, route), run);
    this.table.add({ method, template, key, pattern: routePattern(path), route, protocol });
    return this;
  }

  /** Throws for a declared route no handler serves (called once the area's handlers are bound). */
  finish(): void {
    const unbound = Object.keys(this.area.routes?.operations ?? {}).filter((key) => !this.#bound.has(key));
    if (unbound.length > 0) throw new Error(`area ${this.area.name}: no handler for ${unbound.join(', ')}`);
  }
}
