// Brings a database file up to the schema this build knows, forward only.
import type { Db } from './open.ts';
import { MIGRATIONS, type Migration } from './migrations.ts';

export class SchemaTooNewError extends Error {}

/** The schema version a file records, without creating anything; undefined when it has no migrations table. */
export function recordedSchemaVersion(db: Db): number | undefined {
  const table = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (!table) return undefined;
  return (db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
}

/** The highest migration version recorded in the file (creating the record table), 0 for a new file. */
export function schemaVersion(db: Db): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`);
  return recordedSchemaVersion(db) ?? 0;
}

/**
 * Applies every migration above the recorded version, all in one transaction, so a failure leaves
 * the file as it was. Throws SchemaTooNewError when the file was written by a newer Gatehouse.
 * Returns the migrations applied.
 */
export function migrate(db: Db, now: Date, migrations: readonly Migration[] = MIGRATIONS): Migration[] {
  const known = migrations.at(-1)?.version ?? 0;
  const apply = db.transaction(() => {
    const current = schemaVersion(db);
    if (current > known) {
      throw new SchemaTooNewError(
        `the database is at schema version ${current}, but this Gatehouse knows only up to ${known}: ` +
          'run a newer Gatehouse, or restore a backup taken before the upgrade',
      );
    }
    const pending = migrations.filter((m) => m.version > current);
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const m of pending) {
      db.exec(m.sql);
      m.after?.(db);
      record.run(m.version, m.name, now.toISOString());
    }
    return pending;
  });
  return apply.immediate();
}
