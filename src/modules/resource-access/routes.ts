// A user's direct access to a resource: /resources/{resource_id}/users[/{user_id}], as the reference has them.
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { fail } from '../../http/parse.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { AddResourceUserBody, AddResourceUserQuery, ListEdgesQuery, RemoveEdgeQuery, UpdateResourceUserBody } from './schemas.ts';
import { addResourceUser, removeResourceUser, updateResourceUser } from './service.ts';
import { toApiResourceAccessUser, toApiResourceUser } from './store.ts';

export function registerResourceAccessRoutes(router: ApiRouter, ctx: AppContext): void {
  const { resources, users, resourceAccess } = ctx.stores;

  router.get('/resources/:resource_id/users', (req) => {
    const resourceId = req.uuidParam('resource_id');
    const query = req.query(ListEdgesQuery);
    if (!resources.exists(resourceId)) throw notFound('resource', resourceId, 'resource_id');
    const rows = resourceAccess.list(resourceId, ctx.clock.now(), ctx.pager.afterSeq('resource_users', query), query.page_size + 1);
    return ok(ctx.pager.page('resource_users', query, rows, (row) => row.seq, toApiResourceAccessUser));
  });

  // Every level the user holds: a handful at most, so one answer without paging.
  router.get('/resources/:resource_id/users/:user_id', (req) => {
    const resourceId = req.uuidParam('resource_id');
    const userId = req.uuidParam('user_id');
    if (!resources.exists(resourceId)) throw notFound('resource', resourceId, 'resource_id');
    if (!users.exists(userId)) throw notFound('user', userId, 'user_id');
    const data = resourceAccess.heldByUser(resourceId, userId, ctx.clock.now()).map(toApiResourceUser);
    return ok({ data, total_count: data.length });
  });

  // The reference keeps the query parameters (deprecated) beside the body; the body wins where both speak.
  router.post('/resources/:resource_id/users/:user_id', async (req) => {
    const resourceId = req.uuidParam('resource_id');
    const userId = req.uuidParam('user_id');
    const query = req.query(AddResourceUserQuery);
    const body = await req.body(AddResourceUserBody);
    const durationMinutes = body.duration_minutes ?? query.duration_minutes;
    // Either place will do, so the fault is reported as the body's, in the words every route uses.
    if (durationMinutes === undefined) fail('body', [{ path: 'duration_minutes', message: 'is required' }]);
    const level = body.access_level_remote_id ?? query.access_level_remote_id ?? '';
    return ok(addResourceUser(ctx, req.caller, { resourceId, userId, level, durationMinutes }));
  });

  router.put('/resources/:resource_id/users/:user_id', async (req) => {
    const resourceId = req.uuidParam('resource_id');
    const userId = req.uuidParam('user_id');
    const body = await req.body(UpdateResourceUserBody);
    return ok(updateResourceUser(ctx, req.caller, { resourceId, userId, level: body.access_level_remote_id, durationMinutes: body.duration_minutes }));
  });

  router.delete('/resources/:resource_id/users/:user_id', (req) => {
    const resourceId = req.uuidParam('resource_id');
    const userId = req.uuidParam('user_id');
    const { access_level_remote_id: level } = req.query(RemoveEdgeQuery);
    removeResourceUser(ctx, req.caller, { resourceId, userId, level });
    return done();
  });
}
