// Racing decisions on one request over real concurrent HTTP requests: exactly one final state, at most one grant.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { config, makeRequest, ownerOf, requestableResource, stage } from '../helpers/requests.ts';
import { createAdmin, createMember, type Signed } from '../helpers/fixtures.ts';

const ROUNDS = 8;

describe('racing decisions on a request', () => {
  let app: TestApp;
  let alice: Signed;
  let a: Signed;
  let b: Signed;
  let admin2: Signed;
  let owners: { or: string; and: string };

  before(async () => {
    app = await startTestApp();
    [alice, a, b] = [await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    admin2 = await createAdmin(app.api);
    const [both, onlyA, onlyB] = [await ownerOf(app, a, b), await ownerOf(app, a), await ownerOf(app, b)];
    owners = { or: both.owner_id, and: `${onlyA.owner_id},${onlyB.owner_id}` };
  });
  after(() => app.close());

  /** RESOURCE_USERS_ADDED/UPDATED events the request's grant recorded. */
  const grants = async (requestId: string) => {
    const events = (await app.api.get('/events', { object_filter: requestId, page_size: 1000 })).body.results as { event_type: string }[];
    return events.filter((e) => e.event_type.startsWith('RESOURCE_USERS_')).length;
  };
  const finals = async (requestId: string) => {
    const events = (await app.api.get('/events', { object_filter: requestId, page_size: 1000 })).body.results as { event_type: string }[];
    return events.filter((e) => ['REQUESTS_APPROVED', 'REQUESTS_DENIED', 'REQUESTS_CANCELED'].includes(e.event_type)).map((e) => e.event_type);
  };
  const orResource = () => requestableResource(app, owners.or, [config({ reviewer_stages: [stage({ owner_ids: [owners.or] })] })]);

  it('an approval and a denial racing: one wins, the other gets 409, and a grant exists exactly when it was the approval', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const resource = await orResource();
      const id = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
      const [approved, denied] = await Promise.all([
        a.api.post(`/requests/${id}/approve`, { level: 'REGULAR' }),
        b.api.post(`/requests/${id}/deny`, { comment: 'no' }),
      ]);
      assert.deepEqual([approved.status, denied.status].sort(), [200, 409], `round ${round}`);
      const status = (await app.api.get(`/requests/${id}`)).body.status;
      assert.equal(status, approved.status === 200 ? 'APPROVED' : 'DENIED');
      assert.deepEqual(await finals(id), [status === 'APPROVED' ? 'REQUESTS_APPROVED' : 'REQUESTS_DENIED']);
      assert.equal(await grants(id), status === 'APPROVED' ? 1 : 0);
      const holders = (await app.api.get(`/resources/${resource.resource_id}/users`)).body.results.length;
      assert.equal(holders, status === 'APPROVED' ? 1 : 0);
    }
  });

  it('two ADMIN approvals racing: one 200, one 409, one grant', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const resource = await orResource();
      const id = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
      const answers = await Promise.all([
        app.api.post(`/requests/${id}/approve`, { level: 'ADMIN' }),
        admin2.api.post(`/requests/${id}/approve`, { level: 'ADMIN' }),
      ]);
      assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409], `round ${round}`);
      assert.deepEqual(await finals(id), ['REQUESTS_APPROVED']);
      assert.equal(await grants(id), 1);
    }
  });

  it('both reviewers of an AND stage approving at once: both count, the request is approved once and granted once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const resource = await requestableResource(app, owners.or, [config({ reviewer_stages: [stage({ operator: 'AND', owner_ids: owners.and.split(',') })] })]);
      const id = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
      const answers = await Promise.all([a.api.post(`/requests/${id}/approve`, { level: 'REGULAR' }), b.api.post(`/requests/${id}/approve`, { level: 'REGULAR' })]);
      assert.deepEqual(answers.map((r) => r.status), [200, 200], `round ${round}`);
      assert.deepEqual(answers.map((r) => r.body.request.status).sort(), ['APPROVED', 'PENDING']);
      assert.deepEqual(await finals(id), ['REQUESTS_APPROVED']);
      assert.equal(await grants(id), 1);
    }
  });

  it('a cancel racing an approval: exactly one final state', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const resource = await orResource();
      const id = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
      const [canceled, approved] = await Promise.all([
        alice.api.post(`/requests/${id}/cancel`),
        a.api.post(`/requests/${id}/approve`, { level: 'REGULAR' }),
      ]);
      assert.deepEqual([canceled.status, approved.status].sort(), [200, 409], `round ${round}`);
      assert.equal((await finals(id)).length, 1);
      assert.equal(await grants(id), approved.status === 200 ? 1 : 0);
    }
  });
});
