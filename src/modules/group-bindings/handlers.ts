// Group bindings: /group-bindings (list, create, bulk update) and /group-bindings/{id} (get, delete).
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { createGroupBinding, deleteGroupBinding, updateGroupBindings } from './service.ts';
import type { groupBindingRoutes } from './routes.ts';

export function registerGroupBindingRoutes(router: ApiRouter<typeof groupBindingRoutes>, ctx: AppContext): void {
  const { groupBindings } = ctx.stores;

  router.on('GET /v1/group-bindings', (req) => {
    const query = req.query();
    const rows = groupBindings.list(ctx.pager.afterSeq('group_bindings', query), query.page_size + 1);
    return ok(ctx.pager.page('group_bindings', query, rows, (row) => row.seq, groupBindings.toApi));
  });

  router.on('POST /v1/group-bindings', async (req) => ok(createGroupBinding(ctx, req.caller, await req.body())));

  // The reference answers 200 without a body; the updated bindings are returned anyway (a client may ignore them).
  router.on('PUT /v1/group-bindings', async (req) => {
    const body = await req.body();
    return ok({ group_bindings: updateGroupBindings(ctx, req.caller, body.group_bindings) });
  });

  router.on('GET /v1/group-bindings/{group_binding_id}', (req) => {
    const id = req.uuidParam('group_binding_id');
    const binding = groupBindings.get(id);
    if (!binding) throw notFound('group binding', id, 'group_binding_id');
    return ok(binding);
  });

  router.on('DELETE /v1/group-bindings/{group_binding_id}', (req) => {
    deleteGroupBinding(ctx, req.caller, req.uuidParam('group_binding_id'));
    return done();
  });
}
