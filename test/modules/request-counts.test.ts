// Home's counts from the server: GET /v1/requests/counts and GET /v1/requests?awaiting_my_review=true,
// exact past one page of 200 (current stages only, delegations followed, decided requests gone, never a
// request for a group the reviewer holds).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createGroup, createMember, type Signed } from '../helpers/fixtures.ts';
import { config, makeRequest, ownerOf, requestableResource, stage } from '../helpers/requests.ts';

describe('request counts for Home', () => {
  let app: TestApp;
  let reviewer: Signed;
  let requesters: Signed[];
  const REQUESTERS = 10;
  const RESOURCES = 21;
  const counts = async (who: Signed) => {
    const res = await who.api.get('/requests/counts');
    assert.equal(res.status, 200);
    return res.body as { awaiting_my_review: number; my_pending: number };
  };
  const awaiting = async (who: Signed, cursor?: string) => (await who.api.get('/requests', { awaiting_my_review: 'true', page_size: 200, cursor })).body;

  before(async () => {
    app = await startTestApp();
    reviewer = await createMember(app.api);
    requesters = [];
    for (let i = 0; i < REQUESTERS; i++) requesters.push(await createMember(app.api));
    const fallback = await ownerOf(app, { user_id: app.adminUserId });
    const reviewers = await ownerOf(app, reviewer);
    for (let r = 0; r < RESOURCES; r++) {
      const resource = await requestableResource(app, fallback.owner_id, [config({ reviewer_stages: [stage({ owner_ids: [reviewers.owner_id] })] })]);
      for (const requester of requesters) await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    }
  });
  after(() => app.close());

  it('counts every request waiting for a reviewer past one page of 200, and lists them page by page', async () => {
    assert.deepEqual(await counts(reviewer), { awaiting_my_review: REQUESTERS * RESOURCES, my_pending: 0 });
    assert.deepEqual(await counts(requesters[0]!), { awaiting_my_review: 0, my_pending: RESOURCES });
    const first = await awaiting(reviewer);
    assert.equal(first.requests.length, 200);
    const second = await awaiting(reviewer, first.cursor);
    assert.equal(second.requests.length, REQUESTERS * RESOURCES - 200);
    assert.equal(second.cursor, undefined);
    assert.deepEqual((await awaiting(requesters[0]!)).requests, [], 'a requester reviews none of their own');
  });

  it('counts only current stages, follows a delegation, and drops what is decided', async () => {
    const first = await createMember(app.api);
    const fallback = await ownerOf(app, { user_id: app.adminUserId });
    const [stageOne, stageTwo] = [await ownerOf(app, first), await ownerOf(app, reviewer)];
    const resource = await requestableResource(app, fallback.owner_id, [config({
      reviewer_stages: [stage({ stage: 1, owner_ids: [stageOne.owner_id] }), stage({ stage: 2, owner_ids: [stageTwo.owner_id] })],
    })]);
    const before = (await counts(reviewer)).awaiting_my_review;
    const id = await makeRequest(requesters[0]!.api, { resources: [{ id: resource.resource_id }] });
    assert.equal((await counts(reviewer)).awaiting_my_review, before, 'stage 2 is not yet theirs to decide');
    assert.equal((await counts(first)).awaiting_my_review, 1);
    assert.equal((await first.api.post(`/requests/${id}/approve`, { level: 'REGULAR' })).status, 200);
    assert.equal((await counts(first)).awaiting_my_review, 0);
    assert.equal((await counts(reviewer)).awaiting_my_review, before + 1, 'now stage 2 is current');

    const delegate = await createMember(app.api);
    const hours = (n: number) => new Date(app.clock.now().getTime() + n * 3_600_000).toISOString();
    const delegation = await reviewer.api.post('/delegations', {
      delegator_user_id: reviewer.user_id, delegate_user_id: delegate.user_id, start_time: hours(0), end_time: hours(24), reason: 'holiday',
    });
    assert.equal(delegation.status, 200, JSON.stringify(delegation.body));
    assert.equal((await counts(delegate)).awaiting_my_review, before + 1, 'the delegate decides in their place');
    assert.equal((await counts(reviewer)).awaiting_my_review, 0, 'handed over while the delegation holds');
    app.clock.advance(25 * 3_600_000);
    assert.equal((await counts(delegate)).awaiting_my_review, 0);
    assert.equal((await counts(reviewer)).awaiting_my_review, before + 1);

    assert.equal((await reviewer.api.post(`/requests/${id}/deny`, { comment: 'not now' })).status, 200);
    assert.equal((await counts(reviewer)).awaiting_my_review, before);
    assert.equal((await counts(requesters[0]!)).my_pending, RESOURCES);
  });

  it('leaves out a request for a group the reviewer holds, which deciding would refuse', async () => {
    const [inside, outside] = [await createMember(app.api), await createMember(app.api)];
    const fallback = await ownerOf(app, { user_id: app.adminUserId });
    const reviewers = await ownerOf(app, inside, outside);
    const resource = await requestableResource(app, fallback.owner_id, [config({ reviewer_stages: [stage({ operator: 'OR', owner_ids: [reviewers.owner_id] })] })]);
    const leader = requesters[1]!;
    const team = await createGroup(app.api, { group_leader_user_ids: [leader.user_id] });
    assert.equal((await app.api.post(`/groups/${team.group_id}/users/${inside.user_id}`, { duration_minutes: 0 })).status, 200);
    const id = await makeRequest(leader.api, { resources: [{ id: resource.resource_id }], target_group_id: team.group_id });
    assert.equal((await counts(inside)).awaiting_my_review, 0, 'a member of the target group would give themselves access');
    assert.deepEqual((await awaiting(inside)).requests, []);
    assert.equal((await inside.api.post(`/requests/${id}/approve`, { level: 'REGULAR' })).status, 403, 'and deciding refuses them');
    assert.equal((await counts(outside)).awaiting_my_review, 1);
    assert.deepEqual((await awaiting(outside)).requests.map((r: { id: string }) => r.id), [id]);
  });
});
