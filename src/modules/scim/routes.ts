// SCIM 2.0's routes, of the SCIM protocol (protocol.ts), as extensions outside /v1: RFC 7643's resources as
// far as Gatehouse keeps them, RFC 7644's list, patch and error messages (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import type { OperationDoc } from '../../openapi/operations.ts';
import * as v from 'valibot';
import { SCIM } from './protocol.ts';
import { MAX_RESULTS } from './resources.ts';
import { discovery, ScimGroup, ScimGroupAnswer, ScimGroupList, ScimUser, ScimUserAnswer, ScimUserList } from './responses.ts';
import { PatchBody, ScimGroupBody, ScimUserBody, SearchBody } from './schemas.ts';

const READ = {
  extension: true,
  // A SCIM token whose user is no longer an admin (403); a bad filter or paging value (400); no such resource (404).
  errors: ['forbidden', 'validation_failed', 'not_found'],
} as const satisfies Pick<OperationDoc, 'extension' | 'errors'>;
/** What every SCIM write can answer besides: a body that is no JSON, too big, or of another type; a taken value (409). */
const WRITE = { extension: true, errors: [...READ.errors, 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'conflict'] } as const satisfies Pick<OperationDoc, 'extension' | 'errors'>;
const id = { id: { description: 'The resource\'s id (a Gatehouse user or group id).', schema: v.string() } };
const LIST_DESCRIPTION = `\`filter\` (RFC 7644 §3.4.2.2: eq, ne, co, sw, ew, gt, ge, lt, le, pr, and, or, not, [ ]), \`startIndex\` (1-based) and \`count\` (at most ${MAX_RESULTS}), \`attributes\`/\`excludedAttributes\` (comma-separated). docs/scim.md lists the filterable attributes.`;

export const scimRoutes = defineRoutes('scim', {
  'GET /scim/v2/ServiceProviderConfig': { ...READ, summary: 'What this SCIM service provider supports', responses: { 200: discovery('RFC 7643 §5.') } },
  'GET /scim/v2/ResourceTypes': { ...READ, summary: 'List SCIM resource types (User, Group)', responses: { 200: discovery('A ListResponse of ResourceTypes (RFC 7643 §6).') } },
  'GET /scim/v2/ResourceTypes/{id}': { ...READ, summary: 'Get a SCIM resource type', pathParams: id, responses: { 200: discovery('A ResourceType (RFC 7643 §6).') } },
  'GET /scim/v2/Schemas': { ...READ, summary: 'List the SCIM schemas Gatehouse keeps', responses: { 200: discovery('A ListResponse of Schemas (RFC 7643 §7).') } },
  'GET /scim/v2/Schemas/{id}': { ...READ, summary: 'Get a SCIM schema', pathParams: { id: { description: 'The schema URN.', schema: v.string() } }, responses: { 200: discovery('A Schema (RFC 7643 §7).') } },
  'GET /scim/v2/Users': { ...READ, summary: 'List or find users (SCIM)', description: LIST_DESCRIPTION, responses: { 200: ScimUserList } },
  'POST /scim/v2/Users': {
    ...WRITE, summary: 'Provision a user (SCIM)', body: ScimUserBody,
    description: 'Creates a MEMBER. `userName` is any name unique ignoring case (409 uniqueness when taken); the email is the primary (else work) entry of `emails`, else the userName when it is one (400 naming `emails` when there is none). A user DELETED comes back with the same id, as a MEMBER, without their old access. Passwords are ignored.',
    responses: { 201: ScimUser },
  },
  'POST /scim/v2/Users/.search': {
    ...READ, errors: [...READ.errors, 'invalid_json', 'payload_too_large', 'unsupported_media_type'], summary: 'Find users with a search in the body (SCIM)', body: SearchBody,
    description: `RFC 7644 §3.4.3: a SearchRequest body (\`filter\`, \`startIndex\`, \`count\`, \`attributes\`, \`excludedAttributes\`) answered as GET /scim/v2/Users answers the same query; it counts toward no write limit. ${LIST_DESCRIPTION}`,
    responses: { 200: ScimUserList },
  },
  'GET /scim/v2/Users/{id}': { ...READ, summary: 'Get a user (SCIM)', pathParams: id, responses: { 200: ScimUserAnswer } },
  'PUT /scim/v2/Users/{id}': { ...WRITE, summary: 'Replace a user (SCIM)', body: ScimUserBody, description: '`active: false` offboards the user (DEPROVISIONED): every access edge ends, here and in connected systems, and their sessions and tokens stop; `true` restores them without their old access.', pathParams: id, responses: { 200: ScimUser } },
  'PATCH /scim/v2/Users/{id}': { ...WRITE, summary: 'Change a user (SCIM PATCH)', body: PatchBody, description: 'RFC 7644 §3.5.2 add/replace/remove, with or without `path`, in Okta\'s and Entra ID\'s dialects (docs/scim.md).', pathParams: id, responses: { 200: ScimUser } },
  'DELETE /scim/v2/Users/{id}': { ...WRITE, summary: 'Deprovision a user (SCIM)', description: 'Offboards the user as DELETED; a later GET is 404.', pathParams: id, responses: { 204: undefined as never } },
  'GET /scim/v2/Groups': { ...READ, summary: 'List or find groups the identity provider pushed (SCIM)', description: LIST_DESCRIPTION, responses: { 200: ScimGroupList } },
  'POST /scim/v2/Groups': { ...WRITE, summary: 'Push a group (SCIM)', body: ScimGroupBody, description: 'A group of the identity provider\'s app (GATEHOUSE_SCIM_IDP), with its members; 409 uniqueness for a displayName taken.', responses: { 201: ScimGroup } },
  'POST /scim/v2/Groups/.search': {
    ...READ, errors: [...READ.errors, 'invalid_json', 'payload_too_large', 'unsupported_media_type'], summary: 'Find groups with a search in the body (SCIM)', body: SearchBody,
    description: 'RFC 7644 §3.4.3: a SearchRequest body answered as GET /scim/v2/Groups answers the same query; it counts toward no write limit.',
    responses: { 200: ScimGroupList },
  },
  'POST /scim/v2/.search': {
    ...READ, errors: [...READ.errors, 'invalid_json', 'payload_too_large', 'unsupported_media_type'], summary: 'Search users and groups together (SCIM)', body: SearchBody,
    description: 'RFC 7644 §3.4.3 from the root: a SearchRequest body answered with the Users, then the Groups, that match, as one ListResponse paged across both; a filter naming attributes only one type has searches that type alone. It counts toward no write limit.',
    responses: { 200: discovery('A ListResponse of Users and Groups (RFC 7644 §3.4.3).') },
  },
  'GET /scim/v2/Groups/{id}': { ...READ, summary: 'Get a group (SCIM)', pathParams: id, responses: { 200: ScimGroupAnswer } },
  'PUT /scim/v2/Groups/{id}': { ...WRITE, summary: 'Replace a group (SCIM)', body: ScimGroupBody, pathParams: id, responses: { 200: ScimGroup } },
  'PATCH /scim/v2/Groups/{id}': { ...WRITE, summary: 'Change a group or its members (SCIM PATCH)', body: PatchBody, pathParams: id, responses: { 200: ScimGroup } },
  'DELETE /scim/v2/Groups/{id}': { ...WRITE, summary: 'Delete a group (SCIM)', description: 'The group goes, and every access through it ends.', pathParams: id, responses: { 204: undefined as never } },
}, SCIM);
