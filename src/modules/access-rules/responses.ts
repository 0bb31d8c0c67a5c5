// The access rules area's response shapes (Valibot): rules and their tag clauses, the types its mappers return and its answers in the API document.
// Valibot schemas; wire facts (field names, types, formats, enums) agree with the reference, and a field Gatehouse always sends is required. See docs/openapi.md.
import * as v from 'valibot';
import { component, uuid, described } from '../../openapi/responses.ts';

const TagSelector = component('TagSelector', v.object({
  key: v.string(),
  value: v.string(),
  connection_id: uuid,
}));
export type TagSelector = v.InferOutput<typeof TagSelector>;

const RuleDisjunction = component('RuleDisjunction', described(v.object({
  selectors: v.array(TagSelector),
}), "Matches a user carrying any one of its selectors' tags."));
export type RuleDisjunction = v.InferOutput<typeof RuleDisjunction>;

const RuleConjunction = component('RuleConjunction', described(v.object({
  clauses: v.pipe(v.array(RuleDisjunction), v.minLength(1)),
}), 'Matches a user that every one of its clauses matches.'));
export type RuleConjunction = v.InferOutput<typeof RuleConjunction>;

export const RuleClauses = component('RuleClauses', v.object({
  when: RuleConjunction,
  unless: v.optional(RuleConjunction),
}));
export type RuleClauses = v.InferOutput<typeof RuleClauses>;

export const AccessRule = component('AccessRule', described(v.object({
  access_rule_id: uuid,
  name: v.string(),
  description: v.string(),
  admin_owner_id: uuid,
  status: v.picklist(['ACTIVE', 'PAUSED']),
  ruleClauses: RuleClauses,
}), 'A rule that makes users members of its group while their tags match.'));
export type AccessRule = v.InferOutput<typeof AccessRule>;

export const PaginatedAccessRulesList = component('PaginatedAccessRulesList', v.object({
  next: v.optional(v.string()),
  previous: v.optional(v.string()),
  results: v.array(AccessRule),
}));
