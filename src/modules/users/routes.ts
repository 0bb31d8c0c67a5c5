// The users area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { ThirdPartyProviderEnum } from '../../openapi/enums.ts';
import { PaginatedRemoteUsersList, PaginatedUsersList, RemoteUser, User } from './responses.ts';
import { CreateRemoteUserBody, CreateUserBody, GetUserQuery, ListRemoteUsersQuery, ListUsersQuery, RenameUserBody, UpdateUserBody } from './schemas.ts';

export const userRoutes = defineRoutes('users', {
  'POST /v1/users': {
    role: 'admin',
    summary: 'Create a user',
    description:
      'No identity provider syncs users into Gatehouse, so they are created here. The email must be unused. ' +
      '`organization_role` is `MEMBER` unless given.',
    extension: true,
    body: CreateUserBody,
    responses: { 200: User },
  },
  'GET /v1/users': {
    role: 'read',
    summary: 'List users',
    description: 'With `tag_ids`, only users carrying any of those tags. Extensions: `manager_id` keeps a manager\'s direct reports; `contains` keeps people whose email or full name contains the text, in any case.',
    query: ListUsersQuery,
    responses: { 200: PaginatedUsersList },
  },
  'GET /v1/users/remote_users': {
    role: 'read',
    summary: 'List remote user accounts',
    description: 'Each filter narrows the list; repeating a filter key widens that filter.',
    query: ListRemoteUsersQuery,
    responses: { 200: PaginatedRemoteUsersList },
  },
  'POST /v1/users/remote_users': {
    role: 'admin',
    summary: 'Record a remote user account',
    description: 'Links a user to their account at a third-party provider; a user has at most one account per provider.',
    extension: true,
    body: CreateRemoteUserBody,
    responses: { 200: RemoteUser },
  },
  'DELETE /v1/users/{user_id}/remote_users/{third_party_provider}': {
    role: 'admin', items: { user_id: null, third_party_provider: null },
    summary: 'Forget a remote user account',
    extension: true,
    pathParams: { third_party_provider: { description: 'The provider whose account is forgotten.', schema: ThirdPartyProviderEnum } },
    responses: { 200: EmptyObject },
  },
  'GET /v1/user': {
    role: 'read',
    summary: 'Find a user by id or email',
    description: 'Give `user_id` or `email`; when both are given, `user_id` decides.',
    query: GetUserQuery,
    errors: ['not_found'],
    responses: { 200: User },
  },
  'PUT /v1/users/{user_id}': {
    role: 'admin', items: { user_id: null },
    summary: 'Update a user',
    description:
      'Changes only the fields given; `manager_id: null` clears the manager. Setting `hr_idp_status` to a ' +
      'leaving status offboards the user: every access edge and session they hold ends at once, and their tokens ' +
      'stop working. `organization_role` sets what they may do (`ADMIN` or `MEMBER`); demoting or offboarding ' +
      'the last admin who is not offboarded is refused with 409, so the organization always keeps one. `email` ' +
      'changes their address (409 when another user has it); the change is emailed ' +
      'to the old address and the new one, and ends their console sessions and every sign-in link and invitation not yet used.',
    extension: true,
    body: UpdateUserBody,
    responses: { 200: User },
  },
  'PUT /v1/users/{user_id}/name': {
    role: 'member', items: { user_id: null },
    summary: 'Change a user\'s name',
    description:
      'The name people see (`full_name`), changed by the user themselves or an administrator; everything else ' +
      'about a user stays with administrators (`PUT /v1/users/{user_id}`). Records USERS_UPDATED.',
    extension: true,
    body: RenameUserBody,
    responses: { 200: User },
    errors: ['forbidden'],
  },
  'GET /v1/users/{user_id}': {
    role: 'read', items: { user_id: null },
    summary: 'Get a user',
    extension: true,
    responses: { 200: User },
  },
});
