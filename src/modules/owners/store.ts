// Owners and their users (in escalation order): the only SQL for either.
import type { Db } from '../../db/open.ts';
import { newId } from '../../lib/ids.ts';

export interface OwnerRow {
  seq: number;
  id: string;
  name: string;
  description: string;
  access_request_escalation_period: number | null;
  reviewer_message_channel_id: string | null;
  source_group_id: string | null;
  created_at: string;
  updated_at: string;
}

/** Every stored field of an owner except its ids and times. */
export interface OwnerFields {
  name: string;
  description: string;
  access_request_escalation_period: number;
  reviewer_message_channel_id: string | null;
  source_group_id: string | null;
}

/** How many things an owner administers, per kind; all zero means it may be deleted. */
export interface OwnedCounts {
  apps: number;
  resources: number;
  groups: number;
  bundles: number;
  tags: number;
  configuration_templates: number;
}

export function createOwnerStore(db: Db) {
  const insert = db.prepare<OwnerFields & { id: string; at: string }>(
    `INSERT INTO owners (id, name, description, access_request_escalation_period, reviewer_message_channel_id,
                         source_group_id, created_at, updated_at)
     VALUES (@id, @name, @description, @access_request_escalation_period, @reviewer_message_channel_id,
             @source_group_id, @at, @at)`,
  );
  const update = db.prepare<OwnerFields & { id: string; at: string }>(
    `UPDATE owners SET name = @name, description = @description,
                       access_request_escalation_period = @access_request_escalation_period,
                       reviewer_message_channel_id = @reviewer_message_channel_id,
                       source_group_id = @source_group_id, updated_at = @at
     WHERE id = @id`,
  );
  const rename = db.prepare<{ id: string; name: string }>('UPDATE owners SET name = @name WHERE id = @id');
  const remove = db.prepare<[string]>('DELETE FROM owners WHERE id = ?');
  const byId = db.prepare<[string], OwnerRow>('SELECT * FROM owners WHERE id = ?');
  const byName = db.prepare<[string], OwnerRow>('SELECT * FROM owners WHERE name = ?');
  const page = db.prepare<{ name: string | null; after: number; limit: number }, OwnerRow>(
    `SELECT * FROM owners WHERE (@name IS NULL OR name = @name) AND seq > @after ORDER BY seq LIMIT @limit`,
  );
  const userIds = db.prepare<[string], { user_id: string }>(
    'SELECT user_id FROM owner_users WHERE owner_id = ? ORDER BY position',
  );
  const clearUsers = db.prepare<[string]>('DELETE FROM owner_users WHERE owner_id = ?');
  const bySourceGroup = db.prepare<[string], OwnerRow>('SELECT * FROM owners WHERE source_group_id = ? ORDER BY seq LIMIT 1');
  const insertUser = db.prepare<[string, string, number]>(
    'INSERT INTO owner_users (owner_id, user_id, position) VALUES (?, ?, ?)',
  );
  // One look over every table with an admin_owner_id column; owners.ts alone decides what blocks a delete.
  const owned = db.prepare<{ id: string }, OwnedCounts>(
    `SELECT (SELECT count(*) FROM apps WHERE admin_owner_id = @id)      AS apps,
            (SELECT count(*) FROM resources WHERE admin_owner_id = @id) AS resources,
            (SELECT count(*) FROM groups WHERE admin_owner_id = @id)    AS groups,
            (SELECT count(*) FROM bundles WHERE admin_owner_id = @id)   AS bundles,
            (SELECT count(*) FROM tags WHERE admin_owner_id = @id)      AS tags,
            (SELECT count(*) FROM configuration_templates WHERE admin_owner_id = @id) AS configuration_templates`,
  );

  return {
    /** Inserts an owner; a duplicate name raises SQLite's unique error (→ 409). */
    create(fields: OwnerFields, at: Date): OwnerRow {
      const id = newId();
      insert.run({ ...fields, id, at: at.toISOString() });
      return byId.get(id)!;
    },
    /** Overwrites every field of an existing owner. */
    update(id: string, fields: OwnerFields, at: Date): OwnerRow {
      update.run({ ...fields, id, at: at.toISOString() });
      return byId.get(id)!;
    },
    /** Sets a name without touching anything else (bulk renames park names here first). */
    rename(id: string, name: string): void {
      rename.run({ id, name });
    },
    /** Deletes an owner and (by cascade) its user list. */
    delete(id: string): void {
      remove.run(id);
    },
    get(id: string): OwnerRow | undefined {
      return byId.get(id);
    },
    getByName(name: string): OwnerRow | undefined {
      return byName.get(name);
    },
    /** Whether a record with this id exists; other areas use it to check references. */
    exists(id: string): boolean {
      return byId.get(id) !== undefined;
    },
    /** A keyset page; `name` (exact match) or null for all. */
    list(name: string | null, after: number | null, limit: number): OwnerRow[] {
      return page.all({ name, after: after ?? 0, limit });
    },
    /** The owner's user ids in escalation order. */
    userIds(ownerId: string): string[] {
      return userIds.all(ownerId).map((row) => row.user_id);
    },
    /** Replaces the owner's users; their order is the escalation order. */
    setUsers(ownerId: string, ids: string[]): void {
      clearUsers.run(ownerId);
      ids.forEach((userId, position) => insertUser.run(ownerId, userId, position));
    },
    /** An owner (the oldest) whose users come from group `groupId`, if any. */
    withSourceGroup(groupId: string): OwnerRow | undefined {
      return bySourceGroup.get(groupId);
    },
    owned(ownerId: string): OwnedCounts {
      return owned.get({ id: ownerId })!;
    },
  };
}

