// Response components — users, their remote identities, API tokens and sessions.
// Wire facts (field names, types, formats, enums, required) agree with the reference; see docs/openapi.md.
import { component, extensionField } from '../schema.ts';
import { ApiAccessLevelEnum, ThirdPartyProviderEnum, UserHrIdpStatusEnum } from './enums.ts';
import { ResourceAccessLevel } from './access.ts';

export const User = component('User', {
  description: 'A person known to Gatehouse.',
  type: 'object',
  properties: {
    manager_id: extensionField({ type: 'string', format: 'uuid' }, 'The user\'s manager; absent when none is recorded.'),
    user_id: { type: 'string', format: 'uuid' },
    email: { type: 'string' },
    full_name: { type: 'string' },
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    position: { type: 'string' },
    hr_idp_status: UserHrIdpStatusEnum,
    organization_role: extensionField(
      { type: 'string', enum: ['ADMIN', 'MEMBER'] },
      'What the user may do in Gatehouse: ADMIN everything; MEMBER read, ask for access and review (docs/roles.md).',
    ),
  },
  required: ['user_id', 'email', 'full_name', 'first_name', 'last_name', 'position', 'organization_role'],
});

export const PaginatedUsersList = component('PaginatedUsersList', {
  type: 'object',
  properties: {
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: User },
  },
  required: ['results'],
});

export const UserList = component('UserList', { type: 'object', properties: { users: { type: 'array', items: User } }, required: ['users'] });

export const RemoteUser = component('RemoteUser', {
  description: 'A user\'s account at a third-party provider.',
  type: 'object',
  properties: {
    user_id: { type: 'string', format: 'uuid' },
    remote_id: { type: 'string' },
    third_party_provider: ThirdPartyProviderEnum,
  },
  required: ['user_id', 'remote_id', 'third_party_provider'],
});

export const PaginatedRemoteUsersList = component('PaginatedRemoteUsersList', {
  type: 'object',
  properties: {
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: RemoteUser },
  },
  required: ['results'],
});

export const Token = component('Token', {
  description: 'An API token, without its secret.',
  type: 'object',
  properties: {
    token_id: { type: 'string', format: 'uuid' },
    created_at: { type: 'string', format: 'date-time' },
    token_label: { type: 'string' },
    creator_user_id: { type: 'string', format: 'uuid' },
    user_id: { type: 'string', format: 'uuid' },
    last_used_at: { type: ['string', 'null'], format: 'date-time' },
    access_level: ApiAccessLevelEnum,
    expires_at: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['token_id', 'created_at', 'token_label', 'creator_user_id', 'user_id', 'access_level'],
});

export const PaginatedTokensList = component('PaginatedTokensList', {
  type: 'object',
  properties: {
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: Token },
  },
  required: ['results'],
});

export const Session = component('Session', {
  description: 'An open session of a user on a resource.',
  type: 'object',
  properties: {
    connection_id: { type: 'string', format: 'uuid' },
    user_id: { type: 'string', format: 'uuid' },
    resource_id: { type: 'string', format: 'uuid' },
    access_level: ResourceAccessLevel,
    expiration_date: { type: 'string', format: 'date-time' },
  },
  required: ['connection_id', 'user_id', 'resource_id', 'access_level', 'expiration_date'],
});

export const SessionsList = component('SessionsList', {
  type: 'object',
  properties: {
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: Session },
  },
});
