// The delegations area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { CreateDelegationBody, ListDelegationsQuery } from './schemas.ts';
import { Delegation, PaginatedDelegationsList } from './responses.ts';

export const delegationRoutes = defineRoutes('delegations', {
  'GET /v1/delegations': {
    role: 'read',
    summary: 'List delegations',
    description: 'Every delegation, past, in force and future, oldest first; total_count counts those the filters select.',
    query: ListDelegationsQuery,
    responses: { 200: PaginatedDelegationsList },
  },
  'POST /v1/delegations': {
    role: 'member',
    summary: 'Create a delegation',
    description: 'A member may delegate only their own reviews. Windows of one delegator may not overlap (409); the end must be after the start and not past.',
    body: CreateDelegationBody,
    responses: { 200: Delegation },
  },
  'GET /v1/delegations/{delegation_id}': { role: 'read', items: { delegation_id: null }, summary: 'Get a delegation', responses: { 200: Delegation } },
  'DELETE /v1/delegations/{delegation_id}': {
    role: 'member', items: { delegation_id: null },
    summary: 'Delete a delegation',
    description: 'Only its delegator or an admin. Reviews go back to the delegator at once.',
    responses: { 200: EmptyObject },
  },
});
