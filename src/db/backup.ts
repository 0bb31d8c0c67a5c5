// Online backup: a consistent copy of the live database, taken while the service keeps writing.
import fs from 'node:fs';
import path from 'node:path';
import { checkDatabase } from './check.ts';
import { openDatabase, type Db } from './open.ts';

/** A backup that could not be made; nothing was left at the target. */
export class BackupError extends Error {}

export interface BackupResult {
  file: string;
  pages: number;
  bytes: number;
}

/**
 * Pages copied per backup step: all of them. SQLite restarts an online backup whenever another
 * process writes to the source between two steps, so under steady writes a stepwise copy might
 * never finish. One step reads a single WAL snapshot, which never blocks the writer; it only
 * keeps this (CLI) process busy, never the server's event loop.
 */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies `source` to `target` through SQLite's online backup API, then checks the copy.
 * The copy is written beside the target and renamed over it only once it passed
 * PRAGMA integrity_check, so `target` is always either the old file or a complete new backup.
 * The copy is left in rollback-journal mode: one self-contained file, no -wal beside it.
 * Throws BackupError when the target's directory is missing, the target is the source itself,
 * or the copy fails its check.
 */
export async function backupDatabase(source: Db, target: string): Promise<BackupResult> {
  const file = path.resolve(target);
  if (file === path.resolve(source.name)) throw new BackupError(`the backup target ${target} is the database itself`);
  if (!fs.existsSync(path.dirname(file))) throw new BackupError(`the directory ${path.dirname(file)} does not exist`);
  if (fs.existsSync(file) && !fs.statSync(file).isFile()) throw new BackupError(`${target} exists and is not a file`);

  const tmp = `${file}.partial-${process.pid}`;
  removeDatabaseFiles(tmp);
  try {
    const progress = await source.backup(tmp, { progress: () => ALL_PAGES });
    const copy = openDatabase(tmp, { mustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
      const check = checkDatabase(copy);
      if (!check.ok) throw new BackupError(`the copy failed its check: ${check.problems.join('; ')}`);
    } finally {
      copy.close();
    }
    fs.renameSync(tmp, file);
    syncDirectory(path.dirname(file));
    return { file, pages: progress.totalPages, bytes: fs.statSync(file).size };
  } catch (err) {
    removeDatabaseFiles(tmp);
    throw err;
  }
}

function removeDatabaseFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
}

/** Makes the rename itself durable; some file systems refuse to fsync a directory, which is harmless. */
export function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Best effort only.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
