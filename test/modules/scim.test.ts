// SCIM 2.0 provisioning through HTTP, in the request sequences Okta and Entra ID document: discovery,
// lookup before create, create, PATCH deactivation in both dialects, group push with members, the
// enterprise extension, malformed filters and PATCHes (which change nothing), and offboarding that
// ends access here and in a connected system.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tick as runOutbox } from '../../src/outbox/index.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app.ts';
import { cli } from '../helpers/cli.ts';
import { countEvents, readEvents } from '../helpers/events.ts';
import { createApp, createMember, createResource, createToken, createUser, unique } from '../helpers/fixtures.ts';
import { OpalConnector } from '../helpers/opal-connector.ts';
import { ScimClient } from '../helpers/scim-client.ts';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** A user as Okta's SCIM client creates one (its documented request: password included, ignored). */
const oktaUser = (email: string, extra: Record<string, unknown> = {}) => ({
  schemas: [USER], userName: email, name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [{ primary: true, value: email, type: 'work' }], displayName: 'Ada Lovelace', locale: 'en-US',
  externalId: `00u${unique('okta')}`, groups: [], password: 'sw0rdfish-1!', active: true, ...extra,
});

describe('SCIM 2.0', () => {
  let app: TestApp;
  let root: string;
  let scim: ScimClient;
  let scimTokenSecret: string;

  /** Every event recorded so far: what a refused request must leave unchanged. */
  const allEvents = () => countEvents(app.api);

  before(async () => {
    app = await startTestApp();
    root = app.url.replace(/\/v1$/, '');
    const made = await cli(['token', 'create', '--db', app.dbFile, '--email', 'admin@gatehouse.local', '--label', 'okta-scim', '--scim']);
    assert.equal(made.code, 0, made.stderr);
    scimTokenSecret = made.stdout.trim();
    scim = new ScimClient(root, scimTokenSecret);
  });
  after(() => app.close());

  describe('discovery and tokens', () => {
    it('serves ServiceProviderConfig, ResourceTypes and Schemas', async () => {
      const config = await scim.get('/ServiceProviderConfig');
      assert.equal(config.status, 200);
      assert.equal(config.body.patch.supported, true);
      assert.equal(config.body.filter.supported, true);
      assert.equal(config.body.bulk.supported, false);
      const types = await scim.get('/ResourceTypes');
      assert.deepEqual(types.body.Resources.map((t: { id: string }) => t.id), ['User', 'Group']);
      assert.equal((await scim.get('/ResourceTypes/user')).body.schema, USER);
      const schemas = await scim.get('/Schemas');
      assert.deepEqual(schemas.body.Resources.map((s: { id: string }) => s.id), [USER, ENTERPRISE, GROUP]);
      assert.equal((await scim.get(`/Schemas/${ENTERPRISE}`)).body.name, 'EnterpriseUser');
      assert.equal((await scim.get('/Schemas/urn:nope')).status, 404);
    });

    it('takes only a SCIM token, and a SCIM token works nowhere else', async () => {
      const none = await scim.as(undefined).get('/Users');
      assert.equal(none.status, 401);
      assert.equal(none.body.status, '401');
      assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer/);
      const apiToken = await scim.as(ADMIN_TOKEN).get('/Users');
      assert.equal(apiToken.status, 401);
      assert.match(apiToken.body.detail, /SCIM token/);
      assert.equal((await scim.as('gth_not-a-token-at-all-0123456789').get('/Users')).status, 401);
      const onV1 = await app.api.as(scimTokenSecret).get('/users');
      assert.equal(onV1.status, 401);
      assert.match(onV1.body.message, /SCIM token/);
    });

    it('is issued only for an admin, never READ_ONLY, and its creation is audited', async () => {
      const member = await createMember(app.api);
      const refused = await cli(['token', 'create', '--db', app.dbFile, '--email', member.user.email, '--label', 'x', '--scim']);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /ADMIN/);
      const both = await cli(['token', 'create', '--db', app.dbFile, '--email', 'admin@gatehouse.local', '--label', 'x', '--scim', '--read-only']);
      assert.notEqual(both.code, 0);
      const created = await readEvents(app.api, { type: 'API_TOKENS_CREATED' });
      assert.ok(created.some((e) => e.sub_events[0]!.token_label === 'okta-scim' && e.sub_events[0]!.scope === 'SCIM'));
    });

    it('is made by an admin through POST /v1/tokens with scope SCIM, and refused READ_ONLY or for a member', async () => {
      const res = await app.api.post('/tokens', { token_label: 'entra-scim', scope: 'SCIM' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      // Listed as a SCIM token (the console says "SCIM", not "full access": issue 41.8).
      const listed = (await app.api.get('/tokens', { page_size: 100 })).body.results as { token_id: string; token_label: string; scope: string }[];
      assert.equal(listed.find((t) => t.token_id === res.body.token_id)?.scope, 'SCIM');
      assert.equal(listed.find((t) => t.token_label === 'bootstrap')?.scope, 'API');
      assert.equal((await scim.as(res.body.token).get('/ServiceProviderConfig')).status, 200);
      assert.equal((await app.api.as(res.body.token).get('/users')).status, 401);
      const readOnly = await app.api.post('/tokens', { token_label: 'x', scope: 'SCIM', access_level: 'READ_ONLY' });
      assert.deepEqual([readOnly.status, readOnly.body.details[0].path], [400, 'access_level']);
      const member = await createMember(app.api);
      assert.equal((await member.api.post('/tokens', { token_label: 'x', scope: 'SCIM' })).status, 403);
    });

    it('stops working (403) once its user is no longer an admin', async () => {
      const admin = await createUser(app.api, { organization_role: 'ADMIN' });
      const made = await cli(['token', 'create', '--db', app.dbFile, '--email', admin.email, '--label', 'entra-scim', '--scim']);
      assert.equal(made.code, 0, made.stderr);
      const theirs = scim.as(made.stdout.trim());
      assert.equal((await theirs.get('/Users', { count: 1 })).status, 200);
      assert.equal((await app.api.put(`/users/${admin.user_id}`, { organization_role: 'MEMBER' })).status, 200);
      assert.equal((await theirs.get('/Users', { count: 1 })).status, 403);
    });
  });

  describe('users, as Okta provisions them', () => {
    let ada: { id: string; userName: string };

    it('answers the connection test and the lookup before create', async () => {
      const test = await scim.get('/Users', { startIndex: 1, count: 2 });
      assert.equal(test.status, 200);
      assert.ok(test.body.totalResults >= 1);
      assert.ok(test.body.Resources.length <= 2);
      const lookup = await scim.get('/Users', { filter: 'userName eq "ada.lovelace@example.com"', startIndex: 1, count: 100 });
      assert.deepEqual([lookup.body.totalResults, lookup.body.Resources], [0, []]);
    });

    it('creates a member whose email is userName, with meta and Location, never echoing the password', async () => {
      const before = await allEvents();
      const res = await scim.post('/Users', oktaUser('ada.lovelace@example.com'));
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ada = res.body;
      assert.equal(res.headers.get('location'), `${root}/scim/v2/Users/${res.body.id}`);
      assert.equal(res.body.meta.location, res.headers.get('location'));
      assert.equal(res.body.meta.resourceType, 'User');
      assert.equal(res.body.active, true);
      assert.equal(res.body.password, undefined);
      assert.ok(!JSON.stringify(res.body).includes('sw0rdfish'));
      const user = (await app.api.get(`/users/${res.body.id}`)).body;
      assert.deepEqual([user.email, user.full_name, user.first_name, user.last_name, user.organization_role, user.hr_idp_status],
        ['ada.lovelace@example.com', 'Ada Lovelace', 'Ada', 'Lovelace', 'MEMBER', 'ACTIVE']);
      assert.equal(await allEvents(), before + 1);
      const [event] = await readEvents(app.api, { type: 'USERS_CREATED', object: res.body.id });
      assert.equal(event!.api_token_name, 'okta-scim');
    });

    it('finds the user by userName in any case, with attribute names in any case', async () => {
      const found = await scim.get('/Users', { filter: 'USERNAME Eq "ADA.LOVELACE@example.COM"' });
      assert.deepEqual(found.body.Resources.map((u: { id: string }) => u.id), [ada.id]);
      const byExternal = await scim.get('/Users', { filter: `externalId eq "${(await scim.get(`/Users/${ada.id}`)).body.externalId}"` });
      assert.equal(byExternal.body.totalResults, 1);
      const byEmail = await scim.get('/Users', { filter: `${USER}:emails.value eq "ada.lovelace@example.com"` });
      assert.equal(byEmail.body.totalResults, 1);
    });

    it('answers a second create of the same userName 409 uniqueness, recording nothing', async () => {
      const before = await allEvents();
      const again = await scim.post('/Users', oktaUser('Ada.Lovelace@example.com'));
      assert.equal(again.status, 409);
      assert.equal(again.body.scimType, 'uniqueness');
      assert.equal(await allEvents(), before);
    });

    it('deactivates with {op: replace, value: {active: false}}: access, sessions and tokens end; reactivation restores the person only', async () => {
      const resource = await createResource(app.api);
      assert.equal((await app.api.post(`/resources/${resource.resource_id}/users/${ada.id}`, { duration_minutes: 0 })).status, 200);
      const token = await createToken(app.api, { user_id: ada.id });
      assert.equal((await app.api.as(token.secret).get('/users')).status, 200);

      const off = await scim.patch(`/Users/${ada.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: false } }] });
      assert.equal(off.status, 200, JSON.stringify(off.body));
      assert.equal(off.body.active, false);
      assert.equal((await app.api.get(`/users/${ada.id}`)).body.hr_idp_status, 'DEPROVISIONED');
      const holders = (await app.api.get(`/resources/${resource.resource_id}/users`)).body.results as { user_id: string }[];
      assert.ok(!holders.some((h) => h.user_id === ada.id), 'the access edge ended');
      assert.equal((await app.api.as(token.secret).get('/users')).status, 401);
      const [event] = await readEvents(app.api, { type: 'USERS_UPDATED', object: ada.id });
      assert.ok(event!.sub_events.some((s) => s.sub_event_type === 'RESOURCE_USERS_REMOVED'), 'the ended edge is part of the event');
      // Filters see the change.
      assert.equal((await scim.get('/Users', { filter: `userName eq "${ada.userName}" and active eq false` })).body.totalResults, 1);

      const on = await scim.patch(`/Users/${ada.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: true } }] });
      assert.equal(on.body.active, true);
      assert.equal((await app.api.get(`/users/${ada.id}`)).body.hr_idp_status, 'ACTIVE');
      const after = (await app.api.get(`/resources/${resource.resource_id}/users`)).body.results as { user_id: string }[];
      assert.ok(!after.some((h) => h.user_id === ada.id), 'reactivation does not bring old access back');
    });

    it('replaces a user with PUT, the whole object as Okta sends it', async () => {
      const current = (await scim.get(`/Users/${ada.id}`)).body;
      const res = await scim.put(`/Users/${ada.id}`, { ...current, name: { givenName: 'Augusta Ada', familyName: 'King' }, displayName: 'Augusta Ada King', title: 'Analyst' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const user = (await app.api.get(`/users/${ada.id}`)).body;
      assert.deepEqual([user.full_name, user.first_name, user.last_name, user.position], ['Augusta Ada King', 'Augusta Ada', 'King', 'Analyst']);
      assert.notEqual(res.body.meta.version, current.meta.version, 'the version follows the content');
    });
  });

  describe('users, as Entra ID provisions them', () => {
    let grace: { id: string };

    it('creates with the enterprise extension: department, employeeNumber and manager', async () => {
      const res = await scim.post('/Users', {
        schemas: [USER, ENTERPRISE], externalId: 'e5b1-grace', userName: 'grace.hopper@example.com', active: true,
        displayName: 'Grace Hopper', name: { formatted: 'Grace Hopper', familyName: 'Hopper', givenName: 'Grace' },
        emails: [{ primary: true, type: 'work', value: 'grace.hopper@example.com' }],
        [ENTERPRISE]: { department: 'Navy', employeeNumber: '1906', manager: { value: app.adminUserId } },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      grace = res.body;
      assert.deepEqual(res.body[ENTERPRISE].department, 'Navy');
      assert.equal(res.body[ENTERPRISE].manager.value, app.adminUserId);
      assert.equal((await app.api.get(`/users/${grace.id}`)).body.manager_id, app.adminUserId);
      assert.equal((await scim.get('/Users', { filter: `${ENTERPRISE}:department eq "navy"` })).body.totalResults, 1);
    });

    it('takes capitalised ops, "False" as a string, URN paths and a manager given as its id', async () => {
      const res = await scim.patch(`/Users/${grace.id}`, {
        schemas: [PATCH],
        Operations: [
          { op: 'Replace', path: 'displayName', value: 'Rear Admiral Grace Hopper' },
          { op: 'Add', path: `${ENTERPRISE}:department`, value: 'Computing' },
          { op: 'Replace', path: 'Title', value: 'Rear Admiral' },
        ],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.displayName, 'Rear Admiral Grace Hopper');
      assert.equal(res.body[ENTERPRISE].department, 'Computing');
      assert.equal((await app.api.get(`/users/${grace.id}`)).body.position, 'Rear Admiral');

      const manager = await createUser(app.api);
      const moved = await scim.patch(`/Users/${grace.id}`, { schemas: [PATCH], Operations: [{ op: 'Add', path: `${ENTERPRISE}:manager`, value: manager.user_id }] });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal((await app.api.get(`/users/${grace.id}`)).body.manager_id, manager.user_id);
      const removed = await scim.patch(`/Users/${grace.id}`, { schemas: [PATCH], Operations: [{ op: 'Remove', path: `${ENTERPRISE}:manager` }] });
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      assert.equal((await app.api.get(`/users/${grace.id}`)).body.manager_id, undefined);

      // A manager named by userName or email (an Okta managerId mapping) is found; one naming nobody here (a
      // manager not provisioned yet, the validator's made-up value) leaves no manager instead of refusing the person.
      const byName = await scim.patch(`/Users/${grace.id}`, { schemas: [PATCH], Operations: [{ op: 'Add', path: `${ENTERPRISE}:manager`, value: { value: manager.email.toUpperCase() } }] });
      assert.equal(byName.status, 200, JSON.stringify(byName.body));
      assert.equal((await app.api.get(`/users/${grace.id}`)).body.manager_id, manager.user_id);
      const nobody = await scim.patch(`/Users/${grace.id}`, { schemas: [PATCH], Operations: [{ op: 'Add', path: `${ENTERPRISE}:manager`, value: 'OYNZJCSOXGYC' }] });
      assert.equal(nobody.status, 200, JSON.stringify(nobody.body));
      assert.equal((await app.api.get(`/users/${grace.id}`)).body.manager_id, undefined);
      const made = await scim.post('/Users', {
        schemas: [USER, ENTERPRISE], userName: 'Emp_4711', emails: [{ primary: true, type: 'work', value: 'emp4711@example.com' }],
        [ENTERPRISE]: { employeeNumber: '4711', manager: { value: '00u1abcdEFGH', displayName: 'Someone at the IdP' } },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal(made.body[ENTERPRISE].manager, undefined);

      const off = await scim.patch(`/Users/${grace.id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
      assert.equal(off.body.active, false);
      assert.equal((await app.api.get(`/users/${grace.id}`)).body.hr_idp_status, 'DEPROVISIONED');
    });

    it('keeps the displayName the provider sent when only the given or family name changes (issue 37.6)', async () => {
      const res = await scim.patch(`/Users/${grace.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'name.givenName', value: 'Amazing Grace' }] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.displayName, 'Rear Admiral Grace Hopper');
      assert.equal(res.body.name.givenName, 'Amazing Grace');
      const stored = (await app.api.get(`/users/${grace.id}`)).body;
      assert.deepEqual([stored.full_name, stored.first_name], ['Rear Admiral Grace Hopper', 'Amazing Grace']);
    });

    it('makes the full name anew from the name when the provider never sent a displayName', async () => {
      const plain = await scim.post('/Users', { schemas: [USER], userName: 'ada.plain@example.com', name: { givenName: 'Ada', familyName: 'Byron' } });
      assert.equal(plain.body.displayName, 'Ada Byron');
      const res = await scim.patch(`/Users/${plain.body.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'name.familyName', value: 'Lovelace' }] });
      assert.equal(res.body.displayName, 'Ada Lovelace');
      assert.equal((await app.api.get(`/users/${plain.body.id}`)).body.full_name, 'Ada Lovelace');
    });

    it('changes userName (the email), refusing one another user has', async () => {
      const taken = await scim.patch(`/Users/${grace.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'userName', value: 'admin@gatehouse.local' }] });
      assert.equal(taken.status, 409);
      assert.equal(taken.body.scimType, 'uniqueness');
      const res = await scim.patch(`/Users/${grace.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'userName', value: 'grace@example.com' }] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await app.api.get(`/users/${grace.id}`)).body.email, 'grace@example.com');
    });

    it('DELETE offboards as DELETED: 204, then 404, and a new POST brings the person back without their access', async () => {
      const res = await scim.delete(`/Users/${grace.id}`);
      assert.equal(res.status, 204);
      assert.equal((await scim.get(`/Users/${grace.id}`)).status, 404);
      assert.equal((await scim.delete(`/Users/${grace.id}`)).status, 404);
      assert.equal((await app.api.get(`/users/${grace.id}`)).body.hr_idp_status, 'DELETED');
      assert.equal((await scim.get('/Users', { filter: 'userName eq "grace@example.com"' })).body.totalResults, 0);
      const back = await scim.post('/Users', { schemas: [USER], userName: 'grace@example.com', name: { givenName: 'Grace', familyName: 'Hopper' } });
      assert.equal(back.status, 201, JSON.stringify(back.body));
      assert.equal(back.body.id, grace.id);
      assert.equal((await app.api.get(`/users/${grace.id}`)).body.hr_idp_status, 'ACTIVE');
    });
  });

  describe('filters, paging and attributes', () => {
    const made: string[] = [];
    before(async () => {
      for (const name of ['filter-a', 'filter-b', 'filter-c', 'filter-d', 'other-e']) {
        const res = await scim.post('/Users', { schemas: [USER], userName: `${name}@paging.example`, externalId: `ext-${name}`, name: { givenName: name, familyName: 'Paging' } });
        assert.equal(res.status, 201);
        made.push(res.body.id);
      }
    });

    it('filters with co, sw, ew, pr, and, or, not and value paths', async () => {
      const ids = async (filter: string) => ((await scim.get('/Users', { filter })).body.Resources as { id: string }[]).map((u) => u.id).sort();
      assert.deepEqual(await ids('userName sw "filter-" and userName ew "@paging.example"'), made.slice(0, 4).sort());
      assert.deepEqual(await ids('userName co "ER-E@PAGING"'), [made[4]]);
      assert.deepEqual(await ids('externalId eq "ext-filter-a" or externalId eq "ext-filter-b"'), made.slice(0, 2).sort());
      assert.deepEqual(await ids('externalId eq "EXT-FILTER-A"'), [], 'externalId is caseExact');
      assert.deepEqual(await ids('name.familyName eq "Paging" and not (userName sw "filter")'), [made[4]]);
      assert.deepEqual(await ids('emails[type eq "work" and value co "paging.example"] and externalId pr'), made.slice().sort());
      const recent = await ids(`meta.created ge "${new Date(app.clock.now().getTime() - 1000).toISOString()}" and name.familyName eq "Paging"`);
      assert.equal(recent.length, 5);
    });

    it('pages by startIndex and count, with totalResults counting every match', async () => {
      const page = await scim.get('/Users', { filter: 'name.familyName eq "Paging"', startIndex: 2, count: 2 });
      assert.deepEqual([page.body.totalResults, page.body.startIndex, page.body.itemsPerPage], [5, 2, 2]);
      assert.deepEqual(page.body.Resources.map((u: { id: string }) => u.id), made.slice(1, 3));
      const past = await scim.get('/Users', { filter: 'name.familyName eq "Paging"', startIndex: 99 });
      assert.deepEqual([past.body.totalResults, past.body.itemsPerPage], [5, 0]);
      const none = await scim.get('/Users', { filter: 'name.familyName eq "Paging"', count: 0 });
      assert.deepEqual([none.body.totalResults, none.body.Resources.length], [5, 0]);
    });

    it('returns only the attributes asked for, or all but those excluded (id and schemas always)', async () => {
      const only = (await scim.get(`/Users/${made[0]}`, { attributes: 'userName,name.givenName' })).body;
      assert.deepEqual(Object.keys(only).sort(), ['id', 'meta', 'name', 'schemas', 'userName']);
      assert.deepEqual(only.name, { givenName: 'filter-a' });
      const without = (await scim.get('/Users', { filter: `id eq "${made[0]}"`, excludedAttributes: 'emails,name' })).body.Resources[0];
      assert.equal(without.emails, undefined);
      assert.equal(without.name, undefined);
      assert.equal(without.userName, 'filter-a@paging.example');
    });

    it('refuses filters it cannot read with 400 invalidFilter', async () => {
      for (const filter of ['userName eq', 'userName eq "x" and', 'password eq "x"', 'members eq "x"', 'active co "t"', 'meta.created gt "yesterday"', `userName eq "${'x'.repeat(2100)}"`, 'not ('.repeat(40) + 'userName eq "x"' + ')'.repeat(40)]) {
        const res = await scim.get('/Users', { filter });
        assert.equal(res.status, 400, filter);
        assert.equal(res.body.scimType, 'invalidFilter', filter);
      }
    });
  });

  describe('groups, as Okta and Entra ID push them', () => {
    let alan: { id: string };
    let barbara: { id: string };
    let group: { id: string };
    let resourceId: string;

    before(async () => {
      alan = (await scim.post('/Users', { schemas: [USER], userName: 'alan.turing@example.com', name: { givenName: 'Alan', familyName: 'Turing' } })).body;
      barbara = (await scim.post('/Users', { schemas: [USER], userName: 'barbara.liskov@example.com', name: { givenName: 'Barbara', familyName: 'Liskov' } })).body;
      resourceId = (await createResource(app.api)).resource_id;
    });

    const holdsResource = async (userId: string) =>
      ((await app.api.get(`/resources/${resourceId}/users`)).body.results as { user_id: string }[]).some((h) => h.user_id === userId);

    it('creates a group of the identity provider\'s app with its members', async () => {
      const res = await scim.post('/Groups', { schemas: [GROUP], displayName: 'Engineering', externalId: '00g-eng', members: [{ value: alan.id, display: 'Alan Turing' }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      group = res.body;
      assert.deepEqual(res.body.members.map((m: { value: string }) => m.value), [alan.id]);
      const gh = (await app.api.get(`/groups/${group.id}`)).body;
      assert.equal(gh.group_type, 'CONNECTOR_GROUP');
      const providerApp = (await app.api.get(`/apps/${gh.app_id}`)).body;
      assert.deepEqual([providerApp.name, providerApp.app_type], ['Identity provider', 'CUSTOM']);
      assert.equal((await readEvents(app.api, { type: 'GROUP_USERS_ADDED', object: group.id })).length, 1);
      // What the group holds follows its membership.
      assert.equal((await app.api.post(`/groups/${group.id}/resources/${resourceId}`, {})).status, 200);
      assert.ok(await holdsResource(alan.id));
    });

    it('answers a second group of the same name 409 uniqueness, and a member it does not know 400, creating nothing', async () => {
      const before = await allEvents();
      const dup = await scim.post('/Groups', { schemas: [GROUP], displayName: 'engineering' });
      assert.deepEqual([dup.status, dup.body.scimType], [409, 'uniqueness']);
      const unknown = await scim.post('/Groups', { schemas: [GROUP], displayName: 'Ghosts', members: [{ value: '00000000-0000-4000-8000-000000000000' }] });
      assert.deepEqual([unknown.status, unknown.body.scimType], [400, 'invalidValue']);
      assert.match(unknown.body.detail, /members\.0\.value/);
      const nested = await scim.post('/Groups', { schemas: [GROUP], displayName: 'Nested', members: [{ value: group.id, type: 'Group' }] });
      assert.equal(nested.status, 400);
      assert.equal(await allEvents(), before);
      assert.equal((await scim.get('/Groups', { filter: 'displayName eq "Ghosts"' })).body.totalResults, 0);
    });

    it('adds and removes members in Okta\'s dialect, and access follows at once', async () => {
      const add = await scim.patch(`/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: barbara.id, display: 'Barbara Liskov' }] }] });
      assert.equal(add.status, 200, JSON.stringify(add.body));
      assert.ok(await holdsResource(barbara.id));
      const remove = await scim.patch(`/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: `members[value eq "${alan.id}"]` }] });
      assert.deepEqual(remove.body.members.map((m: { value: string }) => m.value), [barbara.id]);
      assert.ok(!(await holdsResource(alan.id)), 'leaving the group ended the access it gave');
      assert.equal((await readEvents(app.api, { type: 'GROUP_USERS_REMOVED', object: group.id })).length, 1);
      const rename = await scim.patch(`/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { id: group.id, displayName: 'Eng' } }] });
      assert.equal(rename.body.displayName, 'Eng');
      assert.equal((await app.api.get(`/groups/${group.id}`)).body.name, 'Eng');
    });

    it('takes Entra ID\'s Add/Remove with a list of values, and GET without members', async () => {
      const add = await scim.patch(`/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'Add', path: 'members', value: [{ value: alan.id }] }] });
      assert.equal(add.status, 200, JSON.stringify(add.body));
      const remove = await scim.patch(`/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'Remove', path: 'members', value: [{ value: barbara.id }] }] });
      assert.deepEqual(remove.body.members.map((m: { value: string }) => m.value), [alan.id]);
      assert.ok(!(await holdsResource(barbara.id)));
      const listed = await scim.get('/Groups', { filter: 'displayName eq "eng"', excludedAttributes: 'members' });
      assert.equal(listed.body.totalResults, 1);
      assert.equal(listed.body.Resources[0].members, undefined);
      assert.equal(listed.body.Resources[0].externalId, '00g-eng');
    });

    it('replaces the member list with PUT, and deleting the group ends what it gave', async () => {
      const put = await scim.put(`/Groups/${group.id}`, { schemas: [GROUP], displayName: 'Eng', externalId: '00g-eng', members: [{ value: barbara.id }] });
      assert.deepEqual(put.body.members.map((m: { value: string }) => m.value), [barbara.id]);
      assert.ok(await holdsResource(barbara.id));
      assert.equal((await scim.delete(`/Groups/${group.id}`)).status, 204);
      assert.equal((await scim.get(`/Groups/${group.id}`)).status, 404);
      assert.equal((await app.api.get(`/groups/${group.id}`)).status, 404);
      assert.ok(!(await holdsResource(barbara.id)));
    });
  });

  describe('parallel requests, as Okta and Entra ID send them', () => {
    it('one of many simultaneous creates of a userName wins; the rest are 409 uniqueness, and one user exists', async () => {
      const before = await countEvents(app.api, { type: 'USERS_CREATED' });
      const answers = await Promise.all(Array.from({ length: 12 }, () => scim.post('/Users', { schemas: [USER], userName: 'racer@example.com' })));
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, ...Array(11).fill(409)]);
      assert.ok(answers.filter((a) => a.status === 409).every((a) => a.body.scimType === 'uniqueness'));
      assert.equal((await scim.get('/Users', { filter: 'userName eq "racer@example.com"' })).body.totalResults, 1);
      assert.equal(await countEvents(app.api, { type: 'USERS_CREATED' }), before + 1);
    });

    it('simultaneous member adds to one group all land, each once, and a retried PATCH changes nothing more', async () => {
      const people = await Promise.all(Array.from({ length: 8 }, (_, i) => scim.post('/Users', { schemas: [USER], userName: `parallel-${i}@example.com` })));
      const group = (await scim.post('/Groups', { schemas: [GROUP], displayName: 'Parallel' })).body;
      const add = (id: string) => scim.patch(`/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: id }] }] });
      const answers = await Promise.all(people.map((p) => add(p.body.id)));
      assert.ok(answers.every((a) => a.status === 200));
      const members = (await scim.get(`/Groups/${group.id}`)).body.members as { value: string }[];
      assert.deepEqual(members.map((m) => m.value).sort(), people.map((p) => p.body.id).sort());
      const added = await countEvents(app.api, { type: 'GROUP_USERS_ADDED', object: group.id });
      assert.equal(added, 8);
      assert.equal((await add(people[0]!.body.id)).status, 200);
      assert.equal(await countEvents(app.api, { type: 'GROUP_USERS_ADDED', object: group.id }), added, 'a retry adds nothing');
    });
  });

  describe('malformed input changes nothing', () => {
    let user: { id: string };
    before(async () => {
      user = (await scim.post('/Users', { schemas: [USER], userName: 'malformed@example.com' })).body;
    });

    it('answers each with the SCIM error and its scimType, recording nothing', async () => {
      const before = await allEvents();
      const cases: [string, () => Promise<{ status: number; body: { scimType?: string } }>, number, string | undefined][] = [
        ['not JSON', () => scim.request('POST', '/Users', '{"userName": '), 400, 'invalidSyntax'],
        ['userName not an email', () => scim.post('/Users', { schemas: [USER], userName: 'not an email' }), 400, 'invalidValue'],
        ['a NUL in a name', () => scim.post('/Users', { schemas: [USER], userName: 'nul@example.com', displayName: 'A\u0000B' }), 400, 'invalidValue'],
        ['active neither true nor false', () => scim.post('/Users', { schemas: [USER], userName: 'maybe@example.com', active: 'maybe' }), 400, 'invalidValue'],
        ['an unknown op', () => scim.patch(`/Users/${user.id}`, { schemas: [PATCH], Operations: [{ op: 'move', path: 'title', value: 'x' }] }), 400, 'invalidValue'],
        ['no operations', () => scim.patch(`/Users/${user.id}`, { schemas: [PATCH], Operations: [] }), 400, 'invalidValue'],
        ['a remove without a path', () => scim.patch(`/Users/${user.id}`, { schemas: [PATCH], Operations: [{ op: 'remove' }] }), 400, 'invalidSyntax'],
        ['a path that cannot be followed', () => scim.patch(`/Users/${user.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'emails[type eq', value: 'x' }] }), 400, 'invalidPath'],
        ['changing id', () => scim.patch(`/Users/${user.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { id: '00000000-0000-4000-8000-000000000000' } }] }), 400, 'mutability'],
        ['a PATCH replacing userName with garbage', () => scim.patch(`/Users/${user.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'userName', value: 42 }] }), 400, 'invalidValue'],
        ['an unknown user', () => scim.put('/Users/00000000-0000-4000-8000-000000000000', { schemas: [USER], userName: 'x@example.com' }), 404, undefined],
        ['an id that is not one', () => scim.get('/Users/not-an-id'), 404, undefined],
      ];
      for (const [what, call, status, scimType] of cases) {
        const res = await call();
        assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.scimType, scimType, what);
      }
      assert.equal(await allEvents(), before);
      const user2 = (await scim.get(`/Users/${user.id}`)).body;
      assert.equal(user2.userName, 'malformed@example.com');
    });
  });

  describe('offboarding through SCIM reaches the connected systems', () => {
    const SECRET = 'connector-signing-secret-0123456789';
    let remote: OpalConnector;
    before(async () => {
      remote = await new OpalConnector(SECRET).start();
    });
    after(() => remote.stop());

    it('ends the person\'s access in the connector within an outbox pass', async () => {
      const person = (await scim.post('/Users', oktaUser('linus@example.com'))).body;
      remote.users.set('u-linus', 'linus@example.com');
      remote.resources.set('r-repo', { name: 'Repository', levels: [], users: new Map() });
      const appId = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
      assert.equal((await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: SECRET })).status, 200);
      assert.equal((await app.api.post(`/apps/${appId}/connector/sync`)).status, 200);
      const resources = (await app.api.get('/resources', { page_size: 1000 })).body.results as { resource_id: string; app_id: string }[];
      const repo = resources.find((r) => r.app_id === appId)!;
      assert.equal((await app.api.post(`/resources/${repo.resource_id}/users/${person.id}`, { duration_minutes: 0 })).status, 200);
      await runOutbox(app.ctx, app.clock.now());
      assert.deepEqual(remote.edges(), ['resource_user:u-linus:r-repo:']);

      const off = await scim.patch(`/Users/${person.id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
      assert.equal(off.status, 200);
      await runOutbox(app.ctx, app.clock.now());
      assert.deepEqual(remote.edges(), [], 'removed in the connected system');
    });
  });
});
