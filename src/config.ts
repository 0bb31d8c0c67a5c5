// Environment and flags → one typed Config, read once at start-up.
import { trustedProxyList } from './http/client-address.ts';

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
  /** A client must send all request headers within this many ms (slow-header attacks). */
  headersTimeoutMs: number;
  /** A client must send the whole request, body included, within this many ms (slow-body attacks). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this many ms. */
  keepAliveTimeoutMs: number;
  /** Open connections beyond this are refused at accept. */
  maxConnections: number;
  /** Failed authentications one client address may make per window before it gets 429; 0 turns throttling off. */
  authFailureLimit: number;
  authFailureWindowMs: number;
  /** On SIGTERM/SIGINT, requests in flight get this long to finish before their connections are cut. */
  shutdownTimeoutMs: number;
  /**
   * Reverse proxies (addresses and CIDR ranges) whose X-Forwarded-For names the client, for throttling,
   * the request log and audit events. Empty (the default): the socket's peer is the client.
   */
  trustedProxies: string[];
}

export const DEFAULTS = {
  dbFile: './data/gatehouse.db',
  host: '127.0.0.1',
  port: 8080,
  maxBodyBytes: 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_000,
  // Generous enough that a person mistyping, or a test suite probing 401s, never trips it;
  // far too few for guessing a 128-bit token to matter.
  authFailureLimit: 30,
  authFailureWindowMs: 60_000,
  shutdownTimeoutMs: 10_000,
} as const;

/** Every environment variable Gatehouse reads, for `gatehouse help` (the README has the long form). */
export const ENVIRONMENT = [
  'GATEHOUSE_DB', 'GATEHOUSE_HOST', 'GATEHOUSE_PORT', 'GATEHOUSE_BOOTSTRAP_TOKEN', 'GATEHOUSE_LOG_LEVEL',
  'GATEHOUSE_MAX_BODY_BYTES', 'GATEHOUSE_HEADERS_TIMEOUT_MS', 'GATEHOUSE_REQUEST_TIMEOUT_MS',
  'GATEHOUSE_KEEP_ALIVE_TIMEOUT_MS', 'GATEHOUSE_MAX_CONNECTIONS', 'GATEHOUSE_AUTH_FAILURE_LIMIT',
  'GATEHOUSE_AUTH_FAILURE_WINDOW_MS', 'GATEHOUSE_SHUTDOWN_TIMEOUT_MS', 'GATEHOUSE_CACHE_DIR',
  'GATEHOUSE_TRUSTED_PROXIES',
] as const;

/** Flags given on the command line, already split into name → value. They win over the environment. */
export type Flags = Record<string, string | true | undefined>;

export class ConfigError extends Error {}

function integerSetting(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

/** An optional integer variable: its default when unset or empty. */
function integerEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  return raw === undefined || raw === '' ? fallback : integerSetting(name, raw, min, max);
}

function stringFlag(flags: Flags, name: string): string | undefined {
  const value = flags[name];
  if (value === true) throw new ConfigError(`--${name} needs a value`);
  return value;
}

const HOUR_MS = 3_600_000;

/** A comma-separated list of addresses and CIDR ranges; throws ConfigError naming a bad entry. */
function addressListEnv(env: NodeJS.ProcessEnv, name: string): string[] {
  const entries = (env[name] ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  try {
    trustedProxyList(entries);
  } catch (err) {
    throw new ConfigError(`${name}: ${(err as Error).message}`);
  }
  return entries;
}

/** Reads GATEHOUSE_* variables and --db/--host/--port flags; throws ConfigError on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv, flags: Flags = {}): Config {
  const bootstrapToken = env.GATEHOUSE_BOOTSTRAP_TOKEN || undefined;
  if (bootstrapToken !== undefined && bootstrapToken.length < 32) {
    throw new ConfigError('GATEHOUSE_BOOTSTRAP_TOKEN must be at least 32 characters long');
  }
  const port = stringFlag(flags, 'port') ?? env.GATEHOUSE_PORT;
  const logLevel = env.GATEHOUSE_LOG_LEVEL || 'info';
  if (logLevel !== 'info' && logLevel !== 'error' && logLevel !== 'silent') {
    throw new ConfigError(`GATEHOUSE_LOG_LEVEL must be info, error or silent, got "${logLevel}"`);
  }
  const config: Config = {
    dbFile: stringFlag(flags, 'db') ?? (env.GATEHOUSE_DB || DEFAULTS.dbFile),
    host: stringFlag(flags, 'host') ?? (env.GATEHOUSE_HOST || DEFAULTS.host),
    port: port === undefined || port === '' ? DEFAULTS.port : integerSetting('port', port, 0, 65535),
    bootstrapToken,
    maxBodyBytes: integerEnv(env, 'GATEHOUSE_MAX_BODY_BYTES', DEFAULTS.maxBodyBytes, 1024, 64 * 1024 * 1024),
    logLevel,
    headersTimeoutMs: integerEnv(env, 'GATEHOUSE_HEADERS_TIMEOUT_MS', DEFAULTS.headersTimeoutMs, 100, HOUR_MS),
    requestTimeoutMs: integerEnv(env, 'GATEHOUSE_REQUEST_TIMEOUT_MS', DEFAULTS.requestTimeoutMs, 100, HOUR_MS),
    keepAliveTimeoutMs: integerEnv(env, 'GATEHOUSE_KEEP_ALIVE_TIMEOUT_MS', DEFAULTS.keepAliveTimeoutMs, 100, HOUR_MS),
    maxConnections: integerEnv(env, 'GATEHOUSE_MAX_CONNECTIONS', DEFAULTS.maxConnections, 1, 1_000_000),
    authFailureLimit: integerEnv(env, 'GATEHOUSE_AUTH_FAILURE_LIMIT', DEFAULTS.authFailureLimit, 0, 1_000_000),
    authFailureWindowMs: integerEnv(env, 'GATEHOUSE_AUTH_FAILURE_WINDOW_MS', DEFAULTS.authFailureWindowMs, 1000, 24 * HOUR_MS),
    shutdownTimeoutMs: integerEnv(env, 'GATEHOUSE_SHUTDOWN_TIMEOUT_MS', DEFAULTS.shutdownTimeoutMs, 0, HOUR_MS),
    trustedProxies: addressListEnv(env, 'GATEHOUSE_TRUSTED_PROXIES'),
  };
  // Node refuses a server whose header deadline is later than its whole-request deadline.
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    throw new ConfigError(
      `GATEHOUSE_HEADERS_TIMEOUT_MS (${config.headersTimeoutMs}) must not exceed GATEHOUSE_REQUEST_TIMEOUT_MS (${config.requestTimeoutMs})`,
    );
  }
  return config;
}
