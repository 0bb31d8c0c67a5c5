// Delegations over HTTP: list, create, get, delete.
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { createDelegation, deleteDelegation } from './service.ts';
import { toApiDelegation } from './mappers.ts';
import type { delegationRoutes } from './routes.ts';

export function registerDelegationRoutes(router: ApiRouter<typeof delegationRoutes>, ctx: AppContext): void {
  const { delegations } = ctx.stores;

  router.on('GET /v1/delegations', (req) => {
    const query = req.query();
    const filter = { delegatorId: query.delegator_user_id, delegateId: query.delegate_user_id };
    const rows = delegations.list(filter, ctx.pager.afterSeq('delegations', query), query.page_size + 1);
    const page = ctx.pager.page('delegations', query, rows, (row) => row.seq, toApiDelegation);
    return ok({ ...page, total_count: delegations.count(filter) });
  });
  router.on('POST /v1/delegations', async (req) => ok(createDelegation(ctx, req.caller, await req.body())));
  router.on('GET /v1/delegations/{delegation_id}', (req) => {
    const id = req.uuidParam('delegation_id');
    const row = delegations.get(id);
    if (!row) throw notFound('delegation', id, 'delegation_id');
    return ok(toApiDelegation(row));
  });
  router.on('DELETE /v1/delegations/{delegation_id}', (req) => {
    deleteDelegation(ctx, req.caller, req.uuidParam('delegation_id'));
    return done();
  });
}
