// Gatehouse's side of Litestream (v0.3): find its binary, ask it how far each replica is behind,
// and restore a replica into a new, checked database file. Litestream itself does the replicating.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { syncDirectory } from '../db/backup.ts';
import { checkGatehouseDatabase } from '../db/check.ts';
import { openDatabase } from '../db/open.ts';
import { verifyDatabase } from '../modules/audit/service.ts';
import type { Config } from '../config.ts';

/** Litestream could not be run, or what it reported means the replica cannot be trusted; nothing was changed. */
export class ReplicationError extends Error {}

/** Where to look for Litestream: the process's own facts, given so a test can set them. */
export interface LitestreamLookup {
  /** GATEHOUSE_LITESTREAM_BIN. */
  setting: string | undefined;
  /** The PATH to search (the process's). */
  searchPath?: string | undefined;
  /** The running executable (the process's): Litestream may sit beside it. */
  execPath?: string;
  /** Where npm's package is looked up from (the working directory: a checkout). */
  cwd?: string;
}

const isExecutableFile = (file: string): boolean => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

/**
 * The Litestream executable, from the first place that has it: GATEHOUSE_LITESTREAM_BIN when set (and
 * then only there); else `litestream` beside the running executable (dist/gatehouse and its litestream
 * copied to one directory); else the binary npm installs with Gatehouse (`@flydotio/litestream-<platform>-
 * <arch>`, looked up from the working directory, so `npm run gatehouse` in a checkout finds it); else
 * `litestream` on the PATH (node_modules/.bin/litestream under npm scripts). Not the `@flydotio/litestream`
 * wrapper's bin: it neither forwards signals nor passes on the exit status.
 * Throws ReplicationError naming every place it tried when none has it.
 */
export function litestreamBinary(lookup: LitestreamLookup): string {
  const { setting, searchPath = process.env.PATH, execPath = process.execPath, cwd = process.cwd() } = lookup;
  if (setting) {
    if (isExecutableFile(setting)) return setting;
    throw new ReplicationError(`cannot run Litestream: GATEHOUSE_LITESTREAM_BIN is ${setting}, which is not an executable file`);
  }
  const beside = path.join(path.dirname(execPath), 'litestream');
  if (isExecutableFile(beside)) return beside;
  const npmPackage = `@flydotio/litestream-${process.platform}-${process.arch}`;
  try {
    const installed = createRequire(path.join(cwd, 'package.json')).resolve(`${npmPackage}/litestream`);
    if (isExecutableFile(installed)) return installed;
  } catch {
    // not installed here: look on
  }
  const dirs = (searchPath ?? '').split(path.delimiter).filter((dir) => dir !== '');
  for (const dir of dirs) {
    const candidate = path.join(dir, 'litestream');
    if (isExecutableFile(candidate)) return candidate;
  }
  throw new ReplicationError(
    `cannot find Litestream; tried ${beside} (beside the executable), npm's ${npmPackage} from ${cwd}, ` +
    `and litestream on the PATH (${dirs.length > 0 ? dirs.join(path.delimiter) : 'empty'}): ` +
    'put it in one of those places or set GATEHOUSE_LITESTREAM_BIN (docs/replication.md)',
  );
}

/** Runs Litestream to completion; throws ReplicationError with its own words when it fails. */
function runLitestream(bin: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        return reject(new ReplicationError(`cannot run Litestream (${bin}): not found; install it or set GATEHOUSE_LITESTREAM_BIN (docs/replication.md)`));
      }
      if (err.killed) return reject(new ReplicationError(`litestream ${args[0]} did not finish within ${timeoutMs / 1000} s`));
      // Litestream's last line says why ("time=… level=ERROR msg=…" or "2026/01/02 03:04:05 ERROR …"): without its time.
      const said = stderr.trim().split('\n').at(-1) ?? '';
      reject(new ReplicationError(`litestream ${args[0]} failed: ${said.replace(/^(time=\S+ |\d{4}\/\d\d\/\d\d [\d:]{8} )/, '') || `exit status ${code}`}`));
    });
  });
}

/** Where Litestream 0.3 keeps its state beside the database: `.<name>-litestream/`. */
function litestreamDir(dbFile: string): string {
  return path.join(path.dirname(dbFile), `.${path.basename(dbFile)}-litestream`);
}

/** One replica as `litestream generations` sees it, judged against the database's own generation. */
export interface ReplicaStatus {
  name: string;
  /** The database's current generation, and whether this replica holds it. */
  generation: string | undefined;
  current: boolean;
  /** How long the database has been changed for without the change reaching this replica, in ms (0 when up to date). */
  lagMs: number | undefined;
  /** When this replica last received anything of the current generation. */
  replicatedAt: string | undefined;
  healthy: boolean;
  /** One line for people. */
  summary: string;
}

/**
 * Go's time.Duration text ("1h2m3.5s", "-55ms", "0s") in ms; undefined when it is not one.
 * Litestream prints lags this way.
 */
export function parseGoDuration(text: string): number | undefined {
  const match = /^(-?)((?:\d+(?:\.\d+)?(?:h|m|s|ms|µs|us|ns))+)$/.exec(text);
  if (!match) return undefined;
  const unitMs: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, µs: 1e-3, us: 1e-3, ns: 1e-6 };
  let ms = 0;
  for (const [, value, unit] of match[2]!.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|µs|us|ns)/g)) ms += Number(value) * unitMs[unit!]!;
  return match[1] ? -ms : ms;
}

/** A file's last write, in ms since the epoch; undefined when it does not exist. */
function modifiedMs(file: string): number | undefined {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * How much later the database file was last written than its WAL, when it has one: time Litestream
 * counts as lag though no data changed. Litestream dates the database's last change by the later of the
 * file's and the WAL's last writes; but in WAL mode every change is written to the WAL first, and the
 * database file is written only by checkpoints copying frames already in the WAL (and so, once
 * Litestream read them, already shipped). A clean stop ends with such a checkpoint (Litestream's own),
 * and an idle service before it made a replica that restores whole read "12 s behind" (issue 41.8).
 * Without a WAL (a plain `serve` checkpointed and removed it) the database file is the only date there is.
 */
function checkpointOnlyMs(dbFile: string): number {
  const database = modifiedMs(dbFile);
  const wal = modifiedMs(`${dbFile}-wal`);
  return database === undefined || wal === undefined ? 0 : Math.max(0, database - wal);
}

/**
 * Asks Litestream (`generations`, which reads the config's replicas) how far each replica of `dbFile`
 * is behind. A replica is healthy when it holds the database's current generation and is at most
 * `maxLagMs` behind. Litestream's "lag" is the time between the database's last change and the
 * replica's last one, so it also grows while Litestream is not running at all; a checkpoint's write
 * to the database file is not a change (checkpointOnlyMs).
 * Throws ReplicationError when Litestream cannot be run or does not know the database.
 */
export async function replicationStatus(options: {
  bin: string;
  config: string;
  dbFile: string;
  maxLagMs: number;
}): Promise<ReplicaStatus[]> {
  const dbFile = path.resolve(options.dbFile);
  if (!fs.existsSync(options.config)) throw new ReplicationError(`there is no Litestream config at ${options.config}`);
  const generationFile = path.join(litestreamDir(dbFile), 'generation');
  const generation = fs.existsSync(generationFile) ? fs.readFileSync(generationFile, 'utf8').trim() || undefined : undefined;
  const out = await runLitestream(options.bin, ['generations', '-config', options.config, dbFile], 60_000);
  // "name  generation  lag  start  end", one row per replica and generation.
  const rows = out.trim().split('\n').slice(1).map((line) => line.trim().split(/\s+/)).filter((cols) => cols.length === 5);
  const names = [...new Set(rows.map(([name]) => name!))];
  if (names.length === 0) throw new ReplicationError(`Litestream lists no replica of ${dbFile} (is it in ${options.config}, and has it replicated yet?)`);
  return names.map((name) => {
    const row = generation ? rows.find(([n, g]) => n === name && g === generation) : undefined;
    if (!generation) {
      return { name, generation, current: false, lagMs: undefined, replicatedAt: undefined, healthy: false,
        summary: `${name}: Litestream has not started replicating ${dbFile} (no ${generationFile})` };
    }
    if (!row) {
      return { name, generation, current: false, lagMs: undefined, replicatedAt: undefined, healthy: false,
        summary: `${name}: does not hold the database's current generation ${generation} yet (its snapshot is still to be uploaded, or another server writes there)` };
    }
    const lag = parseGoDuration(row[2]!);
    const lagMs = lag === undefined ? undefined : Math.max(0, Math.round(lag - checkpointOnlyMs(dbFile)));
    const healthy = lagMs !== undefined && lagMs <= options.maxLagMs;
    const behind = lagMs === undefined ? `an unreadable lag "${row[2]}"` : lagMs === 0 ? 'up to date' : `${(lagMs / 1000).toFixed(1)} s behind`;
    return { name, generation, current: true, lagMs, replicatedAt: row[4], healthy,
      summary: `${name}: generation ${generation}, ${behind} (last replicated ${row[4]})${healthy ? '' : `: more than ${options.maxLagMs / 1000} s`}` };
  });
}

export interface RestoreSource {
  /** A replica URL (`file:///…`, `sftp://user@host/path`, `s3://bucket/path`)… */
  url?: string;
  /** …or a Litestream config, with the database path it lists. */
  config?: string;
  dbFile?: string;
  /** Restore to the state at this time (RFC 3339) instead of the latest. */
  timestamp?: string;
}

export interface RestoreResult {
  file: string;
  schemaVersion: number;
  events: number;
  /** The audit chain's head as SEQ:HASH, what `gatehouse audit verify` prints. */
  head: string | undefined;
  bytes: number;
}

/**
 * Restores a replica into `target`, which must not exist: Litestream writes a file beside it, which
 * must pass the integrity and foreign-key checks, be a Gatehouse database this version knows, and
 * have an intact audit chain before it is renamed into place. Throws ReplicationError (leaving
 * nothing behind) otherwise.
 */
export async function restoreReplica(bin: string, source: RestoreSource, target: string): Promise<RestoreResult> {
  const file = path.resolve(target);
  for (const suffix of ['', '-wal', '-shm']) {
    if (fs.existsSync(file + suffix)) throw new ReplicationError(`${file + suffix} exists; restore never replaces a database (move it away first)`);
  }
  if (!fs.existsSync(path.dirname(file))) throw new ReplicationError(`the directory ${path.dirname(file)} does not exist`);
  const tmp = `${file}.restoring-${process.pid}`;
  const removeTmp = () => {
    // Litestream restores into TMP.tmp, and leaves that file's -wal and -shm behind.
    for (const suffix of ['', '-wal', '-shm', '.tmp', '.tmp-wal', '.tmp-shm']) fs.rmSync(tmp + suffix, { force: true });
  };
  removeTmp();
  const args = ['restore', '-o', tmp, ...(source.timestamp ? ['-timestamp', source.timestamp] : [])];
  if (source.url) args.push(source.url);
  else args.push('-config', source.config!, path.resolve(source.dbFile!));
  try {
    // No short limit: a large database over a slow link takes what it takes.
    await runLitestream(bin, args, 24 * 3_600_000);
    if (!fs.existsSync(tmp)) throw new ReplicationError('Litestream finished without writing a database (is the replica empty?)');
    const db = openDatabase(tmp, { mustExist: true, asIs: true });
    let result: Omit<RestoreResult, 'bytes'>;
    try {
      const { problems, schemaVersion: version } = checkGatehouseDatabase(db);
      const chain = verifyDatabase(db);
      if (chain.problem) problems.push(`audit chain: ${chain.problem.message}`);
      if (problems.length) throw new ReplicationError(`the restored copy failed its checks: ${problems.join('; ')}`);
      result = { file, schemaVersion: version!, events: chain.count, head: chain.last ? `${chain.last.seq}:${chain.last.hash}` : undefined };
    } finally {
      db.close();
    }
    fs.renameSync(tmp, file);
    syncDirectory(path.dirname(file));
    return { ...result, bytes: fs.statSync(file).size };
  } finally {
    removeTmp();
  }
}

/**
 * The replicas of the configured database as {@link replicationStatus} judges them, or undefined when
 * no Litestream config is set (`gatehouse check`, `replication status` and the console's Settings page);
 * the binary is looked up on `searchPath` (the CLI passes its own environment's PATH).
 * Throws ReplicationError as replicationStatus does.
 */
export async function replicasOf(
  config: Pick<Config, 'litestreamConfig' | 'litestreamBin' | 'dbFile' | 'replicationMaxLagSeconds'>,
  searchPath: string | undefined = process.env.PATH,
): Promise<ReplicaStatus[] | undefined> {
  if (!config.litestreamConfig) return undefined;
  return replicationStatus({
    bin: litestreamBinary({ setting: config.litestreamBin, searchPath }),
    config: config.litestreamConfig,
    dbFile: config.dbFile,
    maxLagMs: config.replicationMaxLagSeconds * 1000,
  });
}
