// The users area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { RemoteUser, User } from './responses.ts';
import type { OrganizationRole } from './roles.ts';

/** A users row as stored (other areas' SQL joins it: SCIM's lists read these columns). */
export interface UserRow {
  seq: number;
  id: string;
  email: string;
  full_name: string;
  first_name: string;
  last_name: string;
  position: string;
  manager_id: string | null;
  hr_idp_status: User['hr_idp_status'];
  organization_role: OrganizationRole;
  created_at: string;
}

export interface RemoteUserRow {
  seq: number;
  user_id: string;
  third_party_provider: RemoteUser['third_party_provider'];
  remote_id: string;
}

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
