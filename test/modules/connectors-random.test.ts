// Randomized: any sequence of grants, level changes, revocations, expiries, memberships, a group's
// resources, nesting, offboardings and connector faults; once the connector is healthy again, its
// state equals Gatehouse's edges for its items (compared by brute force).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tick as runOutbox } from '../../src/outbox/index.ts';
import { tick as sweep } from '../../src/modules/access/sweep.ts';
import { EDGE_KINDS } from '../../src/modules/access/edges.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createUser } from '../helpers/fixtures.ts';
import { OpalConnector, type Fault } from '../helpers/opal-connector.ts';
import { seededRandom } from '../helpers/random.ts';

const SEED = Number(process.env.CONNECTOR_RANDOM_SEED ?? 20261126);
const STEPS = Number(process.env.CONNECTOR_RANDOM_STEPS ?? 160);
/** The connector's timeout while it is healthy: its syncs are asserted, so no loaded machine may trip it. */
const HEALTHY_TIMEOUT_MS = 60_000;


describe('connectors: randomized convergence', () => {
  let app: TestApp;
  let remote: OpalConnector;
  before(async () => {
    app = await startTestApp();
    remote = await new OpalConnector('random-secret').start();
    remote.pageSize = 100;
  });
  after(async () => {
    await app.close();
    await remote.stop();
  });

  it(`converges to Gatehouse's edges after ${STEPS} random steps (seed ${SEED})`, async () => {
    const { random, int } = seededRandom(SEED);
    const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
    const appId = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
    const users: { id: string; remote: string }[] = [];
    for (let i = 0; i < 6; i++) {
      const user = await createUser(app.api);
      users.push({ id: user.user_id, remote: `u${i}` });
      remote.users.set(`u${i}`, user.email);
    }
    for (const r of ['r1', 'r2']) remote.resources.set(r, { name: r, levels: [{ id: 'read', name: 'read' }, { id: 'write', name: 'write' }], users: new Map() });
    for (const g of ['g1', 'g2', 'g3']) remote.groups.set(g, { name: g, users: new Set(), resources: new Set(), memberGroups: new Set() });
    // A healthy connector's answers must never time out, however loaded the machine (the first sync is
    // asserted); only the random phase below uses a short timeout, so its slow faults (400 ms) time out.
    await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: 'random-secret', timeout_ms: HEALTHY_TIMEOUT_MS });
    assert.equal((await app.api.post(`/apps/${appId}/connector/sync`)).body.ok, true);
    await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: 'random-secret', timeout_ms: 300 });
    const resources = (await app.api.get('/resources', { page_size: 100 })).body.results.filter((r: { app_id: string }) => r.app_id === appId) as { resource_id: string; remote_resource_id: string }[];
    const groups = (await app.api.get('/groups', { page_size: 100 })).body.results.filter((g: { app_id: string }) => g.app_id === appId) as { group_id: string; name: string }[];
    const remoteOf = new Map<string, string>([
      ...users.map((u) => [u.id, u.remote] as [string, string]),
      ...resources.map((r) => [r.resource_id, r.remote_resource_id] as [string, string]),
      ...groups.map((g) => [g.group_id, g.name] as [string, string]),
    ]);
    const levels = ['', 'read', 'write'];
    const durations = [0, 0, 5, 30];
    remote.slowMs = 400;

    for (let step = 0; step < STEPS; step++) {
      const user = pick(users).id;
      const resource = pick(resources).resource_id;
      const group = pick(groups).group_id;
      const roll = random();
      if (roll < 0.2) await app.api.post(`/resources/${resource}/users/${user}`, { access_level_remote_id: pick(levels), duration_minutes: pick(durations) });
      else if (roll < 0.3) await app.api.put(`/resources/${resource}/users/${user}`, { access_level_remote_id: pick(levels), duration_minutes: pick(durations) });
      else if (roll < 0.4) await app.api.delete(`/resources/${resource}/users/${user}?access_level_remote_id=${pick(levels)}`);
      else if (roll < 0.5) await app.api.post(`/groups/${group}/users/${user}`, { duration_minutes: pick(durations) });
      else if (roll < 0.55) await app.api.delete(`/groups/${group}/users/${user}`);
      else if (roll < 0.62) await app.api.post(`/groups/${group}/resources/${resource}`, { access_level_remote_id: pick(levels), duration_minutes: pick(durations) });
      else if (roll < 0.66) await app.api.delete(`/groups/${group}/resources/${resource}?access_level_remote_id=${pick(levels)}`);
      else if (roll < 0.72) await app.api.post(`/groups/${group}/containing-groups`, { containing_group_id: pick(groups).group_id, duration_minutes: pick(durations) });
      else if (roll < 0.75) await app.api.delete(`/groups/${group}/containing-groups/${pick(groups).group_id}`);
      else if (roll < 0.78) await app.api.put(`/users/${user}`, { hr_idp_status: pick(['ACTIVE', 'ACTIVE', 'SUSPENDED']) });
      else if (roll < 0.88) {
        app.clock.advance(pick([60_000, 10 * 60_000]));
        sweep(app.ctx, app.clock.now());
      } else if (roll < 0.94) {
        remote.faults.push(pick<Fault>(['throttle', 'error', 'not_found', 'garbage', 'slow', 'bad_request']));
        remote.outage = random() < 0.2 ? 'error' : null;
      }
      if (random() < 0.5) await runOutbox(app.ctx, app.clock.now());
    }

    // Healthy again. A write answered too late (timeout) may land after a later push, and a 200 that is
    // not the protocol's may not have acted: the sync's reconciliation settles both (drift removed,
    // missing access pushed again); every push is retried (those given up, by hand) until none is left.
    remote.outage = null;
    remote.faults = [];
    await remote.idle();
    await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: 'random-secret', timeout_ms: HEALTHY_TIMEOUT_MS, drift_policy: 'REMOVE' });
    for (let round = 0; round < 200; round++) {
      if (round % 5 === 0) {
        await runOutbox(app.ctx, app.clock.now());
        assert.equal((await app.api.post(`/apps/${appId}/connector/sync`)).body.ok, true);
      }
      sweep(app.ctx, app.clock.now());
      await app.api.post(`/apps/${appId}/connector/retry`);
      await runOutbox(app.ctx, app.clock.now());
      if ((await app.api.get('/propagations', { app_id: appId })).body.results.length === 0) break;
      app.clock.advance(10 * 60_000);
    }
    assert.deepEqual((await app.api.get('/propagations', { app_id: appId })).body.results, []);

    // Brute force: every live edge of the app's items, as the connector names them.
    const now = app.clock.now();
    const expected = new Set<string>();
    for (const kind of ['resource_user', 'group_user', 'group_resource', 'group_group'] as const) {
      const items = EDGE_KINDS[kind].itemType === 'resource' ? resources.map((r) => r.resource_id) : groups.map((g) => g.group_id);
      for (const item of items) {
        for (const row of app.ctx.stores.access.liveOfItem(kind, item, now)) {
          const level = kind === 'group_user' || kind === 'group_group' ? '' : row.access_level_remote_id;
          expected.add(`${kind}:${remoteOf.get(row.principal_id)}:${remoteOf.get(row.item_id)}:${level}`);
        }
      }
    }
    assert.ok(expected.size > 0, "the sequence left some access to compare");
    assert.deepEqual(remote.edges(), [...expected].sort());
    assert.equal(remote.badSignatures, 0);
  });
});
