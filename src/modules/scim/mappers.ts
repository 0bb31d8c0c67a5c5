// SCIM's mappers (RFC 7643): users and groups rendered from their rows as SCIM resources, each with its meta and weak ETag.
import { createHash } from 'node:crypto';
import { ENTERPRISE_SCHEMA, GROUP_SCHEMA, SCIM_BASE, USER_SCHEMA, type Json } from './resources.ts';
import type { ScimGroupRow, ScimUserRow } from './store.ts';

/** A weak ETag over the resource's content: it changes exactly when what SCIM shows changes. */
function version(resource: Json): string {
  return `W/"${createHash('sha256').update(JSON.stringify(resource)).digest('base64url').slice(0, 22)}"`;
}

function withMeta(resource: Json, resourceType: 'User' | 'Group', id: string, created: string, lastModified: string, base: string): Json {
  return { ...resource, meta: { resourceType, created, lastModified, location: `${base}${SCIM_BASE}/${resourceType}s/${id}`, version: version(resource) } };
}

/** A Gatehouse user as a SCIM User (with the enterprise extension when it has any of its attributes). */
export function toScimUser(row: ScimUserRow, base: string): Json {
  const enterprise: Json = {
    ...(row.department !== null && { department: row.department }),
    ...(row.employee_number !== null && { employeeNumber: row.employee_number }),
    ...(row.manager_id !== null && { manager: { value: row.manager_id, $ref: `${base}${SCIM_BASE}/Users/${row.manager_id}` } }),
  };
  const hasEnterprise = Object.keys(enterprise).length > 0;
  const resource: Json = {
    schemas: hasEnterprise ? [USER_SCHEMA, ENTERPRISE_SCHEMA] : [USER_SCHEMA],
    id: row.id,
    ...(row.external_id !== null && { externalId: row.external_id }),
    userName: row.user_name ?? row.email,
    name: { formatted: row.full_name, givenName: row.first_name, familyName: row.last_name },
    displayName: row.display_name ?? row.full_name,
    ...(row.position !== '' && { title: row.position }),
    active: row.hr_idp_status === 'ACTIVE',
    // As the provider sent them; else the email alone.
    emails: row.emails !== null ? JSON.parse(row.emails) as Json[] : [{ value: row.email, type: 'work', primary: true }],
    ...(hasEnterprise && { [ENTERPRISE_SCHEMA]: enterprise }),
  };
  return withMeta(resource, 'User', row.id, row.created_at, row.modified_at ?? row.created_at, base);
}

/** A provider's group as a SCIM Group; `members` are its users' ids (left out when not asked for). */
export function toScimGroup(row: ScimGroupRow, members: { id: string; display: string }[] | null, base: string): Json {
  const resource: Json = {
    schemas: [GROUP_SCHEMA],
    id: row.id,
    ...(row.external_id !== null && { externalId: row.external_id }),
    displayName: row.name,
    ...(members && { members: members.map((m) => ({ value: m.id, display: m.display, type: 'User', $ref: `${base}${SCIM_BASE}/Users/${m.id}` })) }),
  };
  return withMeta(resource, 'Group', row.id, row.created_at, row.modified_at, base);
}
