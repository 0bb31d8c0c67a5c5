// The access rules area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { RuleClausesInput } from './schemas.ts';
import type { RuleRow } from './store.ts';
import type { AccessRule } from './responses.ts';

export const toApiAccessRule = (row: RuleRow): AccessRule => ({
  access_rule_id: row.group_id,
  name: row.name,
  description: row.description,
  admin_owner_id: row.admin_owner_id,
  status: row.status,
  ruleClauses: JSON.parse(row.rule_clauses) as RuleClausesInput,
});
