// What this Gatehouse runs with (SETTINGS as loaded, secrets hidden) and what `gatehouse check` says of it.
import { SETTINGS, type Config, type Setting } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { checkGatehouseDatabase } from '../../db/check.ts';
import { recordedSchemaVersion } from '../../db/migrate.ts';
import { MIGRATIONS } from '../../db/migrations.ts';
import { replicasOf, ReplicationError } from '../../replication/litestream.ts';
import { VERSION } from '../../version.ts';

export const SECRET_MASK = '********';

/** A value as text for people: lists comma-separated, a URL's password masked; null when unset. */
function settingText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = Array.isArray(value) ? value.join(',') : String(value);
  // Any setting holding a URL may carry a password in it (GATEHOUSE_SMTP_URL does): never show one.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      if (url.password) {
        url.password = SECRET_MASK;
        return url.href;
      }
    } catch {
      // Not a URL after all: plain text.
    }
  }
  return text;
}

/** Every setting in effect, in SETTINGS' order; a secret shows only whether it is set. */
export function effectiveSettings(config: Config) {
  return (Object.entries(SETTINGS) as [keyof Config, Setting<unknown>][]).map(([key, setting]) => {
    const value = config[key];
    const isDefault = JSON.stringify(value) === JSON.stringify(setting.default);
    const secret = setting.secret === true;
    const shown = secret ? (value === undefined ? null : SECRET_MASK) : settingText(value);
    return { name: setting.env, value: shown, is_default: isDefault, secret, description: setting.description };
  });
}

/** GET /v1/settings: the version, the schema, the integrations set up and every setting (no secret). */
export function describeSettings(ctx: AppContext) {
  const { config } = ctx;
  return {
    version: VERSION,
    schema_version: recordedSchemaVersion(ctx.db) ?? 0,
    known_schema_version: MIGRATIONS.at(-1)?.version ?? 0,
    public_url: config.publicUrl ?? `http://${config.host}:${config.port}`,
    integrations: {
      email: config.smtpUrl !== undefined,
      slack: config.slackBotToken !== undefined,
      slack_interactivity: config.slackSigningSecret !== undefined,
      single_sign_on: config.oidcIssuer !== undefined && config.oidcClientId !== undefined,
      replication: config.litestreamConfig !== undefined,
    },
    settings: effectiveSettings(config),
  };
}

/** The read task behind GET /v1/settings/check: integrity, foreign keys and schema version, on the task's connection. */
export function checkDatabaseTask(ctx: AppContext) {
  const { problems, schemaVersion } = checkGatehouseDatabase(ctx.db);
  return { problems, schemaVersion: schemaVersion ?? null };
}

/**
 * GET /v1/settings/check: what `gatehouse check` says. The integrity check reads the whole file, so it runs
 * on a read worker; Litestream is asked outside any transaction (a child process, awaited).
 */
export async function checkGatehouse(ctx: AppContext, callerId: string, now: Date) {
  const database = await ctx.reads.run('settings.check', {}, callerId, now);
  const problems = [...database.problems];
  let replicas: { name: string; healthy: boolean; summary: string }[] | null = null;
  try {
    const found = await replicasOf(ctx.config);
    if (found) {
      replicas = found.map((replica) => ({ name: replica.name, healthy: replica.healthy, summary: replica.summary }));
      for (const replica of found) if (!replica.healthy) problems.push(`replica ${replica.summary}`);
    }
  } catch (err) {
    if (!(err instanceof ReplicationError)) throw err;
    replicas = [];
    problems.push(`replication: ${err.message}`);
  }
  return { ok: problems.length === 0, schema_version: database.schemaVersion, problems, replicas };
}
