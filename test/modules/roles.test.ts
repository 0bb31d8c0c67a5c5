// Organization roles: who may call what (every route walked with four callers against a table written
// here, independently of src/http/policy.ts), setting roles, the last admin, and the members' own
// tokens and sessions.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../../src/app.ts';
import { RouteTable } from '../../src/http/router.ts';
import { API_OPERATIONS } from '../../src/app.ts';
import { readFileSync } from 'node:fs';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app.ts';
import type { ApiClient } from '../helpers/client.ts';
import { createAdmin, createMember, createResource, createToken, createUser, type Signed } from '../helpers/fixtures.ts';
import { countEvents } from '../helpers/events.ts';

/**
 * Who may call each route:
 * - `public`: no token needed (outside /v1);
 * - `read`:   any valid token, READ_ONLY included;
 * - `admin-read`: any token of an organization admin, READ_ONLY included (the audit trail, where it
 *             is sent, access reviews: they name items whatever their visibility);
 * - `member`: FULL_ACCESS tokens of members and admins (the service may still refuse a member the
 *             particular object: someone else's token, a request they do not review);
 * - `admin`:  FULL_ACCESS tokens of organization admins only.
 * A new route fails the walk until it has a line here.
 */
// 'sign-in': the console's own sign-in routes outside /v1, which answer by their session cookie or link,
// not by a token (test/console/sign-in.test.ts and oidc.test.ts walk them).
// 'scim': SCIM 2.0 for identity providers, which takes only a SCIM token: every /v1 token is refused
// (401) there, and a SCIM token on /v1 (test/modules/scim.test.ts walks them).
type Access = 'public' | 'sign-in' | 'signed' | 'scim' | 'read' | 'admin-read' | 'member' | 'admin';

const EXPECTED: Record<string, Access> = {
  'GET /healthz': 'public',
  'GET /openapi.json': 'public',
  // Slack's signature instead of a token: refused unsigned (401), or 503 while no signing secret is set.
  'POST /slack/interactivity': 'signed',
  'GET /docs': 'public',
  'GET /docs/viewer.js': 'public',
  'GET /docs/viewer.css': 'public',
  'GET /console': 'public',
  'GET /console/requests/new': 'public',
  'GET /console/requests/{id}': 'public',
  'GET /console/access': 'public',
  'GET /console/resources/{id}': 'public',
  'GET /console/groups/{id}': 'public',
  'GET /console/users/{id}': 'public',
  'GET /console/events': 'public',
  'GET /console/reviews': 'public',
  'GET /console/reviews/{id}': 'public',
  'GET /console/account': 'public',
  'GET /console/people': 'public',
  'GET /console/teams': 'public',
  'GET /console/teams/{id}': 'public',
  'GET /console/tokens': 'public',
  'GET /console/settings': 'public',
  'GET /console/event-streams': 'public',
  'GET /console/access-rules': 'public',
  'GET /console/apps': 'public',
  'GET /console/apps/{id}': 'public',
  'GET /console/resources/{id}/settings': 'public',
  'GET /console/groups/{id}/settings': 'public',
  'GET /console/request-templates': 'public',
  'GET /console/break-glass/{id}': 'public',
  'GET /console/assets/console.js': 'public',
  'GET /console/assets/console.css': 'public',
  'GET /console/session': 'sign-in',
  'POST /console/sign-in/email': 'sign-in',
  'GET /console/sign-in/{secret}': 'sign-in',
  'POST /console/sign-in/{secret}': 'sign-in',
  'GET /console/oidc/start': 'sign-in',
  'GET /console/oidc/callback': 'sign-in',
  'GET /scim/v2/ServiceProviderConfig': 'scim',
  'GET /scim/v2/ResourceTypes': 'scim',
  'GET /scim/v2/ResourceTypes/{id}': 'scim',
  'GET /scim/v2/Schemas': 'scim',
  'GET /scim/v2/Schemas/{id}': 'scim',
  'POST /scim/v2/.search': 'scim',
  'GET /scim/v2/Users': 'scim',
  'POST /scim/v2/Users': 'scim',
  'POST /scim/v2/Users/.search': 'scim',
  'GET /scim/v2/Users/{id}': 'scim',
  'PUT /scim/v2/Users/{id}': 'scim',
  'PATCH /scim/v2/Users/{id}': 'scim',
  'DELETE /scim/v2/Users/{id}': 'scim',
  'GET /scim/v2/Groups': 'scim',
  'POST /scim/v2/Groups': 'scim',
  'POST /scim/v2/Groups/.search': 'scim',
  'GET /scim/v2/Groups/{id}': 'scim',
  'PUT /scim/v2/Groups/{id}': 'scim',
  'PATCH /scim/v2/Groups/{id}': 'scim',
  'DELETE /scim/v2/Groups/{id}': 'scim',
  'POST /console/sign-out': 'sign-in',

  'POST /v1/users': 'admin',
  'GET /v1/users': 'read',
  'GET /v1/settings': 'admin-read',
  'GET /v1/settings/check': 'admin-read',
  'PATCH /v1/settings': 'admin',
  'POST /v1/settings/email/test': 'admin',
  'POST /v1/settings/slack/test': 'admin',
  'POST /v1/settings/single-sign-on/check': 'admin',
  'POST /v1/settings/on-call/check': 'admin',
  'GET /v1/users/remote_users': 'read',
  'POST /v1/users/remote_users': 'admin',
  'DELETE /v1/users/{user_id}/remote_users/{third_party_provider}': 'admin',
  'GET /v1/user': 'read',
  'PUT /v1/users/{user_id}': 'admin',
  'GET /v1/users/{user_id}': 'read',
  'POST /v1/users/{user_id}/sign-in-link': 'admin',

  'GET /v1/tokens': 'read',
  'POST /v1/tokens': 'member',
  'DELETE /v1/tokens/{token_id}': 'member',

  'GET /v1/events': 'admin-read',
  'GET /v1/events/{event_id}': 'admin-read',

  'POST /v1/owners': 'admin',
  'GET /v1/owners': 'read',
  'PUT /v1/owners': 'admin',
  'GET /v1/owners/name/{owner_name}': 'read',
  'GET /v1/owners/{owner_id}': 'read',
  'DELETE /v1/owners/{owner_id}': 'admin',
  'GET /v1/owners/{owner_id}/users': 'read',
  'PUT /v1/owners/{owner_id}/users': 'admin',

  'POST /v1/apps': 'admin',
  'GET /v1/apps': 'read',
  'GET /v1/apps/{app_id}': 'read',
  'PUT /v1/apps/{app_id}': 'admin',
  'DELETE /v1/apps/{app_id}': 'admin',

  'POST /v1/resources': 'admin',
  'GET /v1/resources': 'read',
  'PUT /v1/resources': 'admin',
  'GET /v1/resources/{resource_id}': 'read',
  'DELETE /v1/resources/{resource_id}': 'admin',

  'POST /v1/groups': 'admin',
  'GET /v1/groups': 'read',
  'PUT /v1/groups': 'admin',
  'GET /v1/groups/{group_id}': 'read',
  'DELETE /v1/groups/{group_id}': 'admin',

  'POST /v1/tag': 'admin',
  'GET /v1/tag': 'read',
  'GET /v1/tag/{tag_id}': 'read',
  'DELETE /v1/tag/{tag_id}': 'admin',
  'GET /v1/tags': 'read',
  'POST /v1/tags/{tag_id}/users/{user_id}': 'admin',
  'DELETE /v1/tags/{tag_id}/users/{user_id}': 'admin',
  'GET /v1/users/{user_id}/tags': 'read',
  'POST /v1/tags/{tag_id}/groups/{group_id}': 'admin',
  'DELETE /v1/tags/{tag_id}/groups/{group_id}': 'admin',
  'GET /v1/groups/{group_id}/tags': 'read',
  'POST /v1/tags/{tag_id}/resources/{resource_id}': 'admin',
  'DELETE /v1/tags/{tag_id}/resources/{resource_id}': 'admin',
  'GET /v1/resources/{resource_id}/tags': 'read',

  'GET /v1/bundles': 'read',
  'POST /v1/bundles': 'admin',
  'GET /v1/bundles/{bundle_id}': 'read',
  'PUT /v1/bundles/{bundle_id}': 'admin',
  'DELETE /v1/bundles/{bundle_id}': 'admin',
  'GET /v1/bundles/{bundle_id}/resources': 'read',
  'DELETE /v1/bundles/{bundle_id}/resources/{resource_id}': 'admin',
  'GET /v1/bundles/{bundle_id}/groups': 'read',
  'DELETE /v1/bundles/{bundle_id}/groups/{group_id}': 'admin',
  'POST /v1/bundles/{bundle_id}/resources': 'admin',
  'POST /v1/bundles/{bundle_id}/groups': 'admin',

  'GET /v1/non-human-identities': 'read',
  'GET /v1/resources/{resource_id}/non-human-identities': 'read',
  'POST /v1/resources/{resource_id}/non-human-identities/{non_human_identity_id}': 'admin',
  'DELETE /v1/resources/{resource_id}/non-human-identities/{non_human_identity_id}': 'admin',

  'GET /v1/sessions': 'read',
  'POST /v1/sessions': 'member',
  'DELETE /v1/sessions/{connection_id}': 'member',

  'GET /v1/resources/users/{user_id}': 'read',
  'GET /v1/groups/users/{user_id}': 'read',
  'GET /v1/resources/{resource_id}/users': 'read',
  'GET /v1/resources/{resource_id}/users/{user_id}': 'read',
  'POST /v1/resources/{resource_id}/users/{user_id}': 'admin',
  'DELETE /v1/resources/{resource_id}/users/{user_id}': 'admin',
  'PUT /v1/resources/{resource_id}/users/{user_id}': 'admin',
  'GET /v1/resource-user-access-status/{resource_id}/{user_id}': 'read',
  'GET /v1/resources/{resource_id}/groups': 'read',
  'GET /v1/groups/{group_id}/users': 'read',
  'POST /v1/groups/{group_id}/users/{user_id}': 'admin',
  'DELETE /v1/groups/{group_id}/users/{user_id}': 'admin',
  'PUT /v1/groups/{group_id}/users/{user_id}': 'admin',
  'GET /v1/groups/{group_id}/resources': 'read',
  'PUT /v1/groups/{group_id}/resources': 'admin',
  'POST /v1/groups/{group_id}/resources/{resource_id}': 'admin',
  'DELETE /v1/groups/{group_id}/resources/{resource_id}': 'admin',
  'GET /v1/groups/{group_id}/containing-groups': 'read',
  'POST /v1/groups/{group_id}/containing-groups': 'admin',
  'GET /v1/groups/{group_id}/containing-groups/{containing_group_id}': 'read',
  'DELETE /v1/groups/{group_id}/containing-groups/{containing_group_id}': 'admin',

  'GET /v1/access-rules': 'read',
  'POST /v1/access-rules': 'admin',
  'GET /v1/access-rules/{access_rule_id}': 'read',
  'PUT /v1/access-rules/{access_rule_id}': 'admin',

  'GET /v1/group-bindings': 'read',
  'POST /v1/group-bindings': 'admin',
  'PUT /v1/group-bindings': 'admin',
  'GET /v1/group-bindings/{group_binding_id}': 'read',
  'DELETE /v1/group-bindings/{group_binding_id}': 'admin',

  'GET /v1/idp-group-mappings/{app_resource_id}': 'read',
  'PUT /v1/idp-group-mappings/{app_resource_id}': 'admin',
  'GET /v1/idp-group-mappings/{app_resource_id}/groups/{group_id}': 'read',
  'POST /v1/idp-group-mappings/{app_resource_id}/groups/{group_id}': 'admin',
  'DELETE /v1/idp-group-mappings/{app_resource_id}/groups/{group_id}': 'admin',
  'DELETE /v1/idp-group-mappings/{app_resource_id}/{group_id}/': 'admin',

  'GET /v1/message-channels': 'read',
  'POST /v1/message-channels': 'admin',
  'GET /v1/message-channels/{message_channel_id}': 'read',
  'GET /v1/on-call-schedules': 'read',
  'POST /v1/on-call-schedules': 'admin',
  'GET /v1/on-call-schedules/{on_call_schedule_id}': 'read',
  'GET /v1/on-call-schedules/{on_call_schedule_id}/on-call': 'read',
  'POST /v1/on-call-schedules/{on_call_schedule_id}/sync': 'admin',
  'GET /v1/resources/{resource_id}/message-channels': 'read',
  'PUT /v1/resources/{resource_id}/message-channels': 'admin',
  'GET /v1/groups/{group_id}/message-channels': 'read',
  'PUT /v1/groups/{group_id}/message-channels': 'admin',
  'GET /v1/groups/{group_id}/on-call-schedules': 'read',
  'PUT /v1/groups/{group_id}/on-call-schedules': 'admin',
  'GET /v1/resources/{resource_id}/scoped-role-permissions': 'read',
  'PUT /v1/resources/{resource_id}/scoped-role-permissions': 'admin',
  'GET /v1/sync_errors': 'read',

  'POST /v1/queries/run': 'read',

  'GET /v1/resources/{resource_id}/visibility': 'read',
  'PUT /v1/resources/{resource_id}/visibility': 'admin',
  'GET /v1/groups/{group_id}/visibility': 'read',
  'PUT /v1/groups/{group_id}/visibility': 'admin',
  'GET /v1/bundles/{bundle_id}/visibility': 'read',
  'PUT /v1/bundles/{bundle_id}/visibility': 'admin',
  'GET /v1/configuration-templates': 'read',
  'POST /v1/configuration-templates': 'admin',
  'PUT /v1/configuration-templates': 'admin',
  'DELETE /v1/configuration-templates/{configuration_template_id}': 'admin',
  'GET /v1/request-templates': 'read',
  'GET /v1/request-templates/{request_template_id}': 'read',
  'POST /v1/request-templates': 'admin',
  'PUT /v1/request-templates': 'admin',
  'DELETE /v1/request-templates/{request_template_id}': 'admin',

  'GET /v1/resources/{resource_id}/reviewer-stages': 'read',
  'PUT /v1/resources/{resource_id}/reviewer-stages': 'admin',
  'GET /v1/resources/{resource_id}/reviewers': 'read',
  'PUT /v1/resources/{resource_id}/reviewers': 'admin',
  'GET /v1/groups/{group_id}/reviewer-stages': 'read',
  'PUT /v1/groups/{group_id}/reviewer-stages': 'admin',
  'GET /v1/groups/{group_id}/reviewers': 'read',
  'PUT /v1/groups/{group_id}/reviewers': 'admin',
  'POST /v1/uar': 'admin',
  'GET /v1/uars': 'admin-read',
  'GET /v1/uar/{uar_id}': 'read',
  'GET /v1/uar/{uar_id}/snapshot': 'admin-read',
  'GET /v1/uar/{uar_id}/items': 'read',
  'GET /v1/uar-assignments': 'read',
  'POST /v1/uar/{uar_id}/decisions': 'member',
  'POST /v1/uar/{uar_id}/assignments': 'admin',
  'PUT /v1/uar/{uar_id}/policy': 'admin',
  'POST /v1/uar/{uar_id}/close': 'member',
  'GET /v1/web-sessions': 'read',
  'DELETE /v1/web-sessions/{web_session_id}': 'member',

  'POST /v1/requests': 'member',
  'GET /v1/requests': 'read',
  'GET /v1/requests/counts': 'read',
  'GET /v1/requests/relay': 'read',
  'GET /v1/requests/{id}': 'read',
  'POST /v1/requests/{id}/approve': 'member',
  'POST /v1/requests/{id}/deny': 'member',
  'POST /v1/requests/{id}/cancel': 'member',
  'GET /v1/requests/{id}/comments': 'read',
  'POST /v1/requests/{id}/comments': 'member',
  'GET /v1/delegations': 'read',
  'POST /v1/delegations': 'member',
  'GET /v1/delegations/{delegation_id}': 'read',
  'DELETE /v1/delegations/{delegation_id}': 'member',
  'POST /v1/break-glass': 'member',
  'GET /v1/break-glass': 'read',
  'GET /v1/break-glass/{id}': 'read',
  'POST /v1/break-glass/{id}/review': 'member',
  'PUT /v1/resources/{resource_id}/break-glass': 'member',
  'PUT /v1/groups/{group_id}/break-glass': 'member',
  'GET /v1/notifications': 'admin-read',
  'GET /v1/notifications/{notification_id}': 'admin-read',
  'POST /v1/notifications/{notification_id}/resend': 'admin',
  'GET /v1/users/{user_id}/notification-preferences': 'read',
  'PUT /v1/users/{user_id}/notification-preferences': 'member',
  'PUT /v1/users/{user_id}/name': 'member',

  'GET /v1/event-streams': 'admin-read',
  'POST /v1/event-streams': 'admin',
  'PUT /v1/event-streams/{event_stream_id}': 'admin',
  'DELETE /v1/event-streams/{event_stream_id}': 'admin',
  'POST /v1/event-streams/{event_stream_id}/test': 'admin',
  'GET /v1/connector-types': 'admin-read',
  'GET /v1/apps/{app_id}/connector': 'admin-read',
  'PUT /v1/apps/{app_id}/connector': 'admin',
  'DELETE /v1/apps/{app_id}/connector': 'admin',
  'POST /v1/apps/{app_id}/connector/test': 'admin',
  'POST /v1/apps/{app_id}/connector/sync': 'admin',
  'POST /v1/apps/{app_id}/connector/retry': 'admin',
  'PUT /v1/apps/{app_id}/connector/user-links': 'admin',
  'GET /v1/apps/{app_id}/connector/unmatched-users': 'admin-read',
  'GET /v1/propagations': 'admin-read',
  'GET /v1/resources/{resource_id}/unmatched-remote-users': 'admin-read',
  'GET /v1/groups/{group_id}/unmatched-remote-users': 'admin-read',
  'GET /v1/resources/{resource_id}/access-levels': 'read',
  'GET /v1/groups/{group_id}/access-levels': 'read',
};

/** Path parameters that are not UUIDs, and a valid value for each; every other one gets a fresh random UUID. */
const PLAIN_PARAMS: Record<string, string> = { third_party_provider: 'SLACK', owner_name: 'nobody-by-this-name' };

/** The route with its {placeholders} filled. */
const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => PLAIN_PARAMS[name] ?? randomUUID());

const refusedOrAbsent = (status: number) => status === 401 || status === 403;

describe('organization roles', () => {
  let app: TestApp;
  let member: Signed;
  before(async () => {
    app = await startTestApp();
    member = await createMember(app.api);
  });
  after(() => app.close());


  describe('the route walk', () => {
    let routes: string[];
    before(() => {
      const table = new RouteTable();
      createApp(app.ctx, table);
      routes = table.list().map((route) => route.replace(/:(\w+)/g, '{$1}'));
    });

    it('classifies every registered route, and only those', () => {
      const unclassified = routes.filter((route) => !(route in EXPECTED));
      assert.deepEqual(unclassified, [], `routes with no line in EXPECTED (test/modules/roles.test.ts): say who may call each`);
      const stale = Object.keys(EXPECTED).filter((route) => !routes.includes(route));
      assert.deepEqual(stale, [], 'lines in EXPECTED that no route serves');
    });

    it('answers every route as the table says, for no token, READ_ONLY, member and admin tokens', async () => {
      // The admin's own READ_ONLY token: access level limits it whatever the role.
      const reader = app.api.as((await createToken(app.api, { access_level: 'READ_ONLY' })).secret);
      const callers: [string, ApiClient][] = [['no token', app.api.as(undefined)], ['READ_ONLY', reader], ['member', member.api], ['admin', app.api]];
      const root = app.url.replace(/\/v1$/, '');
      const problems: string[] = [];
      for (const route of routes) {
        const access = EXPECTED[route];
        if (access === undefined) continue;
        const [method, path] = route.split(' ') as [string, string];
        if (access === 'sign-in') continue;
        if (access === 'public') {
          const res = await fetch(root + path);
          if (res.status !== 200) problems.push(`${route} without a token → ${res.status}, expected 200`);
          await res.arrayBuffer();
          continue;
        }
        if (access === 'scim') {
          // Neither no token nor the admin's own FULL_ACCESS API token gets past a SCIM route's door.
          for (const token of [undefined, ADMIN_TOKEN]) {
            const res = await fetch(root + path.replace('{id}', randomUUID()), { method, headers: { 'content-type': 'application/scim+json', ...(token && { authorization: `Bearer ${token}` }) }, ...(method !== 'GET' && { body: '{}' }) });
            if (res.status !== 401) problems.push(`${route} with ${token ? 'an API token' : 'no token'} → ${res.status}, expected 401`);
            await res.arrayBuffer();
          }
          continue;
        }
        if (access === 'signed') {
          const res = await fetch(root + path, { method, body: 'payload=%7B%7D', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
          if (res.status !== 401 && res.status !== 503) problems.push(`${route} unsigned → ${res.status}, expected 401 or 503`);
          await res.arrayBuffer();
          continue;
        }
        const apiPath = fill(path).slice('/v1'.length);
        const body = method === 'GET' ? undefined : {};
        for (const [who, client] of callers) {
          const res = await client.request(method, apiPath, body);
          const got = `${route} as ${who} → ${res.status} ${res.body?.code ?? ''} ${res.body?.message ?? ''}`;
          if (who === 'no token') {
            if (res.status !== 401) problems.push(`${got}; expected 401`);
          } else if (who === 'READ_ONLY') {
            const reads = access === 'read' || access === 'admin-read'; // the admin's READ_ONLY token
            if (reads ? refusedOrAbsent(res.status) : res.status !== 403 || !/READ_ONLY/.test(res.body.message)) {
              problems.push(`${got}; expected ${reads ? 'an answer' : '403 naming READ_ONLY'}`);
            }
          } else if (who === 'member' && (access === 'admin' || access === 'admin-read')) {
            if (res.status !== 403 || res.body.message !== `${route} is for organization admins; your role is MEMBER`) {
              problems.push(`${got}; expected 403 saying the route is for organization admins`);
            }
          } else if (refusedOrAbsent(res.status)) {
            problems.push(`${got}; expected an answer from the handler`);
          }
        }
      }
      assert.deepEqual(problems, []);
    });

    it('tells clients in the API document the least role each operation needs', async () => {
      const doc = (await (await fetch(app.url.replace(/\/v1$/, '/openapi.json'))).json()) as { paths: Record<string, Record<string, Record<string, unknown>>> };
      const problems: string[] = [];
      for (const [route, access] of Object.entries(EXPECTED)) {
        const [method, path] = route.split(' ') as [string, string];
        const role = doc.paths[path]?.[method.toLowerCase()]?.['x-gatehouse-role'];
        const expected = access === 'public' || access === 'sign-in' || access === 'signed' || access === 'scim' ? undefined : access === 'admin' || access === 'admin-read' ? 'ADMIN' : 'MEMBER';
        if (role !== expected) problems.push(`${route}: x-gatehouse-role ${role}, expected ${expected}`);
      }
      assert.deepEqual(problems, []);
    });
  });

  /** The routes the areas declare with `role`, as `METHOD /v1/path/{param}`. */
  const declaredWith = (role: string) =>
    API_OPERATIONS.flatMap((group) => Object.entries(group.operations).filter(([, doc]) => (doc as { role?: string }).role === role).map(([key]) => key));

  it('docs/roles.md lists exactly the writes the policy lets a member make', () => {
    const page = readFileSync(new URL('../../docs/roles.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf('## What a member may write'), page.indexOf('\n## ', page.indexOf('## What a member may write') + 1));
    const listed = [...section.matchAll(/^\| `?((?:GET|POST|PUT|PATCH|DELETE) \/v1\/[^ `|]*)`? \|/gm)].map((m) => m[1]!);
    assert.ok(listed.length > 5, 'the table was found');
    assert.deepEqual(listed.sort(), declaredWith('member').sort());
  });

  it('docs/roles.md names every read that is for admins only', () => {
    const page = readFileSync(new URL('../../docs/roles.md', import.meta.url), 'utf8');
    const adminReads = declaredWith('admin-read');
    assert.ok(adminReads.length >= 6, 'the audit trail, event streams and access reviews are declared admin-read');
    const missing = adminReads.filter((route) => !page.includes(`\`${route}\``));
    assert.deepEqual(missing, []);
  });

  describe('what a member is refused', () => {
    it('is refused before the body is read: 403, not 400, for a body it may not send anyway', async () => {
      const res = await member.api.post('/owners', undefined, { rawBody: '{not json', headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 'forbidden');
      assert.equal(res.body.message, 'POST /v1/owners is for organization admins; your role is MEMBER');
    });

    it('changes nothing when refused', async () => {
      const before = await countEvents(app.api);
      const usersBefore = (await app.api.get('/users', { page_size: 1000 })).body.results.length;
      assert.equal((await member.api.post('/users', { email: 'sneaky@example.com', full_name: 'Sneaky', organization_role: 'ADMIN' })).status, 403);
      assert.equal((await member.api.put(`/users/${member.user.user_id}`, { organization_role: 'ADMIN' })).status, 403);
      assert.equal((await app.api.get(`/users/${member.user.user_id}`)).body.organization_role, 'MEMBER');
      assert.equal((await app.api.get('/users', { page_size: 1000 })).body.results.length, usersBefore);
      assert.equal(await countEvents(app.api), before);
    });

    it('may still read, but not the audit trail or access reviews, and run queries', async () => {
      assert.equal((await member.api.get('/users')).status, 200);
      const events = await member.api.get('/events');
      assert.equal(events.status, 403, 'the audit trail is for admins');
      assert.equal(events.body.message, 'GET /v1/events is for organization admins; your role is MEMBER');
      const query = await member.api.post('/queries/run', {});
      assert.notEqual(query.status, 403);
    });
  });

  describe('setting roles through the API', () => {
    it('creates members unless told otherwise, and refuses a role it does not know', async () => {
      assert.equal((await createUser(app.api)).organization_role, 'MEMBER');
      assert.equal((await createUser(app.api, { organization_role: 'ADMIN' })).organization_role, 'ADMIN');
      const bad = await app.api.post('/users', { email: 'owner@example.com', full_name: 'Owner', organization_role: 'OWNER' });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.details[0].path, 'organization_role');
      assert.equal((await app.api.get('/user', { email: 'owner@example.com' })).status, 404);
      const [created] = (await app.api.get('/events', { event_type_filter: 'USERS_CREATED', page_size: 1 })).body.results;
      assert.equal(created.sub_events[0].organization_role, 'ADMIN', 'the role is part of the creation record');
    });

    it('promotes a member with PUT, recorded as USERS_ROLE_UPDATED alone, effective on their next call', async () => {
      const someone = await createMember(app.api);
      assert.equal((await someone.api.post('/owners', { name: 'ops-owners', user_ids: [] })).status, 403);
      const res = await app.api.put(`/users/${someone.user.user_id}`, { organization_role: 'ADMIN' });
      assert.equal(res.status, 200);
      assert.equal(res.body.organization_role, 'ADMIN');
      const events = (await app.api.get('/events', { object_filter: someone.user.user_id })).body.results;
      assert.equal(events[0].event_type, 'USERS_ROLE_UPDATED');
      assert.equal(events[0].actor_user_id, app.adminUserId);
      assert.deepEqual(events[0].sub_events, [{ sub_event_type: 'USERS_ROLE_UPDATED', user_id: someone.user.user_id,
        user_name: someone.user.full_name, previous_organization_role: 'MEMBER', organization_role: 'ADMIN' }]);
      assert.ok(!events.some((e: { event_type: string }) => e.event_type === 'USERS_UPDATED'), 'a role-only PUT is not also a USERS_UPDATED');
      assert.equal((await someone.api.post('/owners', { name: 'ops-owners', user_ids: [] })).status, 200);

      // Setting the role it already has records nothing; other fields with it record both.
      const before = await countEvents(app.api);
      assert.equal((await app.api.put(`/users/${someone.user.user_id}`, { organization_role: 'ADMIN' })).status, 200);
      assert.equal(await countEvents(app.api), before);
      assert.equal((await app.api.put(`/users/${someone.user.user_id}`, { organization_role: 'MEMBER', position: 'Ops' })).status, 200);
      const [latest, previous] = (await app.api.get('/events', { object_filter: someone.user.user_id })).body.results;
      assert.deepEqual([latest.event_type, previous.event_type].sort(), ['USERS_ROLE_UPDATED', 'USERS_UPDATED']);
      assert.equal((await someone.api.post('/owners', { name: 'ops-owners-2', user_ids: [] })).status, 403);
    });

    it('never demotes or offboards the last admin who is not offboarded', async () => {
      const fresh = await startTestApp();
      try {
        const admin = fresh.adminUserId;
        const refused = async (body: Record<string, unknown>, path: string) => {
          const before = (await fresh.api.get('/events')).body.results.length;
          const res = await fresh.api.put(`/users/${admin}`, body);
          assert.equal(res.status, 409, JSON.stringify(res.body));
          assert.equal(res.body.code, 'conflict');
          assert.equal(res.body.details[0].path, path);
          assert.match(res.body.message, /last admin/);
          assert.equal((await fresh.api.get('/events')).body.results.length, before, 'nothing recorded');
          const user = (await fresh.api.get(`/users/${admin}`)).body;
          assert.deepEqual([user.organization_role, user.hr_idp_status], ['ADMIN', 'ACTIVE'], 'nothing changed');
        };
        await refused({ organization_role: 'MEMBER' }, 'organization_role');
        await refused({ hr_idp_status: 'SUSPENDED' }, 'hr_idp_status');
        await refused({ position: 'Leaving', hr_idp_status: 'DELETED' }, 'hr_idp_status');

        // A suspended admin does not count: with only one, the active admin is still the last.
        const other = await createAdmin(fresh.api);
        assert.equal((await fresh.api.put(`/users/${other.user.user_id}`, { hr_idp_status: 'SUSPENDED' })).status, 200);
        await refused({ organization_role: 'MEMBER' }, 'organization_role');

        // With another active admin, an admin may step down themselves.
        assert.equal((await fresh.api.put(`/users/${other.user.user_id}`, { hr_idp_status: 'ACTIVE' })).status, 200);
        // Suspending them ended their token: they act through a new one.
        const otherApi = fresh.api.as((await createToken(fresh.api, { user_id: other.user.user_id })).secret);
        const stepDown = await fresh.api.put(`/users/${admin}`, { organization_role: 'MEMBER' });
        assert.equal(stepDown.status, 200);
        assert.equal(stepDown.body.organization_role, 'MEMBER');
        assert.equal((await fresh.api.post('/owners', { name: 'after', user_ids: [] })).status, 403, 'the bootstrap token is a member\'s now');
        const last = await otherApi.put(`/users/${other.user.user_id}`, { organization_role: 'MEMBER' });
        assert.equal(last.status, 409);
      } finally {
        await fresh.close();
      }
    });

    it('ends an offboarded user\'s tokens for good: re-activating the user brings none back', async () => {
      const someone = await createMember(app.api);
      assert.equal((await someone.api.get('/users')).status, 200);
      assert.equal((await app.api.put(`/users/${someone.user.user_id}`, { hr_idp_status: 'SUSPENDED' })).status, 200);
      assert.equal((await someone.api.get('/users')).status, 401);
      assert.equal((await app.api.put(`/users/${someone.user.user_id}`, { hr_idp_status: 'ACTIVE' })).status, 200);
      assert.equal((await someone.api.get('/users')).status, 401, 'the old token stays ended');
      const fresh = await createToken(app.api, { user_id: someone.user.user_id });
      assert.equal((await app.api.as(fresh.secret).get('/users')).status, 200, 'a new token works');
    });
  });

  describe('a member\'s own tokens', () => {
    it('may issue tokens for themselves, never for anyone else', async () => {
      const own = await member.api.post('/tokens', { token_label: 'mine' });
      assert.equal(own.status, 200);
      assert.equal(own.body.user_id, member.user.user_id);
      const explicit = await member.api.post('/tokens', { token_label: 'mine-too', user_id: member.user.user_id, access_level: 'READ_ONLY' });
      assert.equal(explicit.status, 200);

      const before = await countEvents(app.api);
      for (const user_id of [app.adminUserId, randomUUID()]) {
        const res = await member.api.post('/tokens', { token_label: 'theirs', user_id });
        assert.equal(res.status, 403, user_id);
        assert.match(res.body.message, /a MEMBER may issue tokens only for themselves/);
      }
      assert.equal(await countEvents(app.api), before);
      // The token acts as the member: a member's token, whatever it was asked to be.
      assert.equal((await app.api.as(own.body.token).post('/owners', { name: 'x', user_ids: [] })).status, 403);
    });

    it('may revoke their own tokens, never anyone else\'s', async () => {
      const mine = await createToken(member.api);
      const theirs = await createToken(app.api);
      const before = await countEvents(app.api);
      const refused = await member.api.delete(`/tokens/${theirs.tokenId}`);
      assert.equal(refused.status, 403);
      assert.match(refused.body.message, /a MEMBER may revoke tokens only for themselves/);
      assert.equal(await countEvents(app.api), before);
      assert.equal((await app.api.as(theirs.secret).get('/users')).status, 200, 'still works');
      assert.equal((await member.api.delete(`/tokens/${mine.tokenId}`)).status, 200);
      assert.equal((await member.api.as(mine.secret).get('/users')).status, 401);
      assert.equal((await member.api.delete(`/tokens/${randomUUID()}`)).status, 404);
    });
  });

  describe('a member\'s own sessions', () => {
    it('may open and end sessions for themselves only; an admin may end anyone\'s', async () => {
      const resource = await createResource(app.api);
      const other = await createMember(app.api);
      for (const who of [member, other]) {
        assert.equal((await app.api.post(`/resources/${resource.resource_id}/users/${who.user.user_id}`, { duration_minutes: 0 })).status, 200);
      }
      const before = await countEvents(app.api);
      const forOther = await member.api.post('/sessions', { resource_id: resource.resource_id, user_id: other.user.user_id });
      assert.equal(forOther.status, 403);
      assert.match(forOther.body.message, /a MEMBER may open sessions only for themselves/);
      assert.equal(await countEvents(app.api), before);

      const mine = await member.api.post('/sessions', { resource_id: resource.resource_id });
      assert.equal(mine.status, 200);
      assert.equal(mine.body.user_id, member.user.user_id);
      const theirs = await other.api.post('/sessions', { resource_id: resource.resource_id, user_id: other.user.user_id });
      assert.equal(theirs.status, 200);

      const endOther = await member.api.delete(`/sessions/${theirs.body.connection_id}`);
      assert.equal(endOther.status, 403);
      assert.match(endOther.body.message, /a MEMBER may end sessions only for themselves/);
      const open = async () => (await app.api.get('/sessions', { resource_id: resource.resource_id })).body.results.map((s: { user_id: string }) => s.user_id).sort();
      assert.deepEqual(await open(), [member.user.user_id, other.user.user_id].sort());

      assert.equal((await member.api.delete(`/sessions/${mine.body.connection_id}`)).status, 200);
      assert.equal((await app.api.delete(`/sessions/${theirs.body.connection_id}`)).status, 200);
      assert.deepEqual(await open(), []);
    });
  });
});
