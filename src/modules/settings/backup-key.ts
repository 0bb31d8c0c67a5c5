// What `gatehouse backup` says of the key the stored secrets need (docs/settings.md): a backup holds them
// encrypted, and reads them only with GATEHOUSE_SECRET_KEY or the key file beside the database, which the
// backup does not hold unless asked (--with-key copies the file beside the backup, named after it).
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../db/open.ts';
import { syncDirectory } from '../../db/backup.ts';
import { keyFileOf } from './secret-box.ts';
import { createSettingsStore } from './store.ts';

export interface KeyNote {
  /** Lines for stdout: what was done. */
  told: string[];
  /** Lines for stderr: what the operator must keep, or has lost. */
  warnings: string[];
}

/** Stored secrets in `db` (0 for a database older than the Settings page's table). */
function sealedSecrets(db: Db): number {
  let rows;
  try {
    rows = createSettingsStore(db).all();
  } catch {
    return 0;
  }
  return rows.filter((row) => row.encrypted === 1).length;
}

/**
 * After `db` was backed up to `backupFile`: with `withKey` and a key file, copies it to `<backupFile>.key`
 * (owner-only, written whole then renamed); otherwise, when the backup holds stored secrets, says plainly
 * which key they need and that the backup does not hold it. Throws nothing but the copy's own failure.
 */
export function noteTheKey(db: Db, settings: { secretKey: string | undefined; dbFile: string }, backupFile: string, withKey: boolean): KeyNote {
  const sealed = sealedSecrets(db);
  const secrets = `${sealed} stored secret${sealed === 1 ? '' : 's'} (Settings page)`;
  if (settings.secretKey !== undefined) {
    const warnings = sealed > 0 ? [`warning: the backup holds ${secrets} encrypted with GATEHOUSE_SECRET_KEY, which is not in it: keep that key to read them after a restore`] : [];
    if (withKey) warnings.push('warning: --with-key copies a key file, but the key here is GATEHOUSE_SECRET_KEY: nothing was copied; keep the variable\'s value');
    return { told: [], warnings };
  }
  const keyFile = keyFileOf(settings.dbFile);
  if (!fs.existsSync(keyFile)) {
    return { told: [], warnings: sealed > 0 ? [`warning: the backup holds ${secrets}, but neither GATEHOUSE_SECRET_KEY nor the key file ${keyFile} is here: no key reads them; set them again on the Settings page`] : [] };
  }
  if (withKey) {
    const target = `${backupFile}.key`;
    const partial = `${target}.partial-${process.pid}`;
    fs.rmSync(partial, { force: true });
    fs.copyFileSync(keyFile, partial);
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, target);
    syncDirectory(path.dirname(target));
    return {
      told: [`copied the key file ${keyFile} to ${target}: restore the two together (the key named <database>.key beside the database); whoever has both reads the ${secrets}`],
      warnings: [],
    };
  }
  return {
    told: [],
    warnings: sealed > 0 ? [`warning: the backup holds ${secrets} encrypted with the key file ${keyFile}, which is not in it: keep a copy of that file apart from the backups (or run with --with-key to copy it beside this one), or a restored copy cannot read them`] : [],
  };
}
