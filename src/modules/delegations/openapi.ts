// The delegations area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { component, EmptyObject } from '../../openapi/schema.ts';
import { CreateDelegationBody, ListDelegationsQuery } from './schemas.ts';

export const Delegation = component('Delegation', {
  description: 'While start_time <= now < end_time, the delegate reviews access requests in the delegator\'s place.',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    delegator_user_id: { type: 'string', format: 'uuid' },
    delegate_user_id: { type: 'string', format: 'uuid' },
    start_time: { type: 'string', format: 'date-time' },
    end_time: { type: 'string', format: 'date-time' },
    reason: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'delegator_user_id', 'delegate_user_id', 'start_time', 'end_time', 'reason', 'created_at', 'updated_at'],
});

export const PaginatedDelegationsList = component('PaginatedDelegationsList', {
  type: 'object',
  properties: {
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: Delegation },
    total_count: { type: 'integer' },
  },
});

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
