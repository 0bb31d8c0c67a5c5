// Valibot schemas for users and remote user accounts.
import * as v from 'valibot';
import { Name, PageQueryEntries, QueryList, Text, Uuid } from '../../http/common-schemas.ts';
import { DEFAULT_ORGANIZATION_ROLE, ORGANIZATION_ROLES } from './roles.ts';

/** The reference's ThirdPartyProviderEnum, spelled exactly. */
export const THIRD_PARTY_PROVIDERS = [
  'AUTH0', 'SLACK', 'GOOGLE_CHAT', 'JIRA', 'LINEAR', 'SERVICE_NOW', 'FRESH_SERVICE',
  'SHORTCUT', 'PAGER_DUTY', 'OPSGENIE', 'GIT_HUB', 'GIT_LAB', 'GIT_LAB_CONNECTION', 'TELEPORT',
] as const;

const Provider = v.picklist(THIRD_PARTY_PROVIDERS, `must be one of ${THIRD_PARTY_PROVIDERS.join(', ')}`);

export const Email = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.maxLength(320, 'must be at most 320 characters'),
  v.email('must be an email address'),
);

/** Gatehouse's extension: ADMIN or MEMBER (roles.ts). */
export const OrganizationRoleSchema = v.picklist(ORGANIZATION_ROLES, `must be one of ${ORGANIZATION_ROLES.join(', ')}`);

export const CreateUserBody = v.object({
  email: Email,
  full_name: Name(200),
  first_name: v.optional(Text(100)),
  last_name: v.optional(Text(100)),
  position: v.optional(Text(200), ''),
  manager_id: v.optional(v.nullable(Uuid)),
  organization_role: v.optional(OrganizationRoleSchema, DEFAULT_ORGANIZATION_ROLE),
});

export const ListUsersQuery = v.object({
  ...PageQueryEntries,
  // Users having ANY of these tags; repeated keys or comma-separated ids.
  tag_ids: v.optional(QueryList(Uuid, { commaSeparated: true })),
  // Extension: a manager's direct reports (the console's "Your reports").
  manager_id: v.optional(v.pipe(v.string('must be given once'), v.uuid('must be a UUID'), v.toLowerCase())),
  // Extension: people whose email or full name contains this text, in any case (the console's People search).
  contains: v.optional(v.pipe(v.string('must be given once'), v.maxLength(200, 'must be at most 200 characters'), v.metadata({ openapi: {
    type: 'string', maxLength: 200, 'x-gatehouse-extension': true,
    description: 'Only people whose email or full name contains this text, in any case. An extension: the reference has no such filter.',
  } }))),
});

export const GetUserQuery = v.pipe(
  v.object({
    user_id: v.optional(Uuid),
    email: v.optional(v.pipe(v.string('must be given once'), v.minLength(1, 'must not be empty'))),
  }),
  v.check((q) => q.user_id !== undefined || q.email !== undefined, 'give user_id or email'),
);

export const ListRemoteUsersQuery = v.object({
  ...PageQueryEntries,
  third_party_provider: v.optional(QueryList(Provider)),
  user_id: v.optional(QueryList(Uuid)),
  remote_id: v.optional(QueryList(v.string())),
});

export const CreateRemoteUserBody = v.object({
  user_id: Uuid,
  third_party_provider: Provider,
  remote_id: v.pipe(
    v.union([v.string(), v.number()], 'must be a string'),
    v.transform(String),
    v.minLength(1, 'must not be empty'),
    v.maxLength(200, 'must be at most 200 characters'),
  ),
});

export const RemoteUserProviderParam = Provider;

/** The reference's UserHrIdpStatusEnum. */
export const HR_IDP_STATUSES = ['ACTIVE', 'SUSPENDED', 'DEPROVISIONED', 'DELETED', 'NOT_FOUND'] as const;

/** PUT /users/{user_id} (Gatehouse's extension): every field optional; the ones given replace the stored ones. */
export const UpdateUserBody = v.object({
  // Extension: a new email (docs/users-and-tokens.md): told to both addresses; the person's sessions and links end.
  email: v.optional(Email),
  full_name: v.optional(Name(200)),
  first_name: v.optional(Text(100)),
  last_name: v.optional(Text(100)),
  position: v.optional(Text(200)),
  manager_id: v.optional(v.nullable(Uuid)),
  hr_idp_status: v.optional(v.picklist(HR_IDP_STATUSES, `must be one of ${HR_IDP_STATUSES.join(', ')}`)),
  organization_role: v.optional(OrganizationRoleSchema),
});
export type UpdateUserInput = v.InferOutput<typeof UpdateUserBody>;

/** PUT /v1/users/{user_id}/name (extension): the name people see, which a person may change for themselves. */
export const RenameUserBody = v.object({
  full_name: Name(200),
});
export type RenameUserInput = v.InferOutput<typeof RenameUserBody>;
