// The non-human identities area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { AccessList, ResourceNHI } from './responses.ts';
import { PaginatedResourcesList } from '../resources/responses.ts';
import { ListEdgesQuery, RemoveEdgeQuery } from '../access/schemas.ts';
import { AttachNonHumanIdentityBody, ListNonHumanIdentitiesQuery } from './schemas.ts';

export const nonHumanIdentityRoutes = defineRoutes('non-human-identities', {
  'GET /v1/non-human-identities': {
    role: 'read',
    summary: 'List non-human identities',
    description: 'Resources whose type makes them an identity (service accounts, roles), in the resource shape.',
    query: ListNonHumanIdentitiesQuery,
    responses: { 200: PaginatedResourcesList },
  },
  'GET /v1/resources/{resource_id}/non-human-identities': {
    role: 'read', items: { resource_id: 'resource' },
    summary: 'List the non-human identities with access to a resource',
    description: 'Unexpired direct access only. Pages like every list: `next` says when `limit` cut it short.',
    query: ListEdgesQuery,
    responses: { 200: AccessList },
  },
  'POST /v1/resources/{resource_id}/non-human-identities/{non_human_identity_id}': {
    role: 'admin', items: { resource_id: 'resource', non_human_identity_id: 'resource' },
    summary: 'Give a non-human identity access to a resource',
    body: AttachNonHumanIdentityBody,
    responses: { 200: ResourceNHI },
  },
  'DELETE /v1/resources/{resource_id}/non-human-identities/{non_human_identity_id}': {
    role: 'admin', items: { resource_id: 'resource', non_human_identity_id: 'resource' },
    summary: 'Take a non-human identity\'s access to a resource away',
    query: RemoveEdgeQuery,
    responses: { 200: EmptyObject },
  },
});
