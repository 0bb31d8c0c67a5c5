// Event streams under `gatehouse serve`, as a real child process: a loopback receiver gets every event
// of a scripted run of writes, signature-verified and in order, across a SIGKILL in the middle of a
// delivery and a restart on the same database file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { ApiClient } from '../helpers/client.ts';
import { createOwner, createTag, createUser } from '../helpers/fixtures.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { ServiceProcess } from './helpers/gatehouse-process.ts';

const TOKEN = 'gth_streams-test-admin-token-0123456789ab';
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
/** The delivery (0-based) the receiver takes in and never answers: the service is killed while it waits. */
const HOLD_AT = 8;

/** Every event id in the trail, oldest first. */
async function allEventIds(api: ApiClient): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const res = await api.get('/events', { page_size: 1000, cursor });
    assert.equal(res.status, 200);
    ids.push(...(res.body.results as { event_id: string }[]).map((e) => e.event_id));
    cursor = res.body.next ?? undefined;
  } while (cursor);
  return ids.reverse();
}

/** A scripted run of writes of several kinds, each recording its event. */
async function writes(api: ApiClient, users: number): Promise<void> {
  for (let i = 0; i < users; i++) await createUser(api);
  const owner = await createOwner(api);
  const tag = await createTag(api);
  const user = await createUser(api);
  assert.equal((await api.post(`/tags/${tag.tag_id}/users/${user.user_id}`)).status, 200);
  assert.equal((await api.put('/owners', { owners: [{ owner_id: owner.owner_id, description: 'edited' }] })).status, 200);
}

describe('event streams under serve', () => {
  it('delivers every event of a scripted run, verified and in order, across a SIGKILL mid-delivery', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-streams-'));
    const db = join(dir, 'streams.db');
    const env = { ...process.env, GATEHOUSE_LOG_LEVEL: 'info', GATEHOUSE_BOOTSTRAP_TOKEN: TOKEN, GATEHOUSE_EVENT_STREAM_INTERVAL_MS: '20' };
    const receiver = await WebhookReceiver.start();
    let run = 1;
    const runOf: number[] = [];
    receiver.answer = (_delivery, index) => {
      runOf[index] = run;
      return run === 1 && index === HOLD_AT ? 'hold' : 200;
    };
    let service = await ServiceProcess.start(['--db', db, '--port', '0'], { env });
    try {
      let api = new ApiClient(service.url, TOKEN);
      const created = await api.post('/event-streams', {
        name: 'siem',
        connection_type: 'WEBHOOK',
        webhook_url: `${receiver.url}/gatehouse`,
        credentials: { auth_type: 'HMAC', hmac_credential_1: { secret: SECRET } },
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const streamId = created.body.event_stream_id as string;
      await writes(api, 12);

      // The receiver holds delivery HOLD_AT open; the service dies waiting for the answer.
      await receiver.waitUntil(() => receiver.deliveries.length > HOLD_AT, `delivery ${HOLD_AT}`);
      service.child.kill('SIGKILL');
      assert.equal((await service.exited).signal, 'SIGKILL');
      assert.equal(receiver.deliveries.length, HOLD_AT + 1, 'one delivery at a time: nothing after the one held');
      run = 2;

      service = await ServiceProcess.start(['--db', db, '--port', '0'], { env });
      api = new ApiClient(service.url, TOKEN);
      await writes(api, 3);
      // Everything from the stream's own creation event on, oldest first.
      const all = await allEventIds(api);
      const createdEvent = (await api.get('/events', { event_type_filter: 'EVENT_STREAMS_CREATED' })).body.results[0].event_id as string;
      const wanted = all.slice(all.indexOf(createdEvent));
      assert.ok(wanted.length > HOLD_AT + 10, `${wanted.length} events to deliver`);
      await receiver.waitUntil(() => new Set(receiver.eventIds()).size >= wanted.length, 'every event delivered');

      for (const delivery of receiver.deliveries) {
        const payload = new Webhook(SECRET).verify(delivery.body, delivery.headers) as { type: string; data: { event_id: string; event_type: string } };
        assert.equal(delivery.headers['webhook-id'], payload.data.event_id, 'webhook-id is the event id');
        assert.equal(payload.type, payload.data.event_type);
      }
      const ids = receiver.eventIds();
      assert.deepEqual([...new Set(ids)], wanted, 'every event, each first delivered in order');
      // Within each run of the service, strictly in order with no gap; the second run resumes at the
      // event whose answer never came (delivered twice: at least once, never skipped).
      const indexes = ids.map((id) => wanted.indexOf(id));
      const first = indexes.filter((_, i) => runOf[i] === 1);
      const second = indexes.filter((_, i) => runOf[i] === 2);
      assert.deepEqual(first, Array.from({ length: HOLD_AT + 1 }, (_, i) => i));
      assert.deepEqual(second, Array.from({ length: wanted.length - HOLD_AT }, (_, i) => HOLD_AT + i));

      const [stream] = (await api.get('/event-streams')).body.event_streams;
      assert.equal(stream.event_stream_id, streamId);
      assert.equal(stream.delivery.status, 'HEALTHY');
      assert.equal(stream.delivery.lag, 0);
      assert.equal((await service.stop('SIGTERM')).code, 0);
    } finally {
      await service.stop('SIGKILL');
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
