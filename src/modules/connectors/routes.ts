// The connectors module's operations in Gatehouse's API document (format: src/openapi/operations.ts). All extensions.
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { LinkRemoteUserBody, ListPropagationsQuery, ListUnmatchedAccessQuery, ListUnmatchedUsersQuery, PutConnectorBody } from './schemas.ts';
import { ItemAccessLevels, Connector, ConnectorTypeList, ConnectorUserLink, ConnectorTestResult, ConnectorSyncResult, ConnectorRetryResult, PropagationList, UnmatchedRemoteAccessList, UnmatchedRemoteUserList } from './responses.ts';


const UNMATCHED_ACCESS = 'What the app\'s last sync found held remotely by remote users no Gatehouse user matches (they hold it outside Gatehouse: `GET …/users` cannot list them), a page at a time, in the order found. Each sync starts the list afresh; removing the connector empties it.';

const LEVELS = 'Each level the item offers, with `carries_access`: whether access at it changes anything in the system the app\'s connector carries access to (a PostgreSQL database\'s default level grants no role: false, with a `note` saying so). The console\'s request and Grant forms offer only the levels that carry access; a request for one that does not is still accepted, and its dry run warns.';

export const connectorRoutes = defineRoutes('connectors', {
  'GET /v1/resources/{resource_id}/unmatched-remote-users': {
    role: 'admin-read', items: { resource_id: 'resource' },
    summary: 'List a resource\'s access held by unmatched remote users',
    description: UNMATCHED_ACCESS,
    extension: true,
    query: ListUnmatchedAccessQuery,
    responses: { 200: UnmatchedRemoteAccessList },
  },
  'GET /v1/groups/{group_id}/unmatched-remote-users': {
    role: 'admin-read', items: { group_id: 'group' },
    summary: 'List a group\'s members held by unmatched remote users',
    description: UNMATCHED_ACCESS,
    extension: true,
    query: ListUnmatchedAccessQuery,
    responses: { 200: UnmatchedRemoteAccessList },
  },
  'GET /v1/resources/{resource_id}/access-levels': {
    role: 'read', items: { resource_id: 'resource' },
    summary: 'List a resource\'s access levels and which reach its connected system',
    description: LEVELS,
    extension: true,
    responses: { 200: ItemAccessLevels },
  },
  'GET /v1/groups/{group_id}/access-levels': {
    role: 'read', items: { group_id: 'group' },
    summary: 'List a group\'s access levels and which reach its connected system',
    description: LEVELS,
    extension: true,
    responses: { 200: ItemAccessLevels },
  },
  'GET /v1/connector-types': {
    role: 'admin-read',
    summary: 'List the kinds of connector',
    description: 'Each connector type Gatehouse has, as its adapter declares it: the app type whose apps have it, the resource type a sync creates, the access it carries, and its configuration\'s fields (which are secrets). The console draws the connector form from it.',
    extension: true,
    responses: { 200: ConnectorTypeList },
  },
  'GET /v1/apps/{app_id}/connector': {
    role: 'admin-read', items: { app_id: null },
    summary: 'Get an app\'s connector',
    description: 'Secrets masked; with propagation counts and the remote users no user matches.',
    extension: true,
    responses: { 200: Connector },
  },
  'PUT /v1/apps/{app_id}/connector': {
    role: 'admin', items: { app_id: null },
    summary: 'Set an app\'s connector',
    description: 'The fields of the app\'s connector type\'s configuration (`GET /v1/connector-types`: CUSTOM_CONNECTOR apps `url`, `signing_secret`; POSTGRES apps `connection_url`), with `timeout_ms` and `drift_policy`. A field not sent keeps its stored value; a secret sent back as GET masks it keeps the stored one.',
    extension: true,
    body: PutConnectorBody,
    responses: { 200: Connector },
  },
  'DELETE /v1/apps/{app_id}/connector': {
    role: 'admin', items: { app_id: null },
    summary: 'Remove an app\'s connector',
    extension: true,
    responses: { 200: EmptyObject },
  },
  'POST /v1/apps/{app_id}/connector/test': {
    role: 'admin', items: { app_id: null },
    summary: 'Test an app\'s connector',
    description: 'Calls the connector\'s `GET /status` (PostgreSQL: connects) and says what came back.',
    extension: true,
    responses: { 200: ConnectorTestResult },
  },
  'POST /v1/apps/{app_id}/connector/sync': {
    role: 'admin', items: { app_id: null },
    summary: 'Sync an app\'s connector now',
    description: 'Reads users, items and access from the connector within the sync bounds, writing as it reads in short slices; updates the catalogue and settles drift by the app\'s policy; answers when done, with counts and where it stopped. 409 while a sync of the app runs.',
    extension: true,
    responses: { 200: ConnectorSyncResult },
    errors: ['conflict'],
  },
  'GET /v1/apps/{app_id}/connector/unmatched-users': {
    role: 'admin-read', items: { app_id: null },
    summary: 'List an app\'s unmatched remote users',
    description: 'The remote users the connector\'s syncs read that no Gatehouse user matches by email, by remote id, a page at a time.',
    extension: true,
    query: ListUnmatchedUsersQuery,
    responses: { 200: UnmatchedRemoteUserList },
  },
  'PUT /v1/apps/{app_id}/connector/user-links': {
    role: 'admin', items: { app_id: null },
    summary: 'Link a remote user to a person',
    description: 'An admin\'s explicit rule for whose a remote account is (a PostgreSQL login role, an account whose email differs): `user_id` null unlinks it. Only a remote user the connector\'s sync read; PostgreSQL refuses the role Gatehouse signs in as and roles with privileges it never grants (SUPERUSER, CREATEROLE, CREATEDB, REPLICATION, BYPASSRLS). A sync never changes the link. Records CONNECTOR_USERS_LINKED.',
    extension: true,
    body: LinkRemoteUserBody,
    responses: { 200: ConnectorUserLink },
  },
  'POST /v1/apps/{app_id}/connector/retry': {
    role: 'admin', items: { app_id: null },
    summary: 'Retry an app\'s failed propagations',
    extension: true,
    responses: { 200: ConnectorRetryResult },
  },
  'GET /v1/propagations': {
    role: 'admin-read',
    summary: 'List propagations not yet SUCCESS',
    description: 'Every access change still on its way to (or failed at) a connector, with the last error and the next attempt. Admins only.',
    extension: true,
    query: ListPropagationsQuery,
    responses: { 200: PropagationList },
  },
});
