// Visibility for every read under one item: a caller who is not an admin and does not see the
// resource, group or bundle a path names gets the same 404 as for an id that does not exist, on every
// route at once (…/users, …/tags, …/reviewer-stages, …/visibility and the rest), so no route can forget it.
import type { Middleware } from 'polka';
import type { AppContext } from '../../context.ts';
import type { RouteTable } from '../../http/router.ts';
import type { GatehouseRequest } from '../../http/types.ts';
import { isUuid } from '../../lib/ids.ts';
import { assertVisible } from './service.ts';
import type { VisibleKind } from './store.ts';

/** Path parameters that name an item with a visibility, by the routes' own parameter names. */
export const ITEM_PARAMS: Readonly<Record<string, VisibleKind>> = {
  resource_id: 'resource',
  app_resource_id: 'resource',
  non_human_identity_id: 'resource',
  group_id: 'group',
  containing_group_id: 'group',
  access_rule_id: 'group', // an access rule is a group of type OPAL_ACCESS_RULE
  bundle_id: 'bundle',
};

/** A path segment percent-decoded as the router decodes parameters; undecodable ones stay as they are (the handler refuses them). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The template's `:param` segments paired with the path's values (the template matched the path). */
function itemsNamed(template: string, path: string): Array<{ param: string; kind: VisibleKind; id: string }> {
  const names = template.split('/');
  const values = path.split('/');
  const found: Array<{ param: string; kind: VisibleKind; id: string }> = [];
  names.forEach((segment, i) => {
    const param = segment.startsWith(':') ? segment.slice(1) : undefined;
    const kind = param === undefined ? undefined : ITEM_PARAMS[param];
    // The router hands handlers the decoded value, so the guard must judge that one: /resources/%63f…
    // names the same resource as /resources/cf….
    const id = decoded(values[i] ?? '');
    // A malformed id is left to the handler, which answers 400 naming the parameter.
    if (param !== undefined && kind !== undefined && isUuid(id)) found.push({ param, kind, id: id.toLowerCase() });
  });
  return found;
}

/**
 * For callers who are not admins, after authentication and the route policy: every item the path
 * names must be one the caller sees (visibility/service.ts canSee), else not_found naming the
 * parameter. Admins pass without a lookup.
 */
export function hideUnseenItems(ctx: AppContext, routes: RouteTable): Middleware<GatehouseRequest> {
  return (req, _res, next) => {
    if (!req.caller || req.caller.role === 'ADMIN') return next();
    const template = routes.templateFor(req.method, req.path);
    if (template === undefined) return next();
    for (const item of itemsNamed(template, req.path)) assertVisible(ctx, req.caller, item.kind, item.id, item.param);
    return next();
  };
}
