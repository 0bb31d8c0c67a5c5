// The reviewer-stage and reviewer operations of resources and groups in Gatehouse's API document.
import { ReviewerStage } from '../../openapi/components/request-configuration.ts';
import { defineRoutes, type ItemKind, type RouteDeclaration } from '../../http/route.ts';
import type { OperationKey } from '../../openapi/operations.ts';
import { described, uuidList } from '../../openapi/responses.ts';
import * as v from 'valibot';
import { SetReviewersBody, SetReviewerStagesBody } from './schemas.ts';

const stageList = described(v.array(ReviewerStage), 'The stages of the default request configuration (priority 0), in stored order.');

function operations(plural: string, param: string, deprecated: boolean): Partial<Record<OperationKey, RouteDeclaration>> {
  const base = `/v1/${plural}/{${param}}`;
  const what: ItemKind = plural === 'resources' ? 'resource' : 'group';
  const items = { [param]: what };
  const route = (declaration: RouteDeclaration) => declaration;
  const note = deprecated ? ' Deprecated in the reference; served as for resources.' : '';
  return {
    [`GET ${base}/reviewer-stages`]: route({
      role: 'read',
      items,
      summary: `Get the reviewer stages of a ${what}`,
      description: `The stages of its default request configuration: what \`request_configurations[0].reviewer_stages\` shows.${note}`,
      responses: { 200: stageList },
    }),
    [`PUT ${base}/reviewer-stages`]: route({
      role: 'admin',
      items,
      summary: `Set the reviewer stages of a ${what}`,
      description: `Replaces the default request configuration's stages. A stage sent without \`stage\` takes its position in the list (from 1); stage numbers must be unique. Every owner and service user must exist.${note}`,
      body: SetReviewerStagesBody,
      responses: { 200: stageList },
    }),
    [`GET ${base}/reviewers`]: route({
      role: 'read',
      items,
      summary: `Get the reviewers of a ${what}`,
      description: `The owner ids named in any stage of the default request configuration, each once, in stage order.${note}`,
      responses: { 200: uuidList },
    }),
    [`PUT ${base}/reviewers`]: route({
      role: 'admin',
      items,
      summary: `Set the reviewers of a ${what}`,
      description: `Replaces the default configuration's stages with one stage (operator AND, no manager or admin approval) holding these owners; an empty list leaves no stage.${note}`,
      body: SetReviewersBody,
      responses: { 200: uuidList },
    }),
  };
}

export const reviewerStageRoutes = defineRoutes('reviewer-stages', {
  ...operations('resources', 'resource_id', false),
  ...operations('groups', 'group_id', true),
});
