// /configuration-templates: list, create, update (the body names the template), delete.
import type { AppContext } from '../../context.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { findTemplate } from './linking.ts';
import { createTemplate, deleteTemplate, updateTemplate } from './service.ts';
import { toApiTemplate } from './mappers.ts';
import type { configurationTemplateRoutes } from './routes.ts';

export function registerConfigurationTemplateRoutes(router: ApiRouter<typeof configurationTemplateRoutes>, ctx: AppContext): void {
  const { configurationTemplates } = ctx.stores;

  router.on('GET /v1/configuration-templates', (req) => {
    const query = req.query();
    const rows = configurationTemplates.list(ctx.pager.afterSeq('configuration_templates', query), query.page_size + 1);
    return ok(ctx.pager.page('configuration_templates', query, rows, (row) => row.seq, (row) => toApiTemplate(findTemplate(ctx, row.id)!)));
  });

  router.on('POST /v1/configuration-templates', async (req) => ok(createTemplate(ctx, req.caller, await req.body())));

  router.on('PUT /v1/configuration-templates', async (req) => {
    const { configuration_template_id: id, ...input } = await req.body();
    return ok(updateTemplate(ctx, req.caller, id.toLowerCase(), input));
  });

  router.on('DELETE /v1/configuration-templates/{configuration_template_id}', (req) => {
    deleteTemplate(ctx, req.caller, req.uuidParam('configuration_template_id'));
    return done();
  });
}
