// Owners: the teams that administer apps, resources, groups, bundles and tags, and review requests.
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { toApiOwner } from './mappers.ts';
import { createOwner, deleteOwner, ownerUsers, setOwnerUsers, updateOwners } from './service.ts';
import type { ownerRoutes } from './routes.ts';

export function registerOwnerRoutes(router: ApiRouter<typeof ownerRoutes>, ctx: AppContext): void {
  const { owners } = ctx.stores;

  /** The owner in the path, or 404. */
  const ownerFromPath = (id: string) => {
    const row = owners.get(id);
    if (!row) throw notFound('owner', id);
    return row;
  };

  router.on('POST /v1/owners', async (req) => ok(createOwner(ctx, req.caller, await req.body())));

  router.on('GET /v1/owners', (req) => {
    const query = req.query();
    const rows = owners.list(query.name ?? null, ctx.pager.afterSeq('owners', query), query.page_size + 1);
    return ok(ctx.pager.page('owners', query, rows, (row) => row.seq, toApiOwner));
  });

  router.on('PUT /v1/owners', async (req) => {
    const body = await req.body();
    return ok({ owners: updateOwners(ctx, req.caller, body.owners) });
  });

  // Registered before /owners/:owner_id so "name" is never read as an owner id.
  router.on('GET /v1/owners/name/{owner_name}', (req) => {
    const name = req.param('owner_name');
    const row = owners.getByName(name);
    if (!row) throw notFound('owner named', JSON.stringify(name));
    return ok(toApiOwner(row));
  });

  router.on('GET /v1/owners/{owner_id}', (req) => ok(toApiOwner(ownerFromPath(req.uuidParam('owner_id')))));

  router.on('DELETE /v1/owners/{owner_id}', (req) => {
    deleteOwner(ctx, req.caller, req.uuidParam('owner_id'));
    return done();
  });

  router.on('GET /v1/owners/{owner_id}/users', (req) => {
    const id = ownerFromPath(req.uuidParam('owner_id')).id;
    return ok({ users: ownerUsers(ctx, id) });
  });

  router.on('PUT /v1/owners/{owner_id}/users', async (req) => {
    const id = req.uuidParam('owner_id');
    const body = await req.body();
    return ok({ users: setOwnerUsers(ctx, req.caller, id, body.user_ids) });
  });
}
