// Valibot schemas for an app's connector (extension endpoints under /v1/apps/{app_id}/connector) and the propagation list.
import * as v from 'valibot';
import { PageQueryEntries, QueryInteger, Text, Uuid } from '../../http/common-schemas.ts';
import { CONNECTOR_KINDS } from './adapters.ts';

export const DRIFT_POLICIES = ['REPORT', 'IMPORT', 'REMOVE'] as const;

/** The connector types, as the table of adapters.ts has them. */
export const CONNECTOR_TYPES = CONNECTOR_KINDS.map((kind) => kind.type);

/**
 * Every connector type's configuration fields, each nullish: the body declares them all (the document
 * shows each), and which are required is the app's connector type's, checked by its schema in the service.
 */
const configurationFields = Object.fromEntries(CONNECTOR_KINDS.flatMap((kind) =>
  Object.entries(kind.configuration.entries).map(([field, schema]) => [field, v.nullish(schema)] as const)));

/**
 * PUT /v1/apps/{app_id}/connector: the configuration's fields of the app's connector type, at the top
 * level (CUSTOM_CONNECTOR: url and signing_secret; POSTGRES: connection_url), and the fields every
 * connector has. A secret sent back as the mask GET shows keeps the stored one; read-only fields of
 * GET's answer are ignored.
 */
export const PutConnectorBody = v.object({
  // Nullish: a strict client sends GET's answer back whole, nulls included (null = not given).
  ...configurationFields,
  timeout_ms: v.optional(v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(100, 'must be at least 100'), v.maxValue(300_000, 'must be at most 300000')), 10_000),
  drift_policy: v.optional(v.picklist(DRIFT_POLICIES, `must be one of ${DRIFT_POLICIES.join(', ')}`), 'REPORT'),
});
export type PutConnectorInput = v.InferOutput<typeof PutConnectorBody>;

export const ListPropagationsQuery = v.object({
  app_id: v.optional(Uuid),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(2000, 'is too long'))),
  page_size: v.optional(QueryInteger(1, 1000), '200'),
});

/** GET /v1/apps/{app_id}/connector/unmatched-users: a keyset page. */
export const ListUnmatchedUsersQuery = v.object({ ...PageQueryEntries });

/** GET /v1/resources/{resource_id}/unmatched-remote-users (and groups'): a page of it. */
export const ListUnmatchedAccessQuery = v.object({ ...PageQueryEntries });

/** PUT /v1/apps/{app_id}/connector/user-links: an admin links a remote user the connector's sync read to a person (null: to nobody). */
export const LinkRemoteUserBody = v.object({
  remote_user_id: v.pipe(Text(1000), v.minLength(1, 'must not be empty')),
  user_id: v.nullable(Uuid),
});
export type LinkRemoteUserInput = v.InferOutput<typeof LinkRemoteUserBody>;
