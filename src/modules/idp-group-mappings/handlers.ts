// Identity-provider group mappings: /idp-group-mappings/{app_resource_id}[/groups/{group_id}], as the reference has them.
import type { AppContext } from '../../context.ts';
import { done, ok, type ApiRouter, type Handler } from '../../http/router.ts';
import { deleteMapping, getMapping, listMappings, replaceMappings, upsertMapping } from './service.ts';
import type { idpGroupMappingRoutes } from './routes.ts';

export function registerIdpGroupMappingRoutes(router: ApiRouter<typeof idpGroupMappingRoutes>, ctx: AppContext): void {
  router.on('GET /v1/idp-group-mappings/{app_resource_id}', (req) => ok({ mappings: listMappings(ctx, req.uuidParam('app_resource_id')) }));

  // The reference answers 200 without a body; the new set is returned anyway (a client may ignore it).
  router.on('PUT /v1/idp-group-mappings/{app_resource_id}', async (req) => {
    const appResourceId = req.uuidParam('app_resource_id');
    const body = await req.body();
    return ok({ mappings: replaceMappings(ctx, req.caller, appResourceId, body.mappings) });
  });

  router.on('GET /v1/idp-group-mappings/{app_resource_id}/groups/{group_id}', (req) =>
    ok(getMapping(ctx, req.uuidParam('app_resource_id'), req.uuidParam('group_id'))),
  );

  router.on('POST /v1/idp-group-mappings/{app_resource_id}/groups/{group_id}', async (req) => {
    const appResourceId = req.uuidParam('app_resource_id');
    const groupId = req.uuidParam('group_id');
    return ok(upsertMapping(ctx, req.caller, appResourceId, groupId, await req.body()));
  });

  const remove: Handler = (req) => {
    deleteMapping(ctx, req.caller, req.uuidParam('app_resource_id'), req.uuidParam('group_id'));
    return done();
  };
  router.on('DELETE /v1/idp-group-mappings/{app_resource_id}/groups/{group_id}', remove);
  // Clients generated from older versions of the reference call this path (trailing slash included).
  router.on('DELETE /v1/idp-group-mappings/{app_resource_id}/{group_id}/', remove);
}
