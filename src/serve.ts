// `gatehouse serve` from start to exit: open and migrate, bootstrap, listen, then on SIGTERM/SIGINT
// drain requests, stop background jobs, checkpoint and close the database.
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { ConfigError, SETTINGS, type Config, type SettingName } from './config.ts';
import { AREAS } from './areas.ts';
import { createContext, type AppContext } from './context.ts';
import { migrate, schemaVersion } from './db/migrate.ts';
import { recordServiceAddress } from './db/meta.ts';
import { checkpointAndClose, openDatabase, type Db } from './db/open.ts';
import { listeningBase } from './http/public-base.ts';
import { systemClock } from './lib/clock.ts';
import { startJobs } from './jobs.ts';
import { createLogger } from './lib/log.ts';
import { bootstrapAdmin } from './modules/tokens/service.ts';
import { issueLoginLink } from './modules/web-sessions/service.ts';
import { startServer, type RunningServer } from './http-server.ts';
import { VERSION } from './version.ts';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;
/** How long after listening the read workers are started, when no heavy read started one sooner. */
const WARM_READS_AFTER_MS = 1000;

/**
 * How far V8 lets the old generation grow past what survived its last full collection: 25%. Left to
 * itself V8 picks up to 4× when allocation is fast, and under 4,000 reads/s the main heap reached 127 MB
 * with ~40 MB live — most of the bench's peak RSS (docs/performance.md, "Memory": what it bought and
 * cost). Set here, at run time, rather than in the executable's execArgv (src/dev/runtime-flags.mjs):
 * this flag is part of V8's flag hash, and the code cache build.mjs embeds (made by a Node without it)
 * would be rejected at every start.
 */
const HEAP_GROWING_PERCENT = 25;
/** How long the first start's console link for the first admin works (issue 36.9: an hour, not an invitation's days). */
export const FIRST_LINK_MINUTES = 60;

/**
 * Runs the service until SIGTERM or SIGINT, then shuts down cleanly and resolves 0.
 * Prints the admin token on stdout when it bootstraps an empty database with a random one.
 * Throws ConfigError when the address cannot be listened on (the database is closed first),
 * SchemaTooNewError when the file belongs to a newer Gatehouse.
 */
export async function serve(config: Config, options: { demo?: boolean } = {}): Promise<number> {
  const log = createLogger(config.logLevel);
  // Where start-up goes, in the 'listening' line (docs/performance.md): the process's own start (the
  // runtime and the code loaded) until here, then each step.
  const startup = new StartupTimer();
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const db = openDatabase(config.dbFile);
  startup.lap('open_db');
  // Under Litestream, Litestream alone checkpoints (docs/replication.md): it must copy every WAL
  // frame before the WAL restarts, and one checkpointing process keeps SQLite's WAL-reset race away.
  if (config.litestreamConfig) db.pragma('wal_autocheckpoint = 0');
  let ctx: AppContext;
  let running: RunningServer | undefined;
  try {
    const applied = migrate(db, systemClock.now());
    startup.lap('migrate');
    log.info('starting', {
      version: VERSION,
      pid: process.pid,
      db: path.resolve(config.dbFile),
      schema_version: schemaVersion(db),
      migrations_applied: applied.map((m) => m.name),
      litestream_config: config.litestreamConfig ?? null,
    });
    if (!config.litestreamConfig && replicatedByLitestream(db)) {
      log.info('this database has been replicated by Litestream; if it still is, set GATEHOUSE_LITESTREAM_CONFIG so Gatehouse leaves checkpoints to it');
    }
    ctx = createContext({ db, clock: systemClock, config, log }, AREAS);
    startup.lap('stores');
    // Which settings an admin set on the Settings page are in effect (names only): the operator reading the
    // log sees them beside the environment's, and a stored secret that cannot be read is logged here too.
    const stored = (Object.keys(SETTINGS) as SettingName[]).filter((key) => ctx.settings.source(key) === 'stored').map((key) => SETTINGS[key].env);
    if (stored.length > 0) log.info('settings from the Settings page', { settings: stored });
    // Checked before anything is written: --demo never seeds a file holding real data.
    const seedDemo = options.demo ? (await import('./demo.ts')).checkDemoFile(ctx) : false;
    running = await startServer(ctx).catch((err: unknown) => {
      throw new ConfigError(`cannot listen on ${config.host}:${config.port}: ${err instanceof Error ? err.message : String(err)}`);
    });
    startup.lap('routes_and_listen');
    // Only once the port is ours: a start that fails to listen must not use up the one-time banner.
    // No request can arrive in between: this runs before the event loop takes its next I/O.
    const issued = bootstrapAdmin(ctx, config.bootstrapToken);
    // Where this process answers (the port may have been 0): `gatehouse login-link` makes its links to it.
    recordServiceAddress(db, listeningBase(config.host, running.port));
    // The token is shown once: only once it is on disk.
    running.commitNow();
    // The demo prints its own banner, with the admin's sign-in link among the others: a token block
    // there is one the demo's guide does not show and nobody needs (tokens are made on its Tokens page).
    if (issued && config.bootstrapToken === undefined && !options.demo) {
      process.stdout.write(
        `Created the admin user ${issued.token.user_id}. Its FULL_ACCESS API token, shown only this once:\n\n  ${issued.secret}\n\n`,
      );
    }
    if (issued && config.bootstrapToken === undefined && !options.demo) {
      // The first admin signs in to the console with this, so even the first sign-in needs no second
      // command on the server. An hour, once: it sits in a terminal's scrollback and perhaps a log.
      // An automated install (GATEHOUSE_BOOTSTRAP_TOKEN) gets none: its output goes to logs nobody reads.
      const admin = ctx.stores.users.get(issued.token.user_id)!;
      const link = issueLoginLink(ctx, admin, { minutes: FIRST_LINK_MINUTES });
      running.commitNow();
      process.stdout.write(`Sign in to the console as ${admin.email} with this link (works once, until ${link.expiresAt}):\n\n  ${link.url}\n\n`
        + `Lost it, or it ran out? Make another on this machine: gatehouse login-link --email ${admin.email}\n\n`);
    } else if (issued && !options.demo) {
      log.info('created the first admin with GATEHOUSE_BOOTSTRAP_TOKEN; make a console sign-in link on this machine with `gatehouse login-link --email EMAIL`', { email: ctx.stores.users.get(issued.token.user_id)!.email });
    }
    if (options.demo) {
      const demo = await import('./demo.ts');
      if (seedDemo) await demo.seedDemo(ctx, `${listeningBase(config.host, running.port)}/v1`);
      running.commitNow();
      process.stdout.write(demo.demoBanner(demo.demoLinks(ctx), config.loginLinkMinutes, config.dbFile));
    }
    startJobs(ctx);
    startup.lap('bootstrap_and_jobs');
    // Load the read workers soon, so the first heavy read does not wait for them; not before the first
    // requests are answered (a worker's start is work on this thread too), and a heavy read that comes
    // sooner starts one itself.
    setTimeout(() => ctx.reads.warm(), WARM_READS_AFTER_MS).unref();
  } catch (err) {
    running?.server.close();
    db.close();
    throw err;
  }
  // The API, the console and the API's own documentation: the three addresses a new user looks for.
  const origin = running.url.replace(/\/v1$/, '');
  log.info('listening', {
    url: running.url,
    startup_ms: startup.laps(),
    console: `${origin}/console`,
    docs: `${origin}/docs`,
    limits: {
      max_body_bytes: config.maxBodyBytes,
      headers_timeout_ms: config.headersTimeoutMs,
      request_timeout_ms: config.requestTimeoutMs,
      keep_alive_timeout_ms: config.keepAliveTimeoutMs,
      max_connections: config.maxConnections,
      auth_failure_limit: config.authFailureLimit,
      auth_failure_window_ms: config.authFailureWindowMs,
      shutdown_timeout_ms: config.shutdownTimeoutMs,
      trusted_proxies: config.trustedProxies,
    },
  });

  const signal = await new Promise<string>((resolve) => {
    for (const name of SIGNALS) process.once(name, () => resolve(name));
  });
  // A second signal while draining means "now": cut the remaining connections; the database is
  // still checkpointed and closed.
  const hurry = (name: string) => {
    log.info('second signal: closing all connections now', { signal: name });
    running.server.closeAllConnections();
  };
  for (const name of SIGNALS) process.on(name, hurry);
  try {
    return await shutdown(ctx, running, signal);
  } finally {
    for (const name of SIGNALS) process.off(name, hurry);
  }
}

async function shutdown(ctx: AppContext, running: RunningServer, signal: string): Promise<number> {
  const started = process.hrtime.bigint();
  ctx.log.info('shutting down', { signal, in_flight: running.inFlight(), grace_ms: ctx.config.shutdownTimeoutMs });
  const { abandoned } = await running.close();
  for (const failure of await ctx.jobs.stopAll()) ctx.log.error('background job did not stop cleanly', { error: failure.message });
  // Under Litestream a TRUNCATE checkpoint would wait out busy_timeout (5 s, measured) on the read
  // lock Litestream holds and give up: close, and let Litestream's final sync and checkpoint follow.
  const checkpoint = ctx.config.litestreamConfig ? (ctx.db.close(), 'left to litestream') : checkpointAndClose(ctx.db);
  ctx.log.info('stopped', {
    signal,
    abandoned_requests: abandoned,
    checkpoint,
    duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
  });
  return 0;
}

/** Milliseconds of each start-up step, and of the process's own start before the first (runtime and code loading). */
class StartupTimer {
  readonly #laps: Record<string, number> = { process: Math.round(process.uptime() * 1000) };
  #at = process.hrtime.bigint();

  lap(step: string): void {
    const now = process.hrtime.bigint();
    this.#laps[step] = Math.round(Number(now - this.#at) / 1e5) / 10;
    this.#at = now;
  }

  laps(): Record<string, number> {
    return { ...this.#laps, total: Math.round(process.uptime() * 1000) };
  }
}

/** Litestream 0.3 keeps a `_litestream_seq` table in every database it replicates. */
function replicatedByLitestream(db: Db): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = '_litestream_seq'").get() !== undefined;
}
