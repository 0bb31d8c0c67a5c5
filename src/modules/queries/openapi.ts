// The queries area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { component } from '../../openapi/schema.ts';
import { ENTITY_ITEM_TYPES, ENTITY_TYPES, RunQueryBody } from './schemas.ts';

/** A user, group or resource a query matched. */
export const OpalQueryResultNode = component('OpalQueryResultNode', {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    entityType: { type: 'string', enum: [...ENTITY_TYPES] },
    entityItemType: { type: 'string', enum: ENTITY_ITEM_TYPES },
  },
  required: ['id', 'name', 'entityType', 'entityItemType'],
});

export const OpalQueryResultEdge = component('OpalQueryResultEdge', {
  type: 'object',
  properties: { node: OpalQueryResultNode, cursor: { type: 'string' } },
  required: ['node', 'cursor'],
});

export const PageInfo = component('PageInfo', {
  type: 'object',
  properties: {
    hasNextPage: { type: 'boolean' },
    endCursor: { type: 'string' },
    hasPreviousPage: { type: 'boolean' },
    startCursor: { type: 'string' },
  },
  required: ['hasNextPage', 'endCursor', 'hasPreviousPage', 'startCursor'],
});

export const OpalNodeQueryResults = component('OpalNodeQueryResults', {
  type: 'object',
  properties: {
    type: { type: 'string', enum: ['NODE'] },
    edges: { type: 'array', items: OpalQueryResultEdge },
    pageInfo: PageInfo,
  },
  required: ['type', 'edges', 'pageInfo'],
});

export const queryRoutes = defineRoutes('queries', {
  'POST /v1/queries/run': {
    role: 'read',
    summary: 'Find users, groups and resources',
    description: 'A NODE query: `nodeFilters` match the entities themselves, `accessFilters` what they can reach or who can reach them. '
      + 'Writes nothing. Pages with `first` (at most 1000, 200 by default) and `after` (an `endCursor`).',
    body: RunQueryBody,
    responses: { 200: OpalNodeQueryResults },
  },
});
