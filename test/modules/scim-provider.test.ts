// What identity providers send, taken as they send it (issue 37): removals of members already gone are
// nothing, offboarded users in an add list are skipped, `.search` is served; and what one request may make
// the service do is bounded and refused before any walk (issue 36.5).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_PATCH_MEMBER_VALUES, MAX_PATCH_OPERATIONS } from '../../src/modules/scim/group-patch.ts';
import { MAX_FILTER_TERMS } from '../../src/modules/scim/filter.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { countEvents } from '../helpers/events.ts';
import { unique } from '../helpers/fixtures.ts';
import { scimClientFor, type ScimClient } from '../helpers/scim-client.ts';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const patch = (...operations: Record<string, unknown>[]) => ({ schemas: [PATCH], Operations: operations });
/** An id no user has (a v4 UUID shape). */
const ghost = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('SCIM as providers send it (issue 37) and bounded (issue 36.5)', () => {
  let app: TestApp;
  let scim: ScimClient;
  let origin: string;

  before(async () => {
    app = await startTestApp();
    origin = app.url.replace(/\/v1$/, '');
    scim = await scimClientFor(app);
  });
  after(() => app.close());

  const person = async (extra: Record<string, unknown> = {}) => {
    const email = `${unique('p')}@example.com`;
    const res = await scim.post('/Users', { schemas: [USER], userName: email, ...extra });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id as string;
  };
  const groupOf = async (members: string[]) => {
    const res = await scim.post('/Groups', { schemas: [GROUP], displayName: unique('g'), members: members.map((value) => ({ value })) });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id as string;
  };
  const membersOf = async (groupId: string) => ((await scim.get(`/Groups/${groupId}`)).body.members ?? []).map((m: { value: string }) => m.value).sort();
  const deactivate = async (id: string) => assert.equal((await scim.patch(`/Users/${id}`, patch({ op: 'replace', value: { active: false } }))).status, 200);

  it('removes the members still there when a removal also names one already gone (37.1), in every form providers send', async () => {
    const [a, b, x] = [await person(), await person(), await person()];
    const group = await groupOf([a, b, x]);
    // Gatehouse itself drops X's membership when X is deactivated.
    await deactivate(x);
    assert.deepEqual(await membersOf(group), [a, b].sort());
    const listed = await scim.patch(`/Groups/${group}`, patch({ op: 'Remove', path: 'members', value: [{ value: a }, { value: x }] }));
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.deepEqual(await membersOf(group), [b]);
    const filtered = await scim.patch(`/Groups/${group}`, patch({ op: 'remove', path: `members[value eq "${x}"]` }, { op: 'remove', path: `members[value eq "${b}"]` }));
    assert.equal(filtered.status, 200);
    assert.deepEqual(await membersOf(group), []);
    assert.equal((await scim.patch(`/Groups/${group}`, patch({ op: 'add', path: 'members', value: [{ value: a }] }))).status, 200);
    const clearedThenListed = await scim.patch(`/Groups/${group}`, patch({ op: 'remove', path: 'members' }, { op: 'remove', path: 'members', value: [{ value: a }] }));
    assert.equal(clearedThenListed.status, 200);
    assert.deepEqual(await membersOf(group), []);
    // What is really wrong still refuses the whole PATCH: an unknown attribute, a member that is no user.
    const before = await countEvents(app.api);
    assert.equal((await scim.patch(`/Groups/${group}`, patch({ op: 'add', path: 'members', value: [{ value: a }] }, { op: 'replace', path: 'owners', value: 'x' }))).body.scimType, 'invalidPath');
    const unknown = await scim.patch(`/Groups/${group}`, patch({ op: 'add', path: 'members', value: [{ value: a }, { value: ghost(1) }] }));
    assert.deepEqual([unknown.status, unknown.body.scimType], [400, 'invalidValue']);
    assert.equal(await countEvents(app.api), before, 'nothing applied');
  });

  it('adds the active users of an add list and skips the offboarded ones, saying which (37.2)', async () => {
    const [b, c] = [await person(), await person()];
    await deactivate(c);
    const group = await groupOf([]);
    const added = await scim.patch(`/Groups/${group}`, patch({ op: 'Add', path: 'members', value: [{ value: b }, { value: c }] }));
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual(added.body.members.map((m: { value: string }) => m.value), [b]);
    assert.equal(added.headers.get('x-gatehouse-skipped-members'), c);
    // The same in a PUT and a POST of the group.
    const put = await scim.put(`/Groups/${group}`, { schemas: [GROUP], displayName: unique('g'), members: [{ value: c }, { value: b }] });
    assert.equal(put.status, 200);
    assert.equal(put.headers.get('x-gatehouse-skipped-members'), c);
    const posted = await scim.post('/Groups', { schemas: [GROUP], displayName: unique('g'), members: [{ value: c }] });
    assert.equal(posted.status, 201);
    assert.deepEqual(posted.body.members, []);
  });

  it('refuses a PATCH naming more members than it may change at once before reading any, while /healthz answers (36.5)', async () => {
    const group = await groupOf([await person()]);
    // A probe on the per-member lookup: a refusal by counting never reaches it.
    const store = app.ctx.stores.scim;
    const lookup = store.user;
    let lookups = 0;
    store.user = (id: string) => {
      lookups += 1;
      return lookup(id);
    };
    try {
      const huge = Array.from({ length: 15_000 }, (_, i) => ({ value: ghost(i) }));
      const [refused, health] = await Promise.all([
        scim.patch(`/Groups/${group}`, patch({ op: 'add', path: 'members', value: huge })),
        fetch(`${origin}/healthz`),
      ]);
      assert.equal(health.status, 200);
      assert.deepEqual([refused.status, refused.body.scimType], [400, 'tooMany']);
      assert.match(refused.body.detail, new RegExp(`at most ${MAX_PATCH_MEMBER_VALUES} members`));
      const manyOps = Array.from({ length: MAX_PATCH_OPERATIONS + 1 }, (_, i) => ({ op: 'remove', path: `members[value eq "${ghost(i)}"]` }));
      const tooManyOps = await scim.patch(`/Groups/${group}`, patch(...manyOps));
      assert.deepEqual([tooManyOps.status, tooManyOps.body.scimType], [400, 'tooMany']);
      assert.equal(lookups, 0, 'no member was looked up');
      // At the bound, filtered removals of members not there are nothing, each a set lookup.
      const removals = Array.from({ length: MAX_PATCH_OPERATIONS }, (_, i) => ({ op: 'remove', path: `members[value eq "${ghost(i)}"]` }));
      const fine = await scim.patch(`/Groups/${group}`, patch(...removals));
      assert.equal(fine.status, 200);
      assert.equal(fine.body.members.length, 1);
    } finally {
      store.user = lookup;
    }
  });

  it(`refuses a filter of more than ${MAX_FILTER_TERMS} comparisons, and runs lists on a read worker`, async () => {
    const terms = Array.from({ length: MAX_FILTER_TERMS + 1 }, (_, i) => `userName co "x${i}"`).join(' or ');
    const refused = await scim.get('/Users', { filter: terms });
    assert.deepEqual([refused.status, refused.body.scimType], [400, 'invalidFilter']);
    assert.match(refused.body.detail, new RegExp(`more than ${MAX_FILTER_TERMS} comparisons`));
    const atBound = Array.from({ length: MAX_FILTER_TERMS }, (_, i) => `userName co "x${i}"`).join(' or ');
    assert.equal((await scim.get('/Users', { filter: atBound })).status, 200);
  });

  it('takes any unique userName, the email from emails (primary, else work), kept as sent (37.4)', async () => {
    const tag = unique('u');
    const work = `${tag}@contoso.example`;
    const entra = await scim.post('/Users', {
      schemas: [USER], userName: `UserName${tag}`, externalId: tag, active: true, displayName: 'Upn Person',
      emails: [{ type: 'home', value: `${tag}@home.example` }, { type: 'work', value: work }],
    });
    assert.equal(entra.status, 201, JSON.stringify(entra.body));
    assert.equal(entra.body.userName, `UserName${tag}`);
    assert.deepEqual(entra.body.emails, [{ type: 'home', value: `${tag}@home.example` }, { type: 'work', value: work }]);
    const id = entra.body.id as string;
    assert.equal((await app.api.get(`/users/${id}`)).body.email, work);
    // Unique ignoring case, as RFC 7643 says; found by userName in any case.
    const again = await scim.post('/Users', { schemas: [USER], userName: `username${tag}`.toUpperCase(), emails: [{ value: `${tag}-2@contoso.example`, primary: true }] });
    assert.deepEqual([again.status, again.body.scimType], [409, 'uniqueness']);
    const found = await scim.get('/Users', { filter: `userName eq "username${tag}"` });
    assert.deepEqual(found.body.Resources.map((r: { id: string }) => r.id), [id]);
    // The primary entry wins over work; an employee number as userName is fine.
    const numbered = await scim.post('/Users', { schemas: [USER], userName: `E-${tag}`, emails: [{ type: 'work', value: `${tag}-w@example.com` }, { value: `${tag}-p@example.com`, primary: true }] });
    assert.equal(numbered.status, 201);
    assert.equal((await app.api.get(`/users/${numbered.body.id}`)).body.email, `${tag}-p@example.com`);
    // No email at all: refused, naming emails; an email already someone else's: 409.
    const none = await scim.post('/Users', { schemas: [USER], userName: `NoMail${tag}` });
    assert.deepEqual([none.status, none.body.scimType], [400, 'invalidValue']);
    assert.match(none.body.detail, /^emails/);
    const taken = await scim.post('/Users', { schemas: [USER], userName: `Other${tag}`, emails: [{ value: work, primary: true }] });
    assert.deepEqual([taken.status, taken.body.scimType], [409, 'uniqueness']);
    // `emails[type eq "work"].value` replaces the work email, and so the person's.
    const moved = `${tag}-moved@contoso.example`;
    const patched = await scim.patch(`/Users/${id}`, patch({ op: 'replace', path: 'emails[type eq "work"].value', value: moved }));
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(patched.body.emails, [{ type: 'home', value: `${tag}@home.example` }, { type: 'work', value: moved }]);
    assert.equal((await app.api.get(`/users/${id}`)).body.email, moved);
    assert.equal(patched.body.userName, `UserName${tag}`, 'the userName stays');
    // Deleted, the person comes back by their email under a new userName: the same id, a MEMBER.
    assert.equal((await scim.delete(`/Users/${id}`)).status, 204);
    const back = await scim.post('/Users', { schemas: [USER], userName: `Renamed${tag}`, emails: [{ value: moved, type: 'work', primary: true }] });
    assert.equal(back.status, 201, JSON.stringify(back.body));
    assert.deepEqual([back.body.id, back.body.userName, back.body.active], [id, `Renamed${tag}`, true]);
    assert.equal((await scim.get('/Users', { filter: `userName eq "UserName${tag}"` })).body.totalResults, 0);
  });

  it('takes Entra ID\'s changes to phone numbers and addresses, which Gatehouse keeps nothing of, as no-ops beside the changes it keeps', async () => {
    const id = await person({ phoneNumbers: [{ type: 'work', value: '+1 555 0100' }], addresses: [{ type: 'work', locality: 'Paris', primary: true }] });
    const res = await scim.patch(`/Users/${id}`, patch(
      { op: 'Replace', path: 'phoneNumbers[type eq "work"].value', value: '+1 555 0199' },
      { op: 'Replace', path: 'addresses[type eq "work"].locality', value: 'Lyon' },
      { op: 'Remove', path: 'phoneNumbers[type eq "mobile"]' },
      { op: 'Add', path: 'urn:ietf:params:scim:schemas:core:2.0:User:phoneNumbers[type eq "fax"].value', value: '+1 555 0000' },
      { op: 'Replace', path: 'name.familyName', value: 'Kept' },
    ));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.name.familyName, 'Kept');
    assert.equal((await app.api.get(`/users/${id}`)).body.last_name, 'Kept');
    // A path that is no attribute at all is still refused.
    const wrong = await scim.patch(`/Users/${id}`, patch({ op: 'Replace', path: 'phoneNumberz[type eq "work"].value', value: 'x' }));
    assert.equal(wrong.status, 400);
  });

  it('applies the enterprise extension PATCHed at its URN, with and without a path (37.5)', async () => {
    const id = await person();
    const added = await scim.patch(`/Users/${id}`, patch({ op: 'add', path: ENTERPRISE, value: { department: 'Finance', employeeNumber: '42' } }));
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual([added.body[ENTERPRISE].department, added.body[ENTERPRISE].employeeNumber], ['Finance', '42']);
    const replaced = await scim.patch(`/Users/${id}`, patch({ op: 'Replace', value: { [ENTERPRISE]: { Department: 'Legal' }, title: 'Counsel' } }));
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.deepEqual([replaced.body[ENTERPRISE].department, replaced.body[ENTERPRISE].employeeNumber, replaced.body.title], ['Legal', '42', 'Counsel']);
    assert.equal((await scim.get('/Users', { filter: `${ENTERPRISE}:department eq "legal"` })).body.Resources.some((r: { id: string }) => r.id === id), true);
    const removed = await scim.patch(`/Users/${id}`, patch({ op: 'remove', path: ENTERPRISE }));
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal(removed.body[ENTERPRISE], undefined);
  });

  it('answers the lookups a provider sends before each write all at once, however many (no per-caller read limit)', async () => {
    const ids = await Promise.all(Array.from({ length: 4 }, () => person()));
    const users = await Promise.all(ids.map((id) => scim.get(`/Users/${id}`)));
    const lookups = await Promise.all(Array.from({ length: 24 }, (_, i) => scim.get('/Users', { filter: `userName eq "${users[i % 4]!.body.userName}"` })));
    assert.deepEqual(lookups.map((r) => r.status), Array(24).fill(200));
    assert.ok(lookups.every((r, i) => r.body.Resources[0].id === ids[i % 4]));
  });

  it('serves POST /Users/.search and /Groups/.search as the GET lists (RFC 7644 §3.4.3)', async () => {
    const email = `${unique('searched')}@example.com`;
    const id = (await scim.post('/Users', { schemas: [USER], userName: email })).body.id as string;
    const searched = await scim.post('/Users/.search', { schemas: [SEARCH], filter: `userName eq "${email}"`, attributes: ['userName'], startIndex: 1, count: 5 });
    assert.equal(searched.status, 200, JSON.stringify(searched.body));
    const listed = await scim.get('/Users', { filter: `userName eq "${email}"`, attributes: 'userName', count: 5 });
    assert.deepEqual(searched.body, listed.body);
    assert.equal(searched.body.Resources[0].id, id);
    assert.equal(searched.body.Resources[0].name, undefined, 'attributes were applied');
    const group = await groupOf([id]);
    const groups = await scim.post('/Groups/.search', { schemas: [SEARCH], filter: `id eq "${group}"`, excludedAttributes: ['members'] });
    assert.equal(groups.status, 200);
    assert.deepEqual([groups.body.totalResults, groups.body.Resources[0].members], [1, undefined]);
    const bad = await scim.post('/Users/.search', { schemas: [SEARCH], filter: 'userName eq' });
    assert.deepEqual([bad.status, bad.body.scimType], [400, 'invalidFilter']);
  });

  it('serves POST /.search from the root (RFC 7644 §3.4.3): users then groups as one list, paged across both', async () => {
    const tag = unique('root');
    const ids = [];
    for (const n of [1, 2]) ids.push((await scim.post('/Users', { schemas: [USER], userName: `${tag}-${n}@example.com`, displayName: `${tag} person ${n}` })).body.id as string);
    const group = (await scim.post('/Groups', { schemas: [GROUP], displayName: `${tag} team`, members: [] })).body.id as string;
    // displayName is both a user's and a group's attribute: the search reaches both types.
    const both = await scim.post('/.search', { schemas: [SEARCH], filter: `displayName sw "${tag}"` });
    assert.equal(both.status, 200, JSON.stringify(both.body));
    assert.deepEqual([both.body.totalResults, both.body.Resources.map((r: { id: string }) => r.id)], [3, [...ids, group]]);
    assert.deepEqual(both.body.Resources.map((r: { schemas: string[] }) => r.schemas[0]), [USER, USER, GROUP]);
    // A page that starts in the users and ends in the groups.
    const second = await scim.post('/.search', { schemas: [SEARCH], filter: `displayName sw "${tag}"`, startIndex: 2, count: 2 });
    assert.deepEqual([second.body.totalResults, second.body.startIndex, second.body.itemsPerPage, second.body.Resources.map((r: { id: string }) => r.id)], [3, 2, 2, [ids[1], group]]);
    const last = await scim.post('/.search', { schemas: [SEARCH], filter: `displayName sw "${tag}"`, startIndex: 3, count: 5 });
    assert.deepEqual(last.body.Resources.map((r: { id: string }) => r.id), [group]);
    // userName only users have: only users are searched.
    const users = await scim.post('/.search', { schemas: [SEARCH], filter: `userName eq "${tag}-1@example.com"` });
    assert.deepEqual([users.body.totalResults, users.body.Resources[0].id], [1, ids[0]]);
    const bad = await scim.post('/.search', { schemas: [SEARCH], filter: 'displayName eq' });
    assert.deepEqual([bad.status, bad.body.scimType], [400, 'invalidFilter']);
  });
});
