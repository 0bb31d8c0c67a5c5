// Which of an item's access levels reach its remote system: a connector's kind may declare that a level
// changes nothing there (ConnectorKind.carriesLevel: PostgreSQL's default level is the database itself,
// with no role to grant). The console's request and Grant forms offer only the levels that do, and the
// dry run of a request for one that does not answers a warning (docs/connectors.md, docs/requests.md).
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { kindOf } from './adapters.ts';
import type { ItemAccessLevels } from './responses.ts';

type ItemType = 'resource' | 'group';

/** The connector that carries access to the item's app, in words, and its rule; undefined when the app has none. */
function connectorOf(ctx: AppContext, type: ItemType, id: string) {
  const place = ctx.stores.connectors.placeOf(type, id);
  const connector = place && ctx.stores.connectors.get(place.app_id);
  if (!connector) return undefined;
  const kind = kindOf(connector.connector_type);
  // A person's access to a resource is a resource_user edge, to a group a group_user edge.
  const edge = type === 'resource' ? 'resource_user' as const : 'group_user' as const;
  return {
    type: kind.type,
    name: kind.name,
    carries: (level: string) => kind.kinds.includes(edge) && (kind.carriesLevel?.(edge, level) ?? true),
  };
}

/** Why a level carries nothing, in words a requester reads. */
const nothingThere = (system: string, type: ItemType, level: string) => (level === ''
  ? `The default level grants nothing in ${system}: pick a level (a ${system} role) to be given access there.`
  : `The level "${level}" grants nothing in ${system}${type === 'group' ? ': it does not carry group memberships' : ''}.`);

/**
 * What a person's access at `level` of the item does remotely: null when no connector carries the item's
 * app (Gatehouse's own record is the access), else whether it reaches the system and, when not, why.
 */
export function levelReach(ctx: AppContext, type: ItemType, id: string, level: string): { system: string; carries: boolean; why?: string } | null {
  const connector = connectorOf(ctx, type, id);
  if (!connector) return null;
  return connector.carries(level) ? { system: connector.name, carries: true } : { system: connector.name, carries: false, why: nothingThere(connector.name, type, level) };
}

/** GET /v1/resources/{resource_id}/access-levels and the group one: each level and whether it carries access. Throws not_found. */
export function itemAccessLevels(ctx: AppContext, type: ItemType, id: string): ItemAccessLevels {
  const levels = type === 'resource'
    ? (ctx.stores.resources.exists(id) ? ctx.stores.resources.accessLevels(id) : undefined)
    : ctx.stores.groups.get(id)?.access_levels;
  if (!levels) throw notFound(type, id);
  const connector = connectorOf(ctx, type, id);
  return {
    connector: connector ? { connector_type: connector.type, name: connector.name } : null,
    access_levels: levels.map((level) => {
      const carries = connector ? connector.carries(level.access_level_remote_id) : true;
      return { ...level, carries_access: carries, ...(!carries && connector && { note: nothingThere(connector.name, type, level.access_level_remote_id) }) };
    }),
  };
}
