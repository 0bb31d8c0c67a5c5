// The reference's accessFilters, answered through the access graph's one definition of who holds what
// (src/modules/access/holdings-store.ts): each filter becomes, per kind of node, the set of ids that
// satisfy it, which the node statement then takes as one more condition.
import type { AppContext } from '../../context.ts';
import { invalidField } from '../../http/errors.ts';
import type { ReachRow } from '../access/holdings-store.ts';
import type { Viewer } from '../visibility/sql.ts';
import type { WorkBudget } from '../../reads/budget.ts';
import { NODE_ORDER } from './store.ts';
import type { EntityFilters, EntityType } from './schemas.ts';

/**
 * How many nodes the filter inside isAccessibleBy or hasAccessTo may match. Each matched node costs
 * one read of the access graph, so a filter matching more is refused (400) rather than left to run
 * for as long as the catalogue is big.
 */
export const MAX_ACCESS_FILTER_NODES = 10_000;

/** Per kind of node, the ids allowed; a kind absent from the map is not constrained. */
export type AccessConstraint = Partial<Record<EntityType, Set<string>>>;

interface Level {
  level: string;
  level_name: string;
}

/** Whether a holding's level passes the role filters at the top of hasAccessTo (both, when both are given). */
function levelMatches(filter: EntityFilters, { level, level_name }: Level): boolean {
  return (filter.roleRemoteIds === undefined || filter.roleRemoteIds.includes(level)) && (filter.roleNames === undefined || filter.roleNames.includes(level_name));
}

/** The filter without its role fields: those describe the access edge, not the node. */
function nodePart(filter: EntityFilters): EntityFilters {
  const { roleRemoteIds: _ids, roleNames: _names, ...rest } = filter;
  return rest;
}

/** Every node (of `kinds`) matching `filter` that `viewer` sees, at most MAX_ACCESS_FILTER_NODES; throws validation_failed naming `path` beyond. */
function matching(ctx: AppContext, filter: EntityFilters, kinds: readonly EntityType[], path: string, viewer: Viewer | null, budget: WorkBudget): { kind: EntityType; id: string }[] {
  const found: { kind: EntityType; id: string }[] = [];
  for (const kind of kinds) {
    const rows = ctx.stores.queries.nodes(kind, filter, 0, MAX_ACCESS_FILTER_NODES + 1 - found.length, undefined, viewer);
    budget.spend(rows.length, path);
    for (const row of rows) found.push({ kind, id: row.id });
    if (found.length > MAX_ACCESS_FILTER_NODES) {
      throw invalidField(path, `matches more than ${MAX_ACCESS_FILTER_NODES} users, groups and resources; narrow it`);
    }
  }
  return found;
}

const emptyConstraint = (): Required<AccessConstraint> => ({ USER: new Set(), GROUP: new Set(), RESOURCE: new Set() });
const KIND_OF = { group: 'GROUP', resource: 'RESOURCE' } as const;

/**
 * Nodes with access to at least one node matching `filter`: users who hold it, groups whose members
 * hold it through them, non-human identities (resources) holding it — at a level passing the role
 * filters, when given.
 */
function haveAccessTo(ctx: AppContext, filter: EntityFilters, now: Date, viewer: Viewer | null, budget: WorkBudget): Required<AccessConstraint> {
  const out = emptyConstraint();
  const { holdings } = ctx.stores;
  const path = 'query.accessFilters.hasAccessTo';
  for (const target of matching(ctx, nodePart(filter), ['GROUP', 'RESOURCE'], path, viewer, budget)) {
    const type = target.kind === 'GROUP' ? 'group' : 'resource';
    const holders = holdings.holdersOf(type, target.id, now, '', Number.MAX_SAFE_INTEGER);
    const groups = holdings.groupsHolding(type, target.id, now);
    const identities = type === 'resource' ? holdings.identitiesHolding(target.id, now) : [];
    // One row of work per target besides what it returns: a graph walk that finds nothing still costs.
    budget.spend(1 + holders.length + groups.length + identities.length, path);
    for (const row of holders) if (levelMatches(filter, row)) out.USER.add(row.user_id);
    for (const row of groups) if (levelMatches(filter, row)) out.GROUP.add(row.principal_id);
    for (const row of identities) if (levelMatches(filter, row)) out.RESOURCE.add(row.principal_id);
  }
  return out;
}

/** Nodes at least one node matching `filter` has access to: what users hold, what groups lead to, what identities hold. */
function accessibleBy(ctx: AppContext, filter: EntityFilters, now: Date, viewer: Viewer | null, budget: WorkBudget): Required<AccessConstraint> {
  const out = emptyConstraint();
  const { holdings } = ctx.stores;
  const path = 'query.accessFilters.isAccessibleBy';
  const add = (rows: ReachRow[]) => {
    budget.spend(1 + rows.length, path);
    rows.forEach((row) => out[KIND_OF[row.type]].add(row.item_id));
  };
  for (const source of matching(ctx, filter, NODE_ORDER, path, viewer, budget)) {
    if (source.kind === 'USER') {
      const groups = holdings.groupsOfUser(source.id, now);
      const resources = holdings.resourcesOfUser(source.id, now);
      budget.spend(1 + groups.length + resources.length, path);
      for (const row of groups) out.GROUP.add(row.item_id);
      for (const row of resources) out.RESOURCE.add(row.item_id);
    } else if (source.kind === 'GROUP') {
      add(holdings.reachOfGroup(source.id, now));
    } else {
      add(holdings.reachOfIdentity(source.id, now));
    }
  }
  return out;
}

/** The ids each kind of node is limited to by the access filters given (both: both must hold). */
export function accessConstraint(
  ctx: AppContext,
  access: { isAccessibleBy?: EntityFilters | undefined; hasAccessTo?: EntityFilters | undefined } | undefined,
  now: Date,
  viewer: Viewer | null,
  budget: WorkBudget,
): AccessConstraint {
  const parts = [
    access?.hasAccessTo && haveAccessTo(ctx, access.hasAccessTo, now, viewer, budget),
    access?.isAccessibleBy && accessibleBy(ctx, access.isAccessibleBy, now, viewer, budget),
  ].filter((part) => part !== undefined);
  if (parts.length === 0) return {};
  const [first, second] = parts as [Required<AccessConstraint>, Required<AccessConstraint>?];
  if (!second) return first;
  const both = emptyConstraint();
  for (const kind of NODE_ORDER) for (const id of first[kind]) if (second[kind].has(id)) both[kind].add(id);
  return both;
}
