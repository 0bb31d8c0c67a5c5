// What identity providers send, taken as they send it (issue 37): removals of members already gone are
// nothing, offboarded users in an add list are skipped, `.search` is served; and what one request may make
// the service do is bounded and refused before any walk (issue 36.5).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_PATCH_MEMBER_VALUES, MAX_PATCH_OPERATIONS } from '../../src/modules/scim/group-patch.ts';
import { MAX_FILTER_TERMS } from '../../src/modules/scim/filter.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { cli } from '../helpers/cli.ts';
import { countEvents } from '../helpers/events.ts';
import { unique } from '../helpers/fixtures.ts';
import { ScimClient } from '../helpers/scim-client.ts';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
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
    const made = await cli(['token', 'create', '--db', app.dbFile, '--email', 'admin@gatehouse.local', '--label', 'idp', '--scim']);
    assert.equal(made.code, 0, made.stderr);
    scim = new ScimClient(origin, made.stdout.trim());
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
});
