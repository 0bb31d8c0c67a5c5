// Non-human identities: the list of them, and their direct access to resources
// (/resources/{resource_id}/non-human-identities[/{non_human_identity_id}]), as the reference has them.
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { attachNonHumanIdentity, detachNonHumanIdentity } from './service.ts';
import { NON_HUMAN_IDENTITY_TYPES, type ResourceNhiRow } from './store.ts';
import { toApiAccess } from './mappers.ts';
import { toApiResource } from '../resources/mappers.ts';
import { seesListed, viewerOf } from '../visibility/service.ts';
import type { nonHumanIdentityRoutes } from './routes.ts';

export function registerNonHumanIdentityRoutes(router: ApiRouter<typeof nonHumanIdentityRoutes>, ctx: AppContext): void {
  const { resources, nonHumanIdentities } = ctx.stores;

  router.on('GET /v1/non-human-identities', (req) => {
    const query = req.query();
    const after = ctx.pager.afterSeq('non_human_identities', query);
    const rows = resources.listByTypes(NON_HUMAN_IDENTITY_TYPES, after, query.page_size + 1, viewerOf(ctx, req.caller));
    return ok(ctx.pager.page('non_human_identities', query, rows, (row) => row.seq, toApiResource));
  });

  // The reference answers an AccessList of results alone; next and previous are added so that
  // `limit` never cuts a list short without saying so.
  router.on('GET /v1/resources/{resource_id}/non-human-identities', (req) => {
    const resourceId = req.uuidParam('resource_id');
    const query = req.query();
    if (!resources.exists(resourceId)) throw notFound('resource', resourceId, 'resource_id');
    const now = ctx.clock.now();
    const want = query.page_size + 1;
    // A member sees only the identities they may see (each is a resource with its own visibility);
    // read on past hidden ones so the page stays full.
    const visible = seesListed(ctx, req.caller, 'resource');
    const sees = (row: ResourceNhiRow) => visible(row.non_human_identity_id);
    const rows: ResourceNhiRow[] = [];
    for (let after = ctx.pager.afterSeq('resource_nhis', query); rows.length < want;) {
      const batch = nonHumanIdentities.list(resourceId, now, after, want);
      rows.push(...batch.filter(sees));
      if (batch.length < want) break;
      after = batch.at(-1)!.seq;
    }
    return ok(ctx.pager.page('resource_nhis', query, rows.slice(0, want), (row) => row.seq, toApiAccess));
  });

  router.on('POST /v1/resources/{resource_id}/non-human-identities/{non_human_identity_id}', async (req) => {
    const resourceId = req.uuidParam('resource_id');
    const nhiId = req.uuidParam('non_human_identity_id');
    const body = await req.body();
    return ok(attachNonHumanIdentity(ctx, req.caller, { resourceId, nhiId, level: body.access_level_remote_id, durationMinutes: body.duration_minutes }));
  });

  router.on('DELETE /v1/resources/{resource_id}/non-human-identities/{non_human_identity_id}', (req) => {
    const resourceId = req.uuidParam('resource_id');
    const nhiId = req.uuidParam('non_human_identity_id');
    const { access_level_remote_id: level } = req.query();
    detachNonHumanIdentity(ctx, req.caller, { resourceId, nhiId, level });
    return done();
  });
}
