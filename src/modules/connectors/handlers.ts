// /apps/{app_id}/connector (extension): an app's connector, its test, sync and retry; /propagations, and an item's access held by unmatched remote users (extensions).
import type { AppContext } from '../../context.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { deleteConnector, getConnector, linkRemoteUser, listConnectorTypes, listUnfinished, listUnmatchedAccess, listUnmatchedUsers, putConnector, retryConnector, syncNow, testConnector } from './service.ts';
import type { connectorRoutes } from './routes.ts';
import { itemAccessLevels } from './levels.ts';

export function registerConnectorRoutes(router: ApiRouter<typeof connectorRoutes>, ctx: AppContext): void {
  router.on('GET /v1/connector-types', () => ok(listConnectorTypes()));

  router.on('GET /v1/resources/{resource_id}/access-levels', (req) => ok(itemAccessLevels(ctx, 'resource', req.uuidParam('resource_id'))));
  router.on('GET /v1/groups/{group_id}/access-levels', (req) => ok(itemAccessLevels(ctx, 'group', req.uuidParam('group_id'))));

  router.on('GET /v1/apps/{app_id}/connector', (req) => ok(getConnector(ctx, req.uuidParam('app_id'))));

  router.on('PUT /v1/apps/{app_id}/connector', async (req) => {
    const appId = req.uuidParam('app_id');
    return ok(putConnector(ctx, req.caller, appId, await req.body()));
  });

  router.on('DELETE /v1/apps/{app_id}/connector', (req) => {
    deleteConnector(ctx, req.caller, req.uuidParam('app_id'));
    return done();
  });

  router.on('POST /v1/apps/{app_id}/connector/test', async (req) => ok(await testConnector(ctx, req.caller, req.uuidParam('app_id'))));

  router.on('POST /v1/apps/{app_id}/connector/sync', async (req) => ok(await syncNow(ctx, req.caller, req.uuidParam('app_id'))));

  router.on('GET /v1/apps/{app_id}/connector/unmatched-users', (req) => ok(listUnmatchedUsers(ctx, req.uuidParam('app_id'), req.query())));

  router.on('PUT /v1/apps/{app_id}/connector/user-links', async (req) => ok(await linkRemoteUser(ctx, req.caller, req.uuidParam('app_id'), await req.body())));

  router.on('POST /v1/apps/{app_id}/connector/retry', (req) => ok(retryConnector(ctx, req.caller, req.uuidParam('app_id'))));

  router.on('GET /v1/propagations', (req) => ok(listUnfinished(ctx, req.query())));

  router.on('GET /v1/resources/{resource_id}/unmatched-remote-users', (req) => ok(listUnmatchedAccess(ctx, 'resource', req.uuidParam('resource_id'), req.query())));

  router.on('GET /v1/groups/{group_id}/unmatched-remote-users', (req) => ok(listUnmatchedAccess(ctx, 'group', req.uuidParam('group_id'), req.query())));
}
