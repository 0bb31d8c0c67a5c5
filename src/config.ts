// Environment and flags → one typed Config, read once at start-up.

export interface Config {
  /** SQLite database file; created with its directory on first start. */
  dbFile: string;
  host: string;
  port: number;
  /** Used as the admin token when the service starts on an empty database. */
  bootstrapToken: string | undefined;
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: number;
  /** Log level: 'info' writes a line per request; 'silent' writes nothing (tests). */
  logLevel: 'info' | 'error' | 'silent';
}

export const DEFAULTS = {
  dbFile: './data/gatehouse.db',
  host: '127.0.0.1',
  port: 8080,
  maxBodyBytes: 1024 * 1024,
} as const;

/** Flags given on the command line, already split into name → value. They win over the environment. */
export type Flags = Record<string, string | true | undefined>;

export class ConfigError extends Error {}

function integerSetting(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function stringFlag(flags: Flags, name: string): string | undefined {
  const value = flags[name];
  if (value === true) throw new ConfigError(`--${name} needs a value`);
  return value;
}

/** Reads GATEHOUSE_* variables and --db/--host/--port flags; throws ConfigError on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv, flags: Flags = {}): Config {
  const bootstrapToken = env.GATEHOUSE_BOOTSTRAP_TOKEN || undefined;
  if (bootstrapToken !== undefined && bootstrapToken.length < 32) {
    throw new ConfigError('GATEHOUSE_BOOTSTRAP_TOKEN must be at least 32 characters long');
  }
  const port = stringFlag(flags, 'port') ?? env.GATEHOUSE_PORT;
  const maxBody = env.GATEHOUSE_MAX_BODY_BYTES;
  const logLevel = env.GATEHOUSE_LOG_LEVEL ?? 'info';
  if (logLevel !== 'info' && logLevel !== 'error' && logLevel !== 'silent') {
    throw new ConfigError(`GATEHOUSE_LOG_LEVEL must be info, error or silent, got "${logLevel}"`);
  }
  return {
    dbFile: stringFlag(flags, 'db') ?? (env.GATEHOUSE_DB || DEFAULTS.dbFile),
    host: stringFlag(flags, 'host') ?? (env.GATEHOUSE_HOST || DEFAULTS.host),
    port: port === undefined || port === '' ? DEFAULTS.port : integerSetting('port', port, 0, 65535),
    bootstrapToken,
    maxBodyBytes: maxBody ? integerSetting('GATEHOUSE_MAX_BODY_BYTES', maxBody, 1024, 64 * 1024 * 1024) : DEFAULTS.maxBodyBytes,
    logLevel,
  };
}
