// Tags and their attachments to users, groups and resources: the only SQL for either.
import type { Db } from '../../db/open.ts';
import { newId } from '../../lib/ids.ts';
import { toApiTag, type ApiTag, type TagRow } from './mappers.ts';

/** What a tag can be attached to; each kind has its own link table and id column. */
export const TAG_TARGETS = {
  user: { table: 'tag_users', column: 'user_id' },
  group: { table: 'tag_groups', column: 'group_id' },
  resource: { table: 'tag_resources', column: 'resource_id' },
} as const;
export type TagTarget = keyof typeof TAG_TARGETS;

export interface NewTag {
  key: string;
  value: string;
  user_creator_id: string;
  admin_owner_id: string | null;
}

/** The same four statements for each kind of target; table and column come from TAG_TARGETS, never from input. */
function linkStatements(db: Db, kind: TagTarget) {
  const { table, column } = TAG_TARGETS[kind];
  return {
    attach: db.prepare<{ tagId: string; targetId: string }>(
      `INSERT INTO ${table} (tag_id, ${column}) VALUES (@tagId, @targetId) ON CONFLICT DO NOTHING`,
    ),
    detach: db.prepare<{ tagId: string; targetId: string }>(`DELETE FROM ${table} WHERE tag_id = @tagId AND ${column} = @targetId`),
    tagsOf: db.prepare<{ targetId: string }, TagRow>(
      `SELECT tags.* FROM ${table} JOIN tags ON tags.id = ${table}.tag_id WHERE ${table}.${column} = @targetId ORDER BY tags.seq`,
    ),
    targetsOf: db.prepare<{ tagId: string }, { target_id: string }>(
      `SELECT ${column} AS target_id FROM ${table} WHERE tag_id = @tagId ORDER BY ${column}`,
    ),
  };
}

export function createTagStore(db: Db) {
  const insert = db.prepare<NewTag & { id: string; at: string }>(
    `INSERT INTO tags (id, key, value, user_creator_id, admin_owner_id, created_at, updated_at)
     VALUES (@id, @key, @value, @user_creator_id, @admin_owner_id, @at, @at)`,
  );
  const byId = db.prepare<[string], TagRow>('SELECT * FROM tags WHERE id = ?');
  const byKeyValue = db.prepare<{ key: string; value: string }, TagRow>('SELECT * FROM tags WHERE key = @key AND value = @value');
  const remove = db.prepare<[string]>('DELETE FROM tags WHERE id = ?');
  const page = db.prepare<{ after: number; limit: number }, TagRow>('SELECT * FROM tags WHERE seq > @after ORDER BY seq LIMIT @limit');

  const links = { user: linkStatements(db, 'user'), group: linkStatements(db, 'group'), resource: linkStatements(db, 'resource') };

  return {
    /** Inserts a tag; a duplicate key and value raises SQLite's unique error (→ 409). */
    create(tag: NewTag, at: Date): ApiTag {
      const id = newId();
      insert.run({ ...tag, id, at: at.toISOString() });
      return toApiTag(byId.get(id)!);
    },
    get(id: string): ApiTag | undefined {
      const row = byId.get(id);
      return row && toApiTag(row);
    },
    /** The tag with exactly this key and value ('' for a tag without a value). */
    getByKeyValue(key: string, value: string): ApiTag | undefined {
      const row = byKeyValue.get({ key, value });
      return row && toApiTag(row);
    },
    /** Whether a record with this id exists; other areas use it to check references. */
    exists(id: string): boolean {
      return byId.get(id) !== undefined;
    },
    /** Deletes a tag; its attachments go with it (ON DELETE CASCADE). */
    delete(id: string): void {
      remove.run(id);
    },
    list(after: number | null, limit: number): TagRow[] {
      return page.all({ after: after ?? 0, limit });
    },

    /** Attaches a tag; returns false when it was already attached (nothing changes). */
    attach(kind: TagTarget, tagId: string, targetId: string): boolean {
      return links[kind].attach.run({ tagId, targetId }).changes > 0;
    },
    /** Detaches a tag; returns false when it was not attached. */
    detach(kind: TagTarget, tagId: string, targetId: string): boolean {
      return links[kind].detach.run({ tagId, targetId }).changes > 0;
    },
    /** Tags attached to one user, group or resource, oldest tag first. */
    tagsOf(kind: TagTarget, targetId: string): ApiTag[] {
      return links[kind].tagsOf.all({ targetId }).map(toApiTag);
    },
    /** Ids of everything of one kind the tag is attached to. */
    targetsOf(kind: TagTarget, tagId: string): string[] {
      return links[kind].targetsOf.all({ tagId }).map((row) => row.target_id);
    },
  };
}

export type TagStore = ReturnType<typeof createTagStore>;
