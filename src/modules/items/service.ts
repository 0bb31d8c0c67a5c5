// What resources and groups share as items of the catalogue: the checks every item of a bulk update
// (PUT /resources, PUT /groups) starts with, and the shape those updates answer in.
import type { AppContext } from '../../context.ts';
import { invalidField, notFound } from '../../http/errors.ts';

/**
 * The checks every item of a bulk update (PUT /resources, PUT /groups) starts with: the id is not
 * repeated in the call, the record exists, and a new admin owner exists. Returns the lower-cased
 * ids and the stored row. Throws validation_failed or not_found naming `<path><field>`.
 */
export function startBulkItem<Row>(
  ctx: AppContext,
  item: { id: string; admin_owner_id?: string | undefined },
  what: 'resource' | 'group',
  seen: Set<string>,
  path: string,
  getRow: (id: string) => Row | undefined,
): { id: string; row: Row; ownerId: string | undefined } {
  const id = item.id.toLowerCase();
  const idField = `${path}${what}_id`;
  if (seen.has(id)) throw invalidField(idField, `lists a ${what} a second time`);
  seen.add(id);
  const row = getRow(id);
  if (!row) throw notFound(what, id, idField);
  const ownerId = item.admin_owner_id?.toLowerCase();
  if (ownerId !== undefined && !ctx.stores.owners.exists(ownerId)) throw notFound('owner', ownerId, `${path}admin_owner_id`);
  return { id, row, ownerId };
}

/** An item as bulk updates answer it: UpdateResourceInfo/UpdateGroupInfo type request_configuration_list as an object, so it is left out. */
export function asUpdateInfo<T extends { request_configuration_list?: unknown }>(item: T): Omit<T, 'request_configuration_list'> {
  const { request_configuration_list: _deprecated, ...rest } = item;
  return rest;
}

