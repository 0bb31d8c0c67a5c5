// Users and their remote (third-party) accounts: the only SQL for either.
import type { Db } from '../../db/open.ts';
import { casefold } from '../../lib/casefold.ts';
import { newId } from '../../lib/ids.ts';
import { DEFAULT_ORGANIZATION_ROLE, type OrganizationRole } from './roles.ts';
import { toApiUser, toApiRemoteUser, type ApiUser, type ApiRemoteUser, type UserRow, type RemoteUserRow } from './mappers.ts';

export interface NewUser {
  email: string;
  full_name: string;
  first_name: string;
  last_name: string;
  position: string;
  manager_id: string | null;
  /** MEMBER when not given. */
  organization_role?: OrganizationRole;
}

export interface RemoteUserFilter {
  providers?: string[] | undefined;
  userIds?: string[] | undefined;
  remoteIds?: string[] | undefined;
}

export function createUserStore(db: Db) {
  const insert = db.prepare<[string, string, string, string, string, string, string | null, OrganizationRole, string]>(
    `INSERT INTO users (id, email, full_name, first_name, last_name, position, manager_id, organization_role, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?');
  const byEmail = db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ?');
  // tagIds: a JSON array of tag ids (users having any of them), or null for every user; contains: folded
  // text the email or full name must contain, or null.
  const page = db.prepare<{ tagIds: string | null; contains: string | null; after: number; limit: number }, UserRow>(
    `SELECT * FROM users
     WHERE (@tagIds IS NULL OR id IN (SELECT user_id FROM tag_users WHERE tag_id IN (SELECT value FROM json_each(@tagIds))))
       AND (@contains IS NULL OR instr(casefold(email), @contains) > 0 OR instr(casefold(full_name), @contains) > 0)
       AND seq > @after
     ORDER BY seq LIMIT @limit`,
  );
  // A manager's direct reports (GET /v1/users?manager_id=), through users_by_manager.
  const reportsPage = db.prepare<{ managerId: string; tagIds: string | null; contains: string | null; after: number; limit: number }, UserRow>(
    `SELECT * FROM users
     WHERE manager_id = @managerId
       AND (@tagIds IS NULL OR id IN (SELECT user_id FROM tag_users WHERE tag_id IN (SELECT value FROM json_each(@tagIds))))
       AND (@contains IS NULL OR instr(casefold(email), @contains) > 0 OR instr(casefold(full_name), @contains) > 0)
       AND seq > @after
     ORDER BY seq LIMIT @limit`,
  );
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM users');

  const insertRemote = db.prepare<[string, string, string, string]>(
    'INSERT INTO remote_users (user_id, third_party_provider, remote_id, created_at) VALUES (?, ?, ?, ?)',
  );
  const remoteByKey = db.prepare<[string, string], RemoteUserRow>(
    'SELECT * FROM remote_users WHERE user_id = ? AND third_party_provider = ?',
  );
  const deleteRemote = db.prepare<[string, string]>(
    'DELETE FROM remote_users WHERE user_id = ? AND third_party_provider = ?',
  );
  // The three list filters are optional: each is a JSON array, or null for "any".
  const remotePage = db.prepare<
    { providers: string | null; userIds: string | null; remoteIds: string | null; after: number; limit: number },
    RemoteUserRow
  >(
    `SELECT * FROM remote_users
     WHERE (@providers IS NULL OR third_party_provider IN (SELECT value FROM json_each(@providers)))
       AND (@userIds IS NULL OR user_id IN (SELECT value FROM json_each(@userIds)))
       AND (@remoteIds IS NULL OR remote_id IN (SELECT value FROM json_each(@remoteIds)))
       AND seq > @after
     ORDER BY seq LIMIT @limit`,
  );
  const update = db.prepare<{ id: string; full_name: string; first_name: string; last_name: string; position: string; manager_id: string | null; hr_idp_status: string }>(
    `UPDATE users SET full_name = @full_name, first_name = @first_name, last_name = @last_name, position = @position,
                      manager_id = @manager_id, hr_idp_status = @hr_idp_status WHERE id = @id`,
  );
  const setEmail = db.prepare<[string, string]>('UPDATE users SET email = ? WHERE id = ?');
  const setRole = db.prepare<[OrganizationRole, string]>('UPDATE users SET organization_role = ? WHERE id = ?');
  const roleOf = db.prepare<[string], { organization_role: OrganizationRole }>('SELECT organization_role FROM users WHERE id = ?');
  // An admin counts while not offboarded: the statuses are OFFBOARDED_STATUSES (src/lib/offboarding.ts).
  const otherActiveAdmins = db.prepare<[string], { n: number }>(
    `SELECT count(*) AS n FROM users
     WHERE organization_role = 'ADMIN' AND hr_idp_status NOT IN ('SUSPENDED', 'DEPROVISIONED', 'DELETED') AND id <> ?`,
  );
  const asJson = (values: string[] | undefined) => (values === undefined ? null : JSON.stringify(values));

  return {
    /** Inserts a user; a duplicate email raises SQLite's unique error (→ 409). */
    create(user: NewUser, at: Date): ApiUser {
      const id = newId();
      const role = user.organization_role ?? DEFAULT_ORGANIZATION_ROLE;
      insert.run(id, user.email, user.full_name, user.first_name, user.last_name, user.position, user.manager_id, role, at.toISOString());
      return toApiUser(byId.get(id)!);
    },
    /** Replaces the changeable fields of a user (everything but id, email and created_at). */
    update(id: string, fields: { full_name: string; first_name: string; last_name: string; position: string; manager_id: string | null; hr_idp_status: string }): void {
      update.run({ id, ...fields });
    },
    /** Sets a user's email (the caller checks it is free and records the event). */
    setEmail(id: string, email: string): void {
      setEmail.run(email, id);
    },
    /** Sets a user's organization role (the caller checks the user exists and records the event). */
    setRole(id: string, role: OrganizationRole): void {
      setRole.run(role, id);
    },
    /** How many admins other than `id` are not offboarded: the organization must keep at least one. */
    otherActiveAdmins(id: string): number {
      return otherActiveAdmins.get(id)!.n;
    },
    /** A user's organization role, or undefined for an unknown user. */
    roleOf(id: string): OrganizationRole | undefined {
      return roleOf.get(id)?.organization_role;
    },
    get(id: string): ApiUser | undefined {
      const row = byId.get(id);
      return row && toApiUser(row);
    },
    getByEmail(email: string): ApiUser | undefined {
      const row = byEmail.get(email);
      return row && toApiUser(row);
    },
    exists(id: string): boolean {
      return byId.get(id) !== undefined;
    },
    count(): number {
      return count.get()!.n;
    },
    /**
     * A keyset page of users; `filter.tagIds` keeps those having any of these tags, `filter.managerId` a
     * manager's direct reports, `filter.contains` those whose email or full name contains it (any case).
     */
    list(filter: { tagIds?: string[] | undefined; managerId?: string | undefined; contains?: string | undefined }, after: number | null, limit: number): UserRow[] {
      const common = { tagIds: asJson(filter.tagIds), contains: filter.contains === undefined ? null : casefold(filter.contains), after: after ?? 0, limit };
      if (filter.managerId !== undefined) return reportsPage.all({ managerId: filter.managerId, ...common });
      return page.all(common);
    },

    addRemote(userId: string, provider: string, remoteId: string, at: Date): ApiRemoteUser {
      insertRemote.run(userId, provider, remoteId, at.toISOString());
      return toApiRemoteUser(remoteByKey.get(userId, provider)!);
    },
    getRemote(userId: string, provider: string): ApiRemoteUser | undefined {
      const row = remoteByKey.get(userId, provider);
      return row && toApiRemoteUser(row);
    },
    /** Returns whether an account was removed. */
    removeRemote(userId: string, provider: string): boolean {
      return deleteRemote.run(userId, provider).changes > 0;
    },
    listRemote(filter: RemoteUserFilter, after: number | null, limit: number): RemoteUserRow[] {
      return remotePage.all({
        providers: asJson(filter.providers),
        userIds: asJson(filter.userIds),
        remoteIds: asJson(filter.remoteIds),
        after: after ?? 0,
        limit,
      });
    },
  };
}

