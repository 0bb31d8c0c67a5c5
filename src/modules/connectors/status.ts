// What `propagation_status` says on an edge's answers (GroupUser, ResourceAccessUser): read once per
// answer through a small cache, so a page of holders costs one lookup per item and edge.
import type { AppContext } from '../../context.ts';
import type { PropagationStatus as PropagationStatusObject } from './responses.ts';
import type { EdgeKindName } from '../access/edges.ts';
import { edgeKey } from './propagation.ts';

/** An edge's `propagation_status`: the PropagationStatus response object, or null for access a sync imported. */
export type PropagationStatus = PropagationStatusObject | null;

const SUCCESS = { status: 'SUCCESS' } as const;

/**
 * A reader of propagation statuses for one answer. Items of apps without a connector are SUCCESS
 * (Gatehouse is where that access lives: nothing to push). Items of apps with one: the status of
 * the edge's last push (PENDING while queued, an ERR_… after a failed attempt), null for access a
 * sync imported, and PENDING for an edge older than the connector until a sync has confirmed it.
 */
export function propagationStatusReader(ctx: AppContext) {
  const apps = new Map<string, string | null>();
  const appWithConnector = (type: 'resource' | 'group', itemId: string): string | null => {
    let found = apps.get(itemId);
    if (found === undefined) {
      const place = ctx.stores.connectors.placeOf(type, itemId);
      found = place && ctx.stores.connectors.get(place.app_id) ? place.app_id : null;
      apps.set(itemId, found);
    }
    return found;
  };
  return (kind: EdgeKindName, principalId: string, itemId: string, level: string): PropagationStatus => {
    const appId = appWithConnector(kind === 'group_user' || kind === 'group_group' ? 'group' : 'resource', itemId);
    if (appId === null) return SUCCESS;
    const row = ctx.stores.connectors.byKey(edgeKey(appId, kind, principalId, itemId, level));
    if (!row) return { status: 'PENDING' };
    return row.status === null ? null : { status: row.status };
  };
}
