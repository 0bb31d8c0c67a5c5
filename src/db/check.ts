// Consistency checks on a database file: SQLite's own integrity check, the foreign keys and the schema
// version — what `gatehouse check` and the console's Settings page (GET /v1/settings/check) report.
import { recordedSchemaVersion } from './migrate.ts';
import { MIGRATIONS } from './migrations.ts';
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

/** What `gatehouse check` finds in a file: {@link checkDatabase}'s problems, and a schema this build cannot read. */
export interface GatehouseCheck extends CheckResult {
  /** The schema version the file records; undefined when it is not a Gatehouse database. */
  schemaVersion: number | undefined;
  /** The newest schema version this build knows. */
  knownSchemaVersion: number;
}

/** {@link checkDatabase}, plus whether the file is a Gatehouse database of a schema this build knows. Writes nothing. */
export function checkGatehouseDatabase(db: Db): GatehouseCheck {
  const known = MIGRATIONS.at(-1)?.version ?? 0;
  const { problems } = checkDatabase(db);
  const version = recordedSchemaVersion(db);
  if (version === undefined) problems.push('this is not a Gatehouse database (it has no schema_migrations table)');
  else if (version > known) problems.push(`schema version ${version} is newer than this Gatehouse knows (${known})`);
  return { ok: problems.length === 0, problems, schemaVersion: version, knownSchemaVersion: known };
}
