// Opens the one SQLite file with the settings the whole service relies on.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { casefoldSql } from '../lib/casefold.ts';
import { nativeAddonPath } from './native-addon.ts';

export type Db = Database.Database;

/** SQLite page cache of a connection, in KiB (see openDatabase). */
export const CACHE_KIB = 8192;

export interface OpenOptions {
  readonly?: boolean;
  /** Fail instead of creating the file. */
  mustExist?: boolean;
  /** Leave the file's journal mode as it is (check and backup look at files they must not convert). */
  asIs?: boolean;
}

/**
 * Opens (creating if needed, with its directory) the database file.
 * - WAL: readers never block the writer, and a crash leaves either the old or the new transaction.
 * - synchronous=FULL: each commit is fsynced before it is acknowledged, so an acknowledged write
 *   survives a process crash and a power cut alike (NORMAL only promises the first in WAL mode).
 *   Measured cost (2000 one-row commits, ext4 on a virtio disk): FULL ~250 µs a commit, NORMAL
 *   ~19 µs. A write request spends far longer in HTTP and JSON than that, and a grant or a
 *   revocation that was answered must not roll back on power loss, so FULL stays.
 * - foreign_keys: SQLite leaves them off by default; the schema depends on them.
 * - busy_timeout: a second process (backup, `gatehouse token create`) waits instead of failing.
 * - casefold(text): the one case-folding rule of every case-insensitive filter (src/lib/casefold.ts);
 *   SQLite's lower() folds ASCII only, so "équipe" would miss "Équipe".
 */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  if (file !== ':memory:' && !options.readonly && !options.mustExist) mkdirSync(dirname(file), { recursive: true });
  const addon = nativeAddonPath();
  const db = new Database(file, {
    readonly: options.readonly ?? false,
    fileMustExist: options.mustExist ?? options.readonly ?? false,
    ...(addon ? { nativeBinding: addon } : {}),
  });
  if (!options.readonly && !options.asIs) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // SQLite's page cache, per connection (better-sqlite3 builds with 16 MB): 8 MiB holds the hot pages of
  // the indexes and recent rows; the rest come from the OS's file cache, which RSS does not count
  // (issue 21's 300 MB; docs/performance.md, "Memory"). Read workers take less (src/reads/worker.ts).
  db.pragma(`cache_size = -${CACHE_KIB}`);
  db.function('casefold', { deterministic: true }, casefoldSql);
  return db;
}

/** What PRAGMA wal_checkpoint reports: busy is 1 when a reader or writer kept it from finishing. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/**
 * Copies the whole WAL into the database file and truncates the WAL to zero bytes, then closes:
 * the file alone is then the complete database (what a file-level copy or the next start sees).
 * Returns the checkpoint's report; never throws for a busy checkpoint (the WAL stays valid).
 */
export function checkpointAndClose(db: Db): CheckpointResult {
  const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as CheckpointResult[];
  db.close();
  return result ?? { busy: 0, log: 0, checkpointed: 0 };
}
