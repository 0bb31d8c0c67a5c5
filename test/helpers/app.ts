// Boots the real service for a test: a fresh SQLite file in a temp dir, a manual clock, port 0.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { AREAS } from '../../src/app.ts';
import { createContext, type AppContext } from '../../src/context.ts';
import { migrate } from '../../src/db/migrate.ts';
import { recordServiceAddress } from '../../src/db/meta.ts';
import { openDatabase } from '../../src/db/open.ts';
import { listeningBase } from '../../src/http/public-base.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import type { Logger, LogFields } from '../../src/lib/log.ts';
import { bootstrapAdmin } from '../../src/modules/tokens/service.ts';
import { startServer, type RunningServer } from '../../src/http-server.ts';
import { ApiClient } from './client.ts';
import { PATIENCE_MS } from './wait.ts';

export const ADMIN_TOKEN = 'gth_test-admin-token-0123456789abcdefghij';

export interface TestApp {
  /** Client authenticated as the admin. */
  api: ApiClient;
  url: string;
  ctx: AppContext;
  clock: ManualClock;
  dbFile: string;
  dir: string;
  adminUserId: string;
  /** Every line the service logged, in order (the real logger is silent in tests). */
  logs: LogLine[];
  /** The listening server (connection counts for the connection-limit tests). */
  server: RunningServer['server'];
  /** Stops the server and closes the database; `keepFiles` leaves the temp dir for a restart. */
  close(options?: { keepFiles?: boolean }): Promise<void>;
}

export interface TestAppOptions {
  /** Reuse a database file (restart tests); by default a new temp dir is made. */
  dbFile?: string;
  clock?: ManualClock;
  env?: Record<string, string>;
  /** The admin token to bootstrap an empty database with (ignored, like in production, when it has users). */
  bootstrapToken?: string;
}

export interface LogLine extends LogFields {
  level: 'info' | 'error';
  msg: string;
}

/** A logger that keeps lines in memory, so tests can assert on what the service logged. */
function capturingLogger(lines: LogLine[]): Logger {
  return {
    info: (msg, fields) => void lines.push({ level: 'info', msg, ...fields }),
    error: (msg, fields) => void lines.push({ level: 'error', msg, ...fields }),
    request: (method, path, status, duration_ms, request_id, ip, token_label) =>
      void lines.push({ level: 'info', msg: 'request', method, path, status, duration_ms, request_id, ip, token_label }),
  };
}

/** Where a test's clock starts unless it brings its own. */
const START = '2026-03-01T09:00:00.000Z';

let template: string | undefined;
/**
 * A database file migrated to the current schema, made once per process and copied for each new test
 * database: migrating is the same work every time (every migration, one fsynced transaction), and a
 * copy of its result is the same file. `migrate` still runs on every copy, finding nothing to do.
 */
function migratedTemplate(): string {
  if (template !== undefined) return template;
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-template-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'migrated.db');
  const db = openDatabase(file);
  migrate(db, new Date(START));
  // Closing the last connection checkpoints the WAL into the file and removes it: the file is whole.
  db.close();
  return (template = file);
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dir = options.dbFile ? join(options.dbFile, '..') : mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
  const dbFile = options.dbFile ?? join(dir, 'gatehouse.db');
  if (options.dbFile === undefined) copyFileSync(migratedTemplate(), dbFile);
  const clock = options.clock ?? new ManualClock(START);
  // A keep-alive timeout far beyond any pause between a test's requests: with the default 5 s, a test
  // pausing about that long under load (first load of the reference schemas) can reuse a socket at the
  // instant the server closes it, and fetch fails with "other side closed".
  // Fixtures write fast and the clock stands still: the write limit is off unless a test sets it.
  // The heavy-read time budget (5 s) would refuse a test's read on a busy machine; tests of the budget
  // use the row budget, which counts work, not time.
  const config = loadConfig({
    GATEHOUSE_LOG_LEVEL: 'silent', GATEHOUSE_KEEP_ALIVE_TIMEOUT_MS: '120000', GATEHOUSE_WRITE_RATE_LIMIT: '0',
    GATEHOUSE_READ_BUDGET_MS: String(PATIENCE_MS), ...options.env,
  }, { db: dbFile, host: '127.0.0.1', port: '0' });
  const db = openDatabase(dbFile);
  // What a test can observe of the service is the same with NORMAL as with the FULL it runs with: in WAL
  // mode a commit survives the process dying either way (what the crash tests kill is a real `serve`,
  // with FULL). FULL adds an fsync to every commit, which only a power cut tells apart, and which cost
  // about a quarter of a database-heavy test file's time on the loaded 2-core machine.
  db.pragma('synchronous = NORMAL');
  migrate(db, clock.now());
  const logs: LogLine[] = [];
  const ctx = createContext({ db, clock, config, log: capturingLogger(logs) }, AREAS);
  bootstrapAdmin(ctx, options.bootstrapToken ?? ADMIN_TOKEN);
  const running: RunningServer = await startServer(ctx);
  // As `serve` does: links Gatehouse makes (sign-in emails, notices) point at this server unless GATEHOUSE_PUBLIC_URL says otherwise.
  recordServiceAddress(db, listeningBase('127.0.0.1', running.port));
  const adminUserId = ctx.stores.users.getByEmail(config.adminEmail)!.user_id;
  return {
    api: new ApiClient(running.url, options.bootstrapToken ?? ADMIN_TOKEN),
    url: running.url,
    ctx,
    clock,
    dbFile,
    dir,
    adminUserId,
    logs,
    server: running.server,
    async close({ keepFiles = false } = {}) {
      await running.close();
      db.close();
      if (!keepFiles) rmSync(dir, { recursive: true, force: true });
    },
  };
}
