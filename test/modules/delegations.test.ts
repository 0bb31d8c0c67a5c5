// Delegations through HTTP: create with its rules, read, list with filters and paging, delete, events.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createMember, createUser, NO_SUCH_ID, type Signed } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';
import { countEvents } from '../helpers/events.ts';

describe('delegations', () => {
  let app: TestApp;
  let dora: Signed;
  let dave: Signed;
  let other: Signed;
  const hours = (n: number) => new Date(app.clock.now().getTime() + n * 3_600_000).toISOString();

  before(async () => {
    app = await startTestApp();
    [dora, dave, other] = [await createMember(app.api), await createMember(app.api), await createMember(app.api)];
  });
  after(() => app.close());

  const body = (overrides: Record<string, unknown> = {}) => ({
    delegator_user_id: dora.user_id, delegate_user_id: dave.user_id, start_time: hours(0), end_time: hours(24), reason: 'holiday', ...overrides,
  });

  it('creates a delegation, reads it back, lists it by delegator and delegate, and deletes it, recording both', async () => {
    const res = await dora.api.post('/delegations', body({ delegator_user_id: dora.user_id.toUpperCase(), start_time: '2026-03-01 09:00:00+00:00' }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.delegator_user_id, dora.user_id);
    assert.equal(res.body.start_time, '2026-03-01T09:00:00.000Z');
    assert.equal(res.body.reason, 'holiday');
    assert.deepEqual((await app.api.get(`/delegations/${res.body.id}`)).body, res.body);
    const byDelegator = await app.api.get('/delegations', { delegator_user_id: dora.user_id });
    assert.deepEqual(byDelegator.body.results, [res.body]);
    assert.equal(byDelegator.body.total_count, 1);
    assert.deepEqual((await app.api.get('/delegations', { delegate_user_id: dave.user_id })).body.results, [res.body]);
    assert.deepEqual((await app.api.get('/delegations', { delegate_user_id: other.user_id })).body.results, []);
    const created = (await app.api.get('/events', { object_filter: res.body.id })).body.results;
    assert.deepEqual(created.map((e: { event_type: string }) => e.event_type), ['DELEGATIONS_CREATED']);

    assert.equal((await other.api.delete(`/delegations/${res.body.id}`)).status, 403, 'neither its delegator nor an admin');
    assert.equal((await dora.api.delete(`/delegations/${res.body.id}`)).status, 200);
    assert.equal((await app.api.get(`/delegations/${res.body.id}`)).status, 404);
    assert.equal((await app.api.delete(`/delegations/${res.body.id}`)).status, 404);
    assert.equal(await countEvents(app.api, { type: 'DELEGATIONS_DELETED' }), 1);
  });

  it('refuses a bad delegation naming the field, and records nothing', async () => {
    const cases: [Record<string, unknown>, number, string[]][] = [
      [{ delegator_user_id: undefined, reason: undefined }, 400, ['delegator_user_id', 'reason']],
      [{ delegate_user_id: dora.user_id }, 400, ['delegate_user_id']],
      [{ end_time: hours(0), start_time: hours(1) }, 400, ['end_time']],
      [{ start_time: hours(-3), end_time: hours(-1) }, 400, ['end_time']],
      [{ start_time: '2026-02-30T00:00:00Z' }, 400, ['start_time']],
      [{ start_time: 'tomorrow' }, 400, ['start_time']],
      [{ reason: ' ' }, 400, ['reason']],
      [{ delegate_user_id: NO_SUCH_ID }, 404, ['delegate_user_id']],
      [{ delegator_user_id: other.user_id }, 403, ['delegator_user_id']],
    ];
    const suspended = await createUser(app.api);
    assert.equal((await app.api.put(`/users/${suspended.user_id}`, { hr_idp_status: 'SUSPENDED' })).status, 200);
    cases.push([{ delegate_user_id: suspended.user_id }, 400, ['delegate_user_id']]);
    const before = await countEvents(app.api, { type: 'DELEGATIONS_CREATED' });
    for (const [overrides, status, expected] of cases) {
      const res = await dora.api.post('/delegations', body(overrides));
      assert.equal(res.status, status, JSON.stringify(overrides));
      assert.deepEqual(errorPaths(res.body), expected, JSON.stringify(overrides));
    }
    assert.equal(await countEvents(app.api, { type: 'DELEGATIONS_CREATED' }), before);
  });

  it('refuses a window overlapping another of the same delegator (409); an admin may delegate for anyone; lists page', async () => {
    const first = await app.api.post('/delegations', body({ delegator_user_id: other.user_id, start_time: hours(10), end_time: hours(20) }));
    assert.equal(first.status, 200);
    const overlap = await app.api.post('/delegations', body({ delegator_user_id: other.user_id, start_time: hours(19), end_time: hours(30) }));
    assert.equal(overlap.status, 409);
    const adjacent = await app.api.post('/delegations', body({ delegator_user_id: other.user_id, start_time: hours(20), end_time: hours(30) }));
    assert.equal(adjacent.status, 200, 'a window may start where another ends');
    const page1 = await app.api.get('/delegations', { delegator_user_id: other.user_id, page_size: 1 });
    assert.equal(page1.body.results.length, 1);
    assert.equal(page1.body.total_count, 2);
    const page2 = await app.api.get('/delegations', { delegator_user_id: other.user_id, page_size: 1, cursor: page1.body.next });
    assert.deepEqual([page1.body.results[0].id, page2.body.results[0].id], [first.body.id, adjacent.body.id]);
    assert.equal(page2.body.next, null);
  });
});
