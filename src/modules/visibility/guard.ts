// Visibility for every read under one item: a caller who is not an admin and does not see the
// resource, group or bundle a path names gets the same 404 as for an id that does not exist, on every
// route at once (…/users, …/tags, …/reviewer-stages, …/visibility and the rest): each route declares
// what its path parameters name (src/http/route.ts), and an undeclared one fails at start-up.
import type { Middleware } from 'polka';
import type { AppContext } from '../../context.ts';
import type { ItemKind, RouteDeclaration } from '../../http/route.ts';
import type { GatehouseRequest } from '../../http/types.ts';
import { isUuid } from '../../lib/ids.ts';
import { assertVisible } from './service.ts';

/**
 * The guard for one declared route: for callers who are not admins, after authentication and the
 * route's policy, every path parameter the route declares as naming an item must name one the caller
 * sees (visibility/service.ts canSee), else not_found naming the parameter. Admins pass without a
 * lookup; a malformed id is left to the handler, which answers 400 naming the parameter.
 */
export function hideUnseenItems(ctx: AppContext, route: RouteDeclaration): Middleware<GatehouseRequest> | undefined {
  const named = Object.entries(route.items ?? {}).filter((entry): entry is [string, ItemKind] => entry[1] !== null);
  if (named.length === 0) return undefined;
  return (req, _res, next) => {
    if (!req.caller || req.caller.role === 'ADMIN') return next();
    for (const [param, kind] of named) {
      // Polka has decoded the parameter as the handler will read it: /resources/%63f… names resource cf….
      const id = req.params[param] ?? '';
      if (isUuid(id)) assertVisible(ctx, req.caller, kind, id.toLowerCase(), param);
    }
    return next();
  };
}
