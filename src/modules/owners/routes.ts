// The owners area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import * as v from 'valibot';
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { Owner, PaginatedOwnersList, UpdateOwnerInfoList } from './responses.ts';
import { UserList } from '../users/responses.ts';
import { CreateOwnerBody, ListOwnersQuery, SetOwnerUsersBody, UpdateOwnersBody } from './schemas.ts';

export const ownerRoutes = defineRoutes('owners', {
  'POST /v1/owners': {
    role: 'admin',
    summary: 'Create an owner',
    description: 'Owner names are unique. `user_ids` is the escalation order of the owner\'s users.',
    body: CreateOwnerBody,
    responses: { 200: Owner },
  },
  'GET /v1/owners': {
    role: 'read',
    summary: 'List owners',
    query: ListOwnersQuery,
    responses: { 200: PaginatedOwnersList },
  },
  'PUT /v1/owners': {
    role: 'admin',
    summary: 'Update several owners',
    description: 'All or nothing: when one item is refused, none is changed, and the error names `owners.N.field`.',
    body: UpdateOwnersBody,
    responses: { 200: UpdateOwnerInfoList },
  },
  'GET /v1/owners/name/{owner_name}': {
    role: 'read', items: { owner_name: null },
    summary: 'Find an owner by name',
    pathParams: { owner_name: { description: 'The owner\'s exact name.', schema: v.string() } },
    responses: { 200: Owner },
  },
  'GET /v1/owners/{owner_id}': {
    role: 'read', items: { owner_id: null },
    summary: 'Get an owner',
    responses: { 200: Owner },
  },
  'DELETE /v1/owners/{owner_id}': {
    role: 'admin', items: { owner_id: null },
    summary: 'Delete an owner',
    description: 'Refused (`conflict`) while the owner administers anything or a request configuration names it.',
    responses: { 200: EmptyObject },
  },
  'GET /v1/owners/{owner_id}/users': {
    role: 'read', items: { owner_id: null },
    summary: 'List an owner\'s users',
    description: 'In escalation order.',
    responses: { 200: UserList },
  },
  'PUT /v1/owners/{owner_id}/users': {
    role: 'admin', items: { owner_id: null },
    summary: 'Replace an owner\'s users',
    description: 'The list given becomes the owner\'s users, in that escalation order.',
    body: SetOwnerUsersBody,
    responses: { 200: UserList },
  },
});
