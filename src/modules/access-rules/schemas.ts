// Valibot schemas for access rules: the reference's UpdateAccessRuleInfo and RuleClauses.
import * as v from 'valibot';
import { Name, PageQueryEntries, Text, Uuid } from '../../http/common-schemas.ts';

const TagSelector = v.object({
  key: v.pipe(Text(200), v.minLength(1, 'must not be empty')),
  value: Text(200),
  connection_id: Uuid,
});

/** Selectors within a clause are ORed; a clause with none would match nobody, so one is required. */
const Clause = v.pipe(v.object({
  selectors: v.pipe(v.array(TagSelector, 'must be a list of tag selectors'), v.minLength(1, 'must list at least one selector'), v.maxLength(100, 'must list at most 100 selectors')),
  // Gatehouse keeps no user attributes. Ignoring a selector it cannot match would silently widen an
  // `unless` (and so the rule's members), so a non-empty list is refused; an empty one (a client
  // sending a whole object back) is fine.
  attribute_selectors: v.optional(
    v.pipe(v.array(v.object({}), 'must be a list'), v.maxLength(0, 'is not supported: Gatehouse keeps no user attributes to match')),
  ),
}), v.transform(({ attribute_selectors, ...clause }) => clause));

/** Clauses are ANDed. */
const Conjunction = v.object({
  clauses: v.pipe(v.array(Clause, 'must be a list of clauses'), v.minLength(1, 'must list at least one clause'), v.maxLength(100, 'must list at most 100 clauses')),
});

export const RuleClauses = v.object({
  when: Conjunction,
  unless: v.optional(Conjunction),
});
export type RuleClausesInput = v.InferOutput<typeof RuleClauses>;

export const AccessRuleBody = v.object({
  name: Name(200),
  description: Text(2000),
  admin_owner_id: Uuid,
  status: v.picklist(['ACTIVE', 'PAUSED'], 'must be ACTIVE or PAUSED'),
  ruleClauses: RuleClauses,
});
export type AccessRuleInput = v.InferOutput<typeof AccessRuleBody>;

export const ListAccessRulesQuery = v.object({ ...PageQueryEntries });
