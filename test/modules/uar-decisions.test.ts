// Access reviews that act: decisions through HTTP end access through the access graph, all or nothing
// (a revoke when the review closes, so a later keep undoes it; at once when the review acts instantly),
// and the deadline applies the review's explicit policy to unanswered rows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closeDueReviews } from '../../src/modules/uar-decisions/service.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { errorPaths } from '../helpers/errors.ts';
import { readEvents } from '../helpers/events.ts';
import { createAdmin, createGroup, createMember, createOwner, createResource, createUser, NO_SUCH_ID, unique, type Signed } from '../helpers/fixtures.ts';
import { config, stage } from '../helpers/requests.ts';

const REVIEW = {
  name: 'Quarterly review', reviewer_assignment_policy: 'MANUALLY', send_reviewer_assignment_notification: false,
  deadline: '2026-03-08T00:00:00Z', time_zone: 'UTC', self_review_allowed: false,
};

describe('access review decisions', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  /** A resource held by two members directly and by a third through a group; a review of it. */
  async function setUp(extra: Record<string, unknown> = {}) {
    const resource = await createResource(app.api);
    const group = await createGroup(app.api);
    const [alice, bob, carol] = await Promise.all([createMember(app.api), createMember(app.api), createMember(app.api)]);
    for (const who of [alice, bob]) assert.equal((await app.api.post(`/resources/${resource.resource_id}/users/${who.user.user_id}`, { duration_minutes: 0 })).status, 200);
    assert.equal((await app.api.post(`/groups/${group.group_id}/users/${carol.user.user_id}`, { duration_minutes: 0 })).status, 200);
    assert.equal((await app.api.post(`/groups/${group.group_id}/resources/${resource.resource_id}`, { duration_minutes: 0 })).status, 200);
    const uar = await app.api.post('/uar', { ...REVIEW, ...extra, deadline: new Date(app.clock.now().getTime() + 7 * 86_400_000).toISOString(), uar_scope: { entities: [resource.resource_id] } });
    assert.equal(uar.status, 200, JSON.stringify(uar.body));
    const items = await app.api.get(`/uar/${uar.body.uar_id}/items`);
    assert.equal(items.status, 200);
    const row = (userId: string) => items.body.results.find((r: { user_id: string; item_id: string }) => r.user_id === userId && r.item_id === resource.resource_id);
    return { resource, uarId: uar.body.uar_id as string, alice: row(alice.user.user_id), bob: row(bob.user.user_id), carol: row(carol.user.user_id), items: items.body };
  }

  const holders = async (resourceId: string) =>
    (await app.api.get(`/resources/${resourceId}/users`)).body.results.map((r: { user_id: string }) => r.user_id);

  it('revokes through the access graph, keeps, puts off; refuses revoking a group-held row without changing anything', async () => {
    const { resource, uarId, alice, bob, carol, items } = await setUp();
    assert.equal(items.unanswered_decision, 'KEEP');
    assert.equal(alice.decision, null);

    const refused = await app.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: alice.uar_item_id, decision: 'REVOKE' }, { uar_item_id: carol.uar_item_id, decision: 'REVOKE' }] });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.details[0].path, 'decisions.1.decision');
    assert.ok((await holders(resource.resource_id)).includes(alice.user_id), 'nothing happened: all or nothing');

    const decided = await app.api.post(`/uar/${uarId}/decisions`, { decisions: [
      { uar_item_id: alice.uar_item_id, decision: 'REVOKE' }, { uar_item_id: bob.uar_item_id, decision: 'KEEP' }, { uar_item_id: carol.uar_item_id, decision: 'LATER' },
    ] });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    assert.deepEqual(decided.body.results.map((r: { decision: string }) => r.decision), ['REVOKE', 'KEEP', 'LATER']);
    assert.ok((await holders(resource.resource_id)).includes(alice.user_id), 'a revoke waits for the review to close');
    const recorded = await app.api.get('/events', { event_type_filter: 'UAR_REVIEWS_DECIDED', object_filter: uarId });
    assert.deepEqual(recorded.body.results[0].sub_events.map((s: { sub_event_type: string }) => s.sub_event_type), ['UAR_ITEM_REVOKE', 'UAR_ITEM_KEEP', 'UAR_ITEM_LATER']);

    // Changing one's mind before the close: keep undoes the revoke; nothing was removed meanwhile.
    assert.equal((await app.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: alice.uar_item_id, decision: 'KEEP' }] })).status, 200);
    assert.equal((await app.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: bob.uar_item_id, decision: 'REVOKE' }] })).status, 200);
    const removedBefore = await app.api.get('/events', { event_type_filter: 'RESOURCE_USERS_REMOVED', object_filter: resource.resource_id });
    assert.equal(removedBefore.body.results.length, 0);

    // At the close the revokes decided then act; the kept row stays.
    app.clock.advance(8 * 86_400_000);
    closeDueReviews(app.ctx, app.clock.now());
    const now = await holders(resource.resource_id);
    assert.ok(now.includes(alice.user_id), 'kept after all: alice still holds it');
    assert.ok(!now.includes(bob.user_id), 'revoked at the close: bob\'s access ended');
    const removed = await app.api.get('/events', { event_type_filter: 'RESOURCE_USERS_REMOVED', object_filter: resource.resource_id });
    assert.deepEqual(removed.body.results.map((e: { sub_events: { user_id: string }[] }) => e.sub_events[0]!.user_id), [bob.user_id]);
    const closed = await app.api.get('/events', { event_type_filter: 'UARS_CLOSED', object_filter: uarId });
    const revokeSub = closed.body.results[0].sub_events.find((e: { sub_event_type: string }) => e.sub_event_type === 'UAR_ITEM_REVOKE');
    assert.equal(revokeSub.user_id, bob.user_id);
    assert.equal(revokeSub.decided_by, app.adminUserId);
    assert.equal((await app.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: bob.uar_item_id, decision: 'KEEP' }] })).status, 409, 'closed');
  });

  it('a review that acts instantly revokes at once, and then refuses to change that row', async () => {
    const { resource, uarId, alice } = await setUp({ instantly_action_reviews: true });
    assert.equal((await app.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: alice.uar_item_id, decision: 'REVOKE' }] })).status, 200);
    assert.ok(!(await holders(resource.resource_id)).includes(alice.user_id), 'ended at once');
    const undo = await app.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: alice.uar_item_id, decision: 'KEEP' }] });
    assert.equal(undo.status, 409);
    assert.deepEqual(errorPaths(undo.body), ['decisions.0.decision']);
    assert.match(undo.body.message, /grant it again/);
    assert.equal((await app.api.get(`/uar/${uarId}/items`)).body.results.find((r: { uar_item_id: number }) => r.uar_item_id === alice.uar_item_id).decision, 'REVOKE', 'unchanged');
  });

  it('refuses unknown rows', async () => {
    const { uarId } = await setUp();

    const unknown = await app.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: 999999, decision: 'KEEP' }] });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.details[0].path, 'decisions.0.uar_item_id');
  });

  it('closes a review whose revoked item was deleted meanwhile, saying why that revoke did nothing', async () => {
    const { resource, uarId, alice, bob } = await setUp();
    assert.equal((await app.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: alice.uar_item_id, decision: 'REVOKE' }] })).status, 200);
    assert.equal((await app.api.delete(`/resources/${resource.resource_id}`)).status, 200);
    app.clock.advance(8 * 86_400_000);
    closeDueReviews(app.ctx, app.clock.now());
    const [closed] = (await app.api.get('/events', { event_type_filter: 'UARS_CLOSED', object_filter: uarId })).body.results;
    assert.ok(closed, 'the review closed');
    const subs = closed.sub_events as { sub_event_type: string; user_id?: string; not_revoked?: string }[];
    const aliceSub = subs.find((e) => e.sub_event_type === 'UAR_ITEM_REVOKE' && e.user_id === alice.user_id);
    assert.match(aliceSub?.not_revoked ?? '', /not found|no such|does not exist/i);
    assert.ok(subs.some((e) => e.sub_event_type === 'UAR_ITEM_KEEP' && e.user_id === bob.user_id), 'the rest of the close went on');
  });

  it('a member with nothing to review in it can neither see the review, read its items nor decide', async () => {
    const { uarId, alice } = await setUp();
    const member = await createMember(app.api);
    for (const res of [await member.api.get(`/uar/${uarId}`), await member.api.get(`/uar/${uarId}/items`),
      await member.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: alice.uar_item_id, decision: 'REVOKE' }] })]) {
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.deepEqual(errorPaths(res.body), ['uar_id']);
    }
    assert.equal((await member.api.put(`/uar/${uarId}/policy`, { unanswered_decision: 'REVOKE' })).status, 403);
    assert.equal((await member.api.post(`/uar/${uarId}/assignments`, { assignments: [{ uar_item_id: alice.uar_item_id, reviewer_ids: [member.user_id] }] })).status, 403);
    assert.deepEqual((await member.api.get('/uar-assignments')).body.results, []);
    assert.equal(alice.decision, null);
  });

  it('at the deadline keeps unanswered rows by default, and revokes them only when REVOKE was chosen; then refuses decisions', async () => {
    const kept = await setUp();
    const revoked = await setUp();
    const policy = await app.api.put(`/uar/${revoked.uarId}/policy`, { unanswered_decision: 'REVOKE' });
    assert.equal(policy.status, 200);
    assert.equal(policy.body.unanswered_decision, 'REVOKE');
    assert.equal((await app.api.post(`/uar/${revoked.uarId}/decisions`, { decisions: [{ uar_item_id: revoked.bob.uar_item_id, decision: 'KEEP' }] })).status, 200);

    closeDueReviews(app.ctx, app.clock.now());
    assert.ok((await holders(kept.resource.resource_id)).includes(kept.alice.user_id), 'before the deadline nothing closes');
    app.clock.advance(8 * 86_400_000);
    closeDueReviews(app.ctx, app.clock.now());

    const keptHolders = await holders(kept.resource.resource_id);
    assert.ok(keptHolders.includes(kept.alice.user_id) && keptHolders.includes(kept.bob.user_id), 'KEEP by default');
    const revokedHolders = await holders(revoked.resource.resource_id);
    assert.ok(!revokedHolders.includes(revoked.alice.user_id), 'unanswered: revoked by the explicit policy');
    assert.ok(revokedHolders.includes(revoked.bob.user_id), 'answered KEEP: kept');
    const closed = await app.api.get('/events', { event_type_filter: 'UARS_CLOSED', object_filter: revoked.uarId });
    assert.equal(closed.body.results[0].sub_events[0].unanswered_decision, 'REVOKE');

    const late = await app.api.post(`/uar/${kept.uarId}/decisions`, { decisions: [{ uar_item_id: kept.alice.uar_item_id, decision: 'REVOKE' }] });
    assert.equal(late.status, 409);
    assert.match(late.body.message, /closed/);
    const items = await app.api.get(`/uar/${kept.uarId}/items`);
    assert.ok(items.body.closed_at);
    const reassign = await app.api.post(`/uar/${kept.uarId}/assignments`, { assignments: [{ uar_item_id: kept.alice.uar_item_id, reviewer_ids: [] }] });
    assert.equal(reassign.status, 409);

    // The creator (MANUALLY: every row theirs) finds closed reviews only when not asking for open ones.
    const open = (await app.api.get('/uar-assignments', { open_only: 'true' })).body.results.map((r: { uar_id: string }) => r.uar_id);
    assert.ok(!open.includes(kept.uarId));
    const every = (await app.api.get('/uar-assignments')).body.results.find((r: { uar_id: string }) => r.uar_id === kept.uarId);
    assert.equal(every.closed_at, items.body.closed_at);
  });
});

describe('who reviews an access review, and reviewers who are not admins', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  interface Item { uar_item_id: number; user_id: string; item_id: string; decision: string | null; assigned_reviewer_ids: string[] }

  async function grant(resourceId: string, ...holders: { user_id: string }[]) {
    for (const who of holders) assert.equal((await app.api.post(`/resources/${resourceId}/users/${who.user_id}`, { duration_minutes: 0 })).status, 200);
  }
  /** Starts a review of `resourceIds` under `policy` as `api` (the bootstrap admin unless given); its id. */
  async function review(policy: string, resourceIds: string[], api = app.api, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await api.post('/uar', { ...REVIEW, ...extra, reviewer_assignment_policy: policy, deadline: new Date(app.clock.now().getTime() + 7 * 86_400_000).toISOString(), uar_scope: { entities: resourceIds } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.uar_id;
  }
  async function itemsOf(uarId: string, api = app.api, query: Record<string, string> = {}): Promise<Item[]> {
    const res = await api.get(`/uar/${uarId}/items`, query);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.results;
  }
  const rowOf = (rows: Item[], who: { user_id: string }) => rows.find((r) => r.user_id === who.user_id)!;
  const sorted = (...who: { user_id: string }[]) => who.map((w) => w.user_id).sort();
  const resourcesOf = async (who: { user_id: string }) =>
    (await app.api.get(`/resources/users/${who.user_id}`)).body.results.map((r: { resource_id: string }) => r.resource_id);

  it('BY_OWNING_TEAM_ADMIN_ALL: every user of the item\'s admin owner, never the holder themself; counted in UARS_CREATED', async () => {
    const [o1, o2, alice, bob] = await Promise.all([createMember(app.api), createMember(app.api), createMember(app.api), createMember(app.api)]);
    const owner = await createOwner(app.api, { user_ids: [o1.user_id, o2.user_id, alice.user_id] });
    const resource = await createResource(app.api, { admin_owner_id: owner.owner_id });
    await grant(resource.resource_id, alice, bob);
    const uarId = await review('BY_OWNING_TEAM_ADMIN_ALL', [resource.resource_id]);
    const rows = await itemsOf(uarId);
    assert.deepEqual(rowOf(rows, alice).assigned_reviewer_ids, sorted(o1, o2), 'alice is an owner too, but never reviews herself');
    assert.deepEqual(rowOf(rows, bob).assigned_reviewer_ids, sorted(o1, o2, alice));
    const [created] = await readEvents(app.api, { type: 'UARS_CREATED', object: uarId });
    assert.deepEqual(
      { ...created!.sub_events[0], sub_event_type: undefined, uar_id: undefined, uar_name: undefined },
      { sub_event_type: undefined, uar_id: undefined, uar_name: undefined, items_in_scope: 1, snapshot_rows: 2, rows_assigned_by_policy: 2, rows_assigned_to_fallback: 0, rows_unassigned: 0 },
    );
  });

  it('BY_OWNING_TEAM_ADMIN: one reviewer a row, turning through the owner\'s users in their order', async () => {
    const [o1, o2] = await Promise.all([createMember(app.api), createMember(app.api)]);
    const holders = await Promise.all([1, 2, 3, 4].map(() => createMember(app.api)));
    const owner = await createOwner(app.api, { user_ids: [o1.user_id, o2.user_id] });
    const resource = await createResource(app.api, { admin_owner_id: owner.owner_id });
    await grant(resource.resource_id, ...holders);
    const rows = await itemsOf(await review('BY_OWNING_TEAM_ADMIN', [resource.resource_id]));
    assert.deepEqual(rows.map((r) => r.assigned_reviewer_ids), [[o1.user_id], [o2.user_id], [o1.user_id], [o2.user_id]]);
  });

  it('BY_OWNING_TEAM_ADMIN hands the same rows to the same reviewers whatever ids people got: holders and a group-backed owner\'s members in email order', async () => {
    // Made in the reverse of their emails' order; ids are random, so only an order by email gives one answer.
    const tag = unique('rr');
    const reviewers = await Promise.all(['c', 'b', 'a'].map((letter) => createMember(app.api, { email: `${tag}-reviewer-${letter}@example.com` })));
    const holders = await Promise.all(['F', 'e', 'D', 'c', 'B', 'a'].map((letter) => createMember(app.api, { email: `${tag}-holder-${letter}@example.com` })));
    const team = await createGroup(app.api);
    for (const who of reviewers) assert.equal((await app.api.post(`/groups/${team.group_id}/users/${who.user_id}`, { duration_minutes: 0 })).status, 200);
    const owner = await app.api.post('/owners', { name: unique('team'), user_ids: [], source_group_id: team.group_id });
    assert.equal(owner.status, 200, JSON.stringify(owner.body));
    const resource = await createResource(app.api, { admin_owner_id: owner.body.owner_id });
    await grant(resource.resource_id, ...holders);
    const byEmail = (who: Signed[]) => [...who].sort((x, y) => (x.user.email.toLowerCase() < y.user.email.toLowerCase() ? -1 : 1));
    const expected = byEmail(holders).map((holder, i) => [holder.user.email, byEmail(reviewers)[i % 3]!.user.email]);
    const emailOf = new Map([...reviewers, ...holders].map((who) => [who.user_id, who.user.email]));
    for (let run = 0; run < 2; run++) {
      const rows = await itemsOf(await review('BY_OWNING_TEAM_ADMIN', [resource.resource_id]));
      assert.deepEqual(rows.map((r) => [emailOf.get(r.user_id), emailOf.get(r.assigned_reviewer_ids[0]!)]), expected,
        'rows in their holders\' email order, each to the next reviewer in email order');
    }
  });

  it('BY_MANAGER: the holder\'s manager; none, or an offboarded one, falls back to the review\'s creator; the creator\'s own row to admins only', async () => {
    const manager = await createMember(app.api);
    const gone = await createUser(app.api);
    const alice = await createMember(app.api, { manager_id: manager.user_id });
    const bob = await createMember(app.api);
    const carol = await createMember(app.api, { manager_id: gone.user_id });
    assert.equal((await app.api.put(`/users/${gone.user_id}`, { hr_idp_status: 'SUSPENDED' })).status, 200);
    const creator = await createAdmin(app.api);
    const resource = await createResource(app.api);
    await grant(resource.resource_id, alice, bob, carol, creator);
    const uarId = await review('BY_MANAGER', [resource.resource_id], creator.api);
    const rows = await itemsOf(uarId);
    assert.deepEqual(rowOf(rows, alice).assigned_reviewer_ids, [manager.user_id]);
    assert.deepEqual(rowOf(rows, bob).assigned_reviewer_ids, [creator.user_id]);
    assert.deepEqual(rowOf(rows, carol).assigned_reviewer_ids, [creator.user_id]);
    assert.deepEqual(rowOf(rows, creator).assigned_reviewer_ids, []);
    const [created] = await readEvents(app.api, { type: 'UARS_CREATED', object: uarId });
    assert.equal(created!.sub_events[0]!.rows_assigned_to_fallback, 2);
    assert.equal(created!.sub_events[0]!.rows_unassigned, 1);

    // Nobody decides their own access, admins included; another admin may.
    const own = await creator.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: rowOf(rows, creator).uar_item_id, decision: 'REVOKE' }] });
    assert.equal(own.status, 403);
    assert.deepEqual(errorPaths(own.body), ['decisions.0.uar_item_id']);
    assert.ok((await resourcesOf(creator)).includes(resource.resource_id), 'the refusal changed nothing');
    const other = await app.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: rowOf(rows, creator).uar_item_id, decision: 'KEEP' }] });
    assert.equal(other.status, 200);
  });

  it('BY_APPROVERS: the reviewers a request by the holder would get, her manager included when a stage asks for one', async () => {
    const [approver, admin1, manager] = await Promise.all([createMember(app.api), createMember(app.api), createMember(app.api)]);
    const [alice, bob] = await Promise.all([createMember(app.api, { manager_id: manager.user_id }), createMember(app.api)]);
    const approvers = await createOwner(app.api, { user_ids: [approver.user_id] });
    const administers = await createOwner(app.api, { user_ids: [admin1.user_id] });
    const resource = await createResource(app.api, {
      admin_owner_id: administers.owner_id,
      request_configurations: [config({ reviewer_stages: [stage({ owner_ids: [approvers.owner_id] }), stage({ stage: 2, require_manager_approval: true })] })],
    });
    await grant(resource.resource_id, alice, bob);
    const all = await itemsOf(await review('BY_APPROVERS_ALL', [resource.resource_id]));
    assert.deepEqual(rowOf(all, alice).assigned_reviewer_ids, sorted(approver, manager));
    // Bob has no manager: that stage falls to the item's admin owner, as a request's would.
    assert.deepEqual(rowOf(all, bob).assigned_reviewer_ids, sorted(approver, admin1));
    const one = await itemsOf(await review('BY_APPROVERS', [resource.resource_id]));
    assert.deepEqual(one.map((r) => r.assigned_reviewer_ids.length), [1, 1]);
  });

  it('an assigned reviewer who is not an admin lists, reads and decides their own rows, one by one and in bulk; in a review that acts at once, a revoke ends the access', async () => {
    const [rita, otto, alice, bob, carol, dave] = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createMember(app.api))) as Signed[];
    const team = await createOwner(app.api, { user_ids: [rita!.user_id, otto!.user_id] });
    const ottoOnly = await createOwner(app.api, { user_ids: [otto!.user_id] });
    const payroll = await createResource(app.api, { admin_owner_id: team.owner_id });
    const ledger = await createResource(app.api, { admin_owner_id: ottoOnly.owner_id });
    await grant(payroll.resource_id, alice!, bob!, carol!, rita!);
    await grant(ledger.resource_id, dave!);
    // Started to act at once, so her revoke ends the access when she decides it.
    const uarId = await review('BY_OWNING_TEAM_ADMIN_ALL', [payroll.resource_id, ledger.resource_id], app.api, { instantly_action_reviews: true });
    const all = await itemsOf(uarId);

    const listed = await rita!.api.get('/uar-assignments', { open_only: 'true' });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.results.map((r: Record<string, unknown>) => [r.uar_id, r.assigned_items, r.unanswered_items]), [[uarId, 3, 3]]);
    assert.equal((await rita!.api.get(`/uar/${uarId}`)).status, 200);
    const mine = await itemsOf(uarId, rita!.api);
    assert.deepEqual(mine.map((r) => r.user_id).sort(), sorted(alice!, bob!, carol!), 'only her rows: not her own, not the ledger\'s');
    assert.deepEqual(await itemsOf(uarId, app.api, { assigned_to_me: 'true' }), [], 'an admin may ask for only theirs');
    const first = await rita!.api.get(`/uar/${uarId}/items`, { page_size: '2' });
    assert.equal(first.body.results.length, 2);
    const second = await rita!.api.get(`/uar/${uarId}/items`, { page_size: '2', cursor: first.body.next });
    assert.deepEqual([...first.body.results, ...second.body.results].map((r: Item) => r.uar_item_id), mine.map((r) => r.uar_item_id), 'her rows, paged');
    assert.equal(second.body.next, null);

    // Refused, all or nothing: a row assigned to someone else, and her own access.
    const others = await rita!.api.post(`/uar/${uarId}/decisions`, { decisions: [
      { uar_item_id: rowOf(all, alice!).uar_item_id, decision: 'REVOKE' }, { uar_item_id: rowOf(all, dave!).uar_item_id, decision: 'KEEP' },
    ] });
    assert.equal(others.status, 403);
    assert.deepEqual(errorPaths(others.body), ['decisions.1.uar_item_id']);
    const herOwn = await rita!.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: rowOf(all, rita!).uar_item_id, decision: 'KEEP' }] });
    assert.equal(herOwn.status, 403);
    assert.deepEqual(errorPaths(herOwn.body), ['decisions.0.uar_item_id']);
    assert.ok((await resourcesOf(alice!)).includes(payroll.resource_id), 'the refused bulk revoked nothing');
    assert.equal(await countDecided(uarId), 0);

    const one = await rita!.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: rowOf(all, alice!).uar_item_id, decision: 'REVOKE' }] });
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.equal(one.body.results[0].reviewer_user_id, rita!.user_id);
    const bulk = await rita!.api.post(`/uar/${uarId}/decisions`, { decisions: [
      { uar_item_id: rowOf(all, bob!).uar_item_id, decision: 'KEEP' }, { uar_item_id: rowOf(all, carol!).uar_item_id, decision: 'LATER' },
    ] });
    assert.equal(bulk.status, 200);
    assert.ok(!(await resourcesOf(alice!)).includes(payroll.resource_id), 'alice\'s access ended');
    assert.ok((await resourcesOf(bob!)).includes(payroll.resource_id));
    const after = await rita!.api.get('/uar-assignments');
    assert.equal(after.body.results[0].unanswered_items, 1, 'LATER still waits');

    // The trail names the reviewer: on the decision and on the removal it caused.
    const decided = (await readEvents(app.api, { type: 'UAR_REVIEWS_DECIDED', object: uarId })).filter((e) => e.actor_user_id === rita!.user_id);
    assert.deepEqual(decided.flatMap((e) => e.sub_events.map((s) => [s.sub_event_type, s.decided_as])).sort(), [
      ['UAR_ITEM_KEEP', 'REVIEWER'], ['UAR_ITEM_LATER', 'REVIEWER'], ['UAR_ITEM_REVOKE', 'REVIEWER'],
    ]);
    const removed = await readEvents(app.api, { type: 'RESOURCE_USERS_REMOVED', object: alice!.user_id });
    assert.deepEqual(removed.map((e) => e.actor_user_id), [rita!.user_id]);

    // An admin still decides any row, recorded as such.
    const byAdmin = await app.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: rowOf(all, dave!).uar_item_id, decision: 'KEEP' }] });
    assert.equal(byAdmin.status, 200);
    const [last] = await readEvents(app.api, { type: 'UAR_REVIEWS_DECIDED', object: uarId });
    assert.equal(last!.sub_events[0]!.decided_as, 'ADMIN');

    // A READ_ONLY token of the reviewer reads but does not decide.
    const readOnly = await createMember(app.api, {}, { access_level: 'READ_ONLY' });
    assert.equal((await readOnly.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: rowOf(all, bob!).uar_item_id, decision: 'KEEP' }] })).status, 403);
  });

  /** How many rows of the review have a decision, as an admin reads them. */
  async function countDecided(uarId: string): Promise<number> {
    return (await itemsOf(uarId)).filter((r) => r.decision !== null).length;
  }

  it('admins choose who reviews a row; the holder themself, unknown users and unknown rows are refused, all or nothing', async () => {
    const [mia, alice, bob] = await Promise.all([createMember(app.api), createMember(app.api), createMember(app.api)]);
    const resource = await createResource(app.api);
    await grant(resource.resource_id, alice, bob);
    const uarId = await review('MANUALLY', [resource.resource_id]);
    const rows = await itemsOf(uarId);
    assert.deepEqual(rows.map((r) => r.assigned_reviewer_ids), [[app.adminUserId], [app.adminUserId]], 'MANUALLY: the creator until someone is chosen');

    const assigned = await app.api.post(`/uar/${uarId}/assignments`, { assignments: [{ uar_item_id: rowOf(rows, alice).uar_item_id, reviewer_ids: [mia.user_id.toUpperCase()] }] });
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
    assert.deepEqual(assigned.body.results[0].assigned_reviewer_ids, [mia.user_id]);

    const cases: [unknown[], number, string[]][] = [
      [[{ uar_item_id: rowOf(rows, bob).uar_item_id, reviewer_ids: [bob.user_id] }], 400, ['assignments.0.reviewer_ids.0']],
      [[{ uar_item_id: rowOf(rows, bob).uar_item_id, reviewer_ids: [mia.user_id, NO_SUCH_ID] }], 404, ['assignments.0.reviewer_ids.1']],
      [[{ uar_item_id: rowOf(rows, alice).uar_item_id, reviewer_ids: [] }, { uar_item_id: 999999, reviewer_ids: [mia.user_id] }], 404, ['assignments.1.uar_item_id']],
      [[{ uar_item_id: rowOf(rows, alice).uar_item_id, reviewer_ids: ['not-a-uuid'] }], 400, ['assignments.0.reviewer_ids.0']],
    ];
    for (const [assignments, status, paths] of cases) {
      const res = await app.api.post(`/uar/${uarId}/assignments`, { assignments });
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.deepEqual(errorPaths(res.body), paths);
    }
    assert.deepEqual(rowOf(await itemsOf(uarId), alice).assigned_reviewer_ids, [mia.user_id], 'the refused calls changed nothing');
    assert.equal((await readEvents(app.api, { type: 'UAR_REVIEWERS_UPDATED', object: uarId })).length, 1);

    assert.deepEqual((await itemsOf(uarId, mia.api)).map((r) => r.user_id), [alice.user_id]);
    assert.equal((await mia.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: rowOf(rows, alice).uar_item_id, decision: 'KEEP' }] })).status, 200);
    assert.equal((await mia.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: rowOf(rows, bob).uar_item_id, decision: 'KEEP' }] })).status, 403);
  });
});
