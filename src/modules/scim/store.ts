// SCIM's own rows (what an identity provider says that users and groups do not carry) and the reads
// a SCIM list makes: users and groups joined to them, filtered by SQL that filter.ts builds.
import type { Db } from '../../db/open.ts';
import type { SqlFilter } from './filter.ts';
import type { UserRow } from '../users/mappers.ts';

/** A statement built from a filter: its parameters are known only at run time. */
type Statement = { get(...params: unknown[]): unknown; all(...params: unknown[]): unknown[] };

/** A user as SCIM lists read them: the users row (its role aside) and what SCIM keeps of them beside it. */
export interface ScimUserRow extends Omit<UserRow, 'organization_role'> {
  /** The provider's userName when it is not the email (NULL: the email is the userName). */
  user_name: string | null;
  /** The emails as the provider sent them, JSON (NULL: the email alone). */
  emails: string | null;
  /** The displayName the provider sent (NULL: none; the full name was made from the name's parts). */
  display_name: string | null;
  external_id: string | null;
  department: string | null;
  employee_number: string | null;
  modified_at: string | null;
}

export interface ScimGroupRow {
  seq: number;
  id: string;
  name: string;
  app_id: string;
  external_id: string | null;
  created_at: string;
  modified_at: string;
}

/** Users as SCIM serves them: every user but the DELETED (a SCIM DELETE makes them so). */
const USERS_FROM = `FROM users u LEFT JOIN scim_users s ON s.user_id = u.id WHERE u.hr_idp_status <> 'DELETED'`;
const USER_COLUMNS = `u.seq, u.id, u.email, u.full_name, u.first_name, u.last_name, u.position, u.manager_id, u.hr_idp_status, u.created_at,
  s.user_name, s.emails, s.display_name, s.external_id, s.department, s.employee_number, s.modified_at`;
/** Groups as SCIM serves them: only those an identity provider pushed. */
const GROUPS_FROM = `FROM scim_groups s JOIN groups g ON g.id = s.group_id WHERE 1`;
const GROUP_COLUMNS = 'g.seq, g.id, g.name, g.app_id, s.external_id, s.created_at, s.modified_at';

/** Filtered statements kept prepared, by SQL text (built only from the attribute tables, so few shapes). */
const CACHED_FILTERS_MAX = 200;

export function createScimStore(db: Db) {
  const userById = db.prepare<[string], ScimUserRow>(`SELECT ${USER_COLUMNS} ${USERS_FROM} AND u.id = ?`);
  const deletedByEmail = db.prepare<[string], ScimUserRow>(
    `SELECT ${USER_COLUMNS} FROM users u LEFT JOIN scim_users s ON s.user_id = u.id WHERE u.email = ? AND u.hr_idp_status = 'DELETED'`,
  );
  // A userName is the provider's own one, else the email of a user it gave none (two index lookups, no scan).
  const userByUserName = db.prepare<[string, string], ScimUserRow>(
    `SELECT ${USER_COLUMNS} FROM scim_users s JOIN users u ON u.id = s.user_id WHERE s.user_name = ? COLLATE NOCASE
     UNION ALL
     SELECT ${USER_COLUMNS} FROM users u LEFT JOIN scim_users s ON s.user_id = u.id WHERE u.email = ? AND s.user_name IS NULL
     LIMIT 1`,
  );
  const upsertUser = db.prepare<{ userId: string; userName: string | null; emails: string | null; displayName: string | null; externalId: string | null; department: string | null; employeeNumber: string | null; at: string }>(
    `INSERT INTO scim_users (user_id, user_name, emails, display_name, external_id, department, employee_number, modified_at)
     VALUES (@userId, @userName, @emails, @displayName, @externalId, @department, @employeeNumber, @at)
     ON CONFLICT (user_id) DO UPDATE SET user_name = excluded.user_name, emails = excluded.emails, display_name = excluded.display_name,
       external_id = excluded.external_id, department = excluded.department,
       employee_number = excluded.employee_number, modified_at = excluded.modified_at`,
  );
  const touchUser = db.prepare<{ userId: string; at: string }>(
    `INSERT INTO scim_users (user_id, modified_at) VALUES (@userId, @at) ON CONFLICT (user_id) DO UPDATE SET modified_at = excluded.modified_at`,
  );
  const groupById = db.prepare<[string], ScimGroupRow>(`SELECT ${GROUP_COLUMNS} ${GROUPS_FROM} AND g.id = ?`);
  const groupByName = db.prepare<[string], ScimGroupRow>(`SELECT ${GROUP_COLUMNS} ${GROUPS_FROM} AND g.name = ? COLLATE NOCASE`);
  const insertGroup = db.prepare<{ groupId: string; externalId: string | null; at: string }>(
    'INSERT INTO scim_groups (group_id, external_id, created_at, modified_at) VALUES (@groupId, @externalId, @at, @at)',
  );
  const updateGroup = db.prepare<{ groupId: string; externalId: string | null; at: string }>(
    'UPDATE scim_groups SET external_id = @externalId, modified_at = @at WHERE group_id = @groupId',
  );
  const providerApp = db.prepare<[], string>('SELECT g.app_id FROM scim_groups s JOIN groups g ON g.id = s.group_id ORDER BY s.created_at LIMIT 1').pluck();
  const appNamed = db.prepare<[string, string], string>('SELECT id FROM apps WHERE name = ? AND app_type = ? ORDER BY seq LIMIT 1').pluck();
  const ownerNamed = db.prepare<[string], string>('SELECT id FROM owners WHERE name = ? COLLATE NOCASE').pluck();

  const filtered = new Map<string, Statement>();
  const prepared = (sql: string): Statement => {
    let statement = filtered.get(sql);
    if (!statement) {
      if (filtered.size >= CACHED_FILTERS_MAX) filtered.clear();
      statement = db.prepare(sql) as unknown as Statement;
      filtered.set(sql, statement);
    }
    return statement;
  };
  const page = <Row>(from: string, columns: string, order: string, filter: SqlFilter | null, offset: number, count: number): { rows: Row[]; total: number } => {
    const where = filter ? ` AND ${filter.where}` : '';
    const params = filter?.params ?? [];
    const total = prepared(`SELECT count(*) AS n ${from}${where}`).get(...params) as { n: number };
    const rows = count === 0 ? [] : (prepared(`SELECT ${columns} ${from}${where} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...params, count, offset) as Row[]);
    return { rows, total: total.n };
  };

  return {
    /** A page of users in creation order (startIndex is 1-based: offset = startIndex - 1), with the total matching. */
    users: (filter: SqlFilter | null, offset: number, count: number) => page<ScimUserRow>(USERS_FROM, USER_COLUMNS, 'u.seq', filter, offset, count),
    user: (id: string): ScimUserRow | undefined => userById.get(id),
    /** The DELETED user with this email (ignoring case), if any: a POST naming their email brings them back. */
    deletedUserByEmail: (email: string): ScimUserRow | undefined => deletedByEmail.get(email),
    /**
     * The user with this userName (ignoring case) whatever their status (DELETED included: a POST revives
     * a deleted one): the provider's userName, or the email of a user it gave none.
     */
    userByUserName: (userName: string): ScimUserRow | undefined => userByUserName.get(userName, userName),
    /** Records what SCIM says of a user beyond Gatehouse's fields, and when it last changed them. */
    saveUser(userId: string, fields: { userName: string | null; emails: string | null; displayName: string | null; externalId: string | null; department: string | null; employeeNumber: string | null }, at: Date): void {
      upsertUser.run({ userId, ...fields, at: at.toISOString() });
    },
    /** Marks a user changed by SCIM now (meta.lastModified) without changing what SCIM said of them. */
    touchUser(userId: string, at: Date): void {
      touchUser.run({ userId, at: at.toISOString() });
    },
    groups: (filter: SqlFilter | null, offset: number, count: number) => page<ScimGroupRow>(GROUPS_FROM, GROUP_COLUMNS, 'g.seq', filter, offset, count),
    group: (id: string): ScimGroupRow | undefined => groupById.get(id),
    groupByName: (name: string): ScimGroupRow | undefined => groupByName.get(name),
    addGroup(groupId: string, externalId: string | null, at: Date): void {
      insertGroup.run({ groupId, externalId, at: at.toISOString() });
    },
    saveGroup(groupId: string, externalId: string | null, at: Date): void {
      updateGroup.run({ groupId, externalId, at: at.toISOString() });
    },
    /** The app the provider's groups live in: the one its first group is in, else the one made for it by name and type. */
    providerAppId(name: string, appType: string): string | undefined {
      return providerApp.get() ?? appNamed.get(name, appType);
    },
    ownerIdNamed: (name: string): string | undefined => ownerNamed.get(name),
  };
}

