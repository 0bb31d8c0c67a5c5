// The settings area's routes: what this Gatehouse runs with and what `gatehouse check` says of it, for
// admins (the console's Settings page); format: src/http/route.ts.
import { defineRoutes } from '../../http/route.ts';
import { GatehouseCheck, GatehouseSettings } from './responses.ts';

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
