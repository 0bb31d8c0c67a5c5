// Closing an access review before its deadline (issue 41.8): its owner or an admin does now what the
// deadline would — decided revokes carried out, unanswered rows as the review's policy says — and nobody
// else may; decisions are refused after, and the deadline job leaves the closed review alone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closeDueReviews } from '../../src/modules/uar-decisions/service.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { errorPaths } from '../helpers/errors.ts';
import { readEvents } from '../helpers/events.ts';
import { createAdmin, createMember, createResource, NO_SUCH_ID, type Signed } from '../helpers/fixtures.ts';

describe('closing an access review early', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  /** A resource three members hold directly, and a review of it started by `owner` (an admin), assigned to `reviewer`. */
  async function setUp(owner: Signed, policy: 'KEEP' | 'REVOKE') {
    const resource = (await createResource(app.api)).resource_id;
    const holders = [await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    for (const who of holders) assert.equal((await app.api.post(`/resources/${resource}/users/${who.user_id}`, { duration_minutes: 0 })).status, 200);
    const reviewer = await createMember(app.api);
    const uar = await owner.api.post('/uar', {
      name: 'Quarterly', reviewer_assignment_policy: 'MANUALLY', send_reviewer_assignment_notification: false, time_zone: 'UTC', self_review_allowed: false,
      deadline: new Date(app.clock.now().getTime() + 7 * 86_400_000).toISOString(), uar_scope: { entities: [resource] },
    });
    assert.equal(uar.status, 200, JSON.stringify(uar.body));
    const uarId = uar.body.uar_id as string;
    const items = (await app.api.get(`/uar/${uarId}/items`)).body.results as { uar_item_id: number; user_id: string }[];
    const row = (who: Signed) => items.find((r) => r.user_id === who.user_id)!.uar_item_id;
    assert.equal((await app.api.post(`/uar/${uarId}/assignments`, { assignments: items.map((r) => ({ uar_item_id: r.uar_item_id, reviewer_ids: [reviewer.user_id] })) })).status, 200);
    assert.equal((await app.api.put(`/uar/${uarId}/policy`, { unanswered_decision: policy })).status, 200);
    const [kept, revoked, silent] = holders;
    const decided = await reviewer.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: row(kept!), decision: 'KEEP' }, { uar_item_id: row(revoked!), decision: 'REVOKE' }] });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    return { resource, uarId, reviewer, kept: kept!, revoked: revoked!, silent: silent!, row };
  }
  const holdersOf = async (resource: string) => (await app.api.get(`/resources/${resource}/users`)).body.results.map((r: { user_id: string }) => r.user_id);

  it('its owner closes it now: decided revokes end, unanswered rows follow the policy, decisions are refused after, recorded as UARS_CLOSED by the owner', async () => {
    const owner = await createAdmin(app.api);
    const { resource, uarId, reviewer, kept, revoked, silent, row } = await setUp(owner, 'REVOKE');
    assert.ok((await holdersOf(resource)).includes(revoked.user_id), 'the revoke waits for the close');
    const closed = await owner.api.post(`/uar/${uarId}/close`);
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    assert.deepEqual(closed.body, { uar_id: uarId, unanswered_decision: 'REVOKE', closed_at: app.clock.now().toISOString() });
    const now = await holdersOf(resource);
    assert.ok(now.includes(kept.user_id), 'kept');
    assert.ok(!now.includes(revoked.user_id), 'the decided revoke is carried out at once');
    assert.ok(!now.includes(silent.user_id), 'unanswered: revoked, as the review\'s policy says');
    const events = await readEvents(app.api, { type: 'UARS_CLOSED', object: uarId });
    assert.equal(events.length, 1);
    assert.equal(events[0]!.actor_user_id, owner.user_id);
    assert.equal(events[0]!.sub_events[0]!.closed_early, true);
    // Decisions, and a second close, are refused; the deadline job later changes nothing.
    const late = await reviewer.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: row(kept), decision: 'REVOKE' }] });
    assert.equal(late.status, 409);
    const again = await owner.api.post(`/uar/${uarId}/close`);
    assert.equal(again.status, 409);
    assert.deepEqual(errorPaths(again.body), ['uar_id']);
    app.clock.advance(8 * 86_400_000);
    closeDueReviews(app.ctx, app.clock.now());
    assert.equal((await readEvents(app.api, { type: 'UARS_CLOSED', object: uarId })).length, 1);
    assert.ok((await holdersOf(resource)).includes(kept.user_id));
  });

  it('any admin may close it; with KEEP, unanswered rows stay', async () => {
    const owner = await createAdmin(app.api);
    const { resource, uarId, kept, revoked, silent } = await setUp(owner, 'KEEP');
    const closed = await app.api.post(`/uar/${uarId}/close`);
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const now = await holdersOf(resource);
    assert.deepEqual([now.includes(kept.user_id), now.includes(revoked.user_id), now.includes(silent.user_id)], [true, false, true]);
  });

  it('a reviewer who does not own it gets 403, a member with no part 404, an unknown review 404, a READ_ONLY token 403 — and nothing closes', async () => {
    const owner = await createAdmin(app.api);
    const { uarId, reviewer, resource, revoked } = await setUp(owner, 'KEEP');
    const refused = await reviewer.api.post(`/uar/${uarId}/close`);
    assert.equal(refused.status, 403);
    assert.deepEqual(errorPaths(refused.body), ['uar_id']);
    assert.equal((await (await createMember(app.api)).api.post(`/uar/${uarId}/close`)).status, 404);
    assert.equal((await app.api.post(`/uar/${NO_SUCH_ID}/close`)).status, 404);
    const readOnly = await createAdmin(app.api, {}, { access_level: 'READ_ONLY' });
    assert.equal((await readOnly.api.post(`/uar/${uarId}/close`)).status, 403);
    assert.equal((await app.api.get(`/uar/${uarId}/items`)).body.closed_at, null);
    assert.ok((await holdersOf(resource)).includes(revoked.user_id));
    assert.equal((await readEvents(app.api, { type: 'UARS_CLOSED', object: uarId })).length, 0);
  });
});
