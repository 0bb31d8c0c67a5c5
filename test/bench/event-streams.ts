// Benchmark: event-stream delivery throughput to a receiver on loopback. Records STREAM_EVENTS
// (default 5000) events, then runs delivery ticks until one HMAC-signed stream and one unsigned
// stream have both caught up, and reports events per second per stream.
// Run: npm run bench:streams
import { ManualClock } from '../../src/lib/clock.ts';
import { tick } from '../../src/modules/event-streams/delivery.ts';
import { startTestApp } from '../helpers/app.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

const EVENTS = Number(process.env.STREAM_EVENTS ?? 5000);
const app = await startTestApp({ clock: new ManualClock(new Date()) });
const receiver = await WebhookReceiver.start();
try {
  for (const [name, credentials] of [['signed', { auth_type: 'HMAC' }], ['plain', { auth_type: 'NONE' }]] as const) {
    const res = await app.api.post('/event-streams', { name, connection_type: 'WEBHOOK', webhook_url: `${receiver.url}/${name}`, credentials });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  }
  const actor = { userId: app.adminUserId, name: 'Bench', email: 'bench@example.com', tokenLabel: null, tokenPreview: null, ip: null };
  app.ctx.db.transaction(() => {
    for (let i = 0; i < EVENTS; i++) app.ctx.stores.events.record(actor, 'USERS_UPDATED', [{ sub_event_type: 'USERS_UPDATED', user_id: app.adminUserId }]);
  })();
  const started = process.hrtime.bigint();
  let ticks = 0;
  let delivered = 0;
  for (;;) {
    const summary = await tick(app.ctx, app.clock.now());
    if (summary.streams === 0) break;
    if (summary.failed > 0) throw new Error('a delivery failed');
    delivered += summary.delivered;
    ticks += 1;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(`${delivered} deliveries (${EVENTS + 2} events × 2 streams) in ${ticks} ticks, ${seconds.toFixed(2)} s: ` +
    `${Math.round(delivered / 2 / seconds)} events/s per stream, ${(seconds * 1000 * 2 / delivered).toFixed(2)} ms per event per stream`);
} finally {
  await receiver.close();
  await app.close();
}
