// /request-templates: list, create, update (the body names the template), get, delete.
import type { AppContext } from '../../context.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { createRequestTemplate, deleteRequestTemplate, getRequestTemplate, updateRequestTemplate } from './service.ts';
import { toApiRequestTemplate } from './mappers.ts';
import type { requestTemplateRoutes } from './routes.ts';

export function registerRequestTemplateRoutes(router: ApiRouter<typeof requestTemplateRoutes>, ctx: AppContext): void {
  const { requestTemplates } = ctx.stores;

  router.on('GET /v1/request-templates', (req) => {
    const query = req.query();
    const rows = requestTemplates.list(ctx.pager.afterSeq('request_templates', query), query.page_size + 1);
    return ok(ctx.pager.page('request_templates', query, rows, (row) => row.seq, toApiRequestTemplate));
  });

  router.on('POST /v1/request-templates', async (req) => ok(createRequestTemplate(ctx, req.caller, await req.body())));

  router.on('PUT /v1/request-templates', async (req) => {
    const { request_template_id: id, ...input } = await req.body();
    return ok(updateRequestTemplate(ctx, req.caller, id.toLowerCase(), input));
  });

  router.on('GET /v1/request-templates/{request_template_id}', (req) => ok(getRequestTemplate(ctx, req.uuidParam('request_template_id'))));

  router.on('DELETE /v1/request-templates/{request_template_id}', (req) => {
    deleteRequestTemplate(ctx, req.caller, req.uuidParam('request_template_id'));
    return done();
  });
}
