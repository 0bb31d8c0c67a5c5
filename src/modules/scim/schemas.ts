// What an identity provider may send, checked with the API's own rules: attribute names in any case
// (RFC 7643 §2.1), booleans as Entra ID sends them ("False"), and only the attributes Gatehouse keeps.
import * as v from 'valibot';
import { Name, Text } from '../../http/common-schemas.ts';
import { Email } from '../users/schemas.ts';
import { ENTERPRISE_SCHEMA, MAX_MEMBER_CHANGES, type Json } from './resources.ts';

/** Attribute names by their lower case, for each complex attribute whose keys are canonicalised. */
export interface Shape {
  names: Record<string, string>;
  nested?: Record<string, Shape>;
  /** Attributes of the schema Gatehouse takes and keeps nothing of: an operation on one changes nothing (patch.ts). */
  dropped?: Record<string, string>;
}
const names = (...list: string[]): Record<string, string> => Object.fromEntries(list.map((n) => [n.toLowerCase(), n]));

const MANAGER: Shape = { names: names('value', '$ref', 'displayName') };
const ENTERPRISE: Shape = { names: names('department', 'employeeNumber', 'manager', 'costCenter', 'organization', 'division'), nested: { manager: MANAGER } };
export const USER_SHAPE: Shape = {
  names: names('schemas', 'id', 'externalId', 'userName', 'name', 'displayName', 'nickName', 'title', 'active', 'emails', 'password', 'meta', 'locale', 'timezone', 'userType', 'preferredLanguage', ENTERPRISE_SCHEMA),
  nested: {
    name: { names: names('formatted', 'givenName', 'familyName', 'middleName', 'honorificPrefix', 'honorificSuffix') },
    emails: { names: names('value', 'type', 'primary', 'display') },
    [ENTERPRISE_SCHEMA]: ENTERPRISE,
  },
  // RFC 7643 §4.1's other User attributes: Entra ID maps phone numbers and addresses by default and
  // changes them with filtered paths (`phoneNumbers[type eq "work"].value`); Gatehouse keeps none of them.
  dropped: names('phoneNumbers', 'ims', 'photos', 'addresses', 'entitlements', 'roles', 'x509Certificates', 'profileUrl', 'groups'),
};
export const GROUP_SHAPE: Shape = {
  names: names('schemas', 'id', 'externalId', 'displayName', 'members', 'meta'),
  nested: { members: { names: names('value', 'display', 'type', '$ref') } },
};

/**
 * `value` with the keys `shape` knows spelled as the schema spells them (`UserName` → `userName`,
 * a URN in any case → the URN), at most two levels down; other keys are kept as sent. Arrays of
 * objects (emails, members) are canonicalised item by item.
 */
export function canonicalKeys(value: unknown, shape: Shape): unknown {
  if (Array.isArray(value)) return value.map((item) => canonicalKeys(item, shape));
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value as Json)) {
    const name = shape.names[key.toLowerCase()] ?? key;
    const nested = shape.nested?.[name];
    out[name] = nested ? canonicalKeys(item, nested) : item;
  }
  return out;
}

/** A boolean, or Entra ID's "True"/"False" strings. */
const ScimBoolean = v.union(
  [v.boolean(), v.pipe(v.string(), v.regex(/^(true|false)$/i), v.transform((text) => text.toLowerCase() === 'true'))],
  'must be true or false',
);
const optional = <S extends v.GenericSchema>(schema: S) => v.optional(v.nullable(schema));

/** A manager as the enterprise extension gives it: `{ value }`, or (Entra ID's PATCH) the id alone. */
const Manager = v.union([v.string('must be a user id'), v.object({ value: optional(v.string('must be a user id')) })], 'must be { "value": user id }');

/** One of a user's emails as a provider sends it (RFC 7643 §4.1.2); its value is checked when it is the one used. */
const ScimEmail = v.object({
  value: v.pipe(v.string('must be a string'), v.trim(), v.maxLength(320, 'must be at most 320 characters')),
  type: optional(v.pipe(v.string('must be a string'), v.maxLength(50, 'must be at most 50 characters'))),
  primary: v.optional(v.nullable(ScimBoolean)),
  display: optional(v.pipe(v.string('must be a string'), v.maxLength(320, 'must be at most 320 characters'))),
}, 'must be {"value": "…", "type": "work", "primary": true}');

export const ScimUserBody = v.object({
  // Any unique name (RFC 7643 §4.1.1: unique, compared ignoring case); the email comes from `emails`, else from it.
  userName: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(320, 'must be at most 320 characters'),
    v.check((text) => !/[\u0000-\u001f\u007f]/.test(text), 'must not hold control characters')),
  emails: optional(v.pipe(v.array(ScimEmail, 'must be a list of emails'), v.maxLength(20, 'must list at most 20 emails'))),
  externalId: optional(Text(200)),
  name: optional(v.object({ formatted: optional(Text(200)), givenName: optional(Text(100)), familyName: optional(Text(100)) }, 'must be a JSON object')),
  displayName: optional(Text(200)),
  title: optional(Text(200)),
  active: v.optional(ScimBoolean),
  [ENTERPRISE_SCHEMA]: optional(v.object({ department: optional(Text(200)), employeeNumber: optional(Text(100)), manager: optional(Manager) }, 'must be a JSON object')),
});
export type ScimUserInput = v.InferOutput<typeof ScimUserBody>;

const Member = v.object({
  value: v.string('must be a user id'),
  type: optional(v.string('must be a string')),
});
export const ScimGroupBody = v.object({
  displayName: Name(200),
  externalId: optional(Text(200)),
  members: optional(v.pipe(v.array(Member, 'must be a list'), v.maxLength(MAX_MEMBER_CHANGES * 10, `must list at most ${MAX_MEMBER_CHANGES * 10} members`))),
});
export type ScimGroupInput = v.InferOutput<typeof ScimGroupBody>;

/** One PATCH operation as RFC 7644 §3.5.2 writes it, op in any case (Entra ID capitalises it). */
const PatchOperation = v.object({
  op: v.pipe(v.string('must be add, replace or remove'), v.toLowerCase(), v.picklist(['add', 'replace', 'remove'], 'must be add, replace or remove')),
  path: v.optional(v.pipe(v.string('must be a string'), v.maxLength(500, 'must be at most 500 characters'))),
  value: v.optional(v.unknown()),
});
/** A PATCH body's attribute names (RFC 7644 §3.5.2), in any case as the others. */
export const PATCH_SHAPE: Shape = { names: names('schemas', 'Operations'), nested: { Operations: { names: names('op', 'path', 'value') } } };
export const PatchBody = v.object({
  schemas: v.optional(v.array(v.string())),
  // A hard stop for the schema's own walk; the PATCH's bound (group-patch.ts, 400 tooMany) is checked next.
  Operations: v.pipe(v.array(PatchOperation, 'must be a list of operations'), v.minLength(1, 'must have at least one operation'), v.maxLength(10_000, 'must have at most 10000 operations')),
});
export type PatchInput = v.InferOutput<typeof PatchBody>;

/** The query of a list: RFC 7644 §3.4.2 (startIndex is 1-based; attribute lists are comma-separated). */
export interface ListQuery {
  filter?: string;
  startIndex: number;
  count: number;
  attributes?: string[];
  excludedAttributes?: string[];
}

/** A list of attribute names: RFC 7644 §3.4.3 sends an array; a comma-separated string (the query's form) is taken too. */
const AttributeList = v.pipe(
  v.union([v.array(v.pipe(v.string('must be attribute names'), v.maxLength(200, 'must be at most 200 characters each'))), v.string('must be attribute names')], 'must be a list of attribute names'),
  v.transform((names) => (typeof names === 'string' ? names.split(',') : names).map((n) => n.trim()).filter((n) => n !== '').slice(0, 100)),
);
const Whole = v.pipe(v.union([v.number(), v.pipe(v.string(), v.regex(/^-?\d{1,15}$/), v.transform(Number))], 'must be a whole number'), v.integer('must be a whole number'));

/** RFC 7644 §3.4.3's SearchRequest attributes, in any case. */
export const SEARCH_SHAPE: Shape = { names: names('schemas', 'filter', 'startIndex', 'count', 'attributes', 'excludedAttributes', 'sortBy', 'sortOrder') };

/** POST /.search (RFC 7644 §3.4.3): the list's query in a body. */
export const SearchBody = v.object({
  schemas: v.optional(v.array(v.string())),
  filter: v.optional(v.pipe(v.string('must be a SCIM filter'), v.maxLength(10_000, 'must be at most 10000 characters'))),
  startIndex: v.optional(Whole),
  count: v.optional(Whole),
  attributes: v.optional(AttributeList),
  excludedAttributes: v.optional(AttributeList),
});

/** Whether `text` is an email address as POST /v1/users takes one. */
export const isEmail = (text: string): boolean => v.is(Email, text) && text === text.trim();
