// Benchmark: connector delivery. Queues CONNECTOR_CHANGES (default 10,000) access changes for items of
// an app whose connector is a healthy loopback Opal connector, then runs outbox ticks until all are
// delivered (target ≥ 500/s); and compares a grant's latency with and without a connector attached
// (the answer never waits for the connector: target within 1.5× and 2 ms). Then syncs a connector whose
// /users never ends, up to the item bound (GATEHOUSE_CONNECTOR_SYNC_MAX_ITEMS, 100,000), and reports how
// long it took, the event loop's longest stall meanwhile and the slowest answer to a reader (target: the
// stall under 200 ms — the sync writes in slices).
// Run: npm run bench:connectors
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ManualClock } from '../../src/lib/clock.ts';
import { writeGrant, inWriteTransaction } from '../../src/modules/access/service.ts';
import { tick } from '../../src/outbox/index.ts';
import { startTestApp } from '../helpers/app.ts';
import { createApp, createUser } from '../helpers/fixtures.ts';
import { OpalConnector } from '../helpers/opal-connector.ts';
import { medianMs } from './timing.ts';

const CHANGES = Number(process.env.CONNECTOR_CHANGES ?? 10_000);
const SIDE = Math.ceil(Math.sqrt(CHANGES));
const app = await startTestApp({ clock: new ManualClock(new Date()) });
const remote = await new OpalConnector('bench-secret').start();
remote.pageSize = 1000;
try {
  const connected = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
  const plain = (await createApp(app.api, { app_type: 'CUSTOM' })).app_id;
  const users: string[] = [];
  for (let i = 0; i < SIDE; i++) {
    const user = await createUser(app.api);
    users.push(user.user_id);
    remote.users.set(`u${i}`, user.email);
    remote.resources.set(`r${i}`, { name: `r${i}`, levels: [], users: new Map() });
  }
  const put = await app.api.put(`/apps/${connected}/connector`, { url: remote.url, signing_secret: 'bench-secret' });
  if (put.status !== 200) throw new Error(JSON.stringify(put.body));
  const sync = await app.api.post(`/apps/${connected}/connector/sync`);
  if (!sync.body.ok) throw new Error(JSON.stringify(sync.body));
  const resources = (await app.api.get('/resources', { page_size: 1000 })).body.results
    .filter((r: { app_id: string }) => r.app_id === connected).map((r: { resource_id: string }) => r.resource_id) as string[];

  const actor = { userId: app.adminUserId, name: 'Bench', email: 'bench@example.com', tokenLabel: null, tokenPreview: null, ip: null };
  let queued = 0;
  inWriteTransaction(app.ctx, () => {
    for (const resourceId of resources) {
      for (const userId of users) {
        if (queued === CHANGES) return;
        writeGrant(app.ctx, actor, { kind: 'resource_user', key: { principalId: userId, itemId: resourceId, level: '' }, expiresAt: null, source: 'DIRECT', sourceId: null, whenHeld: 'refuse' });
        queued += 1;
      }
    }
  });
  const started = process.hrtime.bigint();
  let delivered = 0;
  let retried = 0;
  for (;;) {
    const summary = await tick(app.ctx, app.clock.now());
    delivered += summary.done;
    retried += summary.retrying + summary.failed;
    if (summary.ran > 0) continue;
    if (delivered >= queued) break;
    // A retry is due later on the (manual) clock: move it on rather than wait.
    app.clock.advance(5 * 60_000);
  }
  if (retried > 0) console.log(`(${retried} attempts failed and were retried; last error: ${app.ctx.db.prepare("SELECT last_error FROM propagations WHERE last_error IS NOT NULL LIMIT 1").pluck().get()})`);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const held = remote.edges().length;
  if (held !== queued || remote.badSignatures > 0) throw new Error(`connector holds ${held} of ${queued} (bad signatures: ${remote.badSignatures})`);
  const rate = delivered / seconds;
  console.log(`connector delivery: ${delivered} changes in ${seconds.toFixed(2)} s = ${Math.round(rate)}/s (target ≥ 500/s) ${rate >= 500 ? 'OK' : 'SLOW'}`);

  // Grant latency: POST …/users/{user_id} on an item with a connector and one without, alternating.
  const withRes = (await app.api.post('/resources', { name: 'latency-connected', resource_type: 'CUSTOM_CONNECTOR', app_id: connected, remote_info: { custom_connector: { remote_resource_id: 'r0', can_have_usage_events: false } } })).body.resource_id;
  const withoutRes = (await app.api.post('/resources', { name: 'latency-plain', resource_type: 'CUSTOM', app_id: plain })).body.resource_id;
  let i = 0;
  let j = 0;
  const grantOn = (resourceId: string, counter: () => number) => async () => {
    const res = await app.api.post(`/resources/${resourceId}/users/${users[counter() % users.length]}`, { duration_minutes: 0, access_level_remote_id: '' });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  };
  const runs = Math.min(users.length, 100);
  const without = await medianMs(runs, grantOn(withoutRes, () => i++));
  const withConnector = await medianMs(runs, grantOn(withRes, () => j++));
  const ok = withConnector <= Math.max(without * 1.5, without + 2);
  console.log(`grant latency (median of ${runs}): ${without.toFixed(2)} ms without a connector, ${withConnector.toFixed(2)} ms with one ${ok ? 'OK' : 'SLOWER'}`);

  // A connector whose /users never ends: 1,000 users a page, until the item bound stops the sync.
  const endless = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
  await app.api.put(`/apps/${endless}/connector`, { url: remote.url, signing_secret: 'bench-secret' });
  remote.answer = (path, cursor) => {
    if (path !== '/users') return { [path.split('/')[1]!]: [], next_cursor: null };
    const start = Number(cursor ?? '0');
    return { users: Array.from({ length: 1000 }, (_, k) => ({ id: `e${start + k}`, email: `endless-${start + k}@remote.example` })), next_cursor: String(start + 1000) };
  };
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let syncing = true;
  let slowestRead = 0;
  const reader = (async () => {
    while (syncing) {
      const t = process.hrtime.bigint();
      await app.api.get('/users', { page_size: 10 });
      slowestRead = Math.max(slowestRead, Number(process.hrtime.bigint() - t) / 1e6);
    }
  })();
  const syncStarted = process.hrtime.bigint();
  const endlessSync = (await app.api.post(`/apps/${endless}/connector/sync`)).body;
  const syncSeconds = Number(process.hrtime.bigint() - syncStarted) / 1e9;
  syncing = false;
  await reader;
  loop.disable();
  const stallMs = loop.max / 1e6;
  console.log(`endless connector sync: stopped at ${endlessSync.stopped_at} after ${endlessSync.items_read} items (${(endlessSync.bytes_read / 1e6).toFixed(1)} MB) in ${syncSeconds.toFixed(2)} s; `
    + `longest event-loop stall ${stallMs.toFixed(0)} ms (p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms), slowest reader answer ${slowestRead.toFixed(0)} ms ${stallMs < 200 ? 'OK' : 'STALLS'}`);
} finally {
  await app.close();
  await remote.stop();
}
