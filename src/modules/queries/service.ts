// Running a node query: the checks the schema cannot express, then one kind after another until the page is full.
import type { AppContext } from '../../context.ts';
import { invalidField } from '../../http/errors.ts';
import { accessConstraint } from './access-filters.ts';
import type { Viewer } from '../visibility/sql.ts';
import { WorkBudget } from '../../reads/budget.ts';
import { NODE_ORDER } from './store.ts';
import type { EntityFilters, EntityType, RunQueryInput } from './schemas.ts';

/** Bounds on one query's filter tree, so a single request cannot build an unbounded statement. */
const MAX_DEPTH = 8;
const MAX_FILTERS = 200;

const HAS_ACCESS_TO = 'query.accessFilters.hasAccessTo';

/** Throws validation_failed naming the path of the first filter Gatehouse cannot answer, or of a tree too deep or too large. */
function checkFilters(root: EntityFilters, rootPath: string): void {
  let count = 0;
  const walk = (f: EntityFilters, path: string, depth: number): void => {
    if (depth > MAX_DEPTH) throw invalidField(path, `nests allOf, anyOf and not more than ${MAX_DEPTH} deep`);
    if (++count > MAX_FILTERS) throw invalidField(path, `makes the query hold more than ${MAX_FILTERS} filters`);
    // The reference allows role filters only within hasAccessTo, where they describe the access edge;
    // Gatehouse reads them at its top level only (an edge has one level, so nesting them says nothing more).
    if (path !== HAS_ACCESS_TO) {
      const where = path.startsWith(HAS_ACCESS_TO) ? 'at the top level of' : 'within';
      if (f.roleRemoteIds) throw invalidField(`${path}.roleRemoteIds`, `can only be applied ${where} accessFilters.hasAccessTo`);
      if (f.roleNames) throw invalidField(`${path}.roleNames`, `can only be applied ${where} accessFilters.hasAccessTo`);
    }
    if (f.entityTag?.connectionId !== undefined) {
      throw invalidField(`${path}.entityTag.connectionId`, 'cannot be used: Gatehouse tags belong to no connection');
    }
    f.allOf?.forEach((sub, i) => walk(sub, `${path}.allOf.${i}`, depth + 1));
    f.anyOf?.forEach((sub, i) => walk(sub, `${path}.anyOf.${i}`, depth + 1));
    if (f.not) walk(f.not, `${path}.not`, depth + 1);
  };
  walk(root, rootPath, 0);
}

export interface QueryResults {
  type: 'NODE';
  edges: { node: { id: string; name: string; entityType: EntityType; entityItemType: string }; cursor: string }[];
  pageInfo: { hasNextPage: boolean; endCursor: string; hasPreviousPage: boolean; startCursor: string };
}

const CURSOR_LIST = 'queries';

/**
 * Runs a NODE query: users, then groups, then resources matching nodeFilters and the access filters
 * (read through the access graph at `now`) that `viewer` sees (null: an admin, who sees all), each kind in creation order, `first` at a time from the
 * cursor `after`. Throws validation_failed naming the field for a filter Gatehouse cannot answer
 * (role filters outside the top of hasAccessTo, tag connections), a tree that is too deep or large,
 * an access filter matching too many nodes or needing more work than `budget` allows, or a cursor it did not issue.
 */
export function runNodeQuery(ctx: AppContext, input: RunQueryInput, now: Date, viewer: Viewer | null, budget: WorkBudget = WorkBudget.unlimited()): QueryResults {
  const filter = input.query.nodeFilters ?? {};
  checkFilters(filter, 'query.nodeFilters');
  const access = input.query.accessFilters;
  for (const key of ['isAccessibleBy', 'hasAccessTo'] as const) {
    const given = access?.[key];
    if (given !== undefined) checkFilters(given, `query.accessFilters.${key}`);
  }
  const allowed = accessConstraint(ctx, access, now, viewer, budget);

  let start = 0;
  let afterSeq = 0;
  if (input.after !== undefined) {
    const key = ctx.pager.key(CURSOR_LIST, input.after, 'after');
    const index = Array.isArray(key) ? NODE_ORDER.indexOf(key[0] as EntityType) : -1;
    if (!Array.isArray(key) || index < 0) throw invalidField('after', 'is not a cursor this list issued; start again without one');
    [start, afterSeq] = [index, key[1]];
  }

  const found: { kind: EntityType; row: ReturnType<typeof ctx.stores.queries.nodes>[number] }[] = [];
  for (let i = start; i < NODE_ORDER.length && found.length <= input.first; i++) {
    const kind = NODE_ORDER[i]!;
    const rows = ctx.stores.queries.nodes(kind, filter, i === start ? afterSeq : 0, input.first + 1 - found.length, allowed[kind], viewer);
    for (const row of rows) found.push({ kind, row });
  }
  const served = found.slice(0, input.first);
  const edges = served.map(({ kind, row }) => ({
    node: { id: row.id, name: row.name, entityType: kind, entityItemType: row.item_type },
    cursor: ctx.pager.cursor(CURSOR_LIST, [kind, row.seq]),
  }));
  return {
    type: 'NODE',
    edges,
    pageInfo: {
      hasNextPage: found.length > input.first,
      endCursor: edges.at(-1)?.cursor ?? '',
      hasPreviousPage: input.after !== undefined,
      startCursor: edges[0]?.cursor ?? '',
    },
  };
}
