// Who may call what: the one table of routes a MEMBER's token may write through, and the middleware
// that applies it (and the READ_ONLY rule) to every /v1 call before its handler reads the body.
import type { Middleware } from 'polka';
import { AppError } from './errors.ts';
import type { RouteTable } from './router.ts';
import type { Caller, GatehouseRequest } from './types.ts';
import type { OrganizationRole } from '../modules/users/roles.ts';

/** Methods that only read: any valid token may use them on any route. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** POSTs that only read (their input is too large for a query string): any valid token may send them. */
export const READING_POSTS: ReadonlySet<string> = new Set(['POST /v1/queries/run']);

/**
 * Reads for organization admins only (any of their tokens, READ_ONLY included): the audit trail, where
 * it is sent, and access reviews. Each names every item, whatever its visibility, and every holder or
 * actor (with their addresses), so a member reading them would see past visibility.
 */
export const ADMIN_READS: Readonly<Record<string, string>> = {
  'GET /v1/events': 'the audit trail',
  'GET /v1/events/{event_id}': 'the audit trail',
  'GET /v1/event-streams': 'where the audit trail is sent',
  'GET /v1/apps/{app_id}/connector': 'where access is pushed, and with which credentials',
  'GET /v1/propagations': 'every access change on its way to a connector, naming every holder',
  'GET /v1/uars': 'access reviews',
  'GET /v1/uar/{uar_id}': 'access reviews',
  'GET /v1/uar/{uar_id}/snapshot': 'access reviews',
};

/**
 * The writes a MEMBER's FULL_ACCESS token may make, by route (`METHOD /v1/path/{param}`, as in the
 * API document), with what the member may do there. Every other write is for organization admins.
 * The route check is coarse: the service behind each route makes the fine one (their own request,
 * a current reviewer, a session or token of their own) and answers 403 naming why.
 */
export const MEMBER_WRITES: Readonly<Record<string, string>> = {
  'POST /v1/requests': 'ask for access, for themselves or for a group they lead or administer',
  'POST /v1/requests/{id}/comments': 'comment on a request',
  'POST /v1/requests/{id}/approve': 'approve a request where they are a current reviewer',
  'POST /v1/requests/{id}/deny': 'deny a request where they are a current reviewer',
  'POST /v1/requests/{id}/cancel': 'cancel their own pending request',
  'POST /v1/delegations': 'delegate their own reviews to someone else',
  'DELETE /v1/delegations/{delegation_id}': 'end a delegation of their own reviews',
  'POST /v1/sessions': 'open a session for themselves on a resource they hold access to',
  'DELETE /v1/sessions/{connection_id}': 'end a session of their own',
  'POST /v1/tokens': 'issue an API token for themselves',
  'DELETE /v1/tokens/{token_id}': 'revoke an API token of their own',
};

/** `METHOD /v1/users/:user_id` as the router keeps it → `METHOD /v1/users/{user_id}` as the table spells it. */
export const routeKey = (method: string, template: string): string => `${method} ${template.replace(/:(\w+)/g, '{$1}')}`;

/** Whether a call to this route only reads. */
export const isRead = (method: string, key: string | undefined): boolean =>
  READ_METHODS.has(method) || (key !== undefined && READING_POSTS.has(key));

/** The least organization role whose FULL_ACCESS token may call the route `key` (the API document shows it). */
export function leastRole(key: string): OrganizationRole {
  if (key in ADMIN_READS) return 'ADMIN';
  const method = key.slice(0, key.indexOf(' '));
  return isRead(method, key) || key in MEMBER_WRITES ? 'MEMBER' : 'ADMIN';
}

/**
 * Throws forbidden when `caller` may not call the route `key` (`METHOD /v1/path/{param}`) with
 * `method`: a MEMBER one of ADMIN_READS; a READ_ONLY token anything but a read; a MEMBER any write
 * not in MEMBER_WRITES. `key` is undefined for a path no route serves: only the READ_ONLY rule
 * applies (then 404 or 405).
 */
export function authorize(caller: Pick<Caller, 'accessLevel' | 'role'>, method: string, key: string | undefined): void {
  if (key !== undefined && key in ADMIN_READS && caller.role !== 'ADMIN') {
    throw new AppError('forbidden', `${key} is for organization admins; your role is ${caller.role}`);
  }
  if (isRead(method, key)) return;
  if (caller.accessLevel === 'READ_ONLY') throw new AppError('forbidden', 'this token is READ_ONLY: it may only read');
  if (key === undefined || caller.role === 'ADMIN' || key in MEMBER_WRITES) return;
  throw new AppError('forbidden', `${key} is for organization admins; your role is ${caller.role}`);
}

/**
 * Applies `authorize` to every authenticated /v1 call, after authentication and before routing,
 * so a refused write is answered 403 before its body is read (never 400 for a body it may not send).
 */
export function enforcePolicy(routes: RouteTable): Middleware<GatehouseRequest> {
  return (req, _res, next) => {
    if (!req.caller) return next();
    const template = routes.templateFor(req.method, req.path);
    // HEAD runs the GET handler, so it is judged as that GET (ADMIN_READS are keyed by GET).
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    authorize(req.caller, req.method, template === undefined ? undefined : routeKey(method, template));
    return next();
  };
}

/**
 * Who a service acts for: the HTTP caller (with its role), or an operator at the CLI (no role: the
 * operator has the machine, and so may do anything).
 */
export type ActingAs = Pick<Caller, 'userId'> & { role?: OrganizationRole | undefined };

/**
 * The services' fine check for member-allowed routes that act on a user: throws forbidden unless
 * `actor` is an admin, an operator, or the user `userId` themselves. `what` is a verb phrase: "open sessions".
 */
export function requireSelfOrAdmin(actor: ActingAs, userId: string, what: string): void {
  if (actor.role === undefined || actor.role === 'ADMIN' || actor.userId === userId) return;
  throw new AppError('forbidden', `a MEMBER may ${what} only for themselves, not for user ${userId}; your role is MEMBER`);
}
