// Message channels, their links to resources and groups, and scoped role permissions: the only SQL
// for any of them (on-call schedules are the on-call area's).
import type { Db } from '../../db/open.ts';
import { newId } from '../../lib/ids.ts';
import { LINK_KINDS, RECORD_KINDS, type LinkKind, type RecordKind } from './kinds.ts';
import type { ScopedRolePermission } from './responses.ts';
import { toApiRecord, type ApiRecord, type RecordRow } from './mappers.ts';

export interface NewRecord {
  third_party_provider: string;
  remote_id: string;
  name: string | null;
  is_private: boolean | null;
}

export type { ScopedRolePermission };

interface PermissionRow {
  target_type: string;
  permission_name: string;
  allow_all: number;
  target_ids: string | null;
}

/** The statements for one kind of record; the table comes from RECORD_KINDS, never from input. */
function recordStatements(db: Db, kind: RecordKind) {
  const { table, hasPrivacy } = RECORD_KINDS[kind];
  return {
    insert: db.prepare<{ id: string; provider: string; remote: string; name: string | null; private: number | null; at: string }>(
      hasPrivacy
        ? `INSERT INTO ${table} (id, third_party_provider, remote_id, name, is_private, created_at)
           VALUES (@id, @provider, @remote, @name, @private, @at)`
        : `INSERT INTO ${table} (id, third_party_provider, remote_id, name, created_at) VALUES (@id, @provider, @remote, @name, @at)`,
    ),
    byId: db.prepare<[string], RecordRow>(`SELECT * FROM ${table} WHERE id = ?`),
    byRemote: db.prepare<{ provider: string; remote: string }, RecordRow>(
      `SELECT * FROM ${table} WHERE third_party_provider = @provider AND remote_id = @remote`,
    ),
    all: db.prepare<[], RecordRow>(`SELECT * FROM ${table} ORDER BY seq`),
  };
}

/** The statements for one kind of link; table and columns come from LINK_KINDS and RECORD_KINDS. */
function linkStatements(db: Db, kind: LinkKind) {
  const { table, ownerColumn, record } = LINK_KINDS[kind];
  const { table: recordTable, idField } = RECORD_KINDS[record];
  return {
    records: db.prepare<[string], RecordRow>(
      `SELECT r.* FROM ${table} l JOIN ${recordTable} r ON r.id = l.${idField} WHERE l.${ownerColumn} = ? ORDER BY l.position`,
    ),
    clear: db.prepare<[string]>(`DELETE FROM ${table} WHERE ${ownerColumn} = ?`),
    insert: db.prepare<{ owner: string; record: string; position: number }>(
      `INSERT INTO ${table} (${ownerColumn}, ${idField}, position) VALUES (@owner, @record, @position)`,
    ),
  };
}

export function createIntegrationRecordStore(db: Db) {
  const records = { message_channel: recordStatements(db, 'message_channel') };
  const links = {
    resource_message_channels: linkStatements(db, 'resource_message_channels'),
    group_message_channels: linkStatements(db, 'group_message_channels'),
  };
  const permissionsOf = db.prepare<[string], PermissionRow>(
    'SELECT target_type, permission_name, allow_all, target_ids FROM scoped_role_permissions WHERE resource_id = ? ORDER BY position',
  );
  const clearPermissions = db.prepare<[string]>('DELETE FROM scoped_role_permissions WHERE resource_id = ?');
  const insertPermission = db.prepare<{ resource: string; position: number; type: string; name: string; all: number; targets: string | null }>(
    `INSERT INTO scoped_role_permissions (resource_id, position, target_type, permission_name, allow_all, target_ids)
     VALUES (@resource, @position, @type, @name, @all, @targets)`,
  );

  return {
    /** Inserts a record; the same provider and remote id twice raises SQLite's unique error. */
    create(kind: RecordKind, record: NewRecord, at: Date): ApiRecord {
      const id = newId();
      records[kind].insert.run({
        id,
        provider: record.third_party_provider,
        remote: record.remote_id,
        name: record.name,
        private: record.is_private === null ? null : record.is_private ? 1 : 0,
        at: at.toISOString(),
      });
      return toApiRecord(kind, records[kind].byId.get(id)!);
    },
    get(kind: RecordKind, id: string): ApiRecord | undefined {
      const row = records[kind].byId.get(id);
      return row && toApiRecord(kind, row);
    },
    exists(kind: RecordKind, id: string): boolean {
      return records[kind].byId.get(id) !== undefined;
    },
    /** The id of the record with this provider and remote id, if any. */
    idByRemote(kind: RecordKind, provider: string, remoteId: string): string | undefined {
      return records[kind].byRemote.get({ provider, remote: remoteId })?.id;
    },
    /** Every record of the kind, oldest first (the reference's lists are not paged). */
    list(kind: RecordKind): ApiRecord[] {
      return records[kind].all.all().map((row) => toApiRecord(kind, row));
    },

    /** The records a resource or group names, in the order set. */
    linked(kind: LinkKind, ownerId: string): ApiRecord[] {
      return links[kind].records.all(ownerId).map((row) => toApiRecord(LINK_KINDS[kind].record, row));
    },
    /** Replaces the records a resource or group names. */
    setLinked(kind: LinkKind, ownerId: string, recordIds: string[]): void {
      links[kind].clear.run(ownerId);
      recordIds.forEach((record, position) => links[kind].insert.run({ owner: ownerId, record, position }));
    },

    /** An OPAL_SCOPED_ROLE resource's permissions, in the order set. */
    permissions(resourceId: string): ScopedRolePermission[] {
      return permissionsOf.all(resourceId).map((row) => ({
        ...(row.target_ids !== null && { target_ids: JSON.parse(row.target_ids) as string[] }),
        // Written only from the body's picklists (ScopedRolePermissionsBody).
        target_type: row.target_type as ScopedRolePermission['target_type'],
        permission_name: row.permission_name as ScopedRolePermission['permission_name'],
        allow_all: row.allow_all === 1,
      }));
    },
    setPermissions(resourceId: string, permissions: ScopedRolePermission[]): void {
      clearPermissions.run(resourceId);
      permissions.forEach((p, position) =>
        insertPermission.run({
          resource: resourceId,
          position,
          type: p.target_type,
          name: p.permission_name,
          all: p.allow_all ? 1 : 0,
          targets: p.target_ids === undefined ? null : JSON.stringify(p.target_ids),
        }),
      );
    },
  };
}

