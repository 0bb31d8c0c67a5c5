// The format every module documents its routes in (src/modules/<area>/routes.ts), and the errors
// each kind of operation can answer. See docs/openapi.md, "Documenting a route".
import type * as v from 'valibot';
import type { ErrorCode } from '../http/errors.ts';
import type { ResponseSchema } from './responses.ts';
import type { Protocol } from '../http/protocol.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `METHOD /path/{param}`: the full path, /v1 included, with OpenAPI-style {placeholders}. */
export type OperationKey = `${HttpMethod} /${string}`;

/** A path parameter that is not a UUID (every other one is, and needs no entry). */
export interface PathParameterDoc {
  description: string;
  schema: v.GenericSchema;
}

export interface OperationDoc {
  /** A few words in Gatehouse's voice, imperative: "List owners". */
  summary: string;
  /** What a caller needs to know beyond the summary: choices, limits, side effects. */
  description?: string;
  /** True for an operation the reference API does not have (written as x-gatehouse-extension). */
  extension?: true;
  /** True for an operation kept only for older clients (written as OpenAPI's `deprecated`). */
  deprecated?: true;
  /** True when no bearer token is needed (only outside /v1). */
  public?: true;
  /** Path parameters that are not UUIDs, by name. */
  pathParams?: Record<string, PathParameterDoc>;
  /** The Valibot schema of the query string: what the handler's `req.query()` parses and answers. */
  query?: v.GenericSchema;
  /** The Valibot schema of the JSON body, what the handler's `req.body()` parses and answers; a `v.optional(...)` one makes the body optional. */
  body?: v.GenericSchema;
  /** The success statuses and their bodies: a response schema (src/openapi/responses.ts), named (e.g. `Owner`) or not. */
  responses: Partial<Record<200 | 201 | 204, ResponseSchema>>;
  /** The media type of the success body when it is not JSON (the /docs page). */
  responseMediaType?: string;
  /** Error codes this operation answers beyond the defaults for its kind (see `errorCodesFor`). */
  errors?: readonly ErrorCode[];
  /**
   * This route's protocol, where it differs from its group's (route.ts defineRoutes): Slack's
   * interactivity beside the notifications area's /v1 routes.
   */
  protocol?: Protocol;
}

/** A module's documented operations, tagged with the module's name, and their protocol (/v1's when absent). */
export interface OperationGroup {
  tag: string;
  operations: Partial<Record<OperationKey, OperationDoc>>;
  protocol?: Protocol;
}

/**
 * A module's operations, keyed like `'GET /v1/owners/{owner_id}'`. The key is the route as
 * registered (Polka's `:owner_id` written `{owner_id}`); the document test matches keys to routes.
 */
export function defineOperations(tag: string, operations: Partial<Record<OperationKey, OperationDoc>>): OperationGroup {
  return { tag, operations };
}

/** Splits an operation key into its method and path. */
export function splitKey(key: string): { method: HttpMethod; path: string } {
  const space = key.indexOf(' ');
  return { method: key.slice(0, space) as HttpMethod, path: key.slice(space + 1) };
}

/** The names of the {placeholders} in `path`, in order. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
}

/**
 * Every error code an operation can answer: those any operation of its kind can (authentication,
 * throttling, validation of what it takes, READ_ONLY tokens and constraint conflicts on writes,
 * body reading), plus the operation's own `errors`.
 */
export function errorCodesFor(method: HttpMethod, path: string, doc: OperationDoc & { role?: string }): ErrorCode[] {
  const codes = new Set<ErrorCode>(['internal']);
  if (!doc.public) ['unauthenticated', 'too_many_requests', 'unavailable'].forEach((code) => codes.add(code as ErrorCode));
  const hasPathParams = pathParameterNames(path).length > 0;
  if (hasPathParams || doc.query || doc.body) codes.add('validation_failed');
  if (hasPathParams || doc.body) codes.add('not_found');
  if (doc.role === 'admin-read') codes.add('forbidden');
  if (method !== 'GET' && !doc.public) {
    codes.add('forbidden');
    codes.add('conflict');
  }
  if (doc.body) ['invalid_json', 'payload_too_large', 'unsupported_media_type'].forEach((code) => codes.add(code as ErrorCode));
  for (const code of doc.errors ?? []) codes.add(code);
  return [...codes];
}
