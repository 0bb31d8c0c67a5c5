// The settings area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, described, integer } from '../../openapi/responses.ts';

export const GatehouseSettings = component('GatehouseSettings', described(v.object({
  version: described(v.string(), 'The Gatehouse version.'),
  schema_version: described(integer, 'The database schema version the file records.'),
  known_schema_version: described(integer, 'The newest schema version this build knows.'),
  public_url: described(v.string(), 'The address links are made from (GATEHOUSE_PUBLIC_URL, else http://HOST:PORT).'),
  integrations: described(v.object({
    email: v.boolean(),
    slack: v.boolean(),
    slack_interactivity: v.boolean(),
    single_sign_on: v.boolean(),
    replication: v.boolean(),
  }), 'Which outside services are set up.'),
  settings: described(v.array(v.object({
    name: described(v.string(), 'The environment variable.'),
    value: v.nullable(described(v.string(), 'The value in effect as text (lists comma-separated); null when unset; `********` for a secret that is set.')),
    is_default: described(v.boolean(), 'Whether the value is the default.'),
    secret: v.boolean(),
    description: v.string(),
  })), 'Every setting, in the order `gatehouse help` lists them.'),
}), "What this Gatehouse runs with. Secrets are never shown: a secret setting says only whether it is set, and a URL's password is masked."));
export type GatehouseSettings = v.InferOutput<typeof GatehouseSettings>;

export const GatehouseCheck = component('GatehouseCheck', described(v.object({
  ok: described(v.boolean(), 'No problem found.'),
  schema_version: v.nullable(integer),
  problems: described(v.array(v.string()), 'One line per problem.'),
  replicas: v.nullable(described(v.array(v.object({
    name: v.string(),
    healthy: v.boolean(),
    summary: v.string(),
  })), 'Each Litestream replica; null when the database is not replicated.')),
}), "What `gatehouse check` says: the database file's integrity, foreign keys and schema version, and each replica."));
export type GatehouseCheck = v.InferOutput<typeof GatehouseCheck>;
