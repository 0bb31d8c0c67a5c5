// The access graph over HTTP: users' and groups' edges to resources and groups, nesting, and the
// reads of effective access (who holds a resource or group, what a user holds, access status).
import type { AppContext } from '../../context.ts';
import { PageQueryEntries } from '../../http/common-schemas.ts';
import { AppError } from '../../http/errors.ts';
import { fail } from '../../http/parse.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { seesListed } from '../visibility/service.ts';
import * as v from 'valibot';
import { edgeExpiry, type EdgeKindName } from './edges.ts';
import { accessStatus, groupMembersPage, groupResourcesAnswer, holdersPage, holdingsOfUserPage, userGroupsPage, userLevelsOnResource } from './reads.ts';
import { toContainingGroup, toGroupResource, toGroupUser, toResourceUser } from './mappers.ts';
import { grantDirect, putEdge, requireEnd, revokeEdge, setGroupResources } from './service.ts';
import type { ApiRequest } from '../../http/router.ts';
import type { AddEdgeBody, AddEdgeQuery } from './schemas.ts';
import type { accessRoutes } from './routes.ts';
import type { GroupUser, ResourceUser } from './responses.ts';

/** GET …/groups/users/{user_id} and …/groups/{group_id}/users: cursor and page_size. */
export const PageQuery = v.object({ ...PageQueryEntries });

/**
 * POST …/{item}/{principal}: the reference keeps deprecated query parameters beside the body. The body
 * wins where both speak; the level defaults to '' and, for user edges, the duration is required.
 */
async function addInput(req: ApiRequest<{ query: typeof AddEdgeQuery; body: typeof AddEdgeBody }>, durationRequired: boolean) {
  const query = req.query();
  const body = await req.body();
  const minutes = body.duration_minutes ?? query.duration_minutes;
  // Either place will do, so the fault is reported as the body's, in the words every route uses.
  if (minutes === undefined && durationRequired) fail('body', [{ path: 'duration_minutes', message: 'is required' }]);
  return { minutes: minutes ?? 0, level: body.access_level_remote_id ?? query.access_level_remote_id ?? '' };
}

export function registerAccessRoutes(router: ApiRouter<typeof accessRoutes>, ctx: AppContext): void {
  const { access } = ctx.stores;
  const expiresIn = (minutes: number) => edgeExpiry(ctx.clock.now(), minutes);

  /** POST/PUT/DELETE on one edge `/{items}/{item}/{principals}/{principal}`. */
  function edgeRoutes(path: '/resources/{resource_id}/users/{user_id}' | '/groups/{group_id}/users/{user_id}', kind: EdgeKindName, itemParam: string, principalParam: string, toApi: (row: Parameters<typeof toGroupUser>[1]) => ResourceUser | GroupUser) {
    const ends = (req: ApiRequest) => ({ itemId: req.uuidParam(itemParam), principalId: req.uuidParam(principalParam) });
    router.on(`POST /v1${path}`, async (req) => {
      const { itemId, principalId } = ends(req);
      const { minutes, level } = await addInput(req, kind !== 'group_resource');
      return ok(toApi(grantDirect(ctx, req.caller, kind, { principalId, itemId, level }, expiresIn(minutes))));
    });
    router.on(`DELETE /v1${path}`, (req) => {
      const { itemId, principalId } = ends(req);
      const { access_level_remote_id: level } = req.query();
      revokeEdge(ctx, req.caller, kind, { principalId, itemId, level });
      return done();
    });
  }

  // Literal segments first: /resources/users/{user_id} and /groups/users/{user_id} are not item ids.
  router.on('GET /v1/resources/users/{user_id}', (req) => {
    const userId = req.uuidParam('user_id');
    const query = req.query();
    requireEnd(ctx, 'user', userId, 'user_id');
    return ok(holdingsOfUserPage(ctx, 'resource', userId, query, req.caller));
  });
  router.on('GET /v1/groups/users/{user_id}', (req) => {
    const userId = req.uuidParam('user_id');
    const query = req.query();
    requireEnd(ctx, 'user', userId, 'user_id');
    return ok(userGroupsPage(ctx, userId, query, req.caller));
  });

  // Users of a resource (direct and through groups).
  router.on('GET /v1/resources/{resource_id}/users', (req) => {
    const resourceId = req.uuidParam('resource_id');
    const query = req.query();
    requireEnd(ctx, 'resource', resourceId, 'resource_id');
    return ok(holdersPage(ctx, 'resource', resourceId, query));
  });
  // Every level the user holds: a handful at most, so one answer without paging.
  router.on('GET /v1/resources/{resource_id}/users/{user_id}', (req) => {
    const resourceId = req.uuidParam('resource_id');
    const userId = req.uuidParam('user_id');
    requireEnd(ctx, 'resource', resourceId, 'resource_id');
    requireEnd(ctx, 'user', userId, 'user_id');
    const data = userLevelsOnResource(ctx, resourceId, userId);
    return ok({ data, total_count: data.length });
  });
  edgeRoutes('/resources/{resource_id}/users/{user_id}', 'resource_user', 'resource_id', 'user_id', (row) => toResourceUser(ctx, row));
  router.on('PUT /v1/resources/{resource_id}/users/{user_id}', async (req) => {
    const resourceId = req.uuidParam('resource_id');
    const userId = req.uuidParam('user_id');
    const body = await req.body();
    return ok(toResourceUser(ctx, putEdge(ctx, req.caller, 'resource_user', userId, resourceId, body.access_level_remote_id, expiresIn(body.duration_minutes))));
  });
  router.on('GET /v1/resource-user-access-status/{resource_id}/{user_id}', (req) => {
    const resourceId = req.uuidParam('resource_id');
    const userId = req.uuidParam('user_id');
    const query = req.query();
    requireEnd(ctx, 'resource', resourceId, 'resource_id');
    requireEnd(ctx, 'user', userId, 'user_id');
    return ok(accessStatus(ctx, resourceId, userId, query.access_level_remote_id, req.caller.role === 'ADMIN' || req.caller.userId === userId));
  });
  router.on('GET /v1/resources/{resource_id}/groups', (req) => {
    const resourceId = req.uuidParam('resource_id');
    requireEnd(ctx, 'resource', resourceId, 'resource_id');
    const seenGroup = seesListed(ctx, req.caller, 'group');
    const rows = access.liveOfItem('group_resource', resourceId, ctx.clock.now()).filter((row) => seenGroup(row.principal_id));
    return ok(groupResourcesAnswer(ctx, rows));
  });

  // Members of a group (direct, nested and by rule).
  router.on('GET /v1/groups/{group_id}/users', (req) => {
    const groupId = req.uuidParam('group_id');
    const query = req.query();
    requireEnd(ctx, 'group', groupId, 'group_id');
    return ok(groupMembersPage(ctx, groupId, query));
  });
  edgeRoutes('/groups/{group_id}/users/{user_id}', 'group_user', 'group_id', 'user_id', (row) => toGroupUser(ctx, row));
  router.on('PUT /v1/groups/{group_id}/users/{user_id}', async (req) => {
    const groupId = req.uuidParam('group_id');
    const userId = req.uuidParam('user_id');
    const body = await req.body();
    return ok(toGroupUser(ctx, putEdge(ctx, req.caller, 'group_user', userId, groupId, body.access_level_remote_id, expiresIn(body.duration_minutes))));
  });

  // A group's access to resources.
  router.on('GET /v1/groups/{group_id}/resources', (req) => {
    const groupId = req.uuidParam('group_id');
    requireEnd(ctx, 'group', groupId, 'group_id');
    const seenResource = seesListed(ctx, req.caller, 'resource');
    const rows = access.liveOfPrincipal('group_resource', groupId, ctx.clock.now()).filter((row) => seenResource(row.item_id));
    return ok(groupResourcesAnswer(ctx, rows));
  });
  router.on('PUT /v1/groups/{group_id}/resources', async (req) => {
    const groupId = req.uuidParam('group_id');
    const body = await req.body();
    setGroupResources(ctx, req.caller, groupId, body.resources);
    return done();
  });
  // POST gives the path as /groups/{group_id}/resources/{resource_id}: the group is the principal here.
  router.on('POST /v1/groups/{group_id}/resources/{resource_id}', async (req) => {
    const groupId = req.uuidParam('group_id');
    const resourceId = req.uuidParam('resource_id');
    const { minutes, level } = await addInput(req, false);
    return ok(toGroupResource(ctx, grantDirect(ctx, req.caller, 'group_resource', { principalId: groupId, itemId: resourceId, level }, expiresIn(minutes))));
  });
  router.on('DELETE /v1/groups/{group_id}/resources/{resource_id}', (req) => {
    const groupId = req.uuidParam('group_id');
    const resourceId = req.uuidParam('resource_id');
    const { access_level_remote_id: level } = req.query();
    revokeEdge(ctx, req.caller, 'group_resource', { principalId: groupId, itemId: resourceId, level });
    return done();
  });

  // Nesting: the groups a group sits in.
  router.on('GET /v1/groups/{group_id}/containing-groups', (req) => {
    const groupId = req.uuidParam('group_id');
    const query = req.query();
    requireEnd(ctx, 'group', groupId, 'group_id');
    const seenGroup = seesListed(ctx, req.caller, 'group');
    const rows = access.liveOfPrincipal('group_group', groupId, ctx.clock.now())
      .filter((row) => query.access_level_remote_id === undefined || row.access_level_remote_id === query.access_level_remote_id)
      .filter((row) => seenGroup(row.item_id));
    return ok({ containing_groups: rows.map(toContainingGroup) });
  });
  router.on('POST /v1/groups/{group_id}/containing-groups', async (req) => {
    const groupId = req.uuidParam('group_id');
    const body = await req.body();
    const key = { principalId: groupId, itemId: body.containing_group_id.toLowerCase(), level: body.access_level_remote_id };
    return ok(toContainingGroup(grantDirect(ctx, req.caller, 'group_group', key, expiresIn(body.duration_minutes))));
  });
  router.on('GET /v1/groups/{group_id}/containing-groups/{containing_group_id}', (req) => {
    const groupId = req.uuidParam('group_id');
    const containingId = req.uuidParam('containing_group_id');
    requireEnd(ctx, 'group', groupId, 'group_id');
    requireEnd(ctx, 'group', containingId, 'containing_group_id');
    const row = access.livePair('group_group', groupId, containingId, ctx.clock.now())[0];
    if (!row) {
      throw new AppError('not_found', `group ${groupId} is not in group ${containingId}`, [{ path: 'containing_group_id', message: 'does not contain this group' }]);
    }
    return ok(toContainingGroup(row));
  });
  router.on('DELETE /v1/groups/{group_id}/containing-groups/{containing_group_id}', (req) => {
    const groupId = req.uuidParam('group_id');
    const containingId = req.uuidParam('containing_group_id');
    const { access_level_remote_id: level } = req.query();
    revokeEdge(ctx, req.caller, 'group_group', { principalId: groupId, itemId: containingId, level });
    return { status: 204 }; // the reference's answer here, unlike the other edge deletes' 200
  });
}
