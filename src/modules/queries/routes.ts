// The queries area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { RunQueryBody } from './schemas.ts';
import { OpalNodeQueryResults } from './responses.ts';

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
