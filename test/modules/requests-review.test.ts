// Reviewing access requests through HTTP: stages (AND/OR, manager, admin), which configuration a
// condition picks, ADMIN override, self-approval, auto-approval, the grant and its expiry, held access
// extended, items deleted meanwhile, the pending timeout, delegations and the dry run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdmin, createGroup, createMember, createToken, type Signed } from '../helpers/fixtures.ts';
import { config, makeRequest, ownerOf, postRequest, requestableResource, reviewerIds, stage } from '../helpers/requests.ts';
import { tick as sweep } from '../../src/modules/access/sweep.ts';
import { tick as timeoutTick } from '../../src/modules/requests/timeout.ts';
import { errorPaths } from '../helpers/errors.ts';
import { countEvents } from '../helpers/events.ts';

describe('reviewing access requests', () => {
  let app: TestApp;
  let alice: Signed; // requester
  let fallback: { owner_id: string }; // every item's admin owner
  let fallbackUser: Signed;

  before(async () => {
    app = await startTestApp();
    alice = await createMember(app.api);
    fallbackUser = await createMember(app.api);
    fallback = await ownerOf(app, fallbackUser);
  });
  after(() => app.close());

  const approve = (who: Signed | undefined, id: string, level = 'REGULAR') => (who?.api ?? app.api).post(`/requests/${id}/approve`, { level });
  const getRequest = async (id: string) => (await app.api.get(`/requests/${id}`)).body;
  /** What `userId` holds of the resource, through the access graph's read. */
  const holding = async (resourceId: string, userId: string) => {
    const res = await app.api.get(`/resources/${resourceId}/users`);
    return res.body.results.find((r: { user_id: string }) => r.user_id === userId) as { expiration_date: string | null } | undefined;
  };

  it('AND then OR: every owner of an AND stage must approve, then any of the next; only current-stage reviewers count', async () => {
    const [a, b, c] = [await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    const [ownerA, ownerB, ownerC] = [await ownerOf(app, a), await ownerOf(app, b), await ownerOf(app, c)];
    const resource = await requestableResource(app, fallback.owner_id, [config({
      reviewer_stages: [stage({ stage: 1, operator: 'AND', owner_ids: [ownerA.owner_id, ownerB.owner_id] }), stage({ stage: 2, operator: 'OR', owner_ids: [ownerC.owner_id] })],
    })]);
    const id = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
    assert.deepEqual(reviewerIds(await getRequest(id)), [[[a.user_id, b.user_id].sort(), [c.user_id]]]);

    assert.equal((await approve(c, id)).status, 403, 'stage 2 is not current yet');
    const readOnly = await createToken(app.api, { user_id: a.user_id, access_level: 'READ_ONLY' });
    assert.equal((await app.api.as(readOnly.secret).post(`/requests/${id}/approve`, { level: 'REGULAR' })).status, 403, 'a READ_ONLY token of a reviewer');
    const first = await approve(a, id);
    assert.equal(first.status, 200);
    assert.equal(first.body.request.status, 'PENDING');
    assert.equal((await approve(a, id)).status, 409, 'a second approval by the same reviewer');
    assert.equal(await countEvents(app.api, { type: 'REQUEST_REVIEWS_ADDED', object: id }), 1);
    assert.equal(await holding(resource.resource_id, alice.user_id), undefined);

    const second = await approve(b, id);
    assert.equal(second.body.request.status, 'PENDING', 'stage 2 still to come');
    assert.deepEqual(second.body.request.reviewer_stages[0].stages[0].reviewers.map((r: { status: string }) => r.status), ['APPROVED', 'APPROVED']);
    // The reference's deprecated single-item `stages`, for clients generated from older versions: the same stages.
    const { stages: deprecated, reviewer_stages: [only] } = second.body.request;
    assert.deepEqual(deprecated, { requestedItemName: only.item_name, requestedRoleName: only.access_level_name, stages: only.stages });
    assert.deepEqual(deprecated.stages.map((s: { reviewers: { id: string }[] }) => s.reviewers.map((r) => r.id).sort()), [[a.user_id, b.user_id].sort(), [c.user_id]]);
    const last = await approve(c, id);
    assert.equal(last.body.request.status, 'APPROVED');
    assert.ok(await holding(resource.resource_id, alice.user_id));
    assert.equal(await countEvents(app.api, { type: 'REQUESTS_APPROVED', object: id }), 1);
  });

  it('chooses the configuration whose condition names a group the target belongs to (priority 1 first, nesting counts), else the default', async () => {
    const [x, y, z] = [await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    const [ownerX, ownerY, ownerZ] = [await ownerOf(app, x), await ownerOf(app, y), await ownerOf(app, z)];
    const [g, h, inner] = [await createGroup(app.api), await createGroup(app.api), await createGroup(app.api)];
    assert.equal((await app.api.post(`/groups/${inner.group_id}/containing-groups`, { containing_group_id: g.group_id })).status, 200);
    const resource = await requestableResource(app, fallback.owner_id, [
      config({ priority: 0, reviewer_stages: [stage({ owner_ids: [ownerX.owner_id] })] }),
      config({ priority: 2, condition: { group_ids: [h.group_id] }, reviewer_stages: [stage({ owner_ids: [ownerZ.owner_id] })] }),
      config({ priority: 1, condition: { group_ids: [g.group_id] }, reviewer_stages: [stage({ owner_ids: [ownerY.owner_id] })] }),
    ]);
    const [inBoth, inH, viaNesting, inNone] = [await createMember(app.api), await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    const join = async (m: Signed, group: { group_id: string }) =>
      assert.equal((await app.api.post(`/groups/${group.group_id}/users/${m.user_id}`, { duration_minutes: 0 })).status, 200, m.user_id);
    await join(inBoth, g); await join(inBoth, h); await join(inH, h); await join(viaNesting, inner);
    const reviewersFor = async (m: Signed) => reviewerIds(await getRequest(await makeRequest(m.api, { resources: [{ id: resource.resource_id }] })))[0]![0];
    assert.deepEqual(await reviewersFor(inBoth), [y.user_id]);
    assert.deepEqual(await reviewersFor(inH), [z.user_id]);
    assert.deepEqual(await reviewersFor(viaNesting), [y.user_id]);
    assert.deepEqual(await reviewersFor(inNone), [x.user_id]);
  });

  it('a manager stage is reviewed by the target\'s manager; an admin stage by administrators only', async () => {
    const manager = await createMember(app.api);
    const report = await createMember(app.api, { manager_id: manager.user_id });
    const admin2 = await createAdmin(app.api);
    const outsider = await createMember(app.api);
    const resource = await requestableResource(app, fallback.owner_id, [config({
      reviewer_stages: [stage({ stage: 1, require_manager_approval: true }), stage({ stage: 2, require_admin_approval: true })],
    })]);
    const id = await makeRequest(report.api, { resources: [{ id: resource.resource_id }] });
    const stages = reviewerIds(await getRequest(id))[0]!;
    assert.deepEqual(stages[0], [manager.user_id]);
    assert.deepEqual(stages[1], [app.adminUserId, admin2.user_id].sort());
    assert.equal((await approve(outsider, id)).status, 404, 'no part in the request: it reads as missing');
    assert.equal((await approve(manager, id)).body.request.status, 'PENDING');
    assert.equal((await approve(manager, id)).status, 403, 'stage 1 is done: the manager reviews no current stage');
    assert.equal((await approve(admin2, id)).body.request.status, 'APPROVED');

    // Without a manager the slot goes to the item's admin owner, and the dry run says why.
    const dry = await postRequest(alice.api, { resources: [{ id: resource.resource_id }] }, { dry_run: 'true' });
    assert.equal(dry.status, 200);
    const managerStage = dry.body.items[0].stages[0];
    assert.deepEqual(managerStage.reviewers.map((r: { id: string }) => r.id), [fallbackUser.user_id]);
    assert.match(managerStage.reviewers[0].why, /no manager/);

    // A stage that names nobody goes to the admin owner too, so it can complete.
    const bare = await requestableResource(app, fallback.owner_id, [config({ reviewer_stages: [stage({ operator: 'AND' })] })]);
    const bareId = await makeRequest(alice.api, { resources: [{ id: bare.resource_id }] });
    assert.deepEqual(reviewerIds(await getRequest(bareId)), [[[fallbackUser.user_id]]]);
    assert.equal((await approve(fallbackUser, bareId)).body.request.status, 'APPROVED');
  });

  it('nobody approves their own request, admins included; an ADMIN approval needs an administrator and completes at once', async () => {
    const reviewer = await createMember(app.api);
    const owner = await ownerOf(app, reviewer, alice);
    const resource = await requestableResource(app, fallback.owner_id, [config({
      reviewer_stages: [stage({ owner_ids: [owner.owner_id] }), stage({ stage: 2, owner_ids: [owner.owner_id] })],
    })]);
    const own = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
    assert.equal((await approve(alice, own)).status, 403, 'alice reviews for the owner but made the request');
    const adminsOwn = await makeRequest(app.api, { resources: [{ id: resource.resource_id }] });
    const res = await approve(undefined, adminsOwn, 'ADMIN');
    assert.equal(res.status, 403);
    assert.match(res.body.message, /own request/);
    const forAlice = await makeRequest(app.api, { resources: [{ id: resource.resource_id }], target_user_id: alice.user_id });
    assert.equal((await approve(alice, forAlice)).status, 403, 'nobody approves access for themselves');

    assert.equal((await approve(reviewer, own, 'ADMIN')).status, 403, 'a member cannot use level ADMIN');
    const override = await approve(undefined, own, 'ADMIN');
    assert.equal(override.status, 200);
    assert.equal(override.body.request.status, 'APPROVED', 'both stages skipped');
    assert.ok(await holding(resource.resource_id, alice.user_id));
    const invalid = await app.api.post(`/requests/${own}/approve`, { level: 'SUPER' });
    assert.equal(invalid.status, 400);
  });

  it('nor by proxy or through a group: a requester\'s delegate, a member of the target group, a demoted admin in an admin slot', async () => {
    // The requester is the item's only reviewer and hands their reviews to a friend: still their own request.
    const bob = await createMember(app.api);
    const carol = await createMember(app.api);
    const bobsOwner = await ownerOf(app, bob);
    const reviewedByBob = await requestableResource(app, fallback.owner_id, [config({ reviewer_stages: [stage({ owner_ids: [bobsOwner.owner_id] })] })]);
    // The dry run says so before the request is made.
    const preview = await postRequest(bob.api, { resources: [{ id: reviewedByBob.resource_id }] }, { dry_run: 'true' });
    assert.equal(preview.status, 200, JSON.stringify(preview.body));
    assert.match(preview.body.items[0].stages[0].reviewers[0].why, /would not count/);
    const own = await makeRequest(bob.api, { resources: [{ id: reviewedByBob.resource_id }] });
    const now = app.clock.now();
    const delegation = await bob.api.post('/delegations', {
      delegator_user_id: bob.user_id, delegate_user_id: carol.user_id, start_time: now.toISOString(), end_time: new Date(now.getTime() + 3600_000).toISOString(), reason: 'away',
    });
    assert.equal(delegation.status, 200, JSON.stringify(delegation.body));
    const proxy = await approve(carol, own);
    assert.equal(proxy.status, 403, JSON.stringify(proxy.body));
    assert.equal((await getRequest(own)).status, 'PENDING');
    assert.equal(await holding(reviewedByBob.resource_id, bob.user_id), undefined);
    assert.equal((await approve(undefined, own, 'ADMIN')).body.request.status, 'APPROVED', 'an administrator still can');
    assert.equal((await app.api.delete(`/delegations/${delegation.body.id}`)).status, 200);

    // A reviewer who is a member of the target group would give themselves access.
    const team = await createGroup(app.api, { group_leader_user_ids: [alice.user_id] });
    assert.equal((await app.api.post(`/groups/${team.group_id}/users/${fallbackUser.user_id}`, { duration_minutes: 0 })).status, 200);
    const forTeam = await makeRequest(alice.api, { resources: [{ id: (await requestableResource(app, fallback.owner_id)).resource_id }], target_group_id: team.group_id });
    const member = await approve(fallbackUser, forTeam);
    assert.equal(member.status, 403);
    assert.match(member.body.message, /member of its target group/);
    // Nor through their delegate, who would approve the member's own access by proxy.
    const stand_in = await createMember(app.api);
    const start = app.clock.now();
    const handover = await fallbackUser.api.post('/delegations', {
      delegator_user_id: fallbackUser.user_id, delegate_user_id: stand_in.user_id, start_time: start.toISOString(), end_time: new Date(start.getTime() + 3600_000).toISOString(), reason: 'away',
    });
    assert.equal(handover.status, 200, JSON.stringify(handover.body));
    assert.equal((await approve(stand_in, forTeam)).status, 403, 'the only slot is a target-group member\'s own');
    assert.equal((await app.api.delete(`/delegations/${handover.body.id}`)).status, 200);
    assert.equal((await app.api.delete(`/groups/${team.group_id}/users/${fallbackUser.user_id}`)).status, 200);
    assert.equal((await approve(fallbackUser, forTeam)).body.request.status, 'APPROVED', 'once out of the group, they review as before');

    // An admin slot counts only while its user is still an administrator.
    const admin2 = await createAdmin(app.api);
    const adminStage = await requestableResource(app, fallback.owner_id, [config({ reviewer_stages: [stage({ require_admin_approval: true })] })]);
    const needsAdmin = await makeRequest(alice.api, { resources: [{ id: adminStage.resource_id }] });
    assert.equal((await app.api.put(`/users/${admin2.user_id}`, { organization_role: 'MEMBER' })).status, 200);
    assert.equal((await approve(admin2, needsAdmin)).status, 403, 'demoted since the request was made');
    assert.equal((await getRequest(needsAdmin)).status, 'PENDING');
  });

  it('auto-approval approves and grants at once, recorded by Gatehouse', async () => {
    const resource = await requestableResource(app, fallback.owner_id, [config({ auto_approval: true })]);
    const id = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }], duration_minutes: -1 });
    const request = await getRequest(id);
    assert.equal(request.status, 'APPROVED');
    assert.deepEqual(request.reviewer_stages[0].stages, []);
    const held = await holding(resource.resource_id, alice.user_id);
    assert.equal(held?.expiration_date, null, '-1: no expiry');
    const approved = (await app.api.get('/events', { object_filter: id, event_type_filter: 'REQUESTS_APPROVED' })).body.results;
    assert.equal(approved.length, 1);
    assert.equal(approved[0].sub_events[0].auto_approved, true);
  });

  it('an approval grants for duration_minutes from the approval instant; the access ends at that exact instant and the sweep records it', async () => {
    const resource = await requestableResource(app, fallback.owner_id);
    const id = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }], duration_minutes: 90 });
    const requested = await app.api.get(`/resource-user-access-status/${resource.resource_id}/${alice.user_id}`);
    assert.equal(requested.body.status, 'REQUESTED', 'a pending request reads REQUESTED');
    assert.equal((await alice.api.get(`/resource-user-access-status/${resource.resource_id}/${alice.user_id}`)).body.status, 'REQUESTED', 'to the user too');
    const stranger = await createMember(app.api);
    const told = await stranger.api.get(`/resource-user-access-status/${resource.resource_id}/${alice.user_id}`);
    assert.equal(told.body.status, 'UNAUTHORIZED', 'another member is not told of a request they take no part in');
    app.clock.advance(30 * 60_000);
    const approvedAt = app.clock.now().getTime();
    assert.equal((await approve(fallbackUser, id)).body.request.status, 'APPROVED');
    const expiry = new Date(approvedAt + 90 * 60_000).toISOString();
    assert.equal((await holding(resource.resource_id, alice.user_id))?.expiration_date, expiry);
    const status = await app.api.get(`/resource-user-access-status/${resource.resource_id}/${alice.user_id}`);
    assert.equal(status.body.status, 'AUTHORIZED');
    const added = (await app.api.get('/events', { object_filter: id, event_type_filter: 'RESOURCE_USERS_ADDED' })).body.results;
    assert.equal(added.length, 1);
    assert.equal(added[0].sub_events[0].source, 'REQUEST');

    app.clock.set(new Date(Date.parse(expiry) - 1).toISOString());
    assert.ok(await holding(resource.resource_id, alice.user_id), 'still held a millisecond before');
    app.clock.set(expiry);
    assert.equal(await holding(resource.resource_id, alice.user_id), undefined, 'gone at the instant');
    assert.equal((await app.api.get(`/resource-user-access-status/${resource.resource_id}/${alice.user_id}`)).body.status, 'UNAUTHORIZED');
    assert.ok(sweep(app.ctx, app.clock.now()) >= 1);
    assert.equal(await countEvents(app.api, { type: 'RESOURCE_USERS_EXPIRED', object: resource.resource_id }), 1);
  });

  it('a pending request keeps the reviewers resolved when it was made, whatever the configuration says later', async () => {
    const [before, later] = [await createMember(app.api), await createMember(app.api)];
    const [ownerBefore, ownerLater] = [await ownerOf(app, before), await ownerOf(app, later)];
    const resource = await requestableResource(app, fallback.owner_id, [config({ reviewer_stages: [stage({ owner_ids: [ownerBefore.owner_id] })] })]);
    const id = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
    const changed = await app.api.put('/resources', { resources: [{ resource_id: resource.resource_id, request_configurations: [config({ reviewer_stages: [stage({ owner_ids: [ownerLater.owner_id] })] })] }] });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal((await app.api.put(`/owners/${ownerBefore.owner_id}/users`, { user_ids: [] })).status, 200);
    assert.deepEqual(reviewerIds(await getRequest(id)), [[[before.user_id]]]);
    assert.equal((await approve(later, id)).status, 404, 'a reviewer only by the new configuration takes no part');
    assert.equal((await approve(before, id)).body.request.status, 'APPROVED');
    const next = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
    assert.deepEqual(reviewerIds(await getRequest(next)), [[[later.user_id]]], 'a new request follows the new configuration');
  });

  it('a request for a group grants the group, so its members hold the item; an auto-approved item waits for the others', async () => {
    const team = await createGroup(app.api, { group_leader_user_ids: [alice.user_id] });
    const member = await createMember(app.api);
    assert.equal((await app.api.post(`/groups/${team.group_id}/users/${member.user_id}`, { duration_minutes: 0 })).status, 200);
    const [reviewed, auto] = [
      await requestableResource(app, fallback.owner_id),
      await requestableResource(app, fallback.owner_id, [config({ auto_approval: true })]),
    ];
    const id = await makeRequest(alice.api, { resources: [{ id: reviewed.resource_id }, { id: auto.resource_id }], target_group_id: team.group_id });
    const pending = await getRequest(id);
    assert.equal(pending.status, 'PENDING', 'one item still needs its reviewer');
    assert.deepEqual(pending.reviewer_stages.map((item: { stages: unknown[] }) => item.stages.length), [1, 0]);
    assert.equal(await holding(auto.resource_id, member.user_id), undefined, 'nothing is granted before the request is approved');
    assert.equal((await approve(fallbackUser, id)).body.request.status, 'APPROVED');
    const groupResources = (await app.api.get(`/groups/${team.group_id}/resources`)).body.group_resources.map((g: { resource_id: string }) => g.resource_id);
    assert.deepEqual(groupResources.sort(), [reviewed.resource_id, auto.resource_id].sort());
    assert.ok(await holding(reviewed.resource_id, member.user_id), 'a member holds it through the group');
    assert.ok(await holding(auto.resource_id, member.user_id));
  });

  it('approving access already held extends it to the later expiry instead of failing', async () => {
    const resource = await requestableResource(app, fallback.owner_id);
    const direct = await app.api.post(`/resources/${resource.resource_id}/users/${alice.user_id}`, { duration_minutes: 120 });
    assert.equal(direct.status, 200, JSON.stringify(direct.body));
    const heldUntil = (await holding(resource.resource_id, alice.user_id))!.expiration_date!;
    const shorter = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }], duration_minutes: 60 });
    assert.equal((await approve(fallbackUser, shorter)).body.request.status, 'APPROVED');
    assert.equal((await holding(resource.resource_id, alice.user_id))!.expiration_date, heldUntil, 'a shorter grant changes nothing');
    const longer = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }], duration_minutes: 600 });
    assert.equal((await approve(fallbackUser, longer)).body.request.status, 'APPROVED');
    assert.equal((await holding(resource.resource_id, alice.user_id))!.expiration_date, new Date(app.clock.now().getTime() + 600 * 60_000).toISOString());
    assert.equal(await countEvents(app.api, { type: 'RESOURCE_USERS_UPDATED', object: longer }), 1);
  });

  it('approving a request whose item was deleted meanwhile answers 409 and grants nothing', async () => {
    const [kept, doomed] = [await requestableResource(app, fallback.owner_id), await requestableResource(app, fallback.owner_id)];
    const id = await makeRequest(alice.api, { resources: [{ id: kept.resource_id }, { id: doomed.resource_id }] });
    assert.equal((await app.api.delete(`/resources/${doomed.resource_id}`)).status, 200);
    const res = await approve(undefined, id, 'ADMIN');
    assert.equal(res.status, 409);
    assert.deepEqual(errorPaths(res.body), ['requested_items_list.1']);
    assert.equal(await holding(kept.resource_id, alice.user_id), undefined);
    const request = await getRequest(id);
    assert.equal(request.status, 'PENDING');
    assert.equal(request.requested_items_list[1].name, doomed.name, 'the request still shows what was asked for');
    assert.equal(await countEvents(app.api, { type: 'REQUESTS_APPROVED', object: id }), 0);
  });

  it('a request nobody decides is canceled by the timeout job after the configured time (default 7 days), with an event', async () => {
    const resource = await requestableResource(app, fallback.owner_id);
    const id = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
    const created = app.clock.now().getTime();
    const decided = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
    await alice.api.post(`/requests/${decided}/cancel`);
    timeoutTick(app.ctx, new Date(created + 7 * 24 * 60 * 60_000 - 1));
    assert.equal((await getRequest(id)).status, 'PENDING');
    const at = new Date(created + 7 * 24 * 60 * 60_000);
    app.clock.set(at.toISOString());
    assert.ok(timeoutTick(app.ctx, at) >= 1);
    assert.equal((await getRequest(id)).status, 'CANCELED');
    const events = (await app.api.get('/events', { object_filter: id, event_type_filter: 'REQUESTS_CANCELED' })).body.results;
    assert.equal(events.length, 1);
    assert.equal(events[0].sub_events[0].cause, 'timeout');
    assert.equal(await countEvents(app.api, { type: 'REQUESTS_CANCELED', object: decided }), 1, 'a decided request is left alone');
    assert.equal(timeoutTick(app.ctx, at), 0);
  });

  describe('delegations', () => {
    it('while in force the delegate reviews in the delegator\'s place and answers say so; outside its window it does nothing', async () => {
      const [reviewer, delegate] = [await createMember(app.api), await createMember(app.api)];
      const owner = await ownerOf(app, reviewer);
      const resource = await requestableResource(app, fallback.owner_id, [config({ reviewer_stages: [stage({ owner_ids: [owner.owner_id] })] })]);
      const now = app.clock.now().getTime();
      const start = new Date(now + 60 * 60_000).toISOString();
      const end = new Date(now + 2 * 60 * 60_000).toISOString();
      const created = await reviewer.api.post('/delegations', { delegator_user_id: reviewer.user_id, delegate_user_id: delegate.user_id, start_time: start, end_time: end, reason: 'on leave' });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const id = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });

      assert.equal((await approve(delegate, id)).status, 404, 'before the window the delegate takes no part');
      app.clock.set(start);
      const during = await getRequest(id);
      assert.deepEqual(during.reviewer_stages[0].stages[0].reviewers, [
        { id: delegate.user_id, full_name: delegate.full_name, status: 'PENDING', delegated_from_user_id: reviewer.user_id, decision_needed: true },
      ]);
      const dry = await postRequest(alice.api, { resources: [{ id: resource.resource_id }] }, { dry_run: 'true' });
      assert.equal(dry.body.items[0].stages[0].reviewers[0].delegation_id, created.body.id);
      assert.equal((await approve(reviewer, id)).status, 403, 'the delegator has handed over');
      app.clock.set(end);
      assert.equal((await approve(delegate, id)).status, 404, 'the window has closed: the delegate takes no part');
      app.clock.set(start);
      const res = await approve(delegate, id);
      assert.equal(res.body.request.status, 'APPROVED');
      app.clock.set(end);
      assert.deepEqual(res.body.request.reviewer_stages[0].stages[0].reviewers[0].delegated_from_user_id, reviewer.user_id);
      assert.equal((await getRequest(id)).reviewer_stages[0].stages[0].reviewers[0].id, delegate.user_id, 'who decided stays on record');
      const approved = (await app.api.get('/events', { object_filter: id, event_type_filter: 'REQUESTS_APPROVED' })).body.results;
      assert.equal(approved[0].sub_events[0].delegation_id, created.body.id);
    });
  });

  it('deleting a delegation hands the reviews back to the delegator at once', async () => {
    const [reviewer, delegate] = [await createMember(app.api), await createMember(app.api)];
    const resource = await requestableResource(app, fallback.owner_id, [config({ reviewer_stages: [stage({ owner_ids: [(await ownerOf(app, reviewer)).owner_id] })] })]);
    const delegation = await reviewer.api.post('/delegations', {
      delegator_user_id: reviewer.user_id, delegate_user_id: delegate.user_id,
      start_time: app.clock.now().toISOString(), end_time: new Date(app.clock.now().getTime() + 3_600_000).toISOString(), reason: 'away',
    });
    const id = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
    assert.equal((await delegate.api.post(`/requests/${id}/comments`, { comment: 'looking' })).status, 200, 'a delegate may comment');
    assert.equal((await reviewer.api.delete(`/delegations/${delegation.body.id}`)).status, 200);
    assert.equal((await approve(delegate, id)).status, 404, 'no longer a delegate: no part in it');
    assert.deepEqual(reviewerIds(await getRequest(id)), [[[reviewer.user_id]]]);
    assert.equal((await approve(reviewer, id)).body.request.status, 'APPROVED');
  });

  describe('dry run', () => {
    it('answers what would be created and why, and writes nothing', async () => {
      const [y] = [await createMember(app.api)];
      const ownerY = await ownerOf(app, y);
      const g = await createGroup(app.api);
      assert.equal((await app.api.post(`/groups/${g.group_id}/users/${alice.user_id}`, { duration_minutes: 0 })).status, 200);
      const reviewed = await requestableResource(app, fallback.owner_id, [
        config({ priority: 0, auto_approval: true }),
        config({ priority: 1, condition: { group_ids: [g.group_id] }, reviewer_stages: [stage({ operator: 'AND', owner_ids: [ownerY.owner_id] })] }),
      ]);
      const auto = await requestableResource(app, fallback.owner_id, [config({ auto_approval: true })]);
      const eventsBefore = (await app.api.get('/events', { page_size: 1 })).body.results[0].event_id;
      const listBefore = (await app.api.get('/requests', { page_size: 1000 })).body;
      const body = { resources: [{ id: reviewed.resource_id }, { id: auto.resource_id }] };
      const res = await postRequest(alice.api, body, { dry_run: 'true' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.dry_run, true);
      assert.equal(res.body.would_be_approved_at_once, false);
      const [first, second] = res.body.items;
      assert.equal(first.configuration.priority, 1);
      assert.equal(first.configuration.matched_group_id, g.group_id);
      assert.match(first.configuration.why, /priority 1/);
      assert.equal(first.auto_approved, false);
      assert.deepEqual(first.stages, [{ stage: 1, operator: 'AND', reviewers: [{ id: y.user_id, full_name: y.full_name, why: `a member of the team "${ownerY.name}"` }] }]);
      assert.equal(second.auto_approved, true);
      assert.deepEqual(second.stages, []);
      assert.equal((await app.api.get('/events', { page_size: 1 })).body.results[0].event_id, eventsBefore);
      assert.deepEqual((await app.api.get('/requests', { page_size: 1000 })).body, listBefore);

      const refused = await postRequest(alice.api, { ...body, duration_minutes: 0 }, { dry_run: 'true' });
      assert.equal(refused.status, 400, 'a dry run checks everything a real one does');
      assert.equal((await postRequest(alice.api, body, { dry_run: 'maybe' })).status, 400);
      // In any case, like every boolean in a query; still nothing written.
      const shouted = await postRequest(alice.api, body, { dry_run: 'TRUE' });
      assert.equal(shouted.status, 200, JSON.stringify(shouted.body));
      assert.equal(shouted.body.dry_run, true);
      assert.equal((await app.api.get('/events', { page_size: 1 })).body.results[0].event_id, eventsBefore);
    });
  });
});

describe('the pending timeout setting', () => {
  it('GATEHOUSE_REQUEST_TIMEOUT_MINUTES sets the time; 0 turns the timeout off', async () => {
    for (const [minutes, expected] of [['60', 'CANCELED'], ['0', 'PENDING']] as const) {
      const app = await startTestApp({ env: { GATEHOUSE_REQUEST_TIMEOUT_MINUTES: minutes } });
      try {
        const alice = await createMember(app.api);
        const resource = await requestableResource(app, (await ownerOf(app, await createMember(app.api))).owner_id);
        const reviewer = await createMember(app.api);
        const owned = await requestableResource(app, (await ownerOf(app, reviewer)).owner_id);
        const id = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
        const late = await makeRequest(alice.api, { resources: [{ id: owned.resource_id }] });
        app.clock.advance(60 * 60_000);
        // Timed out but not yet swept: nobody decides it in between.
        const approval = await reviewer.api.post(`/requests/${late}/approve`, { level: 'REGULAR' });
        if (minutes === '60') {
          assert.equal(approval.status, 409, JSON.stringify(approval.body));
          assert.match(approval.body.message, /timed out/);
        } else {
          assert.equal(approval.body.request.status, 'APPROVED');
        }
        timeoutTick(app.ctx, app.clock.now());
        assert.equal((await app.api.get(`/requests/${id}`)).body.status, expected, `${minutes} minutes`);
      } finally {
        await app.close();
      }
    }
  });
});
