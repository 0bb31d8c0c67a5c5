// Group bindings and which groups each binds: the only SQL for either.
import type { Db } from '../../db/open.ts';
import { newId } from '../../lib/ids.ts';
import { toApiGroupBinding, type ApiGroupBinding, type ApiGroupBindingGroup, type BindingRow } from './mappers.ts';

export function createGroupBindingStore(db: Db) {
  const insert = db.prepare<{ id: string; source: string; by: string; at: string }>(
    `INSERT INTO group_bindings (id, source_group_id, created_by_id, created_at, updated_at)
     VALUES (@id, @source, @by, @at, @at)`,
  );
  const updateSource = db.prepare<{ id: string; source: string; at: string }>(
    'UPDATE group_bindings SET source_group_id = @source, updated_at = @at WHERE id = @id',
  );
  const remove = db.prepare<[string]>('DELETE FROM group_bindings WHERE id = ?');
  const byId = db.prepare<[string], BindingRow>('SELECT * FROM group_bindings WHERE id = ?');
  const page = db.prepare<{ after: number; limit: number }, BindingRow>(
    'SELECT * FROM group_bindings WHERE seq > @after ORDER BY seq LIMIT @limit',
  );
  // group_type is read from the group at answer time, so a binding never shows a stale type.
  const members = db.prepare<[string], ApiGroupBindingGroup>(
    `SELECT m.group_id, g.group_type FROM group_binding_groups m JOIN groups g ON g.id = m.group_id
     WHERE m.group_binding_id = ? ORDER BY m.position`,
  );
  const bindingOf = db.prepare<[string], { group_binding_id: string }>(
    'SELECT group_binding_id FROM group_binding_groups WHERE group_id = ?',
  );
  const clearMembers = db.prepare<[string]>('DELETE FROM group_binding_groups WHERE group_binding_id = ?');
  const insertMember = db.prepare<{ group: string; binding: string; position: number }>(
    'INSERT INTO group_binding_groups (group_id, group_binding_id, position) VALUES (@group, @binding, @position)',
  );

  /** A binding as the API answers it, with its groups read here (toApiGroupBinding, mappers.ts, maps them). */
  function toApi(row: BindingRow): ApiGroupBinding {
    return toApiGroupBinding(row, members.all(row.id));
  }

  return {
    toApi,
    get(id: string): ApiGroupBinding | undefined {
      const row = byId.get(id);
      return row && toApi(row);
    },
    exists(id: string): boolean {
      return byId.get(id) !== undefined;
    },
    /** Bindings after the one with seq `after` (0 for the first page), oldest first. */
    list(after: number | null, limit: number): BindingRow[] {
      return page.all({ after: after ?? 0, limit });
    },
    /** The id of the binding `groupId` belongs to, if any. */
    bindingOf(groupId: string): string | undefined {
      return bindingOf.get(groupId)?.group_binding_id;
    },
    /** Inserts a binding without groups (setGroups adds them) and returns its id. */
    create(sourceGroupId: string, createdById: string, at: Date): string {
      const id = newId();
      insert.run({ id, source: sourceGroupId, by: createdById, at: at.toISOString() });
      return id;
    },
    setSource(id: string, sourceGroupId: string, at: Date): void {
      updateSource.run({ id, source: sourceGroupId, at: at.toISOString() });
    },
    /** Removes every group from the binding (a bulk update clears all first, so groups can move between bindings). */
    clearGroups(id: string): void {
      clearMembers.run(id);
    },
    /** Adds the groups in order; a group already bound elsewhere raises SQLite's primary-key error. */
    addGroups(id: string, groupIds: string[]): void {
      groupIds.forEach((group, position) => insertMember.run({ group, binding: id, position }));
    },
    /** Deletes the binding; its group list goes with it (ON DELETE CASCADE). */
    delete(id: string): void {
      remove.run(id);
    },
  };
}

