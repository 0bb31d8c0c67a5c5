// Identity-provider group mappings (the groups an Okta app offers): the only SQL for them.
import type { Db } from '../../db/open.ts';
import { toApiMapping, type ApiIdpGroupMapping, type MappingRow } from './mappers.ts';

/** What a mapping says besides its two ends. */
export interface MappingFields {
  alias: string | null;
  hidden_from_end_user: boolean;
}

type Key = { app: string; group: string };
type Write = Key & { alias: string | null; hidden: number; at: string };

export function createIdpGroupMappingStore(db: Db) {
  const ofApp = db.prepare<[string], MappingRow>('SELECT * FROM idp_group_mappings WHERE app_resource_id = ? ORDER BY seq');
  const one = db.prepare<Key, MappingRow>('SELECT * FROM idp_group_mappings WHERE app_resource_id = @app AND group_id = @group');
  const insert = db.prepare<Write>(
    `INSERT INTO idp_group_mappings (app_resource_id, group_id, alias, hidden_from_end_user, created_at, updated_at)
     VALUES (@app, @group, @alias, @hidden, @at, @at)`,
  );
  const update = db.prepare<Write>(
    `UPDATE idp_group_mappings SET alias = @alias, hidden_from_end_user = @hidden, updated_at = @at
     WHERE app_resource_id = @app AND group_id = @group`,
  );
  const remove = db.prepare<Key>('DELETE FROM idp_group_mappings WHERE app_resource_id = @app AND group_id = @group');
  const removeAll = db.prepare<[string]>('DELETE FROM idp_group_mappings WHERE app_resource_id = ?');

  const write = (app: string, group: string, fields: MappingFields, at: Date): Write => ({
    app, group, alias: fields.alias, hidden: fields.hidden_from_end_user ? 1 : 0, at: at.toISOString(),
  });

  return {
    /** The app's mappings in the order they were made (a replace makes them in the order given). */
    list(appResourceId: string): ApiIdpGroupMapping[] {
      return ofApp.all(appResourceId).map(toApiMapping);
    },
    get(appResourceId: string, groupId: string): ApiIdpGroupMapping | undefined {
      const row = one.get({ app: appResourceId, group: groupId });
      return row && toApiMapping(row);
    },
    insert(appResourceId: string, groupId: string, fields: MappingFields, at: Date): void {
      insert.run(write(appResourceId, groupId, fields, at));
    },
    update(appResourceId: string, groupId: string, fields: MappingFields, at: Date): void {
      update.run(write(appResourceId, groupId, fields, at));
    },
    /** Removes one mapping; false when there was none. */
    remove(appResourceId: string, groupId: string): boolean {
      return remove.run({ app: appResourceId, group: groupId }).changes > 0;
    },
    removeAll(appResourceId: string): void {
      removeAll.run(appResourceId);
    },
  };
}

