// Every setting Gatehouse reads, defined once in SETTINGS; loadConfig, `gatehouse help` and the
// README's configuration table (src/dev/settings-table.ts) are all made from it.
import { availableParallelism } from 'node:os';
import { MAX_MINUTES } from './lib/durations.ts';
import { trustedProxyList } from './http/client-address.ts';

/** One setting: where it comes from, what it defaults to, what it accepts, what it means. */
export interface Setting<T> {
  /** The environment variable. */
  env: `GATEHOUSE_${string}`;
  /** The variable's former name, still read when the variable itself is unset (documented in the description). */
  formerEnv?: `GATEHOUSE_${string}`;
  /** The command-line flag that overrides the variable, e.g. `{ name: 'db', value: 'FILE' }` for `--db FILE`. */
  flag?: { name: string; value: string };
  default: T;
  /** How the default reads in help and the README, when the plain value would not say it well. */
  defaultText?: string;
  /** One line for people: what it does. */
  description: string;
  /** What it accepts, for people ("a whole number from 1 to 1000000"); absent for free text. */
  accepts?: string;
  /** A valid raw value other than the default, for test/docs/settings.test.ts; needed only by `setting(…)` entries. */
  example?: string;
  /** A secret: shown nowhere (GET /v1/settings says only whether it is set). A URL's password is masked whatever this says. */
  secret?: true;
  /**
   * Opts the setting in to the console's Settings page (docs/settings.md): an admin may set it there, in
   * this group; it is stored in the database (a secret, or a URL with a password, encrypted) and applies
   * without a restart. The environment variable, when set, still wins. Consumers read it as `ctx.config.<key>`
   * at the moment they need it, or rebuild what they made from it when `ctx.config` is another object.
   */
  editable?: SettingGroup;
  /** Its name on the Settings page ("SMTP server"); needed with `editable`. */
  label?: string;
  /**
   * A URL Gatehouse connects to: every connection obeys the private-address policy, and on the Settings page
   * one naming a refused address outright (an IP in the URL) is refused when set (settings/service.ts).
   */
  outbound?: true;
  /** Turns a non-empty raw value into the setting's value; throws ConfigError naming `source`. */
  parse(raw: string, source: string): T;
}

export class ConfigError extends Error {}

/** The groups of the Settings page, each with its own Save and its own Send a test / Check button. */
export const SETTING_GROUPS = {
  email: 'Email (SMTP)',
  slack: 'Slack',
  single_sign_on: 'Single sign-on (OpenID Connect)',
  public_url: 'Public address',
  on_call: 'On-call providers',
  notifications: 'Notification timings',
} as const;
export type SettingGroup = keyof typeof SETTING_GROUPS;

type Common = Pick<Setting<unknown>, 'env' | 'formerEnv' | 'flag' | 'defaultText' | 'description' | 'example' | 'secret' | 'editable' | 'label'>;

/** A setting of a shape the helpers below do not cover (a list, say): its own `parse` and `accepts`. */
export function setting<T>(def: Setting<T>): Setting<T> {
  return def;
}

/** A whole number from `min` to `max`. */
function integer(def: Common & { default: number; min: number; max: number }): Setting<number> {
  const { min, max } = def;
  return {
    ...def,
    accepts: `a whole number from ${min} to ${max}`,
    parse(raw, source) {
      if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
        throw new ConfigError(`${source} must be a whole number from ${min} to ${max}, got "${raw}"`);
      }
      return Number(raw);
    },
  };
}

/** Free text, taken as given. */
function text<T extends string | undefined>(def: Common & { default: T; minLength?: number }): Setting<string | T> {
  const { minLength } = def;
  return {
    ...def,
    ...(minLength ? { accepts: `at least ${minLength} characters` } : {}),
    parse(raw, source) {
      if (minLength && raw.length < minLength) throw new ConfigError(`${source} must be at least ${minLength} characters long`);
      return raw;
    },
  };
}

/** One of a closed list of words. */
function oneOf<const V extends readonly string[]>(def: Common & { values: V; default: V[number] }): Setting<V[number]> {
  const { values } = def;
  return {
    ...def,
    accepts: values.map((value) => `\`${value}\``).join(', '),
    parse(raw, source) {
      if (!values.includes(raw)) throw new ConfigError(`${source} must be one of ${values.join(', ')}, got "${raw}"`);
      return raw as V[number];
    },
  };
}

const HOUR_MS = 3_600_000;

/**
 * `raw` as a URL with one of `schemes`; throws ConfigError naming `source` (never quoting the value:
 * it may hold a password).
 */
function urlOf(raw: string, source: string, schemes: string[]): URL {
  const wanted = schemes.map((scheme) => `${scheme}://`).join(' or ');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${source} must be an ${wanted} URL`);
  }
  if (!schemes.includes(url.protocol.slice(0, -1))) throw new ConfigError(`${source} must be an ${wanted} URL, not ${url.protocol}//`);
  return url;
}

/**
 * The settings, in the order help and the README list them. To add one: add an entry here (its
 * key becomes the Config field and its type), run `npm run docs:settings` to refresh the README
 * table, read it as `ctx.config.<key>`. `integer`, `text` and `oneOf` cover most; a setting of
 * another shape (a list, say) is `setting({ env, default, description, accepts, example, parse })`.
 * Checks that span settings go in `loadConfig`.
 */
export const SETTINGS = {
  dbFile: text({
    env: 'GATEHOUSE_DB',
    flag: { name: 'db', value: 'FILE' },
    default: './data/gatehouse.db',
    description: 'the SQLite database file; it and its directory are created on first start',
  }),
  host: text({
    env: 'GATEHOUSE_HOST',
    flag: { name: 'host', value: 'HOST' },
    default: '127.0.0.1',
    description: 'address to listen on',
  }),
  port: integer({
    env: 'GATEHOUSE_PORT',
    flag: { name: 'port', value: 'PORT' },
    default: 8080,
    min: 0,
    max: 65535,
    description: 'port to listen on; 0 picks a free one',
  }),
  bootstrapToken: text({
    env: 'GATEHOUSE_BOOTSTRAP_TOKEN',
    secret: true,
    default: undefined,
    defaultText: 'unset',
    minLength: 32,
    description: 'on an empty database, becomes the admin\'s token instead of a random one, and is not printed; ignored once the database has users',
  }),
  adminEmail: setting<string>({
    env: 'GATEHOUSE_ADMIN_EMAIL',
    flag: { name: 'admin-email', value: 'EMAIL' },
    default: 'admin@gatehouse.local',
    description: 'on an empty database, the email of the first admin Gatehouse creates (their notices and emailed sign-in links go there); ignored once the database has users',
    accepts: 'an email address',
    example: 'it@example.com',
    parse(raw, source) {
      const email = raw.trim();
      // Valibot's email rule, which POST /v1/users applies (users/schemas.ts), written out: `help` loads this
      // file and nothing from node_modules (test/service/cli.test.ts).
      if (email.length > 320 || !/^[\w+-]+(?:\.[\w+-]+)*@[\da-z]+(?:[.-][\da-z]+)*\.[a-z]{2,}$/iu.test(email)) throw new ConfigError(`${source} must be an email address, got "${raw}"`);
      return email;
    },
  }),
  secretKey: text({
    env: 'GATEHOUSE_SECRET_KEY',
    secret: true,
    default: undefined,
    defaultText: 'unset: the key file beside the database (`<database>.key`), made when the first secret is stored',
    minLength: 32,
    description: 'the key that encrypts the secrets set on the console\'s Settings page (AES-256-GCM); back it up apart from the database: a backup\'s stored secrets read only with it (docs/settings.md)',
  }),
  maxBodyBytes: integer({
    env: 'GATEHOUSE_MAX_BODY_BYTES',
    default: 1024 * 1024,
    defaultText: '1048576 (1 MiB)',
    min: 1024,
    max: 64 * 1024 * 1024,
    description: 'largest request body accepted, in bytes; larger ones get 413',
  }),
  logLevel: oneOf({
    env: 'GATEHOUSE_LOG_LEVEL',
    values: ['info', 'error', 'silent'],
    default: 'info',
    description: '`info` writes a JSON line per request, `error` only errors, `silent` nothing',
  }),
  headersTimeoutMs: integer({
    env: 'GATEHOUSE_HEADERS_TIMEOUT_MS',
    default: 10_000,
    min: 100,
    max: HOUR_MS,
    description: 'a client must send all request headers within this many ms (else 408); at most the request timeout',
  }),
  requestTimeoutMs: integer({
    env: 'GATEHOUSE_REQUEST_TIMEOUT_MS',
    default: 30_000,
    min: 100,
    max: HOUR_MS,
    description: 'a client must send the whole request, body included, within this many ms',
  }),
  keepAliveTimeoutMs: integer({
    env: 'GATEHOUSE_KEEP_ALIVE_TIMEOUT_MS',
    default: 5_000,
    min: 100,
    max: HOUR_MS,
    description: 'an idle keep-alive connection is closed after this many ms',
  }),
  maxConnections: integer({
    env: 'GATEHOUSE_MAX_CONNECTIONS',
    default: 1_000,
    min: 1,
    max: 1_000_000,
    description: 'open connections at once; when full, a connection that never sent a request or sits idle is closed to make room, else the newcomer gets 503',
  }),
  maxConnectionsPerAddress: integer({
    env: 'GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS',
    default: 100,
    min: 0,
    max: 1_000_000,
    description: 'open connections one client address may hold (trusted proxies excepted); one more is answered 503 with Retry-After at once and closed, unless one of the address\'s unused connections can be closed for it; 0 means no per-address limit',
  }),
  authFailureLimit: integer({
    env: 'GATEHOUSE_AUTH_FAILURE_LIMIT',
    // Generous enough that a person mistyping, or a test suite probing 401s, never trips it;
    // far too few for guessing a 128-bit token to matter.
    default: 30,
    min: 0,
    max: 1_000_000,
    description: 'wrong or malformed tokens one client address may send per window before it gets 429 and `Retry-After`; 0 turns throttling off',
  }),
  authFailureWindowMs: integer({
    env: 'GATEHOUSE_AUTH_FAILURE_WINDOW_MS',
    default: 60_000,
    min: 1000,
    max: 24 * HOUR_MS,
    description: 'the throttling window, in ms',
  }),
  shutdownTimeoutMs: integer({
    env: 'GATEHOUSE_SHUTDOWN_TIMEOUT_MS',
    default: 10_000,
    min: 0,
    max: HOUR_MS,
    description: 'on SIGTERM/SIGINT, how many ms requests in flight get to finish before their connections are cut',
  }),
  trustedProxies: setting<string[]>({
    env: 'GATEHOUSE_TRUSTED_PROXIES',
    default: [],
    defaultText: 'none: the socket\'s peer is the client',
    description: 'reverse proxies (addresses and CIDR ranges) whose X-Forwarded-For names the client, for throttling, the request log and audit events',
    accepts: 'a comma-separated list of IP addresses and CIDR ranges',
    example: '127.0.0.1,10.0.0.0/8',
    parse(raw, source) {
      const entries = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
      try {
        trustedProxyList(entries);
      } catch (err) {
        throw new ConfigError(`${source}: ${(err as Error).message}`);
      }
      return entries;
    },
  }),
  eventStreamIntervalMs: integer({
    env: 'GATEHOUSE_EVENT_STREAM_INTERVAL_MS',
    default: 1_000,
    min: 10,
    max: HOUR_MS,
    description: 'how often, in ms, event-stream delivery looks for new events and for streams whose retry is due',
  }),
  eventStreamTimeoutMs: integer({
    env: 'GATEHOUSE_EVENT_STREAM_TIMEOUT_MS',
    default: 10_000,
    min: 100,
    max: 5 * 60_000,
    description: 'an event-stream receiver must answer a delivery within this many ms, or the attempt counts as failed',
  }),
  eventStreamMaxRetryDelayMs: integer({
    env: 'GATEHOUSE_EVENT_STREAM_MAX_RETRY_DELAY_MS',
    default: 5 * 60_000,
    defaultText: '300000 (5 minutes)',
    min: 1_000,
    max: 24 * HOUR_MS,
    description: 'the longest wait between retries to a failing event-stream receiver (retries start at 1 s and double up to this)',
  }),
  privateAddresses: oneOf({
    env: 'GATEHOUSE_PRIVATE_ADDRESSES',
    formerEnv: 'GATEHOUSE_EVENT_STREAM_PRIVATE_ADDRESSES',
    values: ['allow', 'deny'],
    default: 'allow',
    example: 'deny',
    description: '`deny` refuses every outbound connection — event-stream receivers, connectors (Opal HTTP and PostgreSQL), on-call providers, the SMTP server, Slack and the OpenID provider, whether set by variable or on the Settings page — to loopback, private, link-local and other non-public addresses, checked on the address connected to, except the ranges GATEHOUSE_PRIVATE_ADDRESSES_ALLOWED lets through (docs/settings.md); its former name `GATEHOUSE_EVENT_STREAM_PRIVATE_ADDRESSES` is still read when this one is unset',
  }),
  privateAddressesAllowed: setting<string[]>({
    env: 'GATEHOUSE_PRIVATE_ADDRESSES_ALLOWED',
    default: [],
    defaultText: 'none',
    description: 'with GATEHOUSE_PRIVATE_ADDRESSES=deny, the non-public addresses Gatehouse may still connect to — an internal SMTP relay, an identity provider or a connector on the private network — each an IP address or a CIDR range; everything else non-public stays refused',
    accepts: 'a comma-separated list of IP addresses and CIDR ranges',
    example: '10.0.0.25,192.168.10.0/24,fd00::/8',
    parse(raw, source) {
      const entries = [...new Set(raw.split(',').map((part) => part.trim()).filter((part) => part !== ''))];
      try {
        if (entries.length === 0) throw new Error('no address given');
        // The trusted proxies' rule for addresses and ranges (node:net only: `help` loads no more).
        trustedProxyList(entries);
      } catch (err) {
        throw new ConfigError(`${source} must be a comma-separated list of IP addresses and CIDR ranges (10.0.0.0/8): ${(err as Error).message}`);
      }
      return entries;
    },
  }),
  outboxIntervalMs: integer({
    env: 'GATEHOUSE_OUTBOX_INTERVAL_MS',
    default: 1_000,
    min: 10,
    max: HOUR_MS,
    description: 'how often, in ms, the outbox (connector pushes, notices) looks for queued work whose time has come (docs/outbox.md)',
  }),
  connectorSyncIntervalMs: integer({
    env: 'GATEHOUSE_CONNECTOR_SYNC_INTERVAL_MS',
    default: HOUR_MS,
    defaultText: '3600000 (an hour)',
    min: 0,
    max: 7 * 24 * HOUR_MS,
    description: 'how often, in ms, each app\'s connector is synced (users, items, access, drift; docs/connectors.md); 0 syncs only on demand',
  }),
  connectorSyncMaxItems: integer({
    env: 'GATEHOUSE_CONNECTOR_SYNC_MAX_ITEMS',
    default: 100_000,
    min: 1,
    max: 10_000_000,
    description: 'a connector sync stops after reading this many items (users, resources, access levels, groups, access entries) from the connector, keeps what it read and answers `stopped_at: max_items` (docs/connectors.md)',
  }),
  connectorSyncMaxBytes: integer({
    env: 'GATEHOUSE_CONNECTOR_SYNC_MAX_BYTES',
    default: 64 * 1024 * 1024,
    defaultText: '67108864 (64 MiB)',
    min: 1024,
    max: 4 * 1024 * 1024 * 1024,
    description: 'a connector sync stops after reading this many bytes of answers from the connector (`stopped_at: max_bytes`)',
  }),
  connectorSyncMaxMs: integer({
    env: 'GATEHOUSE_CONNECTOR_SYNC_MAX_MS',
    default: 15 * 60_000,
    defaultText: '900000 (15 minutes)',
    min: 1_000,
    max: 24 * HOUR_MS,
    description: 'a connector sync stops reading once it has run this many ms (checked between calls, each bounded by the connector\'s `timeout_ms`; `stopped_at: max_ms`)',
  }),
  connectorSyncSliceItems: integer({
    env: 'GATEHOUSE_CONNECTOR_SYNC_SLICE_ITEMS',
    default: 500,
    min: 1,
    max: 50_000,
    description: 'a connector sync writes what it reads at most this many items per transaction (and at most 20 ms of work), the event loop answering others between slices (docs/connectors.md)',
  }),
  connectorPageMaxItems: integer({
    env: 'GATEHOUSE_CONNECTOR_PAGE_MAX_ITEMS',
    default: 10_000,
    min: 1,
    max: 1_000_000,
    description: 'a list page from a connector holding more items than this stops the sync there (`stopped_at: page_items`)',
  }),
  connectorMaxResponseBytes: integer({
    env: 'GATEHOUSE_CONNECTOR_MAX_RESPONSE_BYTES',
    default: 8 * 1024 * 1024,
    defaultText: '8388608 (8 MiB)',
    min: 1024,
    max: 256 * 1024 * 1024,
    description: 'the largest answer read from a connector; a larger one is cut off (a sync stops there: `stopped_at: response_bytes`; a push fails)',
  }),
  writeRateLimit: integer({
    env: 'GATEHOUSE_WRITE_RATE_LIMIT',
    default: 600,
    min: 0,
    max: 1_000_000,
    description: 'writes (POST, PUT, PATCH, DELETE) one user may make per window before they get 429 and `Retry-After`; 0 turns the limit off',
  }),
  scimWriteRateLimit: integer({
    env: 'GATEHOUSE_SCIM_WRITE_RATE_LIMIT',
    // An identity provider's first import sends a create (and a group push) per person: 3,000 a minute
    // lets a few thousand people arrive in a couple of minutes, and still bounds a runaway client.
    default: 3_000,
    min: 0,
    max: 1_000_000,
    description: 'writes one SCIM token\'s user may make under /scim/v2 per write-limit window (their own budget, apart from `GATEHOUSE_WRITE_RATE_LIMIT`, sized for an identity provider\'s first import of a few thousand people); 0 turns the limit off',
  }),
  writeRateWindowMs: integer({
    env: 'GATEHOUSE_WRITE_RATE_WINDOW_MS',
    default: 60_000,
    min: 1000,
    max: 24 * HOUR_MS,
    description: 'the write-limit window, in ms',
  }),
  readWorkers: integer({
    env: 'GATEHOUSE_READ_WORKERS',
    // One core is left to the event loop: on the 2-core machine, one worker (measured: docs/read-workers.md).
    default: Math.min(4, Math.max(1, availableParallelism() - 1)),
    defaultText: 'one fewer than the CPU cores, from 1 to 4',
    example: '7',
    min: 0,
    max: 64,
    description: 'worker threads, each with its own read-only connection, that run heavy reads (node queries, big list pages) off the event loop; 0 runs them on the main thread (docs/read-workers.md)',
  }),
  readBudgetRows: integer({
    env: 'GATEHOUSE_READ_BUDGET_ROWS',
    default: 500_000,
    min: 1,
    max: 1_000_000_000,
    description: 'rows of work (access-graph rows read) one heavy read may do before it is refused with 400 asking to narrow it',
  }),
  readBudgetMs: integer({
    env: 'GATEHOUSE_READ_BUDGET_MS',
    default: 5_000,
    min: 10,
    max: HOUR_MS,
    description: 'ms one heavy read may run before it is refused with 400 asking to narrow it',
  }),
  maxPageBytes: integer({
    env: 'GATEHOUSE_MAX_PAGE_BYTES',
    default: 4 * 1024 * 1024,
    defaultText: '4194304 (4 MiB)',
    example: '65536',
    min: 16 * 1024,
    max: 256 * 1024 * 1024,
    description: 'a list page stops before the item that would take its JSON past this size, and answers the rest through its cursor',
  }),
  uarSnapshotSliceRows: integer({
    env: 'GATEHOUSE_UAR_SNAPSHOT_SLICE_ROWS',
    default: 1000,
    min: 1,
    max: 50_000,
    description: 'an access review\'s snapshot is written this many rows per transaction, the event loop answering others between slices; the review appears when the last slice is written (docs/access-reviews.md)',
  }),
  requestTimeoutMinutes: integer({
    env: 'GATEHOUSE_REQUEST_TIMEOUT_MINUTES',
    default: 7 * 24 * 60,
    defaultText: '10080 (7 days)',
    min: 0,
    max: MAX_MINUTES,
    description: 'a PENDING access request nobody decides within this many minutes of its creation is canceled (REQUESTS_CANCELED); 0 turns the timeout off',
  }),
  breakGlassReviewMinutes: integer({
    env: 'GATEHOUSE_BREAK_GLASS_REVIEW_MINUTES',
    default: 24 * 60,
    defaultText: '1440 (1 day)',
    min: 1,
    max: MAX_MINUTES,
    description: 'a break-glass nobody has reviewed this many minutes after it began reminds its item\'s owners; after twice as long it is escalated to the administrators (docs/break-glass.md)',
  }),
  publicUrl: setting<string | undefined>({
    env: 'GATEHOUSE_PUBLIC_URL',
    editable: 'public_url',
    label: 'Public URL',
    default: undefined,
    defaultText: 'unset: the address `serve` listens at (recorded in the database at start, so `login-link` uses it too)',
    description: 'the address people reach Gatehouse at (behind a proxy, the proxy\'s): sign-in links, the OpenID redirect and the links in emails and Slack messages are made from it; `https://` makes the console cookie Secure (docs/console.md)',
    accepts: 'an absolute http:// or https:// URL with no query',
    example: 'https://gatehouse.example.com',
    parse(raw, source) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new ConfigError(`${source} must be an absolute URL, got "${raw}"`);
      }
      if (!['http:', 'https:'].includes(url.protocol) || url.search !== '' || url.hash !== '') {
        throw new ConfigError(`${source} must be an http:// or https:// URL without a query or fragment, got "${raw}"`);
      }
      return url.origin + url.pathname.replace(/\/+$/, '');
    },
  }),
  webSessionIdleMinutes: integer({
    env: 'GATEHOUSE_WEB_SESSION_IDLE_MINUTES',
    default: 60,
    min: 1,
    max: 7 * 24 * 60,
    description: 'a console sign-in session unused for this many minutes ends (the person signs in again)',
  }),
  webSessionMaxMinutes: integer({
    env: 'GATEHOUSE_WEB_SESSION_MAX_MINUTES',
    default: 12 * 60,
    defaultText: '720 (12 hours)',
    min: 1,
    max: 90 * 24 * 60,
    description: 'a console sign-in session ends this many minutes after sign-in, however much it is used',
  }),
  loginLinkMinutes: integer({
    env: 'GATEHOUSE_LOGIN_LINK_MINUTES',
    default: 15,
    min: 1,
    max: 24 * 60,
    description: 'a one-time sign-in link (`gatehouse login-link`, or emailed from the sign-in page or by an admin) works this many minutes, once',
  }),
  invitationHours: integer({
    env: 'GATEHOUSE_INVITATION_HOURS',
    default: 72,
    defaultText: '72 (3 days)',
    example: '168',
    min: 1,
    max: 30 * 24,
    description: 'an invitation an admin emails from the console (a one-time sign-in link with a welcome) works this many hours, once',
  }),
  oidcIssuer: setting<string | undefined>({
    env: 'GATEHOUSE_OIDC_ISSUER',
    outbound: true,
    editable: 'single_sign_on',
    label: 'Issuer URL',
    default: undefined,
    defaultText: 'unset: no single sign-on, only sign-in links',
    description: 'the OpenID Connect issuer URL of your identity provider (Okta, Google, Entra ID, Keycloak, authentik…); its discovery document is read at the first sign-in',
    accepts: 'an http:// or https:// URL',
    example: 'https://idp.example.com/realms/staff',
    parse: (raw, source) => (urlOf(raw, source, ['http', 'https']), raw),
  }),
  oidcClientId: text({
    env: 'GATEHOUSE_OIDC_CLIENT_ID',
    editable: 'single_sign_on',
    label: 'Client id',
    default: undefined,
    defaultText: 'unset',
    description: 'the client id Gatehouse is registered with at the provider (redirect URI: `<public URL>/console/oidc/callback`)',
  }),
  oidcClientSecret: text({
    env: 'GATEHOUSE_OIDC_CLIENT_SECRET',
    editable: 'single_sign_on',
    label: 'Client secret',
    secret: true,
    default: undefined,
    defaultText: 'unset',
    description: 'the client secret for that client id',
  }),
  oidcCreateUsers: oneOf({
    env: 'GATEHOUSE_OIDC_CREATE_USERS',
    editable: 'single_sign_on',
    label: 'Create users on first sign-in',
    values: ['off', 'on'],
    default: 'off',
    example: 'on',
    description: '`on` creates a MEMBER user when someone with a verified email Gatehouse does not know signs in, if the email\'s domain is in GATEHOUSE_OIDC_ALLOWED_DOMAINS (which `on` needs); `off` refuses them',
  }),
  oidcAllowedDomains: setting<string[]>({
    env: 'GATEHOUSE_OIDC_ALLOWED_DOMAINS',
    editable: 'single_sign_on',
    label: 'Domains whose people may be created',
    default: [],
    defaultText: 'none: single sign-on creates no user',
    description: 'the email domains whose people single sign-on may create as users (GATEHOUSE_OIDC_CREATE_USERS=on), matched exactly and without regard to case (`example.com` does not admit `mail.example.com`); `*` admits any domain the provider vouches for. People Gatehouse already knows sign in whatever their domain',
    accepts: 'a comma-separated list of domain names, or `*`',
    example: 'example.com,example.org',
    parse(raw, source) {
      const domains = raw.split(',').map((part) => part.trim().toLowerCase()).filter((part) => part !== '');
      const domain = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
      if (domains.length === 0 || !(domains.length === 1 && domains[0] === '*') && domains.some((d) => !domain.test(d))) {
        throw new ConfigError(`${source} must be a comma-separated list of domain names (example.com), or *, got "${raw}"`);
      }
      return [...new Set(domains)];
    },
  }),
  smtpUrl: setting<string | undefined>({
    env: 'GATEHOUSE_SMTP_URL',
    outbound: true,
    editable: 'email',
    label: 'SMTP server URL',
    default: undefined,
    defaultText: 'unset: no email is sent',
    description: 'the SMTP server notifications are sent through: `smtp://` (STARTTLS when the server offers it) or `smtps://` (TLS from the start), user and password in the URL',
    accepts: 'an smtp:// or smtps:// URL, e.g. `smtp://user:pass@mail.example.com:587`',
    example: 'smtp://gatehouse:secret@127.0.0.1:2525',
    parse: (raw, source) => (urlOf(raw, source, ['smtp', 'smtps']), raw),
  }),
  emailFrom: text({
    env: 'GATEHOUSE_EMAIL_FROM',
    editable: 'email',
    label: 'From address',
    default: 'Gatehouse <gatehouse@localhost>',
    description: 'the From address of notification emails',
  }),
  slackBotToken: text({
    env: 'GATEHOUSE_SLACK_BOT_TOKEN',
    editable: 'slack',
    label: 'Bot token',
    secret: true,
    default: undefined,
    defaultText: 'unset: nothing is sent to Slack',
    description: 'a Slack app\'s bot token (`xoxb-…`, scopes chat:write, users:read, users:read.email); notifications go to people\'s Slack and owners\' reviewer channels',
  }),
  slackSigningSecret: text({
    env: 'GATEHOUSE_SLACK_SIGNING_SECRET',
    editable: 'slack',
    label: 'Signing secret',
    secret: true,
    default: undefined,
    defaultText: 'unset: Slack buttons are refused',
    description: 'the Slack app\'s signing secret: POST /slack/interactivity accepts only payloads signed with it',
  }),
  slackApiUrl: setting<string>({
    env: 'GATEHOUSE_SLACK_API_URL',
    outbound: true,
    editable: 'slack',
    label: 'Web API base URL',
    default: 'https://slack.com/api',
    description: 'the base of Slack\'s Web API (a stand-in\'s address in tests)',
    accepts: 'an http:// or https:// URL',
    example: 'http://127.0.0.1:3999/api',
    parse: (raw, source) => urlOf(raw, source, ['http', 'https']).href.replace(/\/+$/, ''),
  }),
  pagerdutyToken: text({
    env: 'GATEHOUSE_PAGERDUTY_TOKEN',
    editable: 'on_call',
    label: 'PagerDuty API key',
    secret: true,
    default: undefined,
    defaultText: 'unset: PagerDuty schedules cannot be added',
    description: 'a PagerDuty REST API key (read-only is enough), sent as `Authorization: Token token=…`: on-call schedules follow PagerDuty and break-glass checks PagerDuty incidents (docs/on-call.md)',
  }),
  pagerdutyApiUrl: setting<string>({
    env: 'GATEHOUSE_PAGERDUTY_API_URL',
    outbound: true,
    editable: 'on_call',
    label: 'PagerDuty API URL',
    default: 'https://api.pagerduty.com',
    description: 'the base of PagerDuty\'s REST API v2 (EU accounts use the same; a stand-in\'s address in tests)',
    accepts: 'an http:// or https:// URL',
    example: 'http://127.0.0.1:3998',
    parse: (raw, source) => urlOf(raw, source, ['http', 'https']).href.replace(/\/+$/, ''),
  }),
  opsgenieApiKey: text({
    env: 'GATEHOUSE_OPSGENIE_API_KEY',
    editable: 'on_call',
    label: 'Opsgenie API key',
    secret: true,
    default: undefined,
    defaultText: 'unset: Opsgenie schedules cannot be added',
    description: 'an Opsgenie API key with read access, sent as `Authorization: GenieKey …`: on-call schedules follow Opsgenie (docs/on-call.md)',
  }),
  opsgenieApiUrl: setting<string>({
    env: 'GATEHOUSE_OPSGENIE_API_URL',
    outbound: true,
    editable: 'on_call',
    label: 'Opsgenie API URL',
    default: 'https://api.opsgenie.com',
    description: 'the base of Opsgenie\'s REST API (EU accounts: https://api.eu.opsgenie.com; a stand-in\'s address in tests)',
    accepts: 'an http:// or https:// URL',
    example: 'https://api.eu.opsgenie.com',
    parse: (raw, source) => urlOf(raw, source, ['http', 'https']).href.replace(/\/+$/, ''),
  }),
  onCallSyncSeconds: integer({
    env: 'GATEHOUSE_ONCALL_SYNC_SECONDS',
    editable: 'on_call',
    label: 'Sync every (seconds)',
    default: 60,
    min: 1,
    max: 24 * 3600,
    description: 'how often, in seconds, on-call schedules are read from their provider and the groups that follow them brought in line; a handover is picked up within this time (docs/on-call.md)',
  }),
  notifyIntervalMs: integer({
    env: 'GATEHOUSE_NOTIFY_INTERVAL_MS',
    editable: 'notifications',
    label: 'Check every (ms)',
    default: 5_000,
    min: 10,
    max: HOUR_MS,
    description: 'how often, in ms, notification delivery and the reminder, escalation, expiry-warning and digest checks run',
  }),
  expiryWarningMinutes: setting<number[]>({
    env: 'GATEHOUSE_EXPIRY_WARNING_MINUTES',
    editable: 'notifications',
    label: 'Warn before access ends (minutes)',
    default: [1440, 60],
    defaultText: '1440,60 (a day and an hour before)',
    description: 'how long before a person\'s access ends they are told, with a link to extend it: one notice per value still ahead when the access got its expiry (docs/notifications.md)',
    accepts: 'a comma-separated list of whole numbers of minutes, each from 1 to 525960',
    example: '2880,60',
    parse(raw, source) {
      const values = raw.split(',').map((part) => part.trim()).filter((part) => part !== '');
      if (values.length === 0 || values.some((value) => !/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 525_960)) {
        throw new ConfigError(`${source} must be a comma-separated list of whole numbers from 1 to 525960, got "${raw}"`);
      }
      return [...new Set(values.map(Number))].sort((a, b) => b - a);
    },
  }),
  digestHourUtc: integer({
    env: 'GATEHOUSE_DIGEST_HOUR_UTC',
    editable: 'notifications',
    label: 'Daily digest hour (UTC)',
    default: 8,
    min: 0,
    max: 23,
    example: '6',
    description: 'the hour (UTC) at which people who chose a daily digest get it',
  }),
  postgresCreateRoles: oneOf({
    env: 'GATEHOUSE_POSTGRES_CREATE_ROLES',
    values: ['off', 'nologin', 'login'],
    default: 'off',
    example: 'nologin',
    description: 'whether the PostgreSQL connector creates a role, named by the person\'s email and marked with their user id, for someone no role is linked to on their first grant: `nologin` (a role to hold memberships, for servers that map sign-ins to it), `login` (LOGIN, never a password: the server authenticates it by certificate, GSSAPI/LDAP or pg_hba), or `off`; a role Gatehouse created is dropped when the person is offboarded (docs/connectors.md)',
  }),
  scimIdentityProvider: oneOf({
    env: 'GATEHOUSE_SCIM_IDP',
    values: ['okta', 'entra', 'other'],
    default: 'other',
    example: 'okta',
    description: 'the identity provider that provisions over /scim/v2: the groups it pushes are made in an app of its kind (`okta`: OKTA_DIRECTORY with OKTA_GROUP groups, `entra`: AZURE_AD with AZURE_AD_SECURITY_GROUP, `other`: CUSTOM with CONNECTOR_GROUP; docs/scim.md)',
  }),
  litestreamConfig: text({
    env: 'GATEHOUSE_LITESTREAM_CONFIG',
    flag: { name: 'litestream-config', value: 'FILE' },
    default: undefined,
    defaultText: 'unset: not replicated',
    description: 'the Litestream config that replicates the database (docs/replication.md): `serve` then leaves checkpoints to Litestream, `check` and `replication status` report each replica, `restore` reads it',
  }),
  litestreamBin: text({
    env: 'GATEHOUSE_LITESTREAM_BIN',
    default: undefined,
    defaultText: 'unset: `litestream` beside the executable, else the one npm installed, else on the PATH',
    description: 'the Litestream (v0.3) executable that `check`, `replication status` and `restore` run',
  }),
  replicationMaxLagSeconds: integer({
    env: 'GATEHOUSE_REPLICATION_MAX_LAG_SECONDS',
    default: 10,
    min: 1,
    max: 86_400,
    description: '`check` and `replication status` call a replica unhealthy when the database changed more than this many seconds before the replica last did',
  }),
  // src/db/native-addon.ts reads the variable itself: it runs before any config is loaded.
  cacheDir: text({
    env: 'GATEHOUSE_CACHE_DIR',
    default: undefined,
    defaultText: 'the first usable of `$CACHE_DIRECTORY`, `$XDG_CACHE_HOME/gatehouse`, `~/.cache/gatehouse`, `/tmp/gatehouse-<uid>`',
    description: 'the executable only: where the SQLite addon is unpacked on first run',
  }),
};

type Settings = typeof SETTINGS;
export type SettingName = keyof Settings;

/** Every setting's value, read once at start-up. */
export type Config = { [K in SettingName]: Settings[K] extends Setting<infer T> ? T : never };

/** The default of every setting. */
export const DEFAULTS = Object.fromEntries(Object.entries(SETTINGS).map(([key, s]) => [key, s.default])) as Config;

/** Flags given on the command line, already split into name → value. They win over the environment. */
export type Flags = Record<string, string | true | undefined>;

/**
 * Reads every setting (or only the settings `only` names; the others keep their defaults, unread) from its
 * flag (if it has one and it was given) or its variable; throws ConfigError on a bad value or an empty flag.
 */
export function loadConfig(env: NodeJS.ProcessEnv, flags: Flags = {}, only?: readonly SettingName[]): Config {
  const config: Record<string, unknown> = {};
  const given = new Set<SettingName>();
  for (const [key, setting] of Object.entries(SETTINGS) as [SettingName, Setting<unknown>][]) {
    // A verb that reads a few settings is not stopped by a bad value of one it never uses.
    if (only && !only.includes(key)) {
      config[key] = setting.default;
      continue;
    }
    const flagValue = setting.flag ? flags[setting.flag.name] : undefined;
    if (flagValue === true) throw new ConfigError(`--${setting.flag!.name} needs a value`);
    // Unlike an empty variable, an empty flag is typed on purpose: never let it quietly mean the default.
    if (flagValue === '') throw new ConfigError(`--${setting.flag!.name} must not be empty (leave it out for the default, ${defaultText(setting)})`);
    // A setting renamed keeps working under its former name, unless the new one is set.
    const envName = (env[setting.env] === undefined || env[setting.env] === '') && setting.formerEnv ? setting.formerEnv : setting.env;
    const [raw, source] = flagValue !== undefined ? [flagValue, `--${setting.flag!.name}`] : [env[envName], envName];
    // An empty variable counts as unset, as shells and unit files make it easy to set one to "".
    config[key] = raw === undefined || raw === '' ? setting.default : setting.parse(raw, source);
    if (raw !== undefined && raw !== '') given.add(key);
  }
  const loaded = config as Config;
  checkTogether(loaded, (key) => !only || only.includes(key), (message) => new ConfigError(message));
  GIVEN.set(loaded, given);
  return loaded;
}

/** The settings each loaded Config had from a variable or a flag (loadConfig records them). */
const GIVEN = new WeakMap<Config, ReadonlySet<SettingName>>();

/**
 * The settings `config` took from the environment (a variable or a flag): on the Settings page they
 * win over what is stored. Empty for a Config loadConfig did not make (a test's, the demo's copy).
 */
export function settingsFromEnvironment(config: Config): ReadonlySet<SettingName> {
  return GIVEN.get(config) ?? new Set();
}

/**
 * The rules that span settings, for loadConfig and for the Settings page's changes alike: throws what
 * `error` makes of the first broken one. `checked` says which settings were read (a verb reads a few).
 */
export function checkTogether(loaded: Config, checked: (key: SettingName) => boolean, error: (message: string, setting: SettingName) => Error): void {
  // Node refuses a server whose header deadline is later than its whole-request deadline.
  if (loaded.headersTimeoutMs > loaded.requestTimeoutMs && checked('headersTimeoutMs') && checked('requestTimeoutMs')) {
    throw error(
      `GATEHOUSE_HEADERS_TIMEOUT_MS (${loaded.headersTimeoutMs}) must not exceed GATEHOUSE_REQUEST_TIMEOUT_MS (${loaded.requestTimeoutMs})`,
      'headersTimeoutMs',
    );
  }
  // Creating users from any account the provider vouches for must be chosen, not a default (issue 30).
  if (loaded.oidcCreateUsers === 'on' && loaded.oidcAllowedDomains.length === 0 && checked('oidcCreateUsers') && checked('oidcAllowedDomains')) {
    throw error('GATEHOUSE_OIDC_CREATE_USERS=on needs GATEHOUSE_OIDC_ALLOWED_DOMAINS: the email domains whose people may be created (or * for any the provider vouches for)', 'oidcAllowedDomains');
  }
}

/** How a setting's default reads for people. */
export function defaultText(setting: Setting<unknown>): string {
  return setting.defaultText ?? String(setting.default);
}
