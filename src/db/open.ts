// Opens the one SQLite file with the settings the whole service relies on.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { nativeAddonPath } from './native-addon.ts';

export type Db = Database.Database;

/**
 * Opens (creating if needed, with its directory) the database file.
 * - WAL: readers never block the writer, and a crash leaves either the old or the new transaction.
 * - synchronous=FULL: each commit is fsynced before it is acknowledged, so an acknowledged write
 *   survives a process crash and a power cut alike (NORMAL only promises the first in WAL mode).
 * - foreign_keys: SQLite leaves them off by default; the schema depends on them.
 * - busy_timeout: a second process (backup, `gatehouse token create`) waits instead of failing.
 */
export function openDatabase(file: string, options: { readonly?: boolean; mustExist?: boolean } = {}): Db {
  if (file !== ':memory:' && !options.readonly && !options.mustExist) mkdirSync(dirname(file), { recursive: true });
  const addon = nativeAddonPath();
  const db = new Database(file, {
    readonly: options.readonly ?? false,
    fileMustExist: options.mustExist ?? options.readonly ?? false,
    ...(addon ? { nativeBinding: addon } : {}),
  });
  if (!options.readonly) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}
