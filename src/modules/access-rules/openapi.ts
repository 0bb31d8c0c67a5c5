// The access-rules module's operations in Gatehouse's API document (format: src/openapi/operations.ts).
import { defineOperations } from '../../openapi/operations.ts';
import { AccessRule, PaginatedAccessRulesList } from '../../openapi/components/access.ts';
import { AccessRuleBody, ListAccessRulesQuery } from './schemas.ts';

const RULE_NOTE =
  'An ACTIVE rule makes its group\'s members exactly the users its clauses match (`when`, minus `unless`), ' +
  'and keeps them so as tags change; a PAUSED rule adds and removes no one.';

export const accessRuleOperations = defineOperations('access-rules', {
  'GET /v1/access-rules': {
    summary: 'List access rules',
    description: 'A page without a next or previous page leaves that field out rather than sending null.',
    query: ListAccessRulesQuery,
    responses: { 200: PaginatedAccessRulesList },
  },
  'POST /v1/access-rules': {
    summary: 'Create an access rule',
    description: RULE_NOTE,
    body: AccessRuleBody,
    responses: { 201: AccessRule },
  },
  'GET /v1/access-rules/{access_rule_id}': {
    summary: 'Get an access rule',
    description: 'A rule\'s id is its group\'s id.',
    responses: { 200: AccessRule },
  },
  'PUT /v1/access-rules/{access_rule_id}': {
    summary: 'Replace an access rule',
    description: RULE_NOTE,
    body: AccessRuleBody,
    responses: { 200: AccessRule },
  },
});
