// SCIM's resources as Gatehouse serves them (RFC 7643): their schema URNs and limits, the attribute
// tables filters and projections read, and the discovery documents (ServiceProviderConfig,
// ResourceTypes, Schemas); mappers.ts renders users and groups from their rows.
import type { FilterAttributes } from './filter.ts';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const SCIM_BASE = '/scim/v2';

/** Largest page a list answers (ServiceProviderConfig's filter.maxResults). */
export const MAX_RESULTS = 200;
/** Most members a group takes or changes in one request (docs/scim.md: larger pushes are sent in parts). */
export const MAX_MEMBER_CHANGES = 1_000;

export type Json = Record<string, unknown>;

/** Schema URNs a filter or attribute path may start with (lower case). */
export const USER_URNS = [ENTERPRISE_SCHEMA.toLowerCase(), USER_SCHEMA.toLowerCase()] as const;
export const GROUP_URNS = [GROUP_SCHEMA.toLowerCase()] as const;

/** What a Users filter may name (src/modules/scim/store.ts's aliases: u users, s scim_users). */
export const USER_FILTER_ATTRIBUTES: FilterAttributes = {
  id: { sql: 'u.id', type: 'string', caseExact: true },
  username: { sql: 'coalesce(s.user_name, u.email)', type: 'string' },
  externalid: { sql: 's.external_id', type: 'string', caseExact: true },
  'emails.value': { sql: 'u.email', type: 'string' },
  'emails.type': { sql: "'work'", type: 'string' },
  'emails.primary': { sql: '1', type: 'boolean' },
  displayname: { sql: 'u.full_name', type: 'string' },
  'name.formatted': { sql: 'u.full_name', type: 'string' },
  'name.givenname': { sql: 'u.first_name', type: 'string' },
  'name.familyname': { sql: 'u.last_name', type: 'string' },
  title: { sql: 'u.position', type: 'string' },
  active: { sql: "u.hr_idp_status = 'ACTIVE'", type: 'boolean' },
  department: { sql: 's.department', type: 'string' },
  employeenumber: { sql: 's.employee_number', type: 'string' },
  'manager.value': { sql: 'u.manager_id', type: 'string', caseExact: true },
  'meta.created': { sql: 'u.created_at', type: 'dateTime' },
  'meta.lastmodified': { sql: 'coalesce(s.modified_at, u.created_at)', type: 'dateTime' },
};

/** What a Groups filter may name (aliases: g groups, s scim_groups). */
export const GROUP_FILTER_ATTRIBUTES: FilterAttributes = {
  id: { sql: 'g.id', type: 'string', caseExact: true },
  displayname: { sql: 'g.name', type: 'string' },
  externalid: { sql: 's.external_id', type: 'string', caseExact: true },
  'meta.created': { sql: 's.created_at', type: 'dateTime' },
  'meta.lastmodified': { sql: 's.modified_at', type: 'dateTime' },
};

/** ServiceProviderConfig (RFC 7643 §5): what this provider supports. */
export function serviceProviderConfig(base: string): Json {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri: `${base}/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      { type: 'oauthbearertoken', name: 'Bearer token', description: 'A SCIM token from `gatehouse token create --scim` (docs/scim.md).', primary: true },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}${SCIM_BASE}/ServiceProviderConfig` },
  };
}

export function resourceTypes(base: string): Json[] {
  return [
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'], id: 'User', name: 'User', endpoint: '/Users', description: 'A person',
      schema: USER_SCHEMA, schemaExtensions: [{ schema: ENTERPRISE_SCHEMA, required: false }],
      meta: { resourceType: 'ResourceType', location: `${base}${SCIM_BASE}/ResourceTypes/User` },
    },
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'], id: 'Group', name: 'Group', endpoint: '/Groups', description: 'A group of people',
      schema: GROUP_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${base}${SCIM_BASE}/ResourceTypes/Group` },
    },
  ];
}

type Attr = { name: string; type: string; multiValued?: boolean; required?: boolean; caseExact?: boolean; mutability?: string; returned?: string; uniqueness?: string; subAttributes?: Attr[]; referenceTypes?: string[] };
const attr = (name: string, extra: Partial<Attr> = {}): Json => ({
  name, type: 'string', multiValued: false, required: false, caseExact: false, mutability: 'readWrite', returned: 'default', uniqueness: 'none', ...extra,
});

/** The schemas (RFC 7643 §7) of what Gatehouse stores; attributes it does not keep are left out. */
export function schemas(base: string): Json[] {
  const schema = (id: string, name: string, attributes: Json[]): Json => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'], id, name, description: name, attributes,
    meta: { resourceType: 'Schema', location: `${base}${SCIM_BASE}/Schemas/${id}` },
  });
  return [
    schema(USER_SCHEMA, 'User', [
      attr('userName', { required: true, uniqueness: 'server' }),
      attr('externalId', { caseExact: true }),
      attr('name', { type: 'complex', subAttributes: [attr('formatted'), attr('givenName'), attr('familyName')] as never }),
      attr('displayName'),
      attr('title'),
      attr('active', { type: 'boolean' }),
      attr('emails', { type: 'complex', multiValued: true, subAttributes: [attr('value'), attr('type'), attr('primary', { type: 'boolean' })] as never }),
      attr('password', { mutability: 'writeOnly', returned: 'never' }),
    ]),
    schema(ENTERPRISE_SCHEMA, 'EnterpriseUser', [
      attr('employeeNumber'),
      attr('department'),
      attr('manager', { type: 'complex', subAttributes: [attr('value'), attr('$ref', { type: 'reference', referenceTypes: ['User'] } as never), attr('displayName', { mutability: 'readOnly' })] as never }),
    ]),
    schema(GROUP_SCHEMA, 'Group', [
      attr('displayName', { required: true }),
      attr('externalId', { caseExact: true }),
      attr('members', {
        type: 'complex', multiValued: true,
        subAttributes: [attr('value', { mutability: 'immutable' }), attr('display', { mutability: 'readOnly' }), attr('type', { mutability: 'immutable' }), attr('$ref', { type: 'reference', mutability: 'immutable', referenceTypes: ['User'] } as never)] as never,
      }),
    ]),
  ];
}
