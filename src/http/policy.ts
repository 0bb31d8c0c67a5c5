// Who may call what: the role each route declares (src/http/route.ts), applied with the READ_ONLY rule
// in front of every /v1 route before its handler reads the body.
import type { Middleware } from 'polka';
import { AppError } from './errors.ts';
import type { Role, RouteDeclaration } from './route.ts';
import type { Caller, GatehouseRequest } from './types.ts';
import type { OrganizationRole } from '../modules/users/roles.ts';

/** Methods that only read: any valid token may use them on any route (a POST that reads is declared `read`). */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The least organization role whose FULL_ACCESS token may call a route declared with `role` (the API document shows it). */
export const leastRole = (role: Role): OrganizationRole => (role === 'admin' || role === 'admin-read' ? 'ADMIN' : 'MEMBER');

/**
 * Throws forbidden when `caller` may not call the route `key`, declared with `role`: a MEMBER an
 * `admin-read` or `admin` route; a READ_ONLY token anything but a `read` or `admin-read` one. With no
 * route (a path nothing serves) only the READ_ONLY rule applies, by method (then 404 or 405).
 */
export function authorize(caller: Pick<Caller, 'accessLevel' | 'role'>, method: string, route?: { key: string; role: Role }): void {
  if (route?.role === 'admin-read' && caller.role !== 'ADMIN') {
    throw new AppError('forbidden', `${route.key} is for organization admins; your role is ${caller.role}`);
  }
  const reads = route ? route.role === 'read' || route.role === 'admin-read' : READ_METHODS.has(method);
  if (reads) return;
  if (caller.accessLevel === 'READ_ONLY') throw new AppError('forbidden', 'this token is READ_ONLY: it may only read');
  if (route === undefined || caller.role === 'ADMIN' || route.role === 'member') return;
  throw new AppError('forbidden', `${route.key} is for organization admins; your role is ${caller.role}`);
}

/**
 * The route's policy, run in front of its handler after authentication, so a refused write is
 * answered 403 before its body is read (never 400 for a body it may not send). HEAD runs the GET
 * handler and is judged as that GET.
 */
export function enforcePolicy(key: string, route: RouteDeclaration): Middleware<GatehouseRequest> {
  // checkRoute holds that a /v1 route declares its role; were one missing, the strictest applies.
  const declared = { key, role: route.role ?? 'admin' };
  return (req, _res, next) => {
    if (req.caller) authorize(req.caller, req.method, declared);
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
