// The queries area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { ENTITY_ITEM_TYPES, ENTITY_TYPES } from './schemas.ts';
import { component, uuid } from '../../openapi/responses.ts';

export const OpalQueryResultNode = component('OpalQueryResultNode', v.object({
  id: uuid,
  name: v.string(),
  entityType: v.picklist(ENTITY_TYPES),
  entityItemType: v.picklist(ENTITY_ITEM_TYPES),
}));
export type OpalQueryResultNode = v.InferOutput<typeof OpalQueryResultNode>;

export const OpalQueryResultEdge = component('OpalQueryResultEdge', v.object({
  node: OpalQueryResultNode,
  cursor: v.string(),
}));
export type OpalQueryResultEdge = v.InferOutput<typeof OpalQueryResultEdge>;

export const PageInfo = component('PageInfo', v.object({
  hasNextPage: v.boolean(),
  endCursor: v.string(),
  hasPreviousPage: v.boolean(),
  startCursor: v.string(),
}));
export type PageInfo = v.InferOutput<typeof PageInfo>;

export const OpalNodeQueryResults = component('OpalNodeQueryResults', v.object({
  type: v.picklist(['NODE']),
  edges: v.array(OpalQueryResultEdge),
  pageInfo: PageInfo,
}));
export type OpalNodeQueryResults = v.InferOutput<typeof OpalNodeQueryResults>;
