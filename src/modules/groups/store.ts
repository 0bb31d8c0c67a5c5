// The groups area's SQL lives here (placeholder until the area is built out).
import type { Db } from '../../db/open.ts';

export function createGroupStore(db: Db) {
  const byId = db.prepare<[string], { id: string }>('SELECT id FROM groups WHERE id = ?');
  return {
    /** Whether a record with this id exists; other areas use it to check references. */
    exists(id: string): boolean {
      return byId.get(id) !== undefined;
    },
  };
}
