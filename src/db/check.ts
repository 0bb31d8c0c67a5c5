// Consistency checks on a database file: SQLite's own integrity check and the foreign keys.
import type { Db } from './open.ts';

export interface CheckResult {
  ok: boolean;
  /** One line per problem found, empty when ok. */
  problems: string[];
}

interface ForeignKeyProblem {
  table: string;
  rowid: number | null;
  parent: string;
  fkid: number;
}

/**
 * Runs PRAGMA integrity_check (page structure, indexes, constraints; stops after 100 problems)
 * and PRAGMA foreign_key_check (every reference points at a row). Writes nothing.
 */
export function checkDatabase(db: Db): CheckResult {
  const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
  const problems = integrity.length === 1 && integrity[0] === 'ok' ? [] : integrity.map((line) => `integrity: ${line}`);
  for (const fk of db.pragma('foreign_key_check') as ForeignKeyProblem[]) {
    problems.push(`foreign key: ${fk.table} row ${fk.rowid ?? '?'} refers to a missing ${fk.parent} row`);
  }
  return { ok: problems.length === 0, problems };
}
