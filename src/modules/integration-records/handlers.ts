// Records for integrations Gatehouse does not run: /message-channels, /on-call-schedules, the resource
// and group links to them, /resources/{id}/scoped-role-permissions and /sync_errors.
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { ok, type ApiRouter } from '../../http/router.ts';
import { LINK_KINDS, RECORD_KINDS, type LinkKind, type RecordKind } from './kinds.ts';
import { createRecord, linkedRecords, scopedRolePermissions, setLinkedRecords, setScopedRolePermissions, syncErrors } from './service.ts';
import type { integrationRecordRoutes } from './routes.ts';

export function registerIntegrationRecordRoutes(router: ApiRouter<typeof integrationRecordRoutes>, ctx: AppContext): void {
  const { integrationRecords } = ctx.stores;

  for (const kind of Object.keys(RECORD_KINDS) as RecordKind[]) {
    const { path, idField, listKey, label } = RECORD_KINDS[kind];
    router.on(`GET /v1/${path}`, () => ok({ [listKey]: integrationRecords.list(kind) }));
    router.on(`POST /v1/${path}`, async (req) => ok(createRecord(ctx, req.caller, kind, await req.body())));
    router.on(`GET /v1/${path}/{${idField}}`, (req) => {
      const id = req.uuidParam(idField);
      const record = integrationRecords.get(kind, id);
      if (!record) throw notFound(label, id, idField);
      return ok(record);
    });
  }

  for (const kind of Object.keys(LINK_KINDS) as LinkKind[]) {
    const { owner, ownerColumn, record } = LINK_KINDS[kind];
    const { path, idField, listKey } = RECORD_KINDS[record];
    const field = `${idField}s` as const;
    const route = `/v1/${owner}s/{${ownerColumn}}/${path}` as const;
    router.on(`GET ${route}`, (req) => ok({ [listKey]: linkedRecords(ctx, kind, req.uuidParam(ownerColumn)) }));
    // The reference answers a bare array of the ids now set.
    router.on(`PUT ${route}`, async (req) => {
      const ownerId = req.uuidParam(ownerColumn);
      const input = await req.body();
      return ok(setLinkedRecords(ctx, req.caller, kind, ownerId, input[field]!, field));
    });
  }

  router.on('GET /v1/resources/{resource_id}/scoped-role-permissions', (req) =>
    ok({ permissions: scopedRolePermissions(ctx, req.uuidParam('resource_id')) }),
  );
  router.on('PUT /v1/resources/{resource_id}/scoped-role-permissions', async (req) => {
    const resourceId = req.uuidParam('resource_id');
    const body = await req.body();
    return ok({ permissions: setScopedRolePermissions(ctx, req.caller, resourceId, body.permissions) });
  });

  router.on('GET /v1/sync_errors', (req) => ok(syncErrors(ctx, req.caller, req.query())));
}
