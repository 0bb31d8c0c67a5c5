// The settings area's routes: what this Gatehouse runs with and what `gatehouse check` says of it, for
// admins (the console's Settings page); format: src/http/route.ts.
import { defineRoutes } from '../../http/route.ts';
import { component } from '../../openapi/schema.ts';

const Configured = { type: 'boolean' } as const;

export const GatehouseSettings = component('GatehouseSettings', {
  description: 'What this Gatehouse runs with. Secrets are never shown: a secret setting says only whether it is set, and a URL\'s password is masked.',
  type: 'object',
  properties: {
    version: { type: 'string', description: 'The Gatehouse version.' },
    schema_version: { type: 'integer', description: 'The database schema version the file records.' },
    known_schema_version: { type: 'integer', description: 'The newest schema version this build knows.' },
    public_url: { type: 'string', description: 'The address links are made from (GATEHOUSE_PUBLIC_URL, else http://HOST:PORT).' },
    integrations: {
      type: 'object',
      description: 'Which outside services are set up.',
      properties: {
        email: Configured,
        slack: Configured,
        slack_interactivity: Configured,
        single_sign_on: Configured,
        replication: Configured,
      },
      required: ['email', 'slack', 'slack_interactivity', 'single_sign_on', 'replication'],
    },
    settings: {
      type: 'array',
      description: 'Every setting, in the order `gatehouse help` lists them.',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'The environment variable.' },
          value: { type: ['string', 'null'], description: 'The value in effect as text (lists comma-separated); null when unset; `********` for a secret that is set.' },
          is_default: { type: 'boolean', description: 'Whether the value is the default.' },
          secret: { type: 'boolean' },
          description: { type: 'string' },
        },
        required: ['name', 'value', 'is_default', 'secret', 'description'],
      },
    },
  },
  required: ['version', 'schema_version', 'known_schema_version', 'public_url', 'integrations', 'settings'],
});

export const GatehouseCheck = component('GatehouseCheck', {
  description: 'What `gatehouse check` says: the database file\'s integrity, foreign keys and schema version, and each replica.',
  type: 'object',
  properties: {
    ok: { type: 'boolean', description: 'No problem found.' },
    schema_version: { type: ['integer', 'null'] },
    problems: { type: 'array', items: { type: 'string' }, description: 'One line per problem.' },
    replicas: {
      type: ['array', 'null'],
      description: 'Each Litestream replica; null when the database is not replicated.',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, healthy: { type: 'boolean' }, summary: { type: 'string' } },
        required: ['name', 'healthy', 'summary'],
      },
    },
  },
  required: ['ok', 'schema_version', 'problems', 'replicas'],
});

export const settingsRoutes = defineRoutes('settings', {
  'GET /v1/settings': {
    role: 'admin-read',
    summary: 'What this Gatehouse runs with',
    description:
      'The version, the schema version, which integrations are set up and every setting in effect. A secret ' +
      '(tokens, client and signing secrets) is shown as `********` when set; a URL\'s password is masked.',
    extension: true,
    responses: { 200: GatehouseSettings },
  },
  'GET /v1/settings/check': {
    role: 'admin-read',
    summary: 'Check the database and its replicas',
    description:
      'What `gatehouse check` says: SQLite\'s integrity check, the foreign keys, the schema version and, when ' +
      'replicated, each replica\'s lag. Read-only; runs on a read worker, so a large file does not hold up other requests.',
    extension: true,
    responses: { 200: GatehouseCheck },
  },
});
