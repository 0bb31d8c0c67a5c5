// The owners module's operations in Gatehouse's API document (format: src/openapi/operations.ts).
import { defineOperations } from '../../openapi/operations.ts';
import { EmptyObject } from '../../openapi/schema.ts';
import { Owner, PaginatedOwnersList, UpdateOwnerInfoList } from '../../openapi/components/catalogue.ts';
import { UserList } from '../../openapi/components/people.ts';
import { CreateOwnerBody, ListOwnersQuery, SetOwnerUsersBody, UpdateOwnersBody } from './schemas.ts';

export const ownerOperations = defineOperations('owners', {
  'POST /v1/owners': {
    summary: 'Create an owner',
    description: 'Owner names are unique. `user_ids` is the escalation order of the owner\'s users.',
    body: CreateOwnerBody,
    responses: { 200: Owner },
  },
  'GET /v1/owners': {
    summary: 'List owners',
    query: ListOwnersQuery,
    responses: { 200: PaginatedOwnersList },
  },
  'PUT /v1/owners': {
    summary: 'Update several owners',
    description: 'All or nothing: when one item is refused, none is changed, and the error names `owners.N.field`.',
    body: UpdateOwnersBody,
    responses: { 200: UpdateOwnerInfoList },
  },
  'GET /v1/owners/name/{owner_name}': {
    summary: 'Find an owner by name',
    pathParams: { owner_name: { description: 'The owner\'s exact name.', schema: { type: 'string' } } },
    responses: { 200: Owner },
  },
  'GET /v1/owners/{owner_id}': {
    summary: 'Get an owner',
    responses: { 200: Owner },
  },
  'DELETE /v1/owners/{owner_id}': {
    summary: 'Delete an owner',
    description: 'Refused (`conflict`) while the owner administers anything or a request configuration names it.',
    responses: { 200: EmptyObject },
  },
  'GET /v1/owners/{owner_id}/users': {
    summary: 'List an owner\'s users',
    description: 'In escalation order.',
    responses: { 200: UserList },
  },
  'PUT /v1/owners/{owner_id}/users': {
    summary: 'Replace an owner\'s users',
    description: 'The list given becomes the owner\'s users, in that escalation order.',
    body: SetOwnerUsersBody,
    responses: { 200: UserList },
  },
});
