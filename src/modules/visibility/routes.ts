// The visibility area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { VisibilityInfoBody } from './schemas.ts';
import { VisibilityInfo } from './responses.ts';

const UNSEEN = 'A caller who is not an admin and does not see the item gets 404, as for an item that does not exist.';
const LINKED = 'Refused (`conflict`, naming `visibility`) when the item is linked to a configuration template that sets another visibility. `visibility_group_ids` must be empty for GLOBAL.';

export const visibilityRoutes = defineRoutes('visibility', {
  'GET /v1/resources/{resource_id}/visibility': { role: 'read', items: { resource_id: 'resource' }, summary: 'Get the visibility of a resource', description: UNSEEN, responses: { 200: VisibilityInfo } },
  'PUT /v1/resources/{resource_id}/visibility': { role: 'admin', items: { resource_id: 'resource' }, summary: 'Set the visibility of a resource', description: LINKED, body: VisibilityInfoBody, responses: { 200: VisibilityInfo } },
  'GET /v1/groups/{group_id}/visibility': { role: 'read', items: { group_id: 'group' }, summary: 'Get the visibility of a group', description: UNSEEN, responses: { 200: VisibilityInfo } },
  'PUT /v1/groups/{group_id}/visibility': { role: 'admin', items: { group_id: 'group' }, summary: 'Set the visibility of a group', description: LINKED, body: VisibilityInfoBody, responses: { 200: VisibilityInfo } },
  'GET /v1/bundles/{bundle_id}/visibility': { role: 'read', items: { bundle_id: 'bundle' }, summary: 'Get the visibility of a bundle', description: UNSEEN, responses: { 200: VisibilityInfo } },
  'PUT /v1/bundles/{bundle_id}/visibility': {
    role: 'admin', items: { bundle_id: 'bundle' },
    summary: 'Set the visibility of a bundle',
    description: '`visibility_group_ids` must be empty for GLOBAL. Answers an empty object, as the reference does.',
    body: VisibilityInfoBody,
    responses: { 200: EmptyObject },
  },
});
