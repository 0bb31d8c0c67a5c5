// A SCIM list (GET /Users, GET /Groups, and their POST /.search twins, RFC 7644 §3.4.2–3.4.3) as a read
// task: the filter's SQL runs where heavy reads run (a read worker), not on the event loop (issue 36.5).
import type { AppContext } from '../../context.ts';
import { groupMembers } from '../access/service.ts';
import { filterToSql } from './filter.ts';
import { projection } from './projection.ts';
import { GROUP_FILTER_ATTRIBUTES, GROUP_URNS, LIST_SCHEMA, USER_FILTER_ATTRIBUTES, USER_URNS, type Json } from './resources.ts';
import { toScimGroup, toScimUser } from './mappers.ts';
import type { ListQuery } from './schemas.ts';

export interface ScimListArgs {
  resource: 'Users' | 'Groups';
  query: ListQuery;
  /** The service's own base URL, for `meta.location` and `$ref`. */
  base: string;
}

/** Whether a group's members are to be shown: not when excluded, nor when attributes leave them out. */
export const wantsMembers = (query: Pick<ListQuery, 'attributes' | 'excludedAttributes'>): boolean => {
  const named = (names: string[] | undefined) => names?.some((n) => /^(urn:ietf:params:scim:schemas:core:2\.0:group:)?members(\.|$)/i.test(n)) ?? false;
  if (named(query.excludedAttributes)) return false;
  return query.attributes === undefined || named(query.attributes);
};

/** A ListResponse (RFC 7644 §3.4.2). */
export const listResponse = (resources: Json[], total: number, startIndex: number): Json => ({
  schemas: [LIST_SCHEMA], totalResults: total, startIndex, itemsPerPage: resources.length, Resources: resources,
});

/** The filter of a list of `resource` as SQL (null for none); throws invalidFilter (400) for one it cannot run. */
function sqlFilter(resource: ScimListArgs['resource'], filter: string | undefined) {
  if (filter === undefined) return null;
  return resource === 'Users' ? filterToSql(filter, USER_FILTER_ATTRIBUTES, USER_URNS) : filterToSql(filter, GROUP_FILTER_ATTRIBUTES, GROUP_URNS);
}

/**
 * Checks a list's filter where the request arrives (parsing and building the SQL is cheap and bounded:
 * filter.ts's limits), so a bad one is refused with its SCIM error before a worker is asked to run it.
 */
export function checkListFilter(resource: ScimListArgs['resource'], filter: string | undefined): void {
  sqlFilter(resource, filter);
}

/** One page of Users or Groups as the query asks; throws invalidFilter (400) for a filter it cannot run. */
export function scimListTask(ctx: AppContext, args: ScimListArgs): Json {
  const { query, base } = args;
  if (args.resource === 'Users') {
    const page = ctx.stores.scim.users(sqlFilter('Users', query.filter), query.startIndex - 1, query.count);
    const project = projection(query, USER_URNS);
    return listResponse(page.rows.map((row) => project(toScimUser(row, base))), page.total, query.startIndex);
  }
  const page = ctx.stores.scim.groups(sqlFilter('Groups', query.filter), query.startIndex - 1, query.count);
  const project = projection(query, GROUP_URNS);
  const members = wantsMembers(query);
  return listResponse(page.rows.map((row) => project(toScimGroup(row, members ? groupMembers(ctx, row.id) : null, base))), page.total, query.startIndex);
}
