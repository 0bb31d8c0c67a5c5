// The settings area's table: what an admin stored on the Settings page (sql/0027), by variable name.
import type { Db } from '../../db/open.ts';

export interface StoredSettingRow {
  name: string;
  /** The text, or its sealed envelope when `encrypted` (secret-box.ts). */
  value: string;
  encrypted: 0 | 1;
  updated_at: string;
  updated_by: string | null;
}

export function createSettingsStore(db: Db) {
  const all = db.prepare<[], StoredSettingRow>('SELECT * FROM stored_settings ORDER BY name');
  const put = db.prepare<[string, string, number, string, string | null]>(
    `INSERT INTO stored_settings (name, value, encrypted, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET value = excluded.value, encrypted = excluded.encrypted, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
  );
  const remove = db.prepare<[string]>('DELETE FROM stored_settings WHERE name = ?');
  return {
    all: (): StoredSettingRow[] => all.all(),
    put(name: string, value: string, encrypted: boolean, at: Date, byUserId: string | null): void {
      put.run(name, value, encrypted ? 1 : 0, at.toISOString(), byUserId);
    },
    /** Removes a stored value (the setting falls back to its default); true when there was one. */
    remove: (name: string): boolean => remove.run(name).changes > 0,
  };
}
