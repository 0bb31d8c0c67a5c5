// The reviewer-stage and reviewer operations of resources and groups in Gatehouse's API document.
import { ReviewerStage } from '../request-settings/responses.ts';
import { defineRoutes, type ItemKind, type RouteDeclaration } from '../../http/route.ts';
import { described, uuidList } from '../../openapi/responses.ts';
import * as v from 'valibot';
import { SetReviewersBody, SetReviewerStagesBody } from './schemas.ts';

const stageList = described(v.array(ReviewerStage), 'The stages of the default request configuration (priority 0), in stored order.');

/** A resource's or a group's side of the routes (the groups' pair is deprecated in the reference). */
interface Kind {
  what: ItemKind;
  items: Record<string, ItemKind>;
  note: string;
}
const RESOURCE: Kind = { what: 'resource', items: { resource_id: 'resource' }, note: '' };
const GROUP: Kind = { what: 'group', items: { group_id: 'group' }, note: ' Deprecated in the reference; served as for resources.' };

/** A declaration, checked as one and keeping its own type (the handler's input is typed from it). */
const route = <D extends RouteDeclaration>(declaration: D): D => declaration;

const getStages = ({ what, items, note }: Kind) => route({
  role: 'read',
  items,
  summary: `Get the reviewer stages of a ${what}`,
  description: `The stages of its default request configuration: what \`request_configurations[0].reviewer_stages\` shows.${note}`,
  responses: { 200: stageList },
});
const setStages = ({ what, items, note }: Kind) => route({
  role: 'admin',
  items,
  summary: `Set the reviewer stages of a ${what}`,
  description: `Replaces the default request configuration's stages. A stage sent without \`stage\` takes its position in the list (from 1); stage numbers must be unique. Every owner and service user must exist.${note}`,
  body: SetReviewerStagesBody,
  responses: { 200: stageList },
});
const getReviewers = ({ what, items, note }: Kind) => route({
  role: 'read',
  items,
  summary: `Get the reviewers of a ${what}`,
  description: `The owner ids named in any stage of the default request configuration, each once, in stage order.${note}`,
  responses: { 200: uuidList },
});
const setReviewers = ({ what, items, note }: Kind) => route({
  role: 'admin',
  items,
  summary: `Set the reviewers of a ${what}`,
  description: `Replaces the default configuration's stages with one stage (operator AND, no manager or admin approval) holding these owners; an empty list leaves no stage.${note}`,
  body: SetReviewersBody,
  responses: { 200: uuidList },
});

export const reviewerStageRoutes = defineRoutes('reviewer-stages', {
  'GET /v1/resources/{resource_id}/reviewer-stages': getStages(RESOURCE),
  'PUT /v1/resources/{resource_id}/reviewer-stages': setStages(RESOURCE),
  'GET /v1/resources/{resource_id}/reviewers': getReviewers(RESOURCE),
  'PUT /v1/resources/{resource_id}/reviewers': setReviewers(RESOURCE),
  'GET /v1/groups/{group_id}/reviewer-stages': getStages(GROUP),
  'PUT /v1/groups/{group_id}/reviewer-stages': setStages(GROUP),
  'GET /v1/groups/{group_id}/reviewers': getReviewers(GROUP),
  'PUT /v1/groups/{group_id}/reviewers': setReviewers(GROUP),
});
