// Reviewer stages and reviewers of resources and groups: GET/PUT …/reviewer-stages and …/reviewers,
// the groups' pair deprecated in the reference. One set of handlers, registered once per item kind.
import type { AppContext } from '../../context.ts';
import { ok, type ApiRouter } from '../../http/router.ts';
import { getReviewers, getReviewerStages, setReviewers, setReviewerStages, type ItemKind } from './service.ts';
import type { reviewerStageRoutes } from './routes.ts';

const KINDS: { kind: ItemKind; base: string; param: string }[] = [
  { kind: 'resource', base: '/resources', param: 'resource_id' },
  { kind: 'group', base: '/groups', param: 'group_id' },
];

export function registerReviewerStageRoutes(router: ApiRouter<typeof reviewerStageRoutes>, ctx: AppContext): void {
  for (const { kind, base, param } of KINDS) {
    router.on(`GET /v1${base}/{${param}}/reviewer-stages`, (req) => ok(getReviewerStages(ctx, kind, req.uuidParam(param))));
    router.on(`PUT /v1${base}/{${param}}/reviewer-stages`, async (req) => {
      const id = req.uuidParam(param);
      const body = await req.body();
      return ok(setReviewerStages(ctx, req.caller, kind, id, body.stages));
    });
    router.on(`GET /v1${base}/{${param}}/reviewers`, (req) => ok(getReviewers(ctx, kind, req.uuidParam(param))));
    router.on(`PUT /v1${base}/{${param}}/reviewers`, async (req) => {
      const id = req.uuidParam(param);
      const body = await req.body();
      return ok(setReviewers(ctx, req.caller, kind, id, body.reviewer_ids));
    });
  }
}
