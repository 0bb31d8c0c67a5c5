// On-call schedules that live (issue 38), through HTTP against stateful PagerDuty and Opsgenie stand-ins:
// adding a schedule checks it with the provider; a group linked to it holds whoever is on call until their
// shift ends, loses them at handover, is extended by nobody during an outage; hand-added members stay;
// the audit trail names the schedule and shift; PagerDuty incidents for break-glass.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createGroup, createMember, createUser, NO_SUCH_ID } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';
import { config, ownerOf, postRequest, requestableResource } from '../helpers/requests.ts';
import { readEvents } from '../helpers/events.ts';
import { OPSGENIE_KEY, OpsgenieStandIn, PAGERDUTY_TOKEN, PagerDutyStandIn } from '../helpers/on-call-stand-ins.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { syncOnCall } from '../../src/modules/on-call/sync.ts';
import { lookUpIncident } from '../../src/modules/on-call/service.ts';
import { until } from '../helpers/wait.ts';
import { render } from '../../src/modules/notifications/render.ts';

const HOUR = 3_600_000;
const T0 = '2026-03-01T09:00:00.000Z';
const at = (hours: number) => new Date(Date.parse(T0) + hours * HOUR).toISOString();

describe('on-call schedules', () => {
  const clock = new ManualClock(T0);
  let app: TestApp;
  let pd: PagerDutyStandIn;
  let og: OpsgenieStandIn;

  before(async () => {
    pd = await PagerDutyStandIn.start(() => clock.now());
    og = await OpsgenieStandIn.start(() => clock.now());
    app = await startTestApp({
      clock,
      env: {
        GATEHOUSE_PAGERDUTY_TOKEN: PAGERDUTY_TOKEN, GATEHOUSE_PAGERDUTY_API_URL: pd.url,
        GATEHOUSE_OPSGENIE_API_KEY: OPSGENIE_KEY, GATEHOUSE_OPSGENIE_API_URL: og.url,
        // Notices are queued only where a channel is set up; nothing is sent (no job runs).
        GATEHOUSE_SMTP_URL: 'smtp://127.0.0.1:9',
      },
    });
  });
  after(async () => {
    await app.close();
    await pd.close();
    await og.close();
    assert.deepEqual(pd.violations, [], 'every PagerDuty answer fits its public document');
    assert.deepEqual(og.violations, [], 'every Opsgenie answer fits its public document');
  });

  const members = async (groupId: string) => {
    const res = await app.api.get(`/groups/${groupId}/users`);
    assert.equal(res.status, 200);
    return (res.body.results as { user_id: string; expiration_date?: string | null }[])
      .map((m) => ({ user_id: m.user_id, expiration_date: m.expiration_date ?? null }))
      .sort((a, b) => a.user_id.localeCompare(b.user_id));
  };
  const sync = () => syncOnCall(app.ctx, clock.now());
  /** Records the PagerDuty schedule `remote` and a new group that follows it. */
  const followed = async (remote: string) => {
    const schedule = (await app.api.post('/on-call-schedules', { third_party_provider: 'PAGER_DUTY', remote_id: remote })).body as { on_call_schedule_id: string; name: string };
    const group = await createGroup(app.api);
    const linked = await app.api.put(`/groups/${group.group_id}/on-call-schedules`, { on_call_schedule_ids: [schedule.on_call_schedule_id] });
    assert.equal(linked.status, 200, JSON.stringify(linked.body));
    return { schedule, group };
  };

  test('POST /on-call-schedules asks PagerDuty, stores its name, and calls it as its API asks', async () => {
    const remote = pd.addSchedule('Payments primary');
    const res = await app.api.post('/on-call-schedules', { third_party_provider: 'PAGER_DUTY', remote_id: remote });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.name, 'Payments primary');
    assert.equal(res.body.remote_id, remote);
    const call = pd.calls.at(-1)!;
    assert.equal(call.path, `/schedules/${remote}`);
    assert.equal(call.headers.authorization, `Token token=${PAGERDUTY_TOKEN}`);
    assert.equal(call.headers.accept, 'application/vnd.pagerduty+json;version=2');
    const got = await app.api.get(`/on-call-schedules/${res.body.on_call_schedule_id}`);
    assert.deepEqual(got.body, res.body);
    const list = await app.api.get('/on-call-schedules');
    assert.ok((list.body.on_call_schedules as { on_call_schedule_id: string }[]).some((s) => s.on_call_schedule_id === res.body.on_call_schedule_id));
    const [event] = await readEvents(app.api, { type: 'ON_CALL_SCHEDULES_CREATED', object: res.body.on_call_schedule_id });
    assert.equal(event!.sub_events[0]!.on_call_schedule_name, 'Payments primary');
    const again = await app.api.post('/on-call-schedules', { third_party_provider: 'PAGER_DUTY', remote_id: remote });
    assert.equal(again.status, 409);
    assert.deepEqual(errorPaths(again.body), ['remote_id']);
  });

  test('an unknown remote id, a provider down, bad input and a READ_ONLY token store nothing', async () => {
    const before = (await app.api.get('/on-call-schedules')).body.on_call_schedules.length;
    const unknown = await app.api.post('/on-call-schedules', { third_party_provider: 'PAGER_DUTY', remote_id: 'PNOSUCH' });
    assert.equal(unknown.status, 400);
    assert.deepEqual(errorPaths(unknown.body), ['remote_id']);
    const unknownOg = await app.api.post('/on-call-schedules', { third_party_provider: 'OPSGENIE', remote_id: 'no-such' });
    assert.equal(unknownOg.status, 400);
    const remote = pd.addSchedule('Down');
    pd.outage = 503;
    const down = await app.api.post('/on-call-schedules', { third_party_provider: 'PAGER_DUTY', remote_id: remote }, { expectServerError: true }).finally(() => (pd.outage = null));
    assert.equal(down.status, 503);
    assert.match(down.body.message, /PagerDuty/);
    const bad = await app.api.post('/on-call-schedules', { third_party_provider: 'VICTOROPS', remote_id: '' });
    assert.equal(bad.status, 400);
    assert.deepEqual(errorPaths(bad.body), ['remote_id', 'third_party_provider']);
    const reader = await createMember(app.api, { organization_role: 'ADMIN' }, { access_level: 'READ_ONLY' });
    const readOnly = await reader.api.post('/on-call-schedules', { third_party_provider: 'PAGER_DUTY', remote_id: remote });
    assert.equal(readOnly.status, 403);
    assert.equal((await app.api.get('/on-call-schedules')).body.on_call_schedules.length, before);
  });

  test('a provider that is not set up is refused naming its setting', async () => {
    const bare = await startTestApp();
    try {
      const res = await bare.api.post('/on-call-schedules', { third_party_provider: 'OPSGENIE', remote_id: 'abc' });
      assert.equal(res.status, 400);
      assert.deepEqual(errorPaths(res.body), ['third_party_provider']);
      assert.match(res.body.message, /GATEHOUSE_OPSGENIE_API_KEY/);
    } finally {
      await bare.close();
    }
  });

  test('a credential the provider refuses (401, 403) is a 400 naming its setting; an unreachable provider stays 503', async () => {
    const remote = pd.addSchedule('Refused');
    const ogRemote = og.addSchedule('Refused (OG)');
    // The stand-ins answer 401 to any other token, as PagerDuty and Opsgenie do.
    const wrong = await startTestApp({
      env: {
        GATEHOUSE_PAGERDUTY_TOKEN: 'u+not-the-token', GATEHOUSE_PAGERDUTY_API_URL: pd.url,
        GATEHOUSE_OPSGENIE_API_KEY: 'not-the-key', GATEHOUSE_OPSGENIE_API_URL: og.url,
      },
    });
    try {
      for (const [provider, id, setting] of [['PAGER_DUTY', remote, 'GATEHOUSE_PAGERDUTY_TOKEN'], ['OPSGENIE', ogRemote, 'GATEHOUSE_OPSGENIE_API_KEY']] as const) {
        const res = await wrong.api.post('/on-call-schedules', { third_party_provider: provider, remote_id: id });
        assert.equal(res.status, 400, `${provider}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.code, 'validation_failed');
        assert.deepEqual(errorPaths(res.body), ['third_party_provider']);
        assert.match(res.body.message, new RegExp(`refused the credential in ${setting}`));
        assert.doesNotMatch(JSON.stringify(res.body), /not-the-(token|key)/, 'the secret is never echoed');
      }
      assert.deepEqual((await wrong.api.get('/on-call-schedules')).body.on_call_schedules, []);
    } finally {
      await wrong.close();
    }
    // A 403 (a key without the permission to read schedules) is the credential too; a 5xx is the provider.
    pd.outage = 403;
    const forbidden = await app.api.post('/on-call-schedules', { third_party_provider: 'PAGER_DUTY', remote_id: remote }).finally(() => (pd.outage = null));
    assert.equal(forbidden.status, 400, JSON.stringify(forbidden.body));
    assert.match(forbidden.body.message, /GATEHOUSE_PAGERDUTY_TOKEN/);
    pd.outage = 502;
    const down = await app.api.post('/on-call-schedules', { third_party_provider: 'PAGER_DUTY', remote_id: remote }, { expectServerError: true }).finally(() => (pd.outage = null));
    assert.equal(down.status, 503, JSON.stringify(down.body));
    assert.deepEqual(errorPaths(down.body), ['remote_id']);
  });

  test('a linked group holds whoever PagerDuty says is on call, until the shift ends; handover and overrides move it', async () => {
    const alice = await createUser(app.api, { email: 'Alice.Oncall@example.com' });
    const bob = await createUser(app.api, { email: 'bob.oncall@example.com' });
    const handAdded = await createUser(app.api);
    const pa = pd.addPerson('Alice', 'alice.oncall@example.com');
    const pb = pd.addPerson('Bob', 'bob.oncall@example.com');
    const remote = pd.addSchedule('Payments primary (PD)');
    // Alice 09–17, Bob 17–01, Alice again 01–09; a stranger on a second layer is on call too.
    pd.shift(remote, pa, at(0), at(8));
    pd.shift(remote, pb, at(8), at(16));
    pd.shift(remote, pa, at(16), at(24));
    const schedule = (await app.api.post('/on-call-schedules', { third_party_provider: 'PAGER_DUTY', remote_id: remote })).body;
    const group = await createGroup(app.api);
    const put = await app.api.put(`/groups/${group.group_id}/on-call-schedules`, { on_call_schedule_ids: [schedule.on_call_schedule_id] });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body, [schedule.on_call_schedule_id]);
    assert.deepEqual((await app.api.get(`/groups/${group.group_id}/on-call-schedules`)).body.on_call_schedules, [schedule]);
    const byHand = await app.api.post(`/groups/${group.group_id}/users/${handAdded.user_id}`, { duration_minutes: 0 });
    assert.equal(byHand.status, 200, JSON.stringify(byHand.body));

    await sync();
    const onCalls = pd.calls.filter((c) => c.path === '/oncalls').at(-1)!;
    assert.deepEqual(onCalls.query.getAll('schedule_ids[]'), [remote]);
    assert.deepEqual(onCalls.query.getAll('include[]'), ['users']);
    assert.equal(onCalls.query.get('since'), clock.now().toISOString());
    assert.ok(onCalls.query.get('until')! > onCalls.query.get('since')!);
    assert.deepEqual(await members(group.group_id), [
      { user_id: alice.user_id, expiration_date: at(8) }, { user_id: handAdded.user_id, expiration_date: null },
    ].sort((a, b) => a.user_id.localeCompare(b.user_id)));
    const [added] = await readEvents(app.api, { type: 'GROUP_USERS_ADDED', object: alice.user_id });
    assert.equal(added!.sub_events[0]!.on_call_schedule_id, schedule.on_call_schedule_id);
    assert.equal(added!.sub_events[0]!.on_call_schedule_name, 'Payments primary (PD)');
    assert.equal(added!.sub_events[0]!.shift_end, at(8));
    assert.equal(added!.sub_events[0]!.expiration_date, at(8));

    // The view says who and until when.
    await app.api.post(`/on-call-schedules/${schedule.on_call_schedule_id}/sync`);
    const view = await app.api.get(`/on-call-schedules/${schedule.on_call_schedule_id}/on-call`);
    assert.equal(view.status, 200);
    assert.deepEqual(view.body.on_call, [{ user_id: alice.user_id, email: alice.email, ends_at: at(8) }]);
    assert.deepEqual(view.body.unknown_emails, []);
    assert.equal(view.body.last_synced_at, clock.now().toISOString());
    assert.equal(view.body.last_error, null);

    // An override: Bob takes 12–14. At 12 Alice loses it at once, Bob holds it until 14.
    pd.override(remote, pb, at(3), at(5));
    clock.set(new Date(at(3)));
    await sync();
    assert.deepEqual(await members(group.group_id), [
      { user_id: bob.user_id, expiration_date: at(5) }, { user_id: handAdded.user_id, expiration_date: null },
    ].sort((a, b) => a.user_id.localeCompare(b.user_id)));
    const [removed] = await readEvents(app.api, { type: 'GROUP_USERS_REMOVED', object: alice.user_id });
    assert.equal(removed!.actor_user_id, '00000000-0000-0000-0000-000000000000');
    assert.equal(removed!.sub_events[0]!.on_call_schedule_id, schedule.on_call_schedule_id);

    // Back to Alice at 14 until 17; then the handover to Bob at 17.
    clock.set(new Date(at(5)));
    await sync();
    assert.deepEqual((await members(group.group_id)).find((m) => m.user_id === alice.user_id), { user_id: alice.user_id, expiration_date: at(8) });
    assert.equal((await members(group.group_id)).some((m) => m.user_id === bob.user_id), false);
    clock.set(new Date(at(8)));
    await sync();
    const atHandover = await members(group.group_id);
    assert.deepEqual(atHandover.find((m) => m.user_id === bob.user_id), { user_id: bob.user_id, expiration_date: at(16) });
    assert.equal(atHandover.some((m) => m.user_id === alice.user_id), false);
    assert.ok(atHandover.some((m) => m.user_id === handAdded.user_id), 'a hand-added member stays');
  });

  test('an outage extends nobody: the membership ends at the shift end, and admins are told after repeated failures', async () => {
    const carol = await createUser(app.api, { email: 'carol.oncall@example.com' });
    const pc = pd.addPerson('Carol', 'carol.oncall@example.com');
    const remote = pd.addSchedule('Outage drill');
    const start = clock.now().toISOString();
    const end = new Date(clock.now().getTime() + 2 * HOUR).toISOString();
    pd.shift(remote, pc, start, end);
    pd.shift(remote, pc, end, new Date(clock.now().getTime() + 10 * HOUR).toISOString());
    const { schedule, group } = await followed(remote);
    await sync();
    // Her next shift follows at once: one stretch, held to its end.
    const held = (await members(group.group_id)).find((m) => m.user_id === carol.user_id)!;
    assert.equal(held.expiration_date, new Date(Date.parse(end) + 8 * HOUR).toISOString());

    pd.outage = 500;
    for (let i = 0; i < 3; i++) {
      const res = await app.api.post(`/on-call-schedules/${schedule.on_call_schedule_id}/sync`);
      assert.equal(res.status, 200);
      assert.match(res.body.last_error, /PagerDuty answered 500/);
      assert.equal(res.body.failures, i + 1);
    }
    const notices = await app.api.get('/notifications', { type: 'ON_CALL_SYNC_FAILING' });
    assert.equal(notices.status, 200, JSON.stringify(notices.body));
    assert.equal((notices.body.results as unknown[]).length >= 1, true, 'the admin is told');
    // Past her stated end, still no answer: the membership ended on time and nobody extended it.
    clock.set(new Date(Date.parse(held.expiration_date!) + 60_000));
    await syncOnCall(app.ctx, clock.now(), undefined, [schedule.on_call_schedule_id]);
    assert.equal((await members(group.group_id)).some((m) => m.user_id === carol.user_id), false);
    pd.outage = null;
    pd.shift(remote, pc, clock.now().toISOString(), new Date(clock.now().getTime() + HOUR).toISOString());
    await syncOnCall(app.ctx, clock.now(), undefined, [schedule.on_call_schedule_id]);
    const view = await app.api.get(`/on-call-schedules/${schedule.on_call_schedule_id}/on-call`);
    assert.equal(view.body.last_error, null);
    assert.deepEqual(view.body.on_call.map((o: { user_id: string }) => o.user_id), [carol.user_id]);
    assert.equal((await members(group.group_id)).some((m) => m.user_id === carol.user_id), true, 'back when the provider answers again');
  });

  test('Opsgenie: GenieKey, on-calls for who, the timeline for when the shift ends', async () => {
    const dana = await createUser(app.api, { email: 'dana.oncall@example.com' });
    const od = og.addPerson('Dana', 'dana.oncall@example.com');
    const oe = og.addPerson('Eve', 'eve.oncall@example.com');
    const remote = og.addSchedule('Search primary');
    const now = clock.now().getTime();
    og.shift(remote, od, new Date(now - HOUR).toISOString(), new Date(now + 3 * HOUR).toISOString());
    // A second rotation: Eve, whom no Gatehouse user matches, is on call beside her.
    og.shift(remote, oe, new Date(now - HOUR).toISOString(), new Date(now + 9 * HOUR).toISOString(), 2);
    const created = await app.api.post('/on-call-schedules', { third_party_provider: 'OPSGENIE', remote_id: remote });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.name, 'Search primary');
    assert.equal(og.calls.at(-1)!.headers.authorization, `GenieKey ${OPSGENIE_KEY}`);
    const group = await createGroup(app.api);
    await app.api.put(`/groups/${group.group_id}/on-call-schedules`, { on_call_schedule_ids: [created.body.on_call_schedule_id] });
    await sync();
    assert.ok(og.calls.some((c) => c.path === `/v2/schedules/${remote}/on-calls`));
    assert.ok(og.calls.some((c) => c.path === `/v2/schedules/${remote}/timeline`));
    assert.deepEqual(await members(group.group_id), [{ user_id: dana.user_id, expiration_date: new Date(now + 3 * HOUR).toISOString() }]);
    const view = await app.api.get(`/on-call-schedules/${created.body.on_call_schedule_id}/on-call`);
    assert.deepEqual(view.body.on_call, [{ user_id: dana.user_id, email: dana.email, ends_at: new Date(now + 3 * HOUR).toISOString() }]);
    assert.deepEqual(view.body.unknown_emails, ['eve.oncall@example.com']);
  });

  test('a schedule renamed at its provider is renamed by the next sync, audited; one deleted there fails the sync and extends nobody', async () => {
    const pdRemote = pd.addSchedule('Checkout primary');
    const ogRemote = og.addSchedule('Checkout secondary');
    const pdSchedule = (await app.api.post('/on-call-schedules', { third_party_provider: 'PAGER_DUTY', remote_id: pdRemote })).body;
    const ogSchedule = (await app.api.post('/on-call-schedules', { third_party_provider: 'OPSGENIE', remote_id: ogRemote })).body;
    const group = await createGroup(app.api);
    await app.api.put(`/groups/${group.group_id}/on-call-schedules`, { on_call_schedule_ids: [pdSchedule.on_call_schedule_id, ogSchedule.on_call_schedule_id] });
    pd.schedules.get(pdRemote)!.name = 'Checkout primary (EU)';
    og.schedules.get(ogRemote)!.name = 'Checkout secondary (EU)';
    await sync();
    assert.equal((await app.api.get(`/on-call-schedules/${pdSchedule.on_call_schedule_id}`)).body.name, 'Checkout primary (EU)');
    assert.equal((await app.api.get(`/on-call-schedules/${ogSchedule.on_call_schedule_id}`)).body.name, 'Checkout secondary (EU)');
    const listed = (await app.api.get(`/groups/${group.group_id}/on-call-schedules`)).body.on_call_schedules as { name: string }[];
    assert.deepEqual(listed.map((s) => s.name), ['Checkout primary (EU)', 'Checkout secondary (EU)']);
    const [renamed] = await readEvents(app.api, { type: 'ON_CALL_SCHEDULES_UPDATED', object: pdSchedule.on_call_schedule_id });
    assert.equal(renamed!.sub_events[0]!.on_call_schedule_name, 'Checkout primary (EU)');
    assert.equal(renamed!.sub_events[0]!.previous_name, 'Checkout primary');
    assert.equal(renamed!.actor_user_id, '00000000-0000-0000-0000-000000000000');
    // Unchanged names record nothing more.
    await sync();
    assert.equal((await readEvents(app.api, { type: 'ON_CALL_SCHEDULES_UPDATED', object: pdSchedule.on_call_schedule_id })).length, 1);

    pd.schedules.delete(pdRemote);
    await sync();
    const view = (await app.api.get(`/on-call-schedules/${pdSchedule.on_call_schedule_id}/on-call`)).body;
    assert.match(view.last_error, /no longer has schedule/);
    assert.equal((await app.api.get(`/on-call-schedules/${pdSchedule.on_call_schedule_id}`)).body.name, 'Checkout primary (EU)', 'the last name known stays');
  });

  test('a schedule no group follows is not synced periodically, and its view says so; following it makes it due', async () => {
    const kim = await createUser(app.api, { email: 'kim.oncall@example.com' });
    const pk = pd.addPerson('Kim', 'kim.oncall@example.com');
    const remote = pd.addSchedule('Nobody follows this');
    pd.shift(remote, pk, clock.now().toISOString(), new Date(clock.now().getTime() + 4 * HOUR).toISOString());
    const schedule = (await app.api.post('/on-call-schedules', { third_party_provider: 'PAGER_DUTY', remote_id: remote })).body;
    const view = async () => (await app.api.get(`/on-call-schedules/${schedule.on_call_schedule_id}/on-call`)).body;
    const readsOf = () => pd.calls.filter((c) => c.query.getAll('schedule_ids[]').includes(remote)).length;
    await sync();
    assert.equal(readsOf(), 0, 'the periodic sync does not read it');
    assert.deepEqual((await view()).followed_by_group_ids, []);
    assert.equal((await view()).next_sync_at, null);
    // Asked, it is read (and the view shows who is on call), but it stays out of the periodic sync.
    const asked = await app.api.post(`/on-call-schedules/${schedule.on_call_schedule_id}/sync`);
    assert.deepEqual(asked.body.on_call.map((o: { user_id: string }) => o.user_id), [kim.user_id]);
    assert.equal(asked.body.next_sync_at, null);
    assert.equal(readsOf(), 1);

    const group = await createGroup(app.api);
    await app.api.put(`/groups/${group.group_id}/on-call-schedules`, { on_call_schedule_ids: [schedule.on_call_schedule_id] });
    const followed = await view();
    assert.deepEqual(followed.followed_by_group_ids, [group.group_id]);
    assert.equal(followed.next_sync_at, new Date(clock.now().getTime() + 60_000).toISOString(), 'one interval after its last read');
    clock.advance(60_000);
    await sync();
    assert.equal(readsOf(), 2);
    assert.equal((await view()).next_sync_at, new Date(clock.now().getTime() + 60_000).toISOString());
    assert.deepEqual((await members(group.group_id)).map((m) => m.user_id), [kim.user_id]);

    // Unfollowed: the rotation's member leaves at the next sync, and the schedule is not read again.
    await app.api.put(`/groups/${group.group_id}/on-call-schedules`, { on_call_schedule_ids: [] });
    clock.advance(60_000);
    await sync();
    assert.deepEqual(await members(group.group_id), []);
    assert.equal(readsOf(), 2);
    assert.equal((await view()).next_sync_at, null);
  });

  test('PagerDuty paging: a page holding fewer entries than asked is followed by the next entry, not by the limit asked', async () => {
    const remote = pd.addSchedule('Many layers');
    const people = [];
    for (let i = 0; i < 5; i++) {
      const user = await createUser(app.api, { email: `layer${i}.oncall@example.com` });
      const person = pd.addPerson(`Layer ${i}`, `layer${i}.oncall@example.com`);
      pd.shift(remote, person, clock.now().toISOString(), new Date(clock.now().getTime() + HOUR).toISOString(), i + 1);
      people.push(user.user_id);
    }
    const { schedule, group } = await followed(remote);
    pd.pageCap = 2;
    try {
      await syncOnCall(app.ctx, clock.now(), undefined, [schedule.on_call_schedule_id]);
    } finally {
      pd.pageCap = 100;
    }
    const pages = pd.calls.filter((c) => c.path === '/oncalls' && c.query.get('schedule_ids[]') === remote);
    assert.deepEqual(pages.map((c) => c.query.get('offset')), ['0', '2', '4']);
    assert.deepEqual((await members(group.group_id)).map((m) => m.user_id), [...people].sort());
  });

  test('a group of type PAGERDUTY_ON_CALL_SCHEDULE follows the recorded schedule its remote_info names', async () => {
    const frank = await createUser(app.api, { email: 'frank.oncall@example.com' });
    const pf = pd.addPerson('Frank', 'frank.oncall@example.com');
    const remote = pd.addSchedule('Typed group');
    pd.shift(remote, pf, clock.now().toISOString(), new Date(clock.now().getTime() + HOUR).toISOString());
    await app.api.post('/on-call-schedules', { third_party_provider: 'PAGER_DUTY', remote_id: remote });
    const group = await createGroup(app.api, { group_type: 'PAGERDUTY_ON_CALL_SCHEDULE', remote_info: { pagerduty_on_call_schedule: { schedule_id: remote } } });
    await sync();
    assert.deepEqual((await members(group.group_id)).map((m) => m.user_id), [frank.user_id]);
  });

  test('approval by rotation: on call, approved at once for no longer than the shift; not on call, reviewed as before', async () => {
    const greta = await createMember(app.api, { email: 'greta.oncall@example.com' });
    const henry = await createMember(app.api, { email: 'henry.oncall@example.com' });
    const pg = pd.addPerson('Greta', 'greta.oncall@example.com');
    const remote = pd.addSchedule('Payments primary');
    const shiftEnd = new Date(clock.now().getTime() + 3 * HOUR).toISOString();
    pd.shift(remote, pg, new Date(clock.now().getTime() - HOUR).toISOString(), shiftEnd);
    const { schedule, group: onCall } = await followed(remote);
    // Henry is not on call: the condition matches no group of his, so his request goes to the owner as before.
    const reviewer = await createUser(app.api);
    const owner = await ownerOf(app, reviewer);
    const production = await requestableResource(app, owner.owner_id, [
      config({ priority: 0, reviewer_stages: [{ stage: 1, operator: 'OR', require_manager_approval: false, owner_ids: [owner.owner_id] }] }),
      config({ priority: 1, condition: { group_ids: [onCall.group_id] }, auto_approval: true }),
    ]);
    await sync();

    const body = { resources: [{ id: production.resource_id }], duration_minutes: 8 * 60 };
    const dry = await postRequest(greta.api, body, { dry_run: 'true' });
    assert.equal(dry.status, 200, JSON.stringify(dry.body));
    assert.equal(dry.body.would_be_approved_at_once, true);
    const reason = `approved because you are on call for Payments primary until ${shiftEnd.slice(11, 16)} UTC`;
    assert.equal(dry.body.approval_reason, reason);
    assert.deepEqual(dry.body.items[0].on_call, { on_call_schedule_id: schedule.on_call_schedule_id, schedule_name: 'Payments primary', ends_at: shiftEnd });

    const made = await postRequest(greta.api, body);
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const request = (await greta.api.get(`/requests/${made.body.id}`)).body;
    assert.equal(request.status, 'APPROVED');
    assert.equal(request.approval_reason, reason);
    const holders = (await app.api.get(`/resources/${production.resource_id}/users`)).body.results as { user_id: string; expiration_date: string | null }[];
    assert.deepEqual(holders.map((h) => [h.user_id, h.expiration_date]), [[greta.user_id, shiftEnd]], 'the grant ends with the shift, not 8 hours on');
    const [approved] = await readEvents(app.api, { type: 'REQUESTS_APPROVED', object: made.body.id });
    assert.equal(approved!.sub_events[0]!.approval_reason, reason);
    assert.equal(approved!.sub_events[0]!.shift_end, shiftEnd);

    const other = await postRequest(henry.api, body);
    assert.equal(other.status, 200);
    const pending = (await henry.api.get(`/requests/${other.body.id}`)).body;
    assert.equal(pending.status, 'PENDING');
    assert.equal(pending.approval_reason, undefined);

    // A member an admin added by hand matches the condition as any member does: approved by the configuration, not the rotation — no shift, no cap.
    const iris = await createMember(app.api, { email: 'iris.oncall@example.com' });
    assert.equal((await app.api.post(`/groups/${onCall.group_id}/users/${iris.user_id}`, { duration_minutes: 0 })).status, 200);
    const byHand = await postRequest(iris.api, body);
    const approvedByHand = (await iris.api.get(`/requests/${byHand.body.id}`)).body;
    assert.equal(approvedByHand.status, 'APPROVED');
    assert.equal(approvedByHand.approval_reason, undefined);
    assert.equal(approvedByHand.requested_items_list[0].on_call_until, undefined);
    const irisHolds = (await app.api.get(`/resources/${production.resource_id}/users`)).body.results as { user_id: string; expiration_date: string | null }[];
    assert.equal(irisHolds.find((h) => h.user_id === iris.user_id)!.expiration_date, new Date(clock.now().getTime() + 8 * HOUR).toISOString());
  });

  test('a request mixing an item the rotation approves with reviewed items: the on-call item ends with the shift; after the shift, it is not granted', async () => {
    const lena = await createMember(app.api, { email: 'lena.oncall@example.com' });
    const pl = pd.addPerson('Lena', 'lena.oncall@example.com');
    const remote = pd.addSchedule('Ledger primary');
    const shiftEnd = new Date(clock.now().getTime() + 3 * HOUR).toISOString();
    pd.shift(remote, pl, new Date(clock.now().getTime() - HOUR).toISOString(), shiftEnd);
    const { group: onCall } = await followed(remote);
    await sync();
    const reviewer = await createMember(app.api);
    const owner = await ownerOf(app, reviewer);
    const reviewed = [config({ priority: 0, reviewer_stages: [{ stage: 1, operator: 'OR', require_manager_approval: false, owner_ids: [owner.owner_id] }] })];
    const ledger = await requestableResource(app, owner.owner_id, [...reviewed, config({ priority: 1, condition: { group_ids: [onCall.group_id] }, auto_approval: true })]);
    const reports = await requestableResource(app, owner.owner_id, reviewed);
    const holders = async (resourceId: string) => ((await app.api.get(`/resources/${resourceId}/users`)).body.results as { user_id: string; expiration_date: string | null }[])
      .filter((h) => h.user_id === lena.user_id).map((h) => h.expiration_date);
    const body = { resources: [{ id: ledger.resource_id }, { id: reports.resource_id }], duration_minutes: 8 * 60 };
    const reason = `approved because you are on call for Ledger primary until ${shiftEnd.slice(11, 16)} UTC`;

    // Reviewed an hour later, still in the shift: the reviewed item gets its 8 hours, the on-call item ends with the shift.
    const first = await postRequest(lena.api, body);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const pending = (await lena.api.get(`/requests/${first.body.id}`)).body;
    assert.equal(pending.status, 'PENDING');
    assert.equal(pending.requested_items_list[0].approval_reason, reason, 'the request says why the on-call item needs no review');
    assert.equal(pending.requested_items_list[0].on_call_until, shiftEnd);
    assert.equal(pending.requested_items_list[1].approval_reason, undefined);
    clock.advance(HOUR);
    const approved = await reviewer.api.post(`/requests/${first.body.id}/approve`, { level: 'REGULAR' });
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.deepEqual(await holders(ledger.resource_id), [shiftEnd], 'capped at the shift end, not 8 hours from the approval');
    assert.deepEqual(await holders(reports.resource_id), [new Date(clock.now().getTime() + 8 * HOUR).toISOString()]);
    await app.api.delete(`/resources/${ledger.resource_id}/users/${lena.user_id}`);
    await app.api.delete(`/resources/${reports.resource_id}/users/${lena.user_id}`);

    // Reviewed after the shift ended (and she is not on call any more): the on-call item is not granted, and the request says so.
    const second = await postRequest(lena.api, body);
    assert.equal(second.status, 200, JSON.stringify(second.body));
    clock.set(new Date(Date.parse(shiftEnd) + HOUR));
    await sync();
    const late = await reviewer.api.post(`/requests/${second.body.id}/approve`, { level: 'REGULAR' });
    assert.equal(late.status, 200, JSON.stringify(late.body));
    assert.deepEqual(await holders(ledger.resource_id), [], 'a shift that ended grants nothing');
    assert.deepEqual(await holders(reports.resource_id), [new Date(clock.now().getTime() + 8 * HOUR).toISOString()]);
    const after = (await lena.api.get(`/requests/${second.body.id}`)).body;
    assert.equal(after.status, 'APPROVED');
    assert.match(after.requested_items_list[0].approval_reason, /^not granted: .*shift ended/);
    const [event] = await readEvents(app.api, { type: 'REQUESTS_APPROVED', object: second.body.id });
    assert.equal(event!.sub_events[0]!.not_granted_item_ids, ledger.resource_id);
    // The requester's notice says which item was not granted, and why.
    const decided = ((await app.api.get('/notifications', { request_id: second.body.id, type: 'REQUEST_DECIDED' })).body.results as { id: string; user_id: string }[])
      .find((n) => n.user_id === lena.user_id)!;
    const words = render(app.ctx, app.ctx.stores.notifications.get(decided.id)!).lines.join('\n');
    assert.match(words, new RegExp(`${ledger.name}: not granted: .*shift ended`));
  });

  test('a handover cuts back what the rotation approved: an override shortens the grant, losing the shift ends it', async () => {
    const mona = await createMember(app.api, { email: 'mona.oncall@example.com' });
    const pm = pd.addPerson('Mona', 'mona.oncall@example.com');
    const pn = pd.addPerson('Nils', 'nils.oncall@example.com');
    const remote = pd.addSchedule('Vault primary');
    const now = clock.now().getTime();
    const shiftEnd = new Date(now + 3 * HOUR).toISOString();
    pd.shift(remote, pm, new Date(now - HOUR).toISOString(), shiftEnd);
    const { group: onCall } = await followed(remote);
    const owner = await ownerOf(app, await createUser(app.api));
    const vault = await requestableResource(app, owner.owner_id, [
      config({ priority: 0, reviewer_stages: [{ stage: 1, operator: 'OR', require_manager_approval: false, owner_ids: [owner.owner_id] }] }),
      config({ priority: 1, condition: { group_ids: [onCall.group_id] }, auto_approval: true }),
    ]);
    await sync();
    const made = await postRequest(mona.api, { resources: [{ id: vault.resource_id }], duration_minutes: 8 * 60 });
    assert.equal((await mona.api.get(`/requests/${made.body.id}`)).body.status, 'APPROVED');
    const held = async () => ((await app.api.get(`/resources/${vault.resource_id}/users`)).body.results as { user_id: string; expiration_date: string | null }[])
      .filter((h) => h.user_id === mona.user_id).map((h) => h.expiration_date);
    assert.deepEqual(await held(), [shiftEnd]);

    // Nils overrides from an hour on: Mona's shift now ends then, and so does what it approved.
    const overrideStart = new Date(now + HOUR).toISOString();
    pd.override(remote, pn, overrideStart, shiftEnd);
    await sync();
    assert.deepEqual(await held(), [overrideStart]);
    assert.equal((await mona.api.get(`/requests/${made.body.id}`)).body.requested_items_list[0].on_call_until, overrideStart);
    const [shortened] = await readEvents(app.api, { type: 'RESOURCE_USERS_UPDATED', object: vault.resource_id });
    assert.equal(shortened!.actor_user_id, '00000000-0000-0000-0000-000000000000');

    // Nils takes over at once: Mona is no longer on call, and the access the rotation gave her ends now.
    pd.override(remote, pn, clock.now().toISOString(), shiftEnd);
    await sync();
    assert.deepEqual(await held(), []);
    const [removed] = await readEvents(app.api, { type: 'RESOURCE_USERS_REMOVED', object: vault.resource_id });
    assert.equal(removed!.actor_user_id, '00000000-0000-0000-0000-000000000000');
  });

  test('a slow answer is waited for; a hung provider is abandoned when the service stops, recording nothing', async () => {
    const ivy = await createUser(app.api, { email: 'ivy.oncall@example.com' });
    const pi = pd.addPerson('Ivy', 'ivy.oncall@example.com');
    const remote = pd.addSchedule('Slow');
    pd.shift(remote, pi, clock.now().toISOString(), new Date(clock.now().getTime() + HOUR).toISOString());
    const { schedule, group } = await followed(remote);
    // Its calls answer slowly (the other schedules the sync reads answer at once).
    [pd.slowMs, pd.slowOnly] = [300, remote];
    const slowCalls = pd.calls.length;
    await syncOnCall(app.ctx, clock.now(), undefined, [schedule.on_call_schedule_id]).finally(() => ([pd.slowMs, pd.slowOnly] = [0, null]));
    assert.ok(pd.calls.slice(slowCalls).some((c) => c.path === `/schedules/${remote}` || c.query.getAll('schedule_ids[]').includes(remote)), 'the slow schedule was read');
    assert.deepEqual((await members(group.group_id)).map((m) => m.user_id), [ivy.user_id]);
    const before = (await app.api.get(`/on-call-schedules/${schedule.on_call_schedule_id}/on-call`)).body;

    pd.outage = 'hang';
    const stop = new AbortController();
    const calls = pd.calls.length;
    const syncing = syncOnCall(app.ctx, clock.now(), stop.signal, [schedule.on_call_schedule_id]);
    await until(() => pd.calls.length > calls, 'the call reaching the stand-in');
    stop.abort();
    await syncing.finally(() => (pd.outage = null));
    assert.deepEqual((await app.api.get(`/on-call-schedules/${schedule.on_call_schedule_id}/on-call`)).body, before);
  });

  test('a failing schedule is retried with back-off, waiting longer when the provider asks (Retry-After)', async () => {
    const remote = pd.addSchedule('Throttled');
    const { schedule } = await followed(remote);
    // Each attempt's first call (the schedule's name) is refused: one call per attempt, after the one that added it.
    const calls = () => pd.calls.filter((c) => c.path === `/schedules/${remote}` || c.query.getAll('schedule_ids[]').includes(remote)).length;
    const added = calls();
    const asked = () => calls() - added;
    pd.outage = 429;
    try {
      await sync();
      assert.equal(asked(), 1);
      const view = (await app.api.get(`/on-call-schedules/${schedule.on_call_schedule_id}/on-call`)).body;
      assert.match(view.last_error, /throttling/);
      // The interval is 60 s, but PagerDuty asked for 120: a tick a minute later does not ask again.
      clock.advance(61_000);
      await sync();
      assert.equal(asked(), 1, 'still waiting');
      clock.advance(60_000);
      await sync();
      assert.equal(asked(), 2, 'asked again once the wait is over');
    } finally {
      pd.outage = null;
    }
  });

  test('GATEHOUSE_PRIVATE_ADDRESSES=deny refuses a provider on a private address, storing nothing', async () => {
    const denied = await startTestApp({ env: { GATEHOUSE_PRIVATE_ADDRESSES: 'deny', GATEHOUSE_PAGERDUTY_TOKEN: PAGERDUTY_TOKEN, GATEHOUSE_PAGERDUTY_API_URL: pd.url } });
    try {
      const calls = pd.calls.length;
      const res = await denied.api.post('/on-call-schedules', { third_party_provider: 'PAGER_DUTY', remote_id: pd.addSchedule('Private') }, { expectServerError: true });
      assert.equal(res.status, 503);
      assert.match(res.body.message, /not public/);
      assert.equal(pd.calls.length, calls, 'nothing reached it');
      assert.deepEqual((await denied.api.get('/on-call-schedules')).body.on_call_schedules, []);
    } finally {
      await denied.close();
    }
  });

  test('a group linked to a configuration template follows the template\'s member_oncall_schedule_ids', async () => {
    const jane = await createUser(app.api, { email: 'jane.oncall@example.com' });
    const pj = pd.addPerson('Jane', 'jane.oncall@example.com');
    const remote = pd.addSchedule('Templated');
    pd.shift(remote, pj, clock.now().toISOString(), new Date(clock.now().getTime() + 2 * HOUR).toISOString());
    const schedule = (await app.api.post('/on-call-schedules', { third_party_provider: 'PAGER_DUTY', remote_id: remote })).body;
    const owner = await createUser(app.api);
    const team = (await app.api.post('/owners', { name: `on-call team ${remote}`, user_ids: [owner.user_id] })).body;
    const template = await app.api.post('/configuration-templates', {
      name: `on-call ${remote}`, admin_owner_id: team.owner_id, visibility: { visibility: 'GLOBAL' },
      require_mfa_to_approve: false, require_mfa_to_connect: false, member_oncall_schedule_ids: [schedule.on_call_schedule_id],
    });
    assert.equal(template.status, 200, JSON.stringify(template.body));
    const group = await createGroup(app.api, { configuration_template_id: template.body.configuration_template_id });
    assert.deepEqual((await app.api.get(`/groups/${group.group_id}/on-call-schedules`)).body.on_call_schedules.map((s: { on_call_schedule_id: string }) => s.on_call_schedule_id), [schedule.on_call_schedule_id]);
    await sync();
    assert.deepEqual((await members(group.group_id)).map((m) => m.user_id), [jane.user_id]);
  });

  test('unknown ids are 404s and the links are checked', async () => {
    assert.equal((await app.api.get(`/on-call-schedules/${NO_SUCH_ID}`)).status, 404);
    assert.equal((await app.api.get(`/on-call-schedules/${NO_SUCH_ID}/on-call`)).status, 404);
    assert.equal((await app.api.post(`/on-call-schedules/${NO_SUCH_ID}/sync`)).status, 404);
    const group = await createGroup(app.api);
    const res = await app.api.put(`/groups/${group.group_id}/on-call-schedules`, { on_call_schedule_ids: [NO_SUCH_ID] });
    assert.equal(res.status, 404);
    assert.deepEqual(errorPaths(res.body), ['on_call_schedule_ids.0']);
  });

  test('lookUpIncident: PagerDuty incidents for break-glass', async () => {
    const open = pd.addIncident('triggered');
    const acked = pd.addIncident('acknowledged');
    const resolved = pd.addIncident('resolved');
    assert.deepEqual(await lookUpIncident(app.ctx, open), { exists: true, id: open, status: 'triggered', title: 'The server is on fire.' });
    assert.equal((await lookUpIncident(app.ctx, acked)).exists && (await lookUpIncident(app.ctx, acked) as { status: string }).status, 'acknowledged');
    assert.deepEqual(await lookUpIncident(app.ctx, resolved), { exists: true, id: resolved, status: 'resolved', title: 'The server is on fire.' });
    assert.deepEqual(await lookUpIncident(app.ctx, 'PNOSUCH'), { exists: false });
    assert.equal(pd.calls.at(-1)!.path, '/incidents/PNOSUCH');
    pd.outage = 502;
    await assert.rejects(lookUpIncident(app.ctx, open), (err: { code?: string; details?: { path: string }[] }) => err.code === 'unavailable' && err.details?.[0]?.path === 'incident_id');
    pd.outage = null;
  });
});
