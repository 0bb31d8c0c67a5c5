// Valibot schemas for an app's connector (extension endpoints under /v1/apps/{app_id}/connector) and the propagation list.
import * as v from 'valibot';
import { PageQueryEntries, QueryInteger, Text, Uuid } from '../../http/common-schemas.ts';
import { WebhookUrl } from '../event-streams/schemas.ts';

export const DRIFT_POLICIES = ['REPORT', 'IMPORT', 'REMOVE'] as const;
export const CONNECTOR_TYPES = ['OPAL_HTTP', 'POSTGRES'] as const;

const PostgresUrl = v.pipe(
  Text(2048),
  v.trim(),
  v.check((raw) => URL.canParse(raw) && ['postgres:', 'postgresql:'].includes(new URL(raw).protocol), 'must be a postgres:// or postgresql:// URL'),
);

/**
 * PUT /v1/apps/{app_id}/connector. Which fields are required follows the app's type (CUSTOM_CONNECTOR:
 * url and signing_secret; POSTGRES: connection_url), checked by the service. A secret sent back as the
 * mask GET shows keeps the stored one; read-only fields of GET's answer are ignored.
 */
export const PutConnectorBody = v.object({
  // Nullish: a strict client sends GET's answer back whole, nulls included (null = not given).
  url: v.nullish(WebhookUrl),
  signing_secret: v.nullish(v.pipe(Text(1000), v.minLength(1, 'must not be empty'))),
  connection_url: v.nullish(PostgresUrl),
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
