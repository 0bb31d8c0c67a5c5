// Access reviews that act: decisions through HTTP end access through the access graph, all or nothing,
// and the deadline applies the review's explicit policy to unanswered rows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closeDueReviews } from '../../src/modules/uar-decisions/service.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createGroup, createMember, createResource } from '../helpers/fixtures.ts';

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
  async function setUp() {
    const resource = await createResource(app.api);
    const group = await createGroup(app.api);
    const [alice, bob, carol] = await Promise.all([createMember(app.api), createMember(app.api), createMember(app.api)]);
    for (const who of [alice, bob]) assert.equal((await app.api.post(`/resources/${resource.resource_id}/users/${who.user.user_id}`, { duration_minutes: 0 })).status, 200);
    assert.equal((await app.api.post(`/groups/${group.group_id}/users/${carol.user.user_id}`, { duration_minutes: 0 })).status, 200);
    assert.equal((await app.api.post(`/groups/${group.group_id}/resources/${resource.resource_id}`, { duration_minutes: 0 })).status, 200);
    const uar = await app.api.post('/uar', { ...REVIEW, deadline: new Date(app.clock.now().getTime() + 7 * 86_400_000).toISOString(), uar_scope: { entities: [resource.resource_id] } });
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
    const now = await holders(resource.resource_id);
    assert.ok(!now.includes(alice.user_id), 'alice\'s access ended');
    assert.ok(now.includes(bob.user_id));
    const removed = await app.api.get('/events', { event_type_filter: 'RESOURCE_USERS_REMOVED', object_filter: alice.user_id });
    assert.equal(removed.body.results.length, 1);
    const recorded = await app.api.get('/events', { event_type_filter: 'UAR_REVIEWS_DECIDED', object_filter: uarId });
    assert.deepEqual(recorded.body.results[0].sub_events.map((s: { sub_event_type: string }) => s.sub_event_type), ['UAR_ITEM_REVOKE', 'UAR_ITEM_KEEP', 'UAR_ITEM_LATER']);

    const unknown = await app.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: 999999, decision: 'KEEP' }] });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.details[0].path, 'decisions.0.uar_item_id');
  });

  it('a member can neither read the items nor decide', async () => {
    const { uarId, alice } = await setUp();
    const member = await createMember(app.api);
    assert.equal((await member.api.get(`/uar/${uarId}/items`)).status, 403);
    assert.equal((await member.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: alice.uar_item_id, decision: 'REVOKE' }] })).status, 403);
    assert.equal((await member.api.put(`/uar/${uarId}/policy`, { unanswered_decision: 'REVOKE' })).status, 403);
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
  });
});
