// The access-rules area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { AccessRule, PaginatedAccessRulesList } from './responses.ts';
import { AccessRuleBody, ListAccessRulesQuery } from './schemas.ts';

const RULE_NOTE =
  'An ACTIVE rule makes its group\'s members exactly the users its clauses match (`when`, minus `unless`), ' +
  'and keeps them so as tags change; a PAUSED rule adds and removes no one.';

export const accessRuleRoutes = defineRoutes('access-rules', {
  'GET /v1/access-rules': {
    role: 'read',
    summary: 'List access rules',
    description: 'A page without a next or previous page leaves that field out rather than sending null.',
    query: ListAccessRulesQuery,
    responses: { 200: PaginatedAccessRulesList },
  },
  'POST /v1/access-rules': {
    role: 'admin',
    summary: 'Create an access rule',
    description: RULE_NOTE,
    body: AccessRuleBody,
    responses: { 201: AccessRule },
  },
  'GET /v1/access-rules/{access_rule_id}': {
    role: 'read', items: { access_rule_id: 'group' },
    summary: 'Get an access rule',
    description: 'A rule\'s id is its group\'s id.',
    responses: { 200: AccessRule },
  },
  'PUT /v1/access-rules/{access_rule_id}': {
    role: 'admin', items: { access_rule_id: 'group' },
    summary: 'Replace an access rule',
    description: RULE_NOTE,
    body: AccessRuleBody,
    responses: { 200: AccessRule },
  },
});
