// Access rules (a group of type OPAL_ACCESS_RULE whose members follow users' tags): the only SQL for them.
import type { Db } from '../../db/open.ts';
import { VIEWER_GROUPS_CTE, viewerParams, visibleToViewer, type Viewer } from '../visibility/sql.ts';

export interface RuleRow {
  seq: number;
  group_id: string;
  status: 'ACTIVE' | 'PAUSED';
  rule_clauses: string;
  name: string;
  description: string;
  admin_owner_id: string;
}

export function createAccessRuleStore(db: Db) {
  const SELECT = `SELECT r.seq, r.group_id, r.status, r.rule_clauses, g.name, g.description, g.admin_owner_id
                  FROM access_rules r JOIN groups g ON g.id = r.group_id`;
  const byId = db.prepare<[string], RuleRow>(`${SELECT} WHERE r.group_id = ?`);
  const page = db.prepare<{ after: number; limit: number }, RuleRow>(`${SELECT} WHERE r.seq > @after ORDER BY r.seq LIMIT @limit`);
  // A rule is a group: a member sees the rules whose group they see (visibleToViewer names its table `groups`).
  const visiblePage = db.prepare<{ after: number; limit: number; viewer: string; now: string }, RuleRow>(
    `WITH RECURSIVE ${VIEWER_GROUPS_CTE}
     SELECT r.seq, r.group_id, r.status, r.rule_clauses, groups.name, groups.description, groups.admin_owner_id
     FROM access_rules r JOIN groups ON groups.id = r.group_id
     WHERE ${visibleToViewer('group')} AND r.seq > @after ORDER BY r.seq LIMIT @limit`,
  );
  const active = db.prepare<[], RuleRow>(`${SELECT} WHERE r.status = 'ACTIVE' ORDER BY r.seq`);
  const insert = db.prepare<{ groupId: string; status: string; clauses: string; at: string }>(
    'INSERT INTO access_rules (group_id, status, rule_clauses, created_at, updated_at) VALUES (@groupId, @status, @clauses, @at, @at)',
  );
  const update = db.prepare<{ groupId: string; status: string; clauses: string; at: string }>(
    'UPDATE access_rules SET status = @status, rule_clauses = @clauses, updated_at = @at WHERE group_id = @groupId',
  );
  const isRule = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM access_rules WHERE group_id = ?');
  // Rules never pick a user who holds nothing (suspended, deprovisioned, deleted).
  const tagged = db.prepare<{ key: string; value: string }, { user_id: string }>(
    `SELECT tu.user_id FROM tags t JOIN tag_users tu ON tu.tag_id = t.id JOIN users u ON u.id = tu.user_id
     WHERE t.key = @key AND t.value = @value AND u.hr_idp_status NOT IN ('SUSPENDED', 'DEPROVISIONED', 'DELETED')`,
  );
  const members = db.prepare<[string], { user_id: string }>(
    "SELECT user_id FROM group_users WHERE group_id = ? AND source = 'RULE' ORDER BY user_id",
  );
  const opalApp = db.prepare<[], { id: string }>("SELECT id FROM apps WHERE app_type = 'OPAL' ORDER BY seq LIMIT 1");

  return {
    get: (groupId: string) => byId.get(groupId),
    /** A page of rules; with a viewer (a member), only the rules whose group they see. */
    list: (after: number | null, limit: number, viewer: Viewer | null) =>
      viewer ? visiblePage.all({ after: after ?? 0, limit, ...viewerParams(viewer) }) : page.all({ after: after ?? 0, limit }),
    active: () => active.all(),
    isRule: (groupId: string) => isRule.get(groupId) !== undefined,
    create(groupId: string, status: string, clauses: unknown, at: Date): void {
      insert.run({ groupId, status, clauses: JSON.stringify(clauses), at: at.toISOString() });
    },
    update(groupId: string, status: string, clauses: unknown, at: Date): void {
      update.run({ groupId, status, clauses: JSON.stringify(clauses), at: at.toISOString() });
    },
    /** Users (not offboarded) carrying the tag with this key and value. */
    usersTagged: (key: string, value: string) => tagged.all({ key, value }).map((row) => row.user_id),
    /** The users a rule has made members. */
    members: (groupId: string) => members.all(groupId).map((row) => row.user_id),
    /** The app rule groups belong to (the first app of type OPAL), if one exists. */
    opalAppId: () => opalApp.get()?.id,
  };
}

