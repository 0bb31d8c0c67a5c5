// The SCIM area's response shapes (Valibot): RFC 7643's resources as Gatehouse keeps them and RFC 7644's
// list and error messages; the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, dateTime, described, integer, uuid } from '../../openapi/responses.ts';
import { ENTERPRISE_SCHEMA, MAX_RESULTS } from './resources.ts';

/** Where a resource lives and when it changed (RFC 7643 §3.1). */
const meta = v.object({
  resourceType: v.picklist(['User', 'Group']),
  created: dateTime,
  lastModified: dateTime,
  location: v.pipe(v.string(), v.url()),
  version: described(v.string(), 'A weak ETag over the resource: it changes whenever the resource does.'),
});

export const ScimError = component('ScimError', described(v.object({
  schemas: v.array(v.literal('urn:ietf:params:scim:api:messages:2.0:Error')),
  status: described(v.pipe(v.string(), v.regex(/^[45][0-9][0-9]$/)), 'The HTTP status, as a string (RFC 7644).'),
  scimType: v.optional(v.picklist(['uniqueness', 'invalidFilter', 'invalidSyntax', 'invalidValue', 'mutability', 'noTarget', 'invalidPath', 'tooMany'])),
  detail: described(v.pipe(v.string(), v.nonEmpty()), 'What went wrong, naming the attribute at fault.'),
}), 'RFC 7644 §3.12: every /scim/v2 failure. `scimType` says which SCIM problem a 400 or 409 is.'));
export type ScimError = v.InferOutput<typeof ScimError>;

export const ScimUser = component('ScimUser', described(v.object({
  schemas: v.pipe(v.array(v.string()), v.minLength(1)),
  id: uuid,
  externalId: v.optional(v.string()),
  userName: v.string(),
  name: v.object({
    formatted: v.string(),
    givenName: v.string(),
    familyName: v.string(),
  }),
  displayName: v.string(),
  title: v.optional(v.string()),
  active: v.boolean(),
  emails: v.array(v.object({
    value: v.string(),
    type: v.optional(v.string()),
    primary: v.optional(v.boolean()),
    display: v.optional(v.string()),
  })),
  [ENTERPRISE_SCHEMA]: v.optional(v.object({
    department: v.optional(v.string()),
    employeeNumber: v.optional(v.string()),
    manager: v.optional(v.object({
      value: uuid,
      $ref: v.pipe(v.string(), v.url()),
    })),
  })),
  meta,
}), 'A Gatehouse user as a SCIM User (RFC 7643 §4.1): `userName` is the provider\'s (the email unless it sent another), `emails` as it sent them (else the email alone, work and primary); `active` is false for an offboarded user.'));
export type ScimUser = v.InferOutput<typeof ScimUser>;

export const ScimGroup = component('ScimGroup', described(v.object({
  schemas: v.pipe(v.array(v.string()), v.minLength(1)),
  id: uuid,
  externalId: v.optional(v.string()),
  displayName: v.optional(v.string()),
  members: v.optional(v.array(v.object({
    value: uuid,
    display: v.string(),
    type: v.literal('User'),
    $ref: v.pipe(v.string(), v.url()),
  }))),
  meta,
}), 'A group the identity provider pushed, as a SCIM Group (RFC 7643 §4.2); `members` are users.'));
export type ScimGroup = v.InferOutput<typeof ScimGroup>;

/** Discovery documents are described loosely: their content is RFC 7643's §5–§7, as fixed as the code. */
export const discovery = (description: string) => described(v.objectWithRest({ schemas: v.array(v.string()) }, v.unknown()), description);

/** What `attributes` may leave of a resource: `id` and `schemas` always. */
const projected = (of: string) => described(v.objectWithRest({ id: v.string(), schemas: v.array(v.string()) }, v.unknown()), `A ${of}, cut to the attributes asked for.`);

/** A user as answered: whole, or cut to the attributes asked for. */
export const ScimUserAnswer = v.union([ScimUser, projected('ScimUser')]);
/** A group as answered: whole, or cut to the attributes asked for. */
export const ScimGroupAnswer = v.union([ScimGroup, projected('ScimGroup')]);

/** A list answer (RFC 7644 §3.4.2) of `item`s. With attributes/excludedAttributes an item may carry fewer attributes. */
const listOf = <S extends v.GenericSchema>(name: string, item: S) => component(name, v.object({
  schemas: v.array(v.literal('urn:ietf:params:scim:api:messages:2.0:ListResponse')),
  totalResults: v.pipe(integer, v.minValue(0)),
  startIndex: v.pipe(integer, v.minValue(1)),
  itemsPerPage: v.pipe(integer, v.minValue(0), v.maxValue(MAX_RESULTS)),
  Resources: v.array(item),
}));

export const ScimUserList = listOf('ScimUserList', ScimUserAnswer);
export const ScimGroupList = listOf('ScimGroupList', ScimGroupAnswer);
