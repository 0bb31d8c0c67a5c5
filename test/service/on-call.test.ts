// On-call under `gatehouse serve`, as a real child process with its own timer (issue 38's black-box check):
// against a PagerDuty stand-in on the real clock, the sync job alone puts whoever is on call into the
// linked group until their shift ends, moves it at an override, and during an outage extends nobody.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ApiClient } from '../helpers/client.ts';
import { createGroup, createUser } from '../helpers/fixtures.ts';
import { PAGERDUTY_TOKEN, PagerDutyStandIn } from '../helpers/on-call-stand-ins.ts';
import { PATIENCE_MS } from '../helpers/wait.ts';
import { ServiceProcess } from './helpers/gatehouse-process.ts';

const TOKEN = 'gth_on-call-test-admin-token-0123456789ab';
const HOUR = 3_600_000;

/** Resolves once `check` answers true, asking again after each answer; fails naming `what` after PATIENCE_MS. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + PATIENCE_MS;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} did not happen within ${PATIENCE_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('on-call under serve', () => {
  it('the sync job alone follows PagerDuty: the person on call until their shift ends, an override at once, an outage extends nobody', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-on-call-'));
    const pd = await PagerDutyStandIn.start(() => new Date());
    const service = await ServiceProcess.start(['--db', join(dir, 'on-call.db'), '--port', '0'], {
      env: {
        ...process.env, GATEHOUSE_LOG_LEVEL: 'info', GATEHOUSE_BOOTSTRAP_TOKEN: TOKEN,
        GATEHOUSE_PAGERDUTY_TOKEN: PAGERDUTY_TOKEN, GATEHOUSE_PAGERDUTY_API_URL: pd.url, GATEHOUSE_ONCALL_SYNC_SECONDS: '1',
      },
    });
    try {
      const api = new ApiClient(service.url, TOKEN);
      const alice = await createUser(api, { email: 'alice.serve@example.com' });
      const bob = await createUser(api, { email: 'bob.serve@example.com' });
      const pa = pd.addPerson('Alice', 'alice.serve@example.com');
      const pb = pd.addPerson('Bob', 'bob.serve@example.com');
      const remote = pd.addSchedule('Production primary');
      const start = Date.now();
      const aliceEnd = new Date(start + 2 * HOUR).toISOString();
      pd.shift(remote, pa, new Date(start - HOUR).toISOString(), aliceEnd);
      const schedule = await api.post('/on-call-schedules', { third_party_provider: 'PAGER_DUTY', remote_id: remote });
      assert.equal(schedule.status, 200, JSON.stringify(schedule.body));
      const group = await createGroup(api);
      const linked = await api.put(`/groups/${group.group_id}/on-call-schedules`, { on_call_schedule_ids: [schedule.body.on_call_schedule_id] });
      assert.equal(linked.status, 200);

      const members = async () => ((await api.get(`/groups/${group.group_id}/users`)).body.results as { user_id: string; expiration_date?: string | null }[])
        .map((m) => [m.user_id, m.expiration_date ?? null]);
      await eventually(async () => JSON.stringify(await members()) === JSON.stringify([[alice.user_id, aliceEnd]]), 'Alice holding the group until her shift ends');

      // Bob overrides from now for an hour: Alice leaves at the next sync, Bob holds it until the override ends.
      const overrideEnd = new Date(Date.now() + HOUR).toISOString();
      pd.override(remote, pb, new Date().toISOString(), overrideEnd);
      await eventually(async () => JSON.stringify(await members()) === JSON.stringify([[bob.user_id, overrideEnd]]), 'the override moving the group to Bob');

      // An outage: the failure is said, and Bob's membership keeps its own end — nobody is extended.
      pd.outage = 503;
      await eventually(async () => (await api.get(`/on-call-schedules/${schedule.body.on_call_schedule_id}/on-call`)).body.last_error !== null, 'the outage being said');
      assert.deepEqual(await members(), [[bob.user_id, overrideEnd]]);
      const events = (await api.get('/events', { event_type_filter: 'GROUP_USERS_ADDED', page_size: 100 })).body.results as { actor_name?: string; sub_events: { on_call_schedule_name?: string }[] }[];
      assert.ok(events.some((e) => e.sub_events.some((s) => s.on_call_schedule_name === 'Production primary')), 'the trail names the schedule');
      assert.deepEqual(pd.violations, [], 'every PagerDuty answer fits its public document');
    } finally {
      pd.outage = null;
      await service.stop();
      await pd.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
