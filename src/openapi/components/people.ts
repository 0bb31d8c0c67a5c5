// Response components — users, their remote identities, API tokens and sessions.
// Valibot schemas; wire facts (field names, types, formats, enums) agree with the reference, and a field Gatehouse always sends is required. See docs/openapi.md.
import * as v from 'valibot';
import { component, uuid, dateTime, extension, described, paginated, cursor } from '../responses.ts';
import { ResourceAccessLevel } from './access.ts';
import { ApiAccessLevelEnum, ThirdPartyProviderEnum, UserHrIdpStatusEnum } from './enums.ts';

export const User = component('User', described(v.object({
  manager_id: v.optional(extension(uuid, "The user's manager; absent when none is recorded.")),
  user_id: uuid,
  email: v.string(),
  full_name: v.string(),
  first_name: v.string(),
  last_name: v.string(),
  position: v.string(),
  hr_idp_status: UserHrIdpStatusEnum,
  organization_role: extension(v.picklist(['ADMIN', 'MEMBER']), 'What the user may do in Gatehouse: ADMIN everything; MEMBER read, ask for access and review (docs/roles.md).'),
}), 'A person known to Gatehouse.'));
export type User = v.InferOutput<typeof User>;

export const PaginatedUsersList = paginated('PaginatedUsersList', User);

export const UserList = component('UserList', v.object({
  users: v.array(User),
}));

export const RemoteUser = component('RemoteUser', described(v.object({
  user_id: uuid,
  remote_id: v.string(),
  third_party_provider: ThirdPartyProviderEnum,
}), "A user's account at a third-party provider."));
export type RemoteUser = v.InferOutput<typeof RemoteUser>;

export const PaginatedRemoteUsersList = paginated('PaginatedRemoteUsersList', RemoteUser);

/** A token's fields, which IssuedToken also has. */
export const TokenFields = v.object({
  token_id: uuid,
  created_at: dateTime,
  token_label: v.string(),
  creator_user_id: uuid,
  user_id: uuid,
  last_used_at: v.optional(v.nullable(dateTime)),
  access_level: ApiAccessLevelEnum,
  expires_at: v.optional(v.nullable(dateTime)),
  scope: v.optional(extension(v.picklist(['API', 'SCIM']), 'Where the token works: `API` on /v1, `SCIM` only on /scim/v2 (an identity provider\'s; docs/scim.md).')),
});

export const Token = component('Token', described(TokenFields, 'An API token, without its secret.'));
export type Token = v.InferOutput<typeof Token>;

export const PaginatedTokensList = paginated('PaginatedTokensList', Token);

export const Session = component('Session', described(v.object({
  connection_id: uuid,
  user_id: uuid,
  resource_id: uuid,
  access_level: ResourceAccessLevel,
  expiration_date: dateTime,
}), 'An open session of a user on a resource.'));
export type Session = v.InferOutput<typeof Session>;

export const SessionsList = component('SessionsList', v.object({
  next: cursor,
  previous: cursor,
  results: v.optional(v.array(Session)),
}));
