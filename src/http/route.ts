// A route as an area declares it: the operation it documents, who may call it, and what each path
// parameter names; and its group's protocol (protocol.ts). The policy (policy.ts), the visibility guard,
// the router and the API document read these.
import type { OperationDoc, OperationGroup, OperationKey } from '../openapi/operations.ts';
import type { Protocol } from './protocol.ts';
import { V1 } from './v1.ts';

/**
 * Who may call a route, at the least:
 * - `read`: any valid token, READ_ONLY included (every GET of the catalogue; a POST that only reads);
 * - `admin-read`: any token of an organization admin, READ_ONLY included (reads that name every item
 *   whatever its visibility: the audit trail, where it is sent, access reviews);
 * - `member`: a FULL_ACCESS token of a member or an admin; the service makes the fine check (their own
 *   request, a current reviewer, a token of their own) and answers 403 naming why;
 * - `admin`: a FULL_ACCESS token of an organization admin.
 */
export const ROLES = ['read', 'admin-read', 'member', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The items with a visibility (docs/visibility.md): a path parameter naming one is checked by the guard. */
export const ITEM_KINDS = ['resource', 'group', 'bundle'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

/** One route: the operation it documents, plus who may call it and what each path parameter names. */
export interface RouteDeclaration extends OperationDoc {
  /** Who may call it, for a protocol whose routes declare roles (/v1); a route of any other protocol has none. */
  role?: Role;
  /**
   * Every path parameter, by name: the item it names (the visibility guard checks it for members) or
   * null for one that names no item with a visibility (a user, a tag, a request…). A parameter left
   * out fails at start-up, so a new route cannot skip the guard by naming a resource `{id}`. A route
   * without path parameters leaves it out.
   */
  items?: Record<string, ItemKind | null>;
}

/** Routes by key, `METHOD /v1/path/{param}`: the one spelling of a route. */
export type RouteDeclarations = Partial<Record<OperationKey, RouteDeclaration>>;

/**
 * An area's routes. `Ops` keeps each declaration's own type (its `query` and `body` schemas), so the
 * area's router hands each handler the input its route declares, typed (src/http/router.ts).
 */
export interface RouteGroup<Ops extends RouteDeclarations = RouteDeclarations> extends OperationGroup {
  operations: Ops;
  /** How its routes are reached and answered: authentication, error body, media type (/v1's unless said). */
  protocol: Protocol;
}

/**
 * A module's routes, tagged with the module's name in the API document, of `protocol` (/v1 when not
 * given: `defineRoutes('tags', {...})`; SCIM's: `defineRoutes('scim', {...}, SCIM)`).
 */
export function defineRoutes<Ops extends RouteDeclarations>(tag: string, operations: Ops, protocol: Protocol = V1): RouteGroup<Ops> {
  return { tag, operations, protocol };
}

/** `{name}` placeholders of a route path, in order. */
const placeholders = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/**
 * Throws, naming the route, for a declaration the policy or the guard could not enforce: a role not
 * in ROLES, a role that does not fit the method (a GET is `read` or `admin-read`; `admin-read` is for
 * GET only), a path parameter `items` does not declare, or one it declares that the path lacks; for a
 * protocol without roles, a route that declares a role or items anyway (nothing would enforce them),
 * or a path outside the protocol's prefix.
 */
export function checkRoute(key: string, route: RouteDeclaration, protocol: Protocol = V1): void {
  const [method, path = ''] = key.split(' ');
  const fail = (why: string) => {
    throw new Error(`route ${key}: ${why} (declare it in the area's routes; see docs/contributing.md)`);
  };
  const prefix = protocol.prefix.toLowerCase();
  if (prefix !== '/' && path.toLowerCase() !== prefix && !path.toLowerCase().startsWith(`${prefix}/`)) fail(`a ${protocol.name} route's path starts with ${protocol.prefix}`);
  if (!protocol.roles) {
    if (route.role !== undefined || route.items !== undefined) fail(`a ${protocol.name} route declares no role or items: its protocol decides who may call it`);
    return;
  }
  if (!(ROLES as readonly string[]).includes(route.role as string)) fail(`role must be one of ${ROLES.join(', ')}, not ${String(route.role)}`);
  if (method === 'GET' && route.role !== 'read' && route.role !== 'admin-read') fail('a GET only reads: its role is read or admin-read');
  if (method !== 'GET' && route.role === 'admin-read') fail('admin-read is for GET routes');
  const names = placeholders(path);
  const items = route.items ?? {};
  for (const name of names) {
    if (!(name in items)) fail(`path parameter {${name}} is not declared in items (an item kind, or null when it names none)`);
    const kind = items[name];
    if (kind !== null && !(ITEM_KINDS as readonly string[]).includes(kind!)) fail(`{${name}} names ${String(kind)}, which is not one of ${ITEM_KINDS.join(', ')} or null`);
  }
  for (const name of Object.keys(items)) if (!names.includes(name)) fail(`items names {${name}}, which the path does not have`);
}

