// The settings area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, described, integer } from '../../openapi/responses.ts';

export const GatehouseSettings = component('GatehouseSettings', described(v.object({
  version: described(v.string(), 'The Gatehouse version.'),
  schema_version: described(integer, 'The database schema version the file records.'),
  known_schema_version: described(integer, 'The newest schema version this build knows.'),
  public_url: described(v.string(), 'The address links are made from (the public URL in effect, else the address `serve` listens at).'),
  integrations: described(v.object({
    email: v.boolean(),
    slack: v.boolean(),
    slack_interactivity: v.boolean(),
    single_sign_on: v.boolean(),
    replication: v.boolean(),
  }), 'Which outside services are set up.'),
  groups: described(v.array(v.object({
    group: v.string(),
    title: v.string(),
  })), 'The groups of settings an admin may set on the Settings page (PATCH /v1/settings), in its order.'),
  secret_key: described(v.object({
    source: described(v.picklist(['environment', 'file', 'none']), '`environment`: GATEHOUSE_SECRET_KEY; `file`: the key file; `none`: no key yet (it is made when the first secret is stored).'),
    file: v.nullable(described(v.string(), 'The key file beside the database (back it up apart from the database); null when the key comes from GATEHOUSE_SECRET_KEY.')),
  }), 'Where the key that encrypts stored secrets is: never the key itself.'),
  problems: described(v.array(v.string()), 'Stored settings that could not be read (another key, no key, a value no longer valid), so are not in effect.'),
  settings: described(v.array(v.object({
    name: described(v.string(), 'The environment variable.'),
    value: v.nullable(described(v.string(), 'The value in effect as text (lists comma-separated); null when unset; `********` for a secret that is set.')),
    is_set: described(v.boolean(), 'Whether it has a value (for a secret, all that is said of it).'),
    is_default: described(v.boolean(), 'Whether the value is the default.'),
    secret: v.boolean(),
    source: described(v.picklist(['environment', 'stored', 'default']), 'Where the value in effect comes from: its environment variable (or flag), which wins; the Settings page; or the default.'),
    group: v.nullable(described(v.string(), 'The Settings page group it may be set in; null when only its environment variable sets it.')),
    label: v.nullable(described(v.string(), 'Its name on the Settings page.')),
    accepts: v.nullable(described(v.string(), 'What it accepts, in words; null for free text.')),
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

export const SettingsTestResult = component('SettingsTestResult', described(v.object({
  ok: described(v.boolean(), 'Whether it worked.'),
  message: described(v.string(), 'What happened, in words (never a secret).'),
}), 'The outcome of a Settings page *Send a test* or *Check* (recorded as SETTINGS_TESTED).'));
