// SCIM 2.0's routes in Gatehouse's API document, as extensions outside /v1: RFC 7643's resources as far as
// Gatehouse keeps them, RFC 7644's list, patch and error messages (format: src/openapi/operations.ts).
import { defineOperations, type OperationDoc, type OperationKey } from '../../openapi/operations.ts';
import * as v from 'valibot';
import { MAX_RESULTS } from './resources.ts';
import { discovery, ScimError, ScimGroup, ScimGroupAnswer, ScimGroupList, ScimUser, ScimUserAnswer, ScimUserList } from './responses.ts';

const SCIM: Pick<OperationDoc, 'extension' | 'responseMediaType' | 'protocol' | 'errors'> = {
  extension: true,
  responseMediaType: 'application/scim+json',
  protocol: { errorBody: ScimError, securityScheme: 'scimBearer' },
  // A SCIM token whose user is no longer an admin (403); a bad filter or paging value (400); no such resource (404).
  errors: ['forbidden', 'validation_failed', 'not_found'],
};
/** What every SCIM write can answer besides: a body that is no JSON, too big, or of another type; a taken value (409). */
const WRITE: Pick<OperationDoc, 'errors'> = { errors: [...SCIM.errors!, 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'conflict'] };
const id = { id: { description: 'The resource\'s id (a Gatehouse user or group id).', schema: v.string() } };
const LIST_DESCRIPTION = `\`filter\` (RFC 7644 §3.4.2.2: eq, ne, co, sw, ew, gt, ge, lt, le, pr, and, or, not, [ ]), \`startIndex\` (1-based) and \`count\` (at most ${MAX_RESULTS}), \`attributes\`/\`excludedAttributes\` (comma-separated). docs/scim.md lists the filterable attributes.`;

const operations: Partial<Record<OperationKey, OperationDoc>> = {
  'GET /scim/v2/ServiceProviderConfig': { ...SCIM, summary: 'What this SCIM service provider supports', responses: { 200: discovery('RFC 7643 §5.') } },
  'GET /scim/v2/ResourceTypes': { ...SCIM, summary: 'List SCIM resource types (User, Group)', responses: { 200: discovery('A ListResponse of ResourceTypes (RFC 7643 §6).') } },
  'GET /scim/v2/ResourceTypes/{id}': { ...SCIM, summary: 'Get a SCIM resource type', pathParams: id, responses: { 200: discovery('A ResourceType (RFC 7643 §6).') } },
  'GET /scim/v2/Schemas': { ...SCIM, summary: 'List the SCIM schemas Gatehouse keeps', responses: { 200: discovery('A ListResponse of Schemas (RFC 7643 §7).') } },
  'GET /scim/v2/Schemas/{id}': { ...SCIM, summary: 'Get a SCIM schema', pathParams: { id: { description: 'The schema URN.', schema: v.string() } }, responses: { 200: discovery('A Schema (RFC 7643 §7).') } },
  'GET /scim/v2/Users': { ...SCIM, summary: 'List or find users (SCIM)', description: LIST_DESCRIPTION, responses: { 200: ScimUserList } },
  'POST /scim/v2/Users': {
    ...SCIM, ...WRITE, summary: 'Provision a user (SCIM)',
    description: 'Creates a MEMBER whose email is `userName` (409 uniqueness when taken). A user DELETED over SCIM comes back with the same id, without their old access. Passwords are ignored.',
    responses: { 201: ScimUser },
  },
  'POST /scim/v2/Users/.search': {
    ...SCIM, errors: [...SCIM.errors!, 'invalid_json', 'payload_too_large', 'unsupported_media_type'], summary: 'Find users with a search in the body (SCIM)',
    description: `RFC 7644 §3.4.3: a SearchRequest body (\`filter\`, \`startIndex\`, \`count\`, \`attributes\`, \`excludedAttributes\`) answered as GET /scim/v2/Users answers the same query. ${LIST_DESCRIPTION}`,
    responses: { 200: ScimUserList },
  },
  'GET /scim/v2/Users/{id}': { ...SCIM, summary: 'Get a user (SCIM)', pathParams: id, responses: { 200: ScimUserAnswer } },
  'PUT /scim/v2/Users/{id}': { ...SCIM, ...WRITE, summary: 'Replace a user (SCIM)', description: '`active: false` offboards the user (DEPROVISIONED): every access edge ends, here and in connected systems, and their sessions and tokens stop; `true` restores them without their old access.', pathParams: id, responses: { 200: ScimUser } },
  'PATCH /scim/v2/Users/{id}': { ...SCIM, ...WRITE, summary: 'Change a user (SCIM PATCH)', description: 'RFC 7644 §3.5.2 add/replace/remove, with or without `path`, in Okta\'s and Entra ID\'s dialects (docs/scim.md).', pathParams: id, responses: { 200: ScimUser } },
  'DELETE /scim/v2/Users/{id}': { ...SCIM, ...WRITE, summary: 'Deprovision a user (SCIM)', description: 'Offboards the user as DELETED; a later GET is 404.', pathParams: id, responses: { 204: undefined as never } },
  'GET /scim/v2/Groups': { ...SCIM, summary: 'List or find groups the identity provider pushed (SCIM)', description: LIST_DESCRIPTION, responses: { 200: ScimGroupList } },
  'POST /scim/v2/Groups': { ...SCIM, ...WRITE, summary: 'Push a group (SCIM)', description: 'A group of the identity provider\'s app (GATEHOUSE_SCIM_IDP), with its members; 409 uniqueness for a displayName taken.', responses: { 201: ScimGroup } },
  'POST /scim/v2/Groups/.search': {
    ...SCIM, errors: [...SCIM.errors!, 'invalid_json', 'payload_too_large', 'unsupported_media_type'], summary: 'Find groups with a search in the body (SCIM)',
    description: 'RFC 7644 §3.4.3: a SearchRequest body answered as GET /scim/v2/Groups answers the same query.',
    responses: { 200: ScimGroupList },
  },
  'GET /scim/v2/Groups/{id}': { ...SCIM, summary: 'Get a group (SCIM)', pathParams: id, responses: { 200: ScimGroupAnswer } },
  'PUT /scim/v2/Groups/{id}': { ...SCIM, ...WRITE, summary: 'Replace a group (SCIM)', pathParams: id, responses: { 200: ScimGroup } },
  'PATCH /scim/v2/Groups/{id}': { ...SCIM, ...WRITE, summary: 'Change a group or its members (SCIM PATCH)', pathParams: id, responses: { 200: ScimGroup } },
  'DELETE /scim/v2/Groups/{id}': { ...SCIM, ...WRITE, summary: 'Delete a group (SCIM)', description: 'The group goes, and every access through it ends.', pathParams: id, responses: { 204: undefined as never } },
};

export const scimOperations = defineOperations('scim', operations);
