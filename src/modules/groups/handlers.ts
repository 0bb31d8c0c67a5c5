// Groups: create, list with the reference's filters, read, bulk update, delete.
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { createGroup, deleteGroup, updateGroups } from './service.ts';
import { viewerOf } from '../visibility/service.ts';
import type { groupRoutes } from './routes.ts';

export function registerGroupRoutes(router: ApiRouter<typeof groupRoutes>, ctx: AppContext): void {
  const { groups } = ctx.stores;

  router.on('POST /v1/groups', async (req) => ok(createGroup(ctx, req.caller, await req.body())));

  router.on('GET /v1/groups', (req) => {
    const query = req.query();
    const filter = {
      groupType: query.group_type_filter,
      groupIds: query.group_ids?.map((id) => id.toLowerCase()),
      name: query.group_name,
      tagIds: query.tag_ids?.map((id) => id.toLowerCase()),
      adminOwnerId: query.owner_filter?.toLowerCase(),
      appId: query.app_id?.toLowerCase(),
    };
    const rows = groups.list(filter, ctx.pager.afterSeq('groups', query), query.page_size + 1, viewerOf(ctx, req.caller));
    return ok(ctx.pager.pageJson('groups', query, rows, (row) => row.seq, groups.toApi));
  });

  router.on('PUT /v1/groups', async (req) => {
    const body = await req.body();
    return ok({ groups: updateGroups(ctx, req.caller, body.groups) });
  });

  router.on('GET /v1/groups/{group_id}', (req) => {
    const id = req.uuidParam('group_id');
    // Whether the caller sees it was decided before the handler (visibility/guard.ts); admins see every group.
    const group = groups.answer(id);
    if (!group) throw notFound('group', id);
    return ok(group);
  });

  router.on('DELETE /v1/groups/{group_id}', (req) => {
    deleteGroup(ctx, req.caller, req.uuidParam('group_id'));
    return done();
  });
}
