// GET and PUT /resources/{id}/visibility, /groups/{id}/visibility and /bundles/{id}/visibility.
import type { AppContext } from '../../context.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { getVisibility, setVisibility } from './service.ts';
import type { VisibleKind } from './sql.ts';
import type { visibilityRoutes } from './routes.ts';

export function registerVisibilityRoutes(router: ApiRouter<typeof visibilityRoutes>, ctx: AppContext): void {
  for (const kind of ['resource', 'group', 'bundle'] as const satisfies readonly VisibleKind[]) {
    const param = `${kind}_id`;
    const route = `/v1/${kind}s/{${param}}/visibility` as const;
    router.on(`GET ${route}`, (req) => ok(getVisibility(ctx, req.caller, kind, req.uuidParam(param))));
    router.on(`PUT ${route}`, async (req) => {
      const id = req.uuidParam(param);
      const info = setVisibility(ctx, req.caller, kind, id, await req.body());
      // The reference answers the bundle's PUT with an empty 200, the others with the VisibilityInfo.
      return kind === 'bundle' ? done() : ok(info);
    });
  }
}
