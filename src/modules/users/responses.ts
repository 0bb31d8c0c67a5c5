// The users area's response shapes (Valibot): users and their remote identities, as the reference writes them; the types its mappers return and its answers in the API document.
import * as v from 'valibot';
import { component, uuid, extension, described, paginated } from '../../openapi/responses.ts';
import { ThirdPartyProviderEnum, UserHrIdpStatusEnum } from '../../openapi/enums.ts';

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
