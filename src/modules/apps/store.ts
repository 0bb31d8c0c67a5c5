// Apps (the systems resources and groups live in): the only SQL for them.
import type { Db } from '../../db/open.ts';
import { newId } from '../../lib/ids.ts';
import { toApiApp, type ApiApp, type AppRow } from './mappers.ts';

export interface AppFields {
  name: string;
  description: string;
  app_type: string;
  admin_owner_id: string;
}

export interface AppFilter {
  /** App types to keep, or undefined for any. */
  appTypes?: string[] | undefined;
  ownerId?: string | undefined;
}

export function createAppStore(db: Db) {
  const insert = db.prepare<AppFields & { id: string; at: string }>(
    `INSERT INTO apps (id, name, description, app_type, admin_owner_id, created_at, updated_at)
     VALUES (@id, @name, @description, @app_type, @admin_owner_id, @at, @at)`,
  );
  const update = db.prepare<AppFields & { id: string; at: string }>(
    `UPDATE apps SET name = @name, description = @description, app_type = @app_type,
                     admin_owner_id = @admin_owner_id, updated_at = @at
     WHERE id = @id`,
  );
  const remove = db.prepare<[string]>('DELETE FROM apps WHERE id = ?');
  const byId = db.prepare<[string], AppRow>('SELECT * FROM apps WHERE id = ?');
  // AppsList has no paging in the reference: every app that matches, in creation order.
  const all = db.prepare<{ types: string | null; owner: string | null }, AppRow>(
    `SELECT * FROM apps
     WHERE (@types IS NULL OR app_type IN (SELECT value FROM json_each(@types)))
       AND (@owner IS NULL OR admin_owner_id = @owner)
     ORDER BY seq`,
  );
  // What still lives in the app; deleting it would orphan these.
  const contents = db.prepare<{ id: string }, { resources: number; groups: number }>(
    `SELECT (SELECT count(*) FROM resources WHERE app_id = @id) AS resources,
            (SELECT count(*) FROM groups WHERE app_id = @id)    AS groups`,
  );

  return {
    create(fields: AppFields, at: Date): ApiApp {
      const id = newId();
      insert.run({ ...fields, id, at: at.toISOString() });
      return toApiApp(byId.get(id)!);
    },
    /** Overwrites every field of an existing app. */
    update(id: string, fields: AppFields, at: Date): ApiApp {
      update.run({ ...fields, id, at: at.toISOString() });
      return toApiApp(byId.get(id)!);
    },
    delete(id: string): void {
      remove.run(id);
    },
    get(id: string): ApiApp | undefined {
      const row = byId.get(id);
      return row && toApiApp(row);
    },
    /** Whether a record with this id exists; other areas use it to check references. */
    exists(id: string): boolean {
      return byId.get(id) !== undefined;
    },
    list(filter: AppFilter): ApiApp[] {
      return all
        .all({ types: filter.appTypes === undefined ? null : JSON.stringify(filter.appTypes), owner: filter.ownerId ?? null })
        .map(toApiApp);
    },
    /** How many resources and groups belong to the app. */
    contents(id: string): { resources: number; groups: number } {
      return contents.get({ id })!;
    },
  };
}

