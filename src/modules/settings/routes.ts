// The settings area's routes: what this Gatehouse runs with and what `gatehouse check` says of it, for
// admins (the console's Settings page); format: src/http/route.ts.
import { defineRoutes } from '../../http/route.ts';
import { GatehouseCheck, GatehouseSettings, SettingsTestResult } from './responses.ts';
import { SlackTestBody, UpdateSettingsBody } from './schemas.ts';

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
  'PATCH /v1/settings': {
    role: 'admin',
    summary: 'Set settings',
    description:
      'Sets (a string, as the environment variable takes it) or clears (null: back to the default) the settings an ' +
      'admin may set here (those with a `group` in GET /v1/settings): SMTP, Slack, single sign-on, the public URL, the ' +
      'on-call providers and the notification timings. All or none: a 400 names each field (`settings.GATEHOUSE_…`). A setting ' +
      'its environment variable sets is refused (the variable wins). Secrets, and a URL\'s password, are stored encrypted; a ' +
      'secret sent as `********` (or a URL with that password) keeps the one in effect. Applies at once, without a restart; ' +
      'recorded as SETTINGS_UPDATED, secrets only as `set`. Answers what GET does. docs/settings.md.',
    extension: true,
    body: UpdateSettingsBody,
    responses: { 200: GatehouseSettings },
  },
  'POST /v1/settings/email/test': {
    role: 'admin',
    summary: 'Send a test email',
    description: 'Sends a test email to the caller through the SMTP server in effect and says whether it went (200 either way). Recorded as SETTINGS_TESTED.',
    extension: true,
    responses: { 200: SettingsTestResult },
  },
  'POST /v1/settings/slack/test': {
    role: 'admin',
    summary: 'Send a test Slack message',
    description: 'Posts a test message through the bot token in effect: to `channel`, else to the caller as a direct message (found by their email). 200 either way, saying what happened. Recorded as SETTINGS_TESTED.',
    extension: true,
    body: SlackTestBody,
    responses: { 200: SettingsTestResult },
  },
  'POST /v1/settings/single-sign-on/check': {
    role: 'admin',
    summary: 'Check single sign-on',
    description: 'Reads the OpenID provider\'s discovery document for the issuer and client in effect, and says what it found (the endpoints, the redirect URI to register) or why it failed (200 either way). Recorded as SETTINGS_TESTED.',
    extension: true,
    responses: { 200: SettingsTestResult },
  },
  'POST /v1/settings/on-call/check': {
    role: 'admin',
    summary: 'Check the on-call providers',
    description: 'Calls each on-call provider whose API key is in effect (PagerDuty, Opsgenie), asking for a schedule that does not exist: "not found" means the provider took the key; a refused key or an unreachable provider is said (200 either way). Recorded as SETTINGS_TESTED.',
    extension: true,
    responses: { 200: SettingsTestResult },
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
