// What this Gatehouse runs with (every setting in effect, where it comes from, secrets hidden), the
// settings an admin stores on the Settings page (validated as their variables are, secrets sealed,
// audited, applied at once through ctx.config), and what `gatehouse check` says of the file.
import { checkTogether, ConfigError, SETTING_GROUPS, SETTINGS, type Config, type Setting, type SettingName } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { checkGatehouseDatabase } from '../../db/check.ts';
import { recordedSchemaVersion } from '../../db/migrate.ts';
import { MIGRATIONS } from '../../db/migrations.ts';
import { AppError, invalidField } from '../../http/errors.ts';
import { addressPolicy } from '../../http/outbound.ts';
import { publicBase } from '../../http/public-base.ts';
import type { FieldProblem } from '../../http/errors.ts';
import type { Actor } from '../events/store.ts';
import { replicasOf, ReplicationError } from '../../replication/litestream.ts';
import { VERSION } from '../../version.ts';
import { keyFileOf, open, seal, SecretBoxError, settingsKey } from './secret-box.ts';

export const SECRET_MASK = '********';

/** The longest value stored for one setting: far beyond any URL, token or list a setting holds. */
const MAX_VALUE_CHARS = 4096;

const ENTRIES = Object.entries(SETTINGS) as [SettingName, Setting<unknown>][];
const BY_VARIABLE = new Map(ENTRIES.map(([key, setting]) => [setting.env as string, [key, setting] as const]));

/** A URL's password, if `text` is a URL with one. */
function urlPassword(text: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return undefined;
  try {
    return new URL(text).password || undefined;
  } catch {
    return undefined;
  }
}

/** A value as text for people: lists comma-separated, a URL's password masked; null when unset. */
function settingText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = Array.isArray(value) ? value.join(',') : String(value);
  // Any setting holding a URL may carry a password in it (GATEHOUSE_SMTP_URL does): never show one.
  if (urlPassword(text) !== undefined) {
    const url = new URL(text);
    url.password = SECRET_MASK;
    return url.href;
  }
  return text;
}

/** The policy's refusal of the address a URL setting names outright (an IP; a name is checked as it resolves, when connected to). */
function refusedTarget(ctx: AppContext, raw: string) {
  try {
    return addressPolicy(ctx.config).refuses(new URL(raw).hostname);
  } catch {
    return undefined;
  }
}

/** What a setting shows: a secret only whether it is set; anything else as text, a URL's password masked. */
const shown = (setting: Setting<unknown>, value: unknown): string | null =>
  setting.secret ? (value === undefined ? null : SECRET_MASK) : settingText(value);

/** Why stored settings could not be read, per context, from its last reading (shown on the Settings page). */
const unreadable = new WeakMap<AppContext, string[]>();

/**
 * The settings stored on the Settings page, parsed as their variables would be and secrets opened: the
 * settings area's `storedSettings`, read by src/live-config.ts whenever a setting changed. A value that
 * cannot be read (no key, another key, a rule it no longer meets) is left out, logged and shown on the page.
 */
export function readStoredSettings(ctx: AppContext): Partial<Config> {
  // ctx.settings.base, never ctx.config: this runs while ctx.config is being made.
  const base = ctx.settings.base;
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  let key: ReturnType<typeof settingsKey> | null = null;
  for (const row of ctx.stores.settings.all()) {
    const entry = BY_VARIABLE.get(row.name);
    if (!entry?.[1].editable) {
      problems.push(`${row.name} is stored, but this Gatehouse does not take it from the Settings page: ignored`);
      continue;
    }
    try {
      let raw = row.value;
      if (row.encrypted === 1) {
        key ??= settingsKey(base, false);
        if (!key) throw new SecretBoxError(`there is no key: GATEHOUSE_SECRET_KEY is unset and ${keyFileOf(base.dbFile)} is missing`);
        raw = open(key, row.name, row.value);
      }
      values[entry[0]] = entry[1].parse(raw, row.name);
    } catch (err) {
      if (!(err instanceof SecretBoxError || err instanceof ConfigError)) throw err;
      problems.push(`${row.name} cannot be read (${err.message}): it is not in effect; set it again`);
    }
  }
  for (const problem of problems) ctx.log.error('stored setting not applied', { problem });
  unreadable.set(ctx, problems);
  return values as Partial<Config>;
}

/** Every setting in effect, in SETTINGS' order: where it comes from, and a secret only whether it is set. */
export function effectiveSettings(ctx: AppContext) {
  const config = ctx.config;
  return ENTRIES.map(([key, setting]) => {
    const value = config[key];
    return {
      name: setting.env,
      value: shown(setting, value),
      is_set: value !== undefined,
      is_default: JSON.stringify(value) === JSON.stringify(setting.default),
      secret: setting.secret === true,
      source: ctx.settings.source(key),
      group: setting.editable ?? null,
      label: setting.label ?? null,
      accepts: setting.accepts ?? null,
      description: setting.description,
    };
  });
}

/** Where the key that seals stored secrets is (no key material, ever). */
function keyInUse(ctx: AppContext) {
  const base = ctx.settings.base;
  if (base.secretKey !== undefined) return { source: 'environment' as const, file: null };
  try {
    const key = settingsKey(base, false);
    return { source: key ? ('file' as const) : ('none' as const), file: keyFileOf(base.dbFile) };
  } catch {
    return { source: 'none' as const, file: keyFileOf(base.dbFile) };
  }
}

/** GET /v1/settings: the version, the schema, the integrations set up and every setting (no secret). */
export function describeSettings(ctx: AppContext) {
  const config = ctx.config;
  return {
    version: VERSION,
    schema_version: recordedSchemaVersion(ctx.db) ?? 0,
    known_schema_version: MIGRATIONS.at(-1)?.version ?? 0,
    public_url: publicBase(ctx),
    integrations: {
      email: config.smtpUrl !== undefined,
      slack: config.slackBotToken !== undefined,
      slack_interactivity: config.slackSigningSecret !== undefined,
      single_sign_on: config.oidcIssuer !== undefined && config.oidcClientId !== undefined,
      replication: config.litestreamConfig !== undefined,
    },
    groups: Object.entries(SETTING_GROUPS)
      .filter(([group]) => ENTRIES.some(([, setting]) => setting.editable === group))
      .map(([group, title]) => ({ group, title })),
    secret_key: keyInUse(ctx),
    problems: unreadable.get(ctx) ?? [],
    settings: effectiveSettings(ctx),
  };
}

/**
 * PATCH /v1/settings: sets (a string) or clears (null) stored settings, all or none. Each is checked as its
 * variable is, and the result as the settings are together; a setting the environment sets, or one not
 * opted in, is refused naming it. A URL sent back with the mask as its password keeps the password in
 * effect. Secrets (and URLs with a password) are sealed with the key (made on first use). Records
 * SETTINGS_UPDATED in the same transaction, a secret only as `set`; then ctx.config is made again.
 */
export function updateSettings(ctx: AppContext, actor: Actor, changes: Record<string, string | null>) {
  const names = Object.keys(changes);
  if (names.length === 0) throw invalidField('settings', 'must name at least one setting');
  const problems: FieldProblem[] = [];
  const current = ctx.config;
  const next: Record<string, unknown> = { ...current };
  const writes: { name: string; key: SettingName; raw: string | null }[] = [];
  for (const name of names) {
    const path = `settings.${name}`;
    const entry = BY_VARIABLE.get(name);
    if (!entry) {
      problems.push({ path, message: 'is not a Gatehouse setting' });
      continue;
    }
    const [key, setting] = entry;
    if (!setting.editable) {
      problems.push({ path, message: 'cannot be set on the Settings page: only by its environment variable' });
      continue;
    }
    if (ctx.settings.source(key) === 'environment') {
      problems.push({ path, message: `is set by the environment variable ${name}, which wins: change or unset it there` });
      continue;
    }
    let raw = changes[name]!;
    if (raw === null || raw.trim() === '') {
      writes.push({ name, key, raw: null });
      next[key] = ctx.settings.base[key];
      continue;
    }
    raw = raw.trim();
    if (raw.length > MAX_VALUE_CHARS) {
      problems.push({ path, message: `must be at most ${MAX_VALUE_CHARS} characters` });
      continue;
    }
    if (setting.secret && raw === SECRET_MASK) {
      // The mask sent back, as the page shows it: the secret stays as it is.
      continue;
    }
    if (urlPassword(raw) === SECRET_MASK) {
      const kept = typeof current[key] === 'string' ? urlPassword(current[key] as string) : undefined;
      if (kept === undefined) {
        problems.push({ path, message: `holds the mask ${SECRET_MASK} as its password, but no password is in effect: type the password` });
        continue;
      }
      const url = new URL(raw);
      url.password = kept;
      raw = url.href;
    }
    try {
      next[key] = setting.parse(raw, name);
      const refused = setting.outbound ? refusedTarget(ctx, raw) : undefined;
      if (refused) {
        problems.push({ path, message: `${refused.message}: Gatehouse would not connect to it (list it in GATEHOUSE_PRIVATE_ADDRESSES_ALLOWED to let it through)` });
        continue;
      }
      writes.push({ name, key, raw });
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push({ path, message: err.message.startsWith(`${name} `) ? err.message.slice(name.length + 1) : err.message });
    }
  }
  if (problems.length === 0) {
    try {
      checkTogether(next as Config, () => true, (message, key) => invalidField(`settings.${SETTINGS[key].env}`, message));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      problems.push(...err.details);
    }
  }
  if (problems.length > 0) {
    throw new AppError('validation_failed', problems.map((p) => `${p.path}: ${p.message}`).join('; '), problems);
  }
  const sealing = writes.some((w) => w.raw !== null && (SETTINGS[w.key].secret || urlPassword(w.raw) !== undefined));
  let key: ReturnType<typeof settingsKey>;
  try {
    // Made (when it is a file) before the transaction: a file write has no place inside one.
    key = sealing ? settingsKey(ctx.settings.base, true) : undefined;
  } catch (err) {
    if (!(err instanceof SecretBoxError)) throw err;
    throw new AppError('unavailable', `secrets cannot be stored: ${err.message}`);
  }
  const now = ctx.clock.now();
  ctx.db.transaction(() => {
    const subEvents = [];
    for (const { name, key: settingKey, raw } of writes) {
      const setting = SETTINGS[settingKey] as Setting<unknown>;
      if (raw === null) {
        ctx.stores.settings.remove(name);
      } else {
        const sealed = setting.secret || urlPassword(raw) !== undefined;
        ctx.stores.settings.put(name, sealed ? seal(key!, name, raw) : raw, sealed, now, actor.userId);
      }
      subEvents.push({
        sub_event_type: 'SETTINGS_UPDATED', setting: name, group: setting.editable ?? null,
        value: raw === null ? null : setting.secret ? 'set' : settingText(next[settingKey]), cleared: raw === null,
      });
    }
    if (subEvents.length > 0) ctx.stores.events.record(actor, 'SETTINGS_UPDATED', subEvents);
  }).immediate();
  if (writes.length > 0) {
    ctx.settings.reload();
    ctx.log.info('settings changed', { settings: writes.map((w) => w.name), by: actor.userId });
  }
  return describeSettings(ctx);
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
