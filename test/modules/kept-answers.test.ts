// Answers kept between reads (db/kept.ts: an item's JSON per version, a member's side of visibility):
// for every kind of write that can change one, a read before (which keeps it), the write, and a read
// after that must equal an answer built fresh, nothing kept — and differ from the one before, so a
// missing invalidation cannot pass unnoticed. Writes through /v1, SCIM, another connection, the clock,
// a request rolled back alone and a batch of writes lost under group commit.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import * as v from 'valibot';
import { commitPendingWrites } from '../../src/db/group-commit.ts';
import { replaceAccessLevels } from '../../src/modules/access/levels.ts';
import { stateFromRow } from '../../src/modules/resources/mappers.ts';
import { listResources } from '../../src/modules/resources/list.ts';
import { resourcePage } from '../../src/modules/resources/pages.ts';
import { ListResourcesQuery } from '../../src/modules/resources/schemas.ts';
import type { ApiClient } from '../helpers/client.ts';
import { groupMembersPage, holdersPage, holdingsOfUserPage, userGroupsPage } from '../../src/modules/access/reads.ts';
import type { Caller } from '../../src/http/types.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdmin, createApp, createGroup, createMember, createOwner, createResource, createTag, createUser, unique, type Signed } from '../helpers/fixtures.ts';
import { scimClientFor, type ScimClient } from '../helpers/scim-client.ts';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

describe('kept answers: no read after a write sees the old answer', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  /** GET /v1/{kind}s/{id} as the admin, checked against the store's fresh build; answers the body (undefined for 404). */
  async function readItem(kind: 'resource' | 'group', id: string): Promise<unknown> {
    const res = await app.api.get(`/${kind}s/${id}`);
    const fresh = kind === 'resource' ? app.ctx.stores.resources.get(id) : app.ctx.stores.groups.get(id);
    assert.deepEqual(res.status === 200 ? res.body : undefined, fresh === undefined ? undefined : JSON.parse(JSON.stringify(fresh)), `${kind} ${id}: the answer is not the one built fresh`);
    return res.body;
  }

  /** Reads twice (the second from what the first kept), writes, reads again: the answer changed, and is the fresh one. */
  async function changes(kind: 'resource' | 'group', id: string, write: () => Promise<void>, what = ''): Promise<void> {
    await readItem(kind, id);
    const kept = await readItem(kind, id);
    await write();
    const now = await readItem(kind, id);
    assert.notDeepEqual(now, kept, `${kind} ${id}: the write changed nothing the answer shows, so this case proves nothing ${what}`);
  }

  /** Whether `who` reads the item (200) or not (404), checked against visibility's statement run fresh. */
  async function seen(who: Signed, kind: 'resource' | 'group' | 'bundle', id: string): Promise<boolean> {
    const res = await who.api.get(`/${kind}s/${id}`);
    const fresh = app.ctx.stores.visibility.seesFresh(kind, id, { userId: who.user_id, now: app.clock.now() });
    assert.equal(res.status, fresh ? 200 : 404, `${kind} ${id} as ${who.user.email}: ${res.status}, but visibility says ${fresh ? 'seen' : 'unseen'}`);
    return fresh;
  }

  /** Reads as `who` twice, writes, reads again: whether they see it flipped from `was` to its opposite. */
  async function flips(who: Signed, kind: 'resource' | 'group' | 'bundle', id: string, was: boolean, write: () => Promise<void>): Promise<void> {
    assert.equal(await seen(who, kind, id), was, 'before the write');
    assert.equal(await seen(who, kind, id), was, 'before the write, read again');
    await write();
    assert.equal(await seen(who, kind, id), !was, 'after the write');
  }

  /** The body of a write that succeeded (any 2xx: the API answers some with 201 or 204). */
  const ok = async (res: Promise<{ status: number; body: unknown }>) => {
    const answered = await res;
    assert.ok(answered.status >= 200 && answered.status < 300, `${answered.status}: ${JSON.stringify(answered.body)}`);
    return answered.body as any;
  };
  /** Runs `sql` with `params` from a second connection on the file, as another process would, and commits it. */
  const elsewhere = (sql: string, ...params: string[]) => async () => {
    const other = new Database(app.dbFile);
    try {
      other.pragma('busy_timeout = 60000');
      other.prepare(sql).run(...params);
    } finally {
      other.close();
    }
  };
  const limit = (kind: 'resources' | 'groups' | 'bundles', id: string, groupIds: string[]) =>
    ok(app.api.put(`/${kind}/${id}/visibility`, { visibility: 'LIMITED', visibility_group_ids: groupIds }));

  describe("an item's answer by id", () => {
    it('follows PUT /v1/resources: fields, request configurations, remote info, access levels', async () => {
      const { resource_id: id } = await createResource(app.api);
      for (const change of [
        { name: unique('renamed'), description: 'new words' },
        { require_manager_approval: true, max_duration: 120 },
        { request_configurations: [{ priority: 0, allow_requests: false, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false, reviewer_stages: [] }] },
        { access_levels: [{ access_level_name: 'Reader', access_level_remote_id: 'read' }] },
        { access_levels: [{ access_level_name: 'Writer', access_level_remote_id: 'write' }] },
      ]) {
        await changes('resource', id, async () => void (await ok(app.api.put('/resources', { resources: [{ resource_id: id, ...change }] }))), JSON.stringify(change));
      }
    });

    it("follows a connector's sync writing remote ids to a resource and a group", async () => {
      const { resource_id: resource } = await createResource(app.api);
      const { group_id: group } = await createGroup(app.api);
      const { connectors } = app.ctx.stores;
      // As the connectors area's sync does, in its own transaction (no HTTP route writes these columns).
      const sync = (type: 'resource' | 'group', id: string) => async () =>
        app.ctx.db.transaction(() => connectors.setRemote(type, id, unique('remote'), unique('Remote name'), app.clock.now())).immediate();
      await changes('resource', resource, sync('resource', resource));
      await changes('group', group, sync('group', group));
      // The sync adds the access levels a remote item offers, without writing the item's own row.
      const offer = (type: 'resource' | 'group', id: string) => async () =>
        app.ctx.db.transaction(() => replaceAccessLevels(app.ctx, type, id, [{ access_level_remote_id: unique('level'), access_level_name: 'Synced' }], 'access_levels')).immediate();
      await changes('resource', resource, offer('resource', resource));
      await changes('group', group, offer('group', group));
    });

    it("follows the tree: a new child, a moved one and a deleted one change their ancestors' and descendants' answers", async () => {
      const root = (await createResource(app.api)).resource_id;
      const other = (await createResource(app.api)).resource_id;
      let child = '';
      await changes('resource', root, async () => {
        child = (await createResource(app.api, { parent_resource_id: root })).resource_id;
      });
      let grandchild = '';
      await changes('resource', child, async () => {
        grandchild = (await createResource(app.api, { parent_resource_id: child })).resource_id;
      });
      // Moving the middle one changes the grandchild's ancestors, though its own row stays as it was.
      await changes('resource', grandchild, async () => void (await ok(app.api.put('/resources', { resources: [{ resource_id: child, parent_resource_id: other }] }))));
      await changes('resource', root, async () => void (await ok(app.api.put('/resources', { resources: [{ resource_id: child, parent_resource_id: root }] }))));
      await changes('resource', child, async () => void (await ok(app.api.delete(`/resources/${grandchild}`))));
      await changes('resource', root, async () => void (await ok(app.api.delete(`/resources/${child}`))));
    });

    it("follows a configuration template's change to the items linked to it", async () => {
      const owner = (await createOwner(app.api)).owner_id;
      const template = await ok(app.api.post('/configuration-templates', {
        name: unique('template'), admin_owner_id: owner, visibility: { visibility: 'GLOBAL' }, require_mfa_to_approve: false, require_mfa_to_connect: false,
      }));
      const { resource_id: id } = await createResource(app.api, { admin_owner_id: owner });
      await changes('resource', id, async () => void (await ok(app.api.put('/resources', { resources: [{ resource_id: id, configuration_template_id: template.configuration_template_id }] }))));
      await changes('resource', id, async () => void (await ok(app.api.put('/configuration-templates', { configuration_template_id: template.configuration_template_id, require_mfa_to_connect: true }))));
    });

    it('follows PUT /v1/groups (fields, leaders, access levels), a group binding, and SCIM renaming a group', async () => {
      const { group_id: id } = await createGroup(app.api);
      const leader = await createUser(app.api);
      for (const change of [
        { name: unique('renamed'), description: 'new words' },
        { group_leader_user_ids: [leader.user_id] },
        { access_levels: [{ access_level_name: 'Lead', access_level_remote_id: 'lead' }] },
      ]) {
        await changes('group', id, async () => void (await ok(app.api.put('/groups', { groups: [{ group_id: id, ...change }] }))));
      }
      const { group_id: other } = await createGroup(app.api);
      await changes('group', id, async () => void (await ok(app.api.post('/group-bindings', { source_group_id: id, groups: [{ group_id: id }, { group_id: other }] }))));
      const scim = await scimClientFor(app);
      const pushed = (await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('Pushed'), members: [] })).body.id as string;
      await changes('group', pushed, async () => {
        const res = await scim.patch(`/Groups/${pushed}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'replace', value: { displayName: unique('Renamed') } }] });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      });
    });

    it('shows a write committed by another connection (a second process on the file)', async () => {
      const { resource_id: id } = await createResource(app.api);
      await changes('resource', id, elsewhere('UPDATE resources SET description = ? WHERE id = ?', unique('from elsewhere'), id));
    });

    it('never shows a write its own request rolled back (a bulk update refused whole)', async () => {
      const { resource_id: id } = await createResource(app.api);
      const kept = (await readItem('resource', id), await readItem('resource', id));
      const refused = await app.api.put('/resources', { resources: [{ resource_id: id, name: unique('never') }, { resource_id: id, admin_owner_id: '00000000-0000-4000-8000-000000000000' }] });
      assert.ok(refused.status >= 400 && refused.status < 500, JSON.stringify(refused.body));
      assert.deepEqual(await readItem('resource', id), kept);
    });

    it('never keeps what a transaction read of its own writes before it rolled back', async () => {
      const { resource_id: id } = await createResource(app.api);
      const { resources } = app.ctx.stores;
      const kept = (await readItem('resource', id), await readItem('resource', id));
      assert.throws(() => app.ctx.db.transaction(() => {
        resources.update(id, { ...stateFromRow(resources.getRow(id)!), name: unique('undone') }, app.clock.now());
        assert.match(JSON.parse(new TextDecoder().decode(resources.answer(id)!.text as Uint8Array)).name, /^undone-/);
        throw new Error('the rest of the change failed');
      }).immediate(), /the rest of the change failed/);
      assert.deepEqual(await readItem('resource', id), kept);
    });

    it('never shows a write of a batch that was lost, though it was read while the batch was open', async () => {
      const { resource_id: id } = await createResource(app.api);
      const { resources } = app.ctx.stores;
      const kept = (await readItem('resource', id), await readItem('resource', id));
      // As a request's transaction does: it joins (opens) the batch, and commits with it at the end of the turn.
      app.ctx.db.transaction(() => {
        const row = resources.getRow(id)!;
        resources.update(id, { ...stateFromRow(row), name: unique('lost') }, app.clock.now());
      }).immediate();
      // A read between transactions sees the open batch (and keeps what it read)…
      assert.match(JSON.parse(new TextDecoder().decode(resources.answer(id)!.text as Uint8Array)).name, /^lost-/);
      // …then SQLite rolls the batch back (SQLITE_FULL, an I/O error) before it commits.
      app.ctx.db.prepare('ROLLBACK').run();
      assert.throws(() => commitPendingWrites(app.ctx.db), /rolled back/);
      assert.deepEqual(await readItem('resource', id), kept);
    });
  });

  describe("a member's visible set", () => {
    let member: Signed;
    let resource: string;
    let visibilityGroup: string;
    before(async () => {
      member = await createMember(app.api);
      resource = (await createResource(app.api)).resource_id;
      visibilityGroup = (await createGroup(app.api)).group_id;
      await limit('resources', resource, [visibilityGroup]);
    });

    it('follows visibility settings: LIMITED, then GLOBAL again', async () => {
      const { resource_id: id } = await createResource(app.api);
      await flips(member, 'resource', id, true, async () => void (await limit('resources', id, [visibilityGroup])));
      await flips(member, 'resource', id, false, async () => void (await ok(app.api.put(`/resources/${id}/visibility`, { visibility: 'GLOBAL' }))));
      const { group_id: group } = await createGroup(app.api);
      await flips(member, 'group', group, true, async () => void (await limit('groups', group, [visibilityGroup])));
    });

    it('follows membership of a visibility group: added, removed, and expired by the clock alone', async () => {
      const path = `/groups/${visibilityGroup}/users/${member.user_id}`;
      await flips(member, 'resource', resource, false, async () => void (await ok(app.api.post(path, { duration_minutes: 60 }))));
      await flips(member, 'resource', resource, true, async () => void (await ok(app.api.delete(path))));
      await flips(member, 'resource', resource, false, async () => void (await ok(app.api.post(path, { duration_minutes: 30 }))));
      // Lengthened by PUT, then the clock passes the first end: still seen.
      await ok(app.api.put(path, { duration_minutes: 60 }));
      app.clock.advance(31 * 60_000);
      assert.equal(await seen(member, 'resource', resource), true);
      // No write at all: the membership ends at its expiry, and so does what it showed.
      await flips(member, 'resource', resource, true, async () => app.clock.advance(30 * 60_000));
    });

    it('follows nesting: the member\'s group placed in, then taken out of, the visibility group', async () => {
      const { group_id: inner } = await createGroup(app.api);
      await ok(app.api.post(`/groups/${inner}/users/${member.user_id}`, { duration_minutes: 0 }));
      await flips(member, 'resource', resource, false, async () => void (await ok(app.api.post(`/groups/${inner}/containing-groups`, { containing_group_id: visibilityGroup }))));
      await flips(member, 'resource', resource, true, async () => void (await ok(app.api.delete(`/groups/${inner}/containing-groups/${visibilityGroup}`))));
      // A LIMITED group is seen by its own members, nesting included.
      const { group_id: outer } = await createGroup(app.api);
      await limit('groups', outer, [visibilityGroup]);
      await flips(member, 'group', outer, false, async () => void (await ok(app.api.post(`/groups/${inner}/containing-groups`, { containing_group_id: outer }))));
    });

    it("follows the item's owner: its users, its source group, and a new owner", async () => {
      const owner = (await createOwner(app.api)).owner_id;
      const { resource_id: id } = await createResource(app.api, { app_id: (await createApp(app.api, { admin_owner_id: owner })).app_id, admin_owner_id: owner });
      await limit('resources', id, [visibilityGroup]);
      await flips(member, 'resource', id, false, async () => void (await ok(app.api.put(`/owners/${owner}/users`, { user_ids: [member.user_id] }))));
      await flips(member, 'resource', id, true, async () => void (await ok(app.api.put(`/owners/${owner}/users`, { user_ids: [] }))));
      const { group_id: team } = await createGroup(app.api);
      await ok(app.api.post(`/groups/${team}/users/${member.user_id}`, { duration_minutes: 0 }));
      await flips(member, 'resource', id, false, async () => void (await ok(app.api.put('/owners', { owners: [{ owner_id: owner, source_group_id: team }] }))));
      await flips(member, 'resource', id, true, async () => void (await ok(app.api.put('/resources', { resources: [{ resource_id: id, admin_owner_id: (await createOwner(app.api)).owner_id }] }))));
    });

    it('follows what the member holds: a direct grant, a revocation, a group granted the resource, an approved request', async () => {
      const grant = `/resources/${resource}/users/${member.user_id}`;
      await flips(member, 'resource', resource, false, async () => void (await ok(app.api.post(grant, { duration_minutes: 0 }))));
      await flips(member, 'resource', resource, true, async () => void (await ok(app.api.delete(grant))));
      const { group_id: team } = await createGroup(app.api);
      await ok(app.api.post(`/groups/${team}/users/${member.user_id}`, { duration_minutes: 0 }));
      await flips(member, 'resource', resource, false, async () => void (await ok(app.api.post(`/groups/${team}/resources/${resource}`, {}))));
      await flips(member, 'resource', resource, true, async () => void (await ok(app.api.put(`/groups/${team}/resources`, { resources: [] }))));
      // A request for it (made by another admin for the member), approved: the grant shows it.
      const requester = await createAdmin(app.api);
      const requested = await ok(requester.api.post('/requests', { target_user_id: member.user_id, resources: [{ id: resource }], groups: [], reason: 'kept answers', duration_minutes: 60 }));
      await flips(member, 'resource', resource, false, async () => void (await ok(app.api.post(`/requests/${requested.id}/approve`, { level: 'ADMIN' }))));
    });

    it('never keeps what a transaction saw of its own grant before it rolled back', async () => {
      const { access, visibility } = app.ctx.stores;
      const { resource_id: resource } = await createResource(app.api);
      await limit('resources', resource, [visibilityGroup]);
      assert.equal(await seen(member, 'resource', resource), false);
      assert.throws(() => app.ctx.db.transaction(() => {
        access.grant('resource_user', { principalId: member.user_id, itemId: resource, level: '', levelName: '', expiresAt: null, source: 'DIRECT', sourceId: null }, app.clock.now());
        assert.equal(visibility.sees('resource', resource, { userId: member.user_id, now: app.clock.now() }), true);
        throw new Error('the rest of the change failed');
      }).immediate(), /the rest of the change failed/);
      assert.equal(await seen(member, 'resource', resource), false);
    });

    it('follows SCIM: a pushed group\'s members, and a user deprovisioned', async () => {
      const scim: ScimClient = await scimClientFor(app);
      const someone = await createMember(app.api);
      const pushed = (await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('Team'), members: [] })).body.id as string;
      const { resource_id: id } = await createResource(app.api);
      await limit('resources', id, [pushed]);
      await flips(someone, 'resource', id, false, async () => {
        const res = await scim.patch(`/Groups/${pushed}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'add', path: 'members', value: [{ value: someone.user_id }] }] });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      });
      assert.equal((await scim.delete(`/Users/${someone.user_id}`)).status, 204);
      assert.equal((await someone.api.get(`/resources/${id}`)).status, 401);
    });

    it('follows role and token changes: a member made admin sees all, made member again does not; a revoked token reads nothing', async () => {
      const other = await createMember(app.api);
      const flipRole = async (role: 'ADMIN' | 'MEMBER') => void (await ok(app.api.put(`/users/${other.user_id}`, { organization_role: role })));
      assert.equal((await other.api.get(`/resources/${resource}`)).status, 404);
      await flipRole('ADMIN');
      assert.equal((await other.api.get(`/resources/${resource}`)).status, 200);
      await flipRole('MEMBER');
      assert.equal(await seen(other, 'resource', resource), false);
      await ok(app.api.delete(`/tokens/${other.tokenId}`));
      assert.equal((await other.api.get(`/resources/${resource}`)).status, 401);
    });

    it('follows a bundle\'s visibility', async () => {
      const bundle = (await ok(app.api.post('/bundles', { name: unique('bundle'), admin_owner_id: (await createOwner(app.api)).owner_id }))).bundle_id as string;
      await flips(member, 'bundle', bundle, true, async () => void (await limit('bundles', bundle, [visibilityGroup])));
    });
  });
  describe('a page of GET /v1/resources', () => {
    /** Who reads: the admin (whose pages every admin shares) or a member (whose pages are their own). */
    interface Reader { api: ApiClient; user_id: string; admin: boolean }
    let admin: Reader;
    let member: Reader;
    let memberSigned: Signed;
    let visibilityGroup: string;
    before(async () => {
      admin = { api: app.api, user_id: app.adminUserId, admin: true };
      memberSigned = await createMember(app.api);
      member = { api: memberSigned.api, user_id: memberSigned.user_id, admin: false };
      visibilityGroup = (await createGroup(app.api)).group_id;
    });
    // 200 rows: built on a read worker, kept as it arrives; 50: built here and kept at once.
    const SIZES = ['200', '50'];

    /** The page `who` reads of `query`, checked against listResources built fresh (nothing kept); answers the body. */
    async function readPage(who: Reader, query: Record<string, string>): Promise<unknown> {
      const res = await who.api.get(`/resources?${new URLSearchParams(query)}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const viewer = who.admin ? null : { userId: who.user_id, now: app.clock.now() };
      const fresh = JSON.parse(listResources(app.ctx, v.parse(ListResourcesQuery, query), viewer).text as string);
      assert.deepEqual(res.body, fresh, `${JSON.stringify(query)} as ${who.admin ? 'the admin' : 'a member'}: the page is not the one built fresh`);
      return res.body;
    }

    /** For the admin and the member, at both sizes: reads twice (the second from what was kept), writes, reads again: changed, and fresh. */
    async function pageChanges(query: Record<string, string>, write: (who: Reader, size: string) => Promise<void>, readers: Reader[] = [admin, member]): Promise<void> {
      for (const who of readers) {
        for (const size of SIZES) {
          const asked = { ...query, page_size: size };
          await readPage(who, asked);
          const kept = await readPage(who, asked);
          await write(who, size);
          const now = await readPage(who, asked);
          assert.notDeepEqual(now, kept, `${JSON.stringify(asked)}: the write changed nothing the page shows, so this case proves nothing`);
        }
      }
    }

    const rename = (id: string) => async () => void (await ok(app.api.put('/resources', { resources: [{ resource_id: id, name: unique('renamed') }] })));

    it('is kept: a page read again is the one kept', async () => {
      const { app_id: appId } = await createResource(app.api);
      const query = { app_id: appId, page_size: '50' };
      await readPage(member, query);
      assert.ok(app.ctx.stores.resources.keptPages.size.entries > 0, 'nothing was kept');
      await readPage(member, query);
    });

    it("follows PUT /v1/resources: a row's fields and access levels", async () => {
      const { resource_id: id, app_id: appId } = await createResource(app.api);
      await pageChanges({ app_id: appId }, rename(id));
      await pageChanges({ app_id: appId }, async () =>
        void (await ok(app.api.put('/resources', { resources: [{ resource_id: id, access_levels: [{ access_level_name: 'Level', access_level_remote_id: unique('level') }] }] }))));
    });

    it('follows the tree: a new child, a resource moved under one, a child deleted', async () => {
      const { resource_id: root, app_id: appId } = await createResource(app.api);
      const query = { app_id: appId };
      await pageChanges(query, async () => void (await createResource(app.api, { app_id: appId, parent_resource_id: root })));
      // Another app's resource moved under this app's root: only the root's descendants show it.
      await pageChanges(query, async () => {
        const { resource_id: other } = await createResource(app.api);
        await ok(app.api.put('/resources', { resources: [{ resource_id: other, parent_resource_id: root }] }));
      });
      const children: string[] = [];
      for (let i = 0; i < 4; i++) children.push((await createResource(app.api, { app_id: appId, parent_resource_id: root })).resource_id);
      await pageChanges(query, async () => void (await ok(app.api.delete(`/resources/${children.pop()}`))));
    });

    it("follows a connector's sync (remote ids, access levels) and another connection's commit", async () => {
      const { resource_id: id, app_id: appId } = await createResource(app.api);
      const { connectors } = app.ctx.stores;
      await pageChanges({ app_id: appId }, async () =>
        app.ctx.db.transaction(() => connectors.setRemote('resource', id, unique('remote'), unique('Remote name'), app.clock.now())).immediate());
      await pageChanges({ app_id: appId }, async () =>
        app.ctx.db.transaction(() => replaceAccessLevels(app.ctx, 'resource', id, [{ access_level_remote_id: unique('level'), access_level_name: 'Synced' }], 'access_levels')).immediate());
      await pageChanges({ app_id: appId }, async () => elsewhere('UPDATE resources SET description = ? WHERE id = ?', unique('from elsewhere'), id)());
    });

    it("follows what a member sees: the item's visibility, a membership added, removed, nested, granted, pushed by SCIM", async () => {
      const { resource_id: id, app_id: appId } = await createResource(app.api);
      const query = { app_id: appId };
      await pageChanges(query, async (_, size) => void (await (size === SIZES[0] ? limit('resources', id, [visibilityGroup]) : ok(app.api.put(`/resources/${id}/visibility`, { visibility: 'GLOBAL' })))), [member]);
      // LIMITED from here on: the member's page shows it only while they see it; the admin's always.
      await limit('resources', id, [visibilityGroup]);
      const membership = `/groups/${visibilityGroup}/users/${member.user_id}`;
      await pageChanges(query, async (_, size) => void (await (size === SIZES[0] ? ok(app.api.post(membership, { duration_minutes: 0 })) : ok(app.api.delete(membership)))), [member]);
      const { group_id: inner } = await createGroup(app.api);
      await ok(app.api.post(`/groups/${inner}/users/${member.user_id}`, { duration_minutes: 0 }));
      await pageChanges(query, async (_, size) => void (await (size === SIZES[0]
        ? ok(app.api.post(`/groups/${inner}/containing-groups`, { containing_group_id: visibilityGroup }))
        : ok(app.api.delete(`/groups/${inner}/containing-groups/${visibilityGroup}`)))), [member]);
      const grant = `/resources/${id}/users/${member.user_id}`;
      await pageChanges(query, async (_, size) => void (await (size === SIZES[0] ? ok(app.api.post(grant, { duration_minutes: 0 })) : ok(app.api.delete(grant)))), [member]);
      const scim = await scimClientFor(app);
      const pushed = (await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('Team'), members: [] })).body.id as string;
      await limit('resources', id, [pushed]);
      await pageChanges(query, async (_, size) => {
        const op = size === SIZES[0] ? { op: 'add', path: 'members', value: [{ value: member.user_id }] } : { op: 'remove', path: `members[value eq "${member.user_id}"]` };
        const res = await scim.patch(`/Groups/${pushed}`, { schemas: [PATCH_SCHEMA], Operations: [op] });
        assert.ok(res.status === 200 || res.status === 204, JSON.stringify(res.body));
      }, [member]);
    });

    it("follows a tag given to a resource (the tag filter), and what a member sees through owners and groups' grants", async () => {
      const { tag_id: tag } = await createTag(app.api);
      const { resource_id: id, app_id: appId } = await createResource(app.api);
      // Each write tags another resource of the app (made beforehand): a page filtered by the tag gains a row.
      const untagged: string[] = [];
      for (let i = 0; i < 4; i++) untagged.push((await createResource(app.api, { app_id: appId })).resource_id);
      await pageChanges({ tag_ids: tag }, async () => void (await ok(app.api.post(`/tags/${tag}/resources/${untagged.pop()}`))));
      const owner = (await createOwner(app.api)).owner_id;
      await ok(app.api.put('/resources', { resources: [{ resource_id: id, admin_owner_id: owner }] }));
      await limit('resources', id, [visibilityGroup]);
      const query = { app_id: appId };
      await pageChanges(query, async (_, size) => void (await ok(app.api.put(`/owners/${owner}/users`, { user_ids: size === SIZES[0] ? [member.user_id] : [] }))), [member]);
      const { group_id: team } = await createGroup(app.api);
      await ok(app.api.post(`/groups/${team}/users/${member.user_id}`, { duration_minutes: 0 }));
      await pageChanges(query, async (_, size) => void (await ok(app.api.put('/owners', { owners: [{ owner_id: owner, source_group_id: size === SIZES[0] ? team : '' }] }))), [member]);
      await pageChanges(query, async (_, size) => void (await (size === SIZES[0] ? ok(app.api.post(`/groups/${team}/resources/${id}`, {})) : ok(app.api.put(`/groups/${team}/resources`, { resources: [] })))), [member]);
    });

    it("follows a member's membership lengthened, then expired by the clock alone", async () => {
      const { resource_id: id, app_id: appId } = await createResource(app.api);
      const { group_id: group } = await createGroup(app.api);
      await limit('resources', id, [group]);
      const membership = `/groups/${group}/users/${member.user_id}`;
      for (const size of SIZES) {
        const query = { app_id: appId, page_size: size };
        await ok(app.api.post(membership, { duration_minutes: 30 }));
        const shown = (await readPage(member, query), await readPage(member, query));
        await ok(app.api.put(membership, { duration_minutes: 60 }));
        assert.deepEqual(await readPage(member, query), shown);
        // Past the first end, still shown (the lengthened membership holds), and kept again.
        app.clock.advance(31 * 60_000);
        assert.deepEqual((await readPage(member, query), await readPage(member, query)), shown);
        // No write at all: the membership ends, and the page no longer shows the resource.
        app.clock.advance(30 * 60_000);
        assert.notDeepEqual(await readPage(member, query), shown, 'the expired membership still shows');
      }
    });

    it('never keeps what a transaction read of its own writes before it rolled back, nor a refused bulk update', async () => {
      const { resource_id: id, app_id: appId } = await createResource(app.api);
      const { resources } = app.ctx.stores;
      for (const who of [admin, member]) {
        const query = { app_id: appId, page_size: '50' };
        const kept = (await readPage(who, query), await readPage(who, query));
        const refused = await app.api.put('/resources', { resources: [{ resource_id: id, name: unique('never') }, { resource_id: id, admin_owner_id: '00000000-0000-4000-8000-000000000000' }] });
        assert.ok(refused.status >= 400 && refused.status < 500, JSON.stringify(refused.body));
        assert.deepEqual(await readPage(who, query), kept);
        const viewer = who.admin ? null : { userId: who.user_id, now: app.clock.now() };
        assert.throws(() => app.ctx.db.transaction(() => {
          resources.update(id, { ...stateFromRow(resources.getRow(id)!), name: unique('undone') }, app.clock.now());
          // Built and offered for keeping inside the transaction (a small page is built at once, here).
          void resourcePage(app.ctx, v.parse(ListResourcesQuery, query), viewer, who.user_id);
          throw new Error('the rest of the change failed');
        }).immediate(), /the rest of the change failed/);
        assert.deepEqual(await readPage(who, query), kept);
      }
    });

    it('never shows a write of a batch that was lost, though a page was read while the batch was open', async () => {
      const { resource_id: id, app_id: appId } = await createResource(app.api);
      const { resources } = app.ctx.stores;
      for (const who of [admin, member]) {
        const query = { app_id: appId, page_size: '50' };
        const kept = (await readPage(who, query), await readPage(who, query));
        app.ctx.db.transaction(() => {
          resources.update(id, { ...stateFromRow(resources.getRow(id)!), name: unique('lost') }, app.clock.now());
        }).immediate();
        const viewer = who.admin ? null : { userId: who.user_id, now: app.clock.now() };
        const seen = await resourcePage(app.ctx, v.parse(ListResourcesQuery, query), viewer, who.user_id);
        assert.match(new TextDecoder().decode(seen.text as Uint8Array), /"name":"lost-/);
        app.ctx.db.prepare('ROLLBACK').run();
        assert.throws(() => commitPendingWrites(app.ctx.db), /rolled back/);
        assert.deepEqual(await readPage(who, query), kept);
      }
    });

    it("keeps a read worker's page only when nothing it could miss was written: no open batch when it was asked, no watched write since", async () => {
      const pages = app.ctx.stores.resources.keptPages;
      const { resource_id: id } = await createResource(app.api);
      const { resources } = app.ctx.stores;
      const at = app.clock.now().toISOString();
      const page = (name: string) => new TextEncoder().encode(name);
      // Asked while nothing is pending, answered with nothing written since: kept.
      assert.deepEqual(pages.keep('admin', 'quiet', page('quiet'), at, null, pages.mark()), page('quiet'));
      assert.deepEqual(pages.get('admin', 'quiet', at), page('quiet'));
      // Asked while a batch holds a write the worker cannot see (it reads committed data only): not kept.
      app.ctx.db.transaction(() => resources.update(id, { ...stateFromRow(resources.getRow(id)!), name: unique('pending') }, app.clock.now())).immediate();
      const asked = pages.mark();
      commitPendingWrites(app.ctx.db);
      assert.equal(pages.keep('admin', 'pending', page('pending'), at, null, asked), undefined);
      // Asked with nothing pending, then a watched write before the answer arrives: not kept.
      const before = pages.mark();
      await ok(app.api.put('/resources', { resources: [{ resource_id: id, name: unique('meanwhile') }] }));
      assert.equal(pages.keep('admin', 'meanwhile', page('meanwhile'), at, null, before), undefined);
      assert.equal(pages.get('admin', 'pending', at), undefined);
      assert.equal(pages.get('admin', 'meanwhile', at), undefined);
    });

    it("never keeps a read worker's page that could not see a write still in the open batch", async () => {
      const { resource_id: id, app_id: appId } = await createResource(app.api);
      const { resources } = app.ctx.stores;
      for (const who of [admin, member]) {
        const query = { app_id: appId, page_size: '200' };
        const before = await readPage(who, query);
        app.ctx.db.transaction(() => {
          resources.update(id, { ...stateFromRow(resources.getRow(id)!), name: unique('pending') }, app.clock.now());
        }).immediate();
        // The worker reads committed data only: the page it answers is the one before the open batch…
        const viewer = who.admin ? null : { userId: who.user_id, now: app.clock.now() };
        const answered = resourcePage(app.ctx, v.parse(ListResourcesQuery, query), viewer, who.user_id);
        // …which then commits while the worker reads, before its answer arrives.
        commitPendingWrites(app.ctx.db);
        await answered;
        assert.notDeepEqual(await readPage(who, query), before);
      }
    });
  });
  describe("a group's members and a user's groups", () => {
    interface Reader { api: ApiClient; user_id: string; admin: boolean }
    let admin: Reader;
    before(() => {
      admin = { api: app.api, user_id: app.adminUserId, admin: true };
    });
    const asReader = (signed: Signed): Reader => ({ api: signed.api, user_id: signed.user_id, admin: false });
    const callerOf = (who: Reader) => ({ userId: who.user_id, role: who.admin ? 'ADMIN' : 'MEMBER' }) as Caller;
    const QUERY = { page_size: 200 };

    /** GET `path` (a group's members or a user's groups) as `who`, checked against the page built fresh; answers the body. */
    async function readHolders(who: Reader, path: string): Promise<unknown> {
      const res = await who.api.get(path);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const [, first, second] = path.split('/').filter(Boolean);
      const fresh = first === 'users'
        ? holdingsOfUserPage(app.ctx, 'group', second!, QUERY, callerOf(who))
        : holdersPage(app.ctx, 'group', first!, QUERY);
      assert.deepEqual(res.body, JSON.parse(fresh.text as string), `${path} as ${who.admin ? 'the admin' : 'a member'}: the page is not the one built fresh`);
      return res.body;
    }

    /** For each reader: reads twice (the second from what was kept), writes, reads again: changed, and fresh. */
    async function holdersChange(path: string, readers: Reader[], write: (who: Reader, turn: number) => Promise<void>): Promise<void> {
      let turn = 0;
      for (const who of readers) {
        await readHolders(who, path);
        const kept = await readHolders(who, path);
        await write(who, turn++);
        const now = await readHolders(who, path);
        assert.notDeepEqual(now, kept, `${path}: the write changed nothing the page shows, so this case proves nothing`);
      }
    }

    const join = (group: string, user: string, minutes = 0) => ok(app.api.post(`/groups/${group}/users/${user}`, { duration_minutes: minutes }));

    it('are kept: a page read again is the one kept', async () => {
      const { group_id: group } = await createGroup(app.api);
      const someone = await createMember(app.api);
      await join(group, someone.user_id);
      await readHolders(admin, `/groups/${group}/users`);
      await readHolders(asReader(someone), `/groups/users/${someone.user_id}`);
      assert.ok(app.ctx.stores.holdings.keptGroupMembers.size.entries > 0, "no group's members were kept");
      assert.ok(app.ctx.stores.holdings.keptUserGroups.size.entries > 0, "no user's groups were kept");
    });

    it("follow memberships: added, lengthened, removed, nested, and expired by the clock alone", async () => {
      const { group_id: group } = await createGroup(app.api);
      const someone = await createMember(app.api);
      await join(group, someone.user_id, 60);
      const members = `/groups/${group}/users`;
      const groups = `/groups/users/${someone.user_id}`;
      const readers = [admin, asReader(await createMember(app.api))];
      const selfReaders = [admin, asReader(someone)];
      await holdersChange(members, readers, async () => void (await join(group, (await createUser(app.api)).user_id)));
      await holdersChange(groups, selfReaders, async () => void (await join((await createGroup(app.api)).group_id, someone.user_id)));
      await holdersChange(members, readers, async (_, turn) => void (await ok(app.api.put(`/groups/${group}/users/${someone.user_id}`, { duration_minutes: 90 + turn }))));
      await holdersChange(groups, selfReaders, async (_, turn) => void (await ok(app.api.put(`/groups/${group}/users/${someone.user_id}`, { duration_minutes: 120 + turn }))));
      const leaving: string[] = [];
      for (let i = 0; i < 2; i++) leaving.push((await createUser(app.api)).user_id);
      for (const user of leaving) await join(group, user);
      await holdersChange(members, readers, async () => void (await ok(app.api.delete(`/groups/${group}/users/${leaving.pop()}`))));
      const mine: string[] = [];
      for (let i = 0; i < 2; i++) mine.push((await createGroup(app.api)).group_id);
      for (const other of mine) await join(other, someone.user_id);
      await holdersChange(groups, selfReaders, async () => void (await ok(app.api.delete(`/groups/${mine.pop()}/users/${someone.user_id}`))));
      // Nesting: a group with a member of its own placed in the group; the group placed in another.
      const inners: string[] = [];
      for (let i = 0; i < 2; i++) {
        const { group_id: inner } = await createGroup(app.api);
        await join(inner, (await createUser(app.api)).user_id);
        inners.push(inner);
      }
      await holdersChange(members, readers, async () => void (await ok(app.api.post(`/groups/${inners.pop()}/containing-groups`, { containing_group_id: group }))));
      await holdersChange(groups, selfReaders, async () => void (await ok(app.api.post(`/groups/${group}/containing-groups`, { containing_group_id: (await createGroup(app.api)).group_id }))));
      // No write at all: a membership ends at its expiry, and leaves both pages.
      for (const [path, who] of [[members, readers], [groups, selfReaders]] as const) {
        for (const reader of who) {
          const { group_id: brief } = await createGroup(app.api);
          const passing = path === members ? (await createUser(app.api)).user_id : someone.user_id;
          await join(path === members ? group : brief, passing, 10);
          const shown = (await readHolders(reader, path), await readHolders(reader, path));
          app.clock.advance(11 * 60_000);
          assert.notDeepEqual(await readHolders(reader, path), shown, `${path}: the ended membership still shows`);
        }
      }
    });

    it('follow names: a user renamed (through /v1, another connection, SCIM deprovisioning), a group renamed', async () => {
      const { group_id: group } = await createGroup(app.api);
      const someone = await createMember(app.api);
      await join(group, someone.user_id);
      const members = `/groups/${group}/users`;
      const groups = `/groups/users/${someone.user_id}`;
      const readers = [admin, asReader(await createMember(app.api))];
      const selfReaders = [admin, asReader(someone)];
      const renameUser = async () => void (await ok(app.api.put(`/users/${someone.user_id}`, { full_name: unique('Renamed') })));
      await holdersChange(members, readers, renameUser);
      await holdersChange(groups, selfReaders, renameUser);
      const renameGroup = async () => void (await ok(app.api.put('/groups', { groups: [{ group_id: group, name: unique('renamed'), description: unique('words') }] })));
      await holdersChange(members, readers, renameGroup);
      await holdersChange(groups, selfReaders, renameGroup);
      const renamedElsewhere = async () => elsewhere('UPDATE users SET full_name = ? WHERE id = ?', unique('From elsewhere'), someone.user_id)();
      await holdersChange(members, readers, renamedElsewhere);
      await holdersChange(groups, selfReaders, renamedElsewhere);
      // SCIM: a member pushed into the group, and one deprovisioned (every edge of theirs ends).
      const scim = await scimClientFor(app);
      const pushedGroup = (await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('Pushed'), members: [] })).body.id as string;
      await holdersChange(`/groups/${pushedGroup}/users`, readers, async () => {
        const pushed = await createUser(app.api);
        const res = await scim.patch(`/Groups/${pushedGroup}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'add', path: 'members', value: [{ value: pushed.user_id }] }] });
        assert.ok(res.status === 200 || res.status === 204, JSON.stringify(res.body));
      });
      const leaving: string[] = [];
      for (let i = 0; i < 2; i++) leaving.push((await createUser(app.api)).user_id);
      for (const user of leaving) await join(group, user);
      await holdersChange(members, readers, async () => {
        const res = await scim.patch(`/Users/${leaving.pop()}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'replace', value: { active: false } }] });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      });
    });

    it("follow a connector on the group's app and its sync's propagation statuses", async () => {
      const { group_id: group, app_id: appId } = await createGroup(app.api);
      const someone = await createMember(app.api);
      await join(group, someone.user_id);
      const members = `/groups/${group}/users`;
      const groups = `/groups/users/${someone.user_id}`;
      const { connectors } = app.ctx.stores;
      const write = (change: () => void) => async () => void app.ctx.db.transaction(change).immediate();
      // A connector on the app: the membership not yet confirmed by a sync is PENDING.
      await holdersChange(members, [admin], write(() => connectors.save({ app_id: appId, connector_type: 'OPAL_HTTP', configuration: {}, timeout_ms: 1000, drift_policy: 'REPORT' }, app.clock.now())));
      // A sync imports it (status null), then confirms it (SUCCESS).
      const edge = { edge_key: `connector:${appId}:group_user:${someone.user_id}:${group}:`, app_id: appId, kind: 'group_user' as const, principal_id: someone.user_id, item_id: group, access_level_remote_id: '', updated_at: app.clock.now().toISOString() };
      await holdersChange(groups, [admin], write(() => connectors.imported(edge)));
      // The connector removed: nothing to push, SUCCESS; back again, the edge's status shows again, then is confirmed.
      await holdersChange(members, [admin], write(() => void connectors.remove(appId)));
      await holdersChange(groups, [admin], write(() => connectors.save({ app_id: appId, connector_type: 'OPAL_HTTP', configuration: {}, timeout_ms: 1000, drift_policy: 'REPORT' }, app.clock.now())));
      await holdersChange(members, [admin], write(() => connectors.inSync(edge)));
    });

    it('never keep what a transaction read of its own writes before it rolled back, nor a lost batch', async () => {
      const { group_id: group } = await createGroup(app.api);
      const someone = await createMember(app.api);
      await join(group, someone.user_id);
      const members = `/groups/${group}/users`;
      const groups = `/groups/users/${someone.user_id}`;
      const keptMembers = (await readHolders(admin, members), await readHolders(admin, members));
      const keptGroups = (await readHolders(admin, groups), await readHolders(admin, groups));
      const { access } = app.ctx.stores;
      const newcomer = (await createUser(app.api)).user_id;
      const { group_id: other } = await createGroup(app.api);
      const grant = () => {
        access.grant('group_user', { principalId: newcomer, itemId: group, level: '', levelName: '', expiresAt: null, source: 'DIRECT', sourceId: null }, app.clock.now());
        access.grant('group_user', { principalId: someone.user_id, itemId: other, level: '', levelName: '', expiresAt: null, source: 'DIRECT', sourceId: null }, app.clock.now());
      };
      const decoded = (page: { text: string | Uint8Array }) => (typeof page.text === 'string' ? page.text : new TextDecoder().decode(page.text));
      const read = () => [decoded(groupMembersPage(app.ctx, group, QUERY)), decoded(userGroupsPage(app.ctx, someone.user_id, QUERY, callerOf(admin)))];
      assert.throws(() => app.ctx.db.transaction(() => {
        grant();
        const [m, g] = [decoded(groupMembersPage(app.ctx, group, QUERY)), decoded(userGroupsPage(app.ctx, someone.user_id, QUERY, callerOf(admin)))];
        assert.ok(m.includes(newcomer) && g.includes(other));
        throw new Error('the rest of the change failed');
      }).immediate(), /the rest of the change failed/);
      assert.deepEqual(await readHolders(admin, members), keptMembers);
      assert.deepEqual(await readHolders(admin, groups), keptGroups);
      // A batch open with the grants, read (and kept) between transactions, then lost.
      app.ctx.db.transaction(grant).immediate();
      const [m, g] = read();
      assert.ok(m!.includes(newcomer) && g!.includes(other));
      app.ctx.db.prepare('ROLLBACK').run();
      assert.throws(() => commitPendingWrites(app.ctx.db), /rolled back/);
      assert.deepEqual(await readHolders(admin, members), keptMembers);
      assert.deepEqual(await readHolders(admin, groups), keptGroups);
    });
  });
});
