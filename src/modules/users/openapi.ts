// The users module's operations in Gatehouse's API document (format: src/openapi/operations.ts).
import { defineOperations } from '../../openapi/operations.ts';
import { EmptyObject } from '../../openapi/schema.ts';
import { ThirdPartyProviderEnum } from '../../openapi/components/enums.ts';
import { PaginatedRemoteUsersList, PaginatedUsersList, RemoteUser, User } from '../../openapi/components/people.ts';
import { CreateRemoteUserBody, CreateUserBody, GetUserQuery, ListRemoteUsersQuery, ListUsersQuery, UpdateUserBody } from './schemas.ts';

export const userOperations = defineOperations('users', {
  'POST /v1/users': {
    summary: 'Create a user',
    description:
      'No identity provider syncs users into Gatehouse, so they are created here. The email must be unused. ' +
      '`organization_role` is `MEMBER` unless given.',
    extension: true,
    body: CreateUserBody,
    responses: { 200: User },
  },
  'GET /v1/users': {
    summary: 'List users',
    description: 'With `tag_ids`, only users carrying any of those tags.',
    query: ListUsersQuery,
    responses: { 200: PaginatedUsersList },
  },
  'GET /v1/users/remote_users': {
    summary: 'List remote user accounts',
    description: 'Each filter narrows the list; repeating a filter key widens that filter.',
    query: ListRemoteUsersQuery,
    responses: { 200: PaginatedRemoteUsersList },
  },
  'POST /v1/users/remote_users': {
    summary: 'Record a remote user account',
    description: 'Links a user to their account at a third-party provider; a user has at most one account per provider.',
    extension: true,
    body: CreateRemoteUserBody,
    responses: { 200: RemoteUser },
  },
  'DELETE /v1/users/{user_id}/remote_users/{third_party_provider}': {
    summary: 'Forget a remote user account',
    extension: true,
    pathParams: { third_party_provider: { description: 'The provider whose account is forgotten.', schema: ThirdPartyProviderEnum } },
    responses: { 200: EmptyObject },
  },
  'GET /v1/user': {
    summary: 'Find a user by id or email',
    description: 'Give `user_id` or `email`; when both are given, `user_id` decides.',
    query: GetUserQuery,
    errors: ['not_found'],
    responses: { 200: User },
  },
  'PUT /v1/users/{user_id}': {
    summary: 'Update a user',
    description:
      'Changes only the fields given; `manager_id: null` clears the manager. Setting `hr_idp_status` to a ' +
      'leaving status offboards the user: every access edge and session they hold ends at once, and their tokens ' +
      'stop working. `organization_role` sets what they may do (`ADMIN` or `MEMBER`); demoting or offboarding ' +
      'the last admin who is not offboarded is refused with 409, so the organization always keeps one.',
    extension: true,
    body: UpdateUserBody,
    responses: { 200: User },
  },
  'GET /v1/users/{user_id}': {
    summary: 'Get a user',
    extension: true,
    responses: { 200: User },
  },
});
