// The users area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { RemoteUser, User } from './responses.ts';
import type { UserRow, RemoteUserRow } from './store.ts';

/** A user as the API answers it (the User response schema). */
export type ApiUser = User;

export function toApiUser(row: UserRow): ApiUser {
  return {
    user_id: row.id,
    email: row.email,
    full_name: row.full_name,
    first_name: row.first_name,
    last_name: row.last_name,
    position: row.position,
    hr_idp_status: row.hr_idp_status,
    ...(row.manager_id !== null && { manager_id: row.manager_id }),
    organization_role: row.organization_role,
  };
}

/** A remote user as the API answers it (the RemoteUser response schema). */
export type ApiRemoteUser = RemoteUser;

export const toApiRemoteUser = (row: RemoteUserRow): ApiRemoteUser => ({
  user_id: row.user_id,
  remote_id: row.remote_id,
  third_party_provider: row.third_party_provider,
});
