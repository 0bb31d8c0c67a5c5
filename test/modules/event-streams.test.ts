// Event streams through HTTP: the reference's shapes, credentials shown once, validation that records
// nothing, and delivery to a real receiver on loopback — signed, in order, retried, caught up.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { openDatabase } from '../../src/db/open.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { OUTBOX_ACTOR } from '../../src/outbox/index.ts';
import { isNonPublicAddress } from '../../src/http/outbound.ts';
import { tick } from '../../src/modules/event-streams/delivery.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createToken, createUser, NO_SUCH_ID } from '../helpers/fixtures.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { errorPaths } from '../helpers/errors.ts';

const SECRET_1 = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
const SECRET_2 = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;

/** A test app whose clock reads the real time, so Standard Webhooks' five-minute timestamp window accepts signatures. */
const startApp = (env: Record<string, string> = {}) => startTestApp({ clock: new ManualClock(new Date()), env });

async function createStream(app: TestApp, body: Record<string, unknown>) {
  const res = await app.api.post('/event-streams', { name: 'audit sink', connection_type: 'WEBHOOK', ...body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function streamById(app: TestApp, id: string) {
  const res = await app.api.get('/event-streams');
  assert.equal(res.status, 200);
  return res.body.event_streams.find((s: { event_stream_id: string }) => s.event_stream_id === id);
}

/** Every event id in the trail, oldest first. */
async function allEventIds(app: TestApp): Promise<string[]> {
  const res = await app.api.get('/events', { page_size: 1000 });
  return (res.body.results as { event_id: string }[]).map((e) => e.event_id).reverse();
}

describe('event streams: the API', () => {
  let app: TestApp;
  before(async () => (app = await startApp()));
  after(() => app.close());

  const eventCount = async () => (await allEventIds(app)).length;

  it('creates a stream in the reference\'s shape, starting at the newest event, and records EVENT_STREAMS_CREATED', async () => {
    const before = await app.api.get('/events', { page_size: 1 });
    const created = await createStream(app, { webhook_url: 'http://127.0.0.1:9/hook' });
    assert.deepEqual(created.connection, {
      name: 'audit sink',
      connection_type: 'WEBHOOK',
      enabled: true,
      webhook_url: 'http://127.0.0.1:9/hook',
      credentials: { auth_type: 'NONE' },
    });
    assert.equal(created.delivery.status, 'HEALTHY');
    assert.equal(created.delivery.lag, 1, 'its own creation event is the first to deliver');
    const [event] = (await app.api.get('/events', { page_size: 1 })).body.results;
    assert.equal(event.event_type, 'EVENT_STREAMS_CREATED');
    assert.notEqual(event.event_id, before.body.results[0].event_id);
    assert.equal(event.sub_events[0].event_stream_id, created.event_stream_id);
    assert.deepEqual(await streamById(app, created.event_stream_id), created);
  });

  it('shows HMAC secrets and API key values only in the answer that set them', async () => {
    const hmac = await createStream(app, {
      webhook_url: 'https://receiver.example.com/hook',
      credentials: { auth_type: 'HMAC', hmac_credential_1: { secret: SECRET_1 } },
    });
    const one = hmac.connection.credentials.hmac_credential_1;
    assert.equal(one.secret, SECRET_1);
    assert.equal(hmac.connection.credentials.hmac_credential_2, null);
    const listed = await streamById(app, hmac.event_stream_id);
    assert.equal(listed.connection.credentials.hmac_credential_1.secret, `whsec_${'*'.repeat(12)}${SECRET_1.slice(-4)}`);
    assert.equal(listed.connection.credentials.hmac_credential_1.id, one.id);

    // Rotation: keep the first by id, add a generated second; only the new one is shown in clear.
    const rotated = await app.api.put(`/event-streams/${hmac.event_stream_id}`, {
      credentials: { auth_type: 'HMAC', hmac_credential_1: { id: one.id }, hmac_credential_2: {} },
    });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const creds = rotated.body.connection.credentials;
    assert.equal(creds.hmac_credential_1.id, one.id);
    assert.match(creds.hmac_credential_1.secret, /^whsec_\*{12}/);
    assert.match(creds.hmac_credential_2.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(creds.hmac_credential_2.secret.slice(6), 'base64').length, 32);

    const generated = await createStream(app, { webhook_url: 'https://receiver.example.com/a', credentials: { auth_type: 'HMAC' } });
    assert.match(generated.connection.credentials.hmac_credential_1.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);

    const keyed = await createStream(app, {
      webhook_url: 'https://receiver.example.com/b',
      credentials: { auth_type: 'API_KEY', api_key_credentials: [{ name: 'X-Api-Key', value: 'key-0123456789abcdef', location: 'HEADER' }] },
    });
    const [key] = keyed.connection.credentials.api_key_credentials;
    assert.deepEqual({ ...key, id: undefined }, { id: undefined, name: 'X-Api-Key', value: 'key-0123456789abcdef', location: 'HEADER' });
    assert.equal((await streamById(app, keyed.event_stream_id)).connection.credentials.api_key_credentials[0].value, `${'*'.repeat(12)}cdef`);
  });

  it('updates name, URL and enabled, records EVENT_STREAMS_UPDATED, and keeps credentials not given', async () => {
    const stream = await createStream(app, {
      webhook_url: 'https://receiver.example.com/c',
      credentials: { auth_type: 'API_KEY', api_key_credentials: [{ name: 'token', value: 'query-secret-0123456789', location: 'QUERY_PARAM' }] },
    });
    const res = await app.api.put(`/event-streams/${stream.event_stream_id}`, { name: 'renamed', webhook_url: 'https://other.example.com/x', enabled: false });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.connection.name, 'renamed');
    assert.equal(res.body.connection.enabled, false);
    assert.equal(res.body.delivery.status, 'DISABLED');
    assert.equal(res.body.connection.credentials.api_key_credentials[0].value, `${'*'.repeat(12)}6789`);
    const [event] = (await app.api.get('/events', { page_size: 1 })).body.results;
    assert.equal(event.event_type, 'EVENT_STREAMS_UPDATED');
    assert.equal(event.sub_events[0].updated_fields, 'name,webhook_url,enabled');
    assert.ok(!JSON.stringify(event).includes('query-secret'), 'no secret in the audit trail');
  });

  it('deletes a stream and records EVENT_STREAMS_DELETED; an unknown one is 404', async () => {
    const stream = await createStream(app, { webhook_url: 'https://receiver.example.com/d' });
    const res = await app.api.delete(`/event-streams/${stream.event_stream_id}`);
    assert.equal(res.status, 200);
    assert.equal(await streamById(app, stream.event_stream_id), undefined);
    const [event] = (await app.api.get('/events', { page_size: 1 })).body.results;
    assert.equal(event.event_type, 'EVENT_STREAMS_DELETED');
    const count = await eventCount();
    assert.equal((await app.api.delete(`/event-streams/${stream.event_stream_id}`)).status, 404);
    assert.equal((await app.api.put(`/event-streams/${NO_SUCH_ID}`, { name: 'x' })).status, 404);
    assert.equal(await eventCount(), count, 'a refused write records nothing');
  });

  const BAD_CREATES: [string, Record<string, unknown>, string[]][] = [
    ['no URL', {}, ['webhook_url']],
    ['not a URL', { webhook_url: 'receiver' }, ['webhook_url']],
    ['another scheme', { webhook_url: 'ftp://receiver.example.com/' }, ['webhook_url']],
    ['user info in the URL', { webhook_url: 'https://user:pw@receiver.example.com/' }, ['webhook_url']],
    ['a fragment', { webhook_url: 'https://receiver.example.com/#x' }, ['webhook_url']],
    ['another connection type', { connection_type: 'KAFKA', webhook_url: 'https://r.example.com/' }, ['connection_type']],
    ['no name', { name: ' ', webhook_url: 'https://r.example.com/' }, ['name']],
    ['an unknown auth type', { webhook_url: 'https://r.example.com/', credentials: { auth_type: 'BASIC' } }, ['credentials.auth_type']],
    ['API keys with NONE', { webhook_url: 'https://r.example.com/', credentials: { auth_type: 'NONE', api_key_credentials: [{ name: 'k', value: 'v' }] } }, ['credentials.api_key_credentials']],
    ['API_KEY without keys', { webhook_url: 'https://r.example.com/', credentials: { auth_type: 'API_KEY' } }, ['credentials.api_key_credentials']],
    ['a new key without value', { webhook_url: 'https://r.example.com/', credentials: { auth_type: 'API_KEY', api_key_credentials: [{ name: 'k' }] } }, ['credentials.api_key_credentials.0.value']],
    ['a reserved header', { webhook_url: 'https://r.example.com/', credentials: { auth_type: 'API_KEY', api_key_credentials: [{ name: 'Webhook-Signature', value: 'v' }] } }, ['credentials.api_key_credentials.0.name']],
    ['a header name with a space', { webhook_url: 'https://r.example.com/', credentials: { auth_type: 'API_KEY', api_key_credentials: [{ name: 'X Key', value: 'v' }] } }, ['credentials.api_key_credentials.0.name']],
    ['a line break in a header value', { webhook_url: 'https://r.example.com/', credentials: { auth_type: 'API_KEY', api_key_credentials: [{ name: 'X-Key', value: 'a\r\nInjected: 1' }] } }, ['credentials.api_key_credentials.0.value']],
    ['a non-ASCII header value', { webhook_url: 'https://r.example.com/', credentials: { auth_type: 'API_KEY', api_key_credentials: [{ name: 'X-Key', value: 'é☃' }] } }, ['credentials.api_key_credentials.0.value']],
    ['the same header twice', { webhook_url: 'https://r.example.com/', credentials: { auth_type: 'API_KEY', api_key_credentials: [{ name: 'X-Key', value: 'a' }, { name: 'x-key', value: 'b' }] } }, ['credentials.api_key_credentials.1.name']],
    ['HMAC secrets with API_KEY', { webhook_url: 'https://r.example.com/', credentials: { auth_type: 'API_KEY', api_key_credentials: [{ name: 'X-Key', value: 'a' }], hmac_credential_1: {} } }, ['credentials.hmac_credential_1']],
    ['a secret without whsec_', { webhook_url: 'https://r.example.com/', credentials: { auth_type: 'HMAC', hmac_credential_1: { secret: Buffer.alloc(32).toString('base64') } } }, ['credentials.hmac_credential_1.secret']],
    ['a secret too short', { webhook_url: 'https://r.example.com/', credentials: { auth_type: 'HMAC', hmac_credential_1: { secret: `whsec_${Buffer.alloc(8).toString('base64')}` } } }, ['credentials.hmac_credential_1.secret']],
    ['a secret kept by an unknown id', { webhook_url: 'https://r.example.com/', credentials: { auth_type: 'HMAC', hmac_credential_1: { id: NO_SUCH_ID } } }, ['credentials.hmac_credential_1.id']],
  ];
  for (const [name, body, expected] of BAD_CREATES) {
    it(`refuses a stream with ${name}, naming ${expected.join(', ')}, and records nothing`, async () => {
      const count = await eventCount();
      const streams = (await app.api.get('/event-streams')).body.event_streams.length;
      const res = await app.api.post('/event-streams', { name: 'bad', connection_type: 'WEBHOOK', ...body });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.code, 'validation_failed');
      assert.deepEqual(errorPaths(res.body), expected);
      assert.equal(await eventCount(), count);
      assert.equal((await app.api.get('/event-streams')).body.event_streams.length, streams);
    });
  }

  it('lets a READ_ONLY token list streams but not create, change or delete one', async () => {
    const stream = await createStream(app, { webhook_url: 'https://r.example.com/ro', credentials: { auth_type: 'HMAC' } });
    const reader = app.api.as((await createToken(app.api, { access_level: 'READ_ONLY' })).secret);
    const count = await eventCount();
    const listed = await reader.get('/event-streams');
    assert.equal(listed.status, 200);
    assert.ok(!JSON.stringify(listed.body).includes(stream.connection.credentials.hmac_credential_1.secret), 'secrets masked');
    assert.equal((await reader.post('/event-streams', { name: 'x', connection_type: 'WEBHOOK', webhook_url: 'https://r.example.com/' })).status, 403);
    assert.equal((await reader.put(`/event-streams/${stream.event_stream_id}`, { enabled: false })).status, 403);
    assert.equal((await reader.delete(`/event-streams/${stream.event_stream_id}`)).status, 403);
    assert.equal(await eventCount(), count);
    assert.equal((await streamById(app, stream.event_stream_id)).connection.enabled, true);
  });

  it('refuses an update that keeps a secret the stream does not have, changing nothing', async () => {
    const other = await createStream(app, { webhook_url: 'https://r.example.com/e', credentials: { auth_type: 'HMAC' } });
    const stream = await createStream(app, { webhook_url: 'https://r.example.com/f', credentials: { auth_type: 'HMAC' } });
    const before = await streamById(app, stream.event_stream_id);
    const count = await eventCount();
    const res = await app.api.put(`/event-streams/${stream.event_stream_id}`, {
      name: 'changed',
      credentials: { auth_type: 'HMAC', hmac_credential_1: { id: other.connection.credentials.hmac_credential_1.id } },
    });
    assert.equal(res.status, 400);
    assert.deepEqual(errorPaths(res.body), ['credentials.hmac_credential_1.id']);
    assert.deepEqual(await streamById(app, stream.event_stream_id), before);
    assert.equal(await eventCount(), count);
  });
});

describe('event streams: delivery', () => {
  let receiver: WebhookReceiver;
  before(async () => (receiver = await WebhookReceiver.start()));
  after(() => receiver.close());

  it('delivers every event in order, signed with both secrets (verified by standardwebhooks), with a stable webhook-id', async () => {
    const app = await startApp();
    try {
      receiver.deliveries.length = 0;
      const stream = await createStream(app, {
        webhook_url: `${receiver.url}/signed`,
        credentials: { auth_type: 'HMAC', hmac_credential_1: { secret: SECRET_1 }, hmac_credential_2: { secret: SECRET_2 } },
      });
      for (let i = 0; i < 5; i++) await createUser(app.api);
      const expected = (await allEventIds(app)).slice(-6); // the stream's creation, then five users
      const summary = await tick(app.ctx, app.clock.now());
      assert.deepEqual(summary, { streams: 1, delivered: 6, failed: 0 });
      assert.deepEqual(receiver.eventIds(), expected);

      for (const delivery of receiver.deliveries) {
        assert.equal(delivery.path, '/signed');
        assert.equal(delivery.headers['content-type'], 'application/json');
        assert.equal(delivery.headers['webhook-id'], delivery.payload.data.event_id);
        assert.equal(delivery.headers['webhook-signature']!.split(' ').length, 2);
        // A receiver holding either secret verifies the delivery.
        for (const secret of [SECRET_1, SECRET_2]) {
          const verified = new Webhook(secret).verify(delivery.body, delivery.headers) as typeof delivery.payload;
          assert.equal(verified.data.event_id, delivery.payload.data.event_id);
        }
        assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 3).toString('base64')}`).verify(delivery.body, delivery.headers), /No matching signature/);
        assert.equal(delivery.payload.type, delivery.payload.data.event_type);
        assert.deepEqual(delivery.payload.data, (await app.api.get(`/events/${delivery.payload.data.event_id}`)).body);
      }
      assert.equal(receiver.deliveries[0]!.payload.type, 'EVENT_STREAMS_CREATED');

      const after = await streamById(app, stream.event_stream_id);
      assert.equal(after.delivery.lag, 0);
      assert.equal(after.delivery.status, 'HEALTHY');
      assert.equal(after.delivery.last_delivered_at, app.clock.now().toISOString());
      assert.deepEqual(await tick(app.ctx, app.clock.now()), { streams: 0, delivered: 0, failed: 0 }, 'nothing more to do');
    } finally {
      await app.close();
    }
  });

  it('puts API keys in their header or query parameter, and sends no signature without HMAC', async () => {
    const app = await startApp();
    try {
      receiver.deliveries.length = 0;
      await createStream(app, {
        webhook_url: `${receiver.url}/keyed?static=1`,
        credentials: {
          auth_type: 'API_KEY',
          api_key_credentials: [
            { name: 'X-Receiver-Key', value: 'header-secret', location: 'HEADER' },
            { name: 'token', value: 'query secret&more', location: 'QUERY_PARAM' },
          ],
        },
      });
      await tick(app.ctx, app.clock.now());
      const [delivery] = receiver.deliveries;
      assert.ok(delivery);
      assert.equal(delivery.headers['x-receiver-key'], 'header-secret');
      assert.equal(delivery.query.get('token'), 'query secret&more');
      assert.equal(delivery.query.get('static'), '1');
      assert.equal(delivery.headers['webhook-signature'], undefined);
      assert.ok(delivery.headers['webhook-id'] && delivery.headers['webhook-timestamp']);
    } finally {
      await app.close();
    }
  });

  it('keeps every secret when a client sends back the whole stream a GET answered, masks included', async () => {
    const app = await startApp();
    try {
      receiver.deliveries.length = 0;
      const signed = await createStream(app, {
        webhook_url: `${receiver.url}/round-trip`,
        credentials: { auth_type: 'HMAC', hmac_credential_1: { secret: SECRET_1 }, hmac_credential_2: { secret: SECRET_2 } },
      });
      const keyed = await createStream(app, {
        webhook_url: `${receiver.url}/round-trip-keyed`,
        credentials: { auth_type: 'API_KEY', api_key_credentials: [{ name: 'X-Receiver-Key', value: 'header-secret-0123456789', location: 'HEADER' }] },
      });
      // What a generated client does: read, change one field, send the connection back whole.
      for (const stream of [signed, keyed]) {
        const { connection } = await streamById(app, stream.event_stream_id);
        const count = (await allEventIds(app)).length;
        const res = await app.api.put(`/event-streams/${stream.event_stream_id}`, { ...connection, name: `${connection.name} (renamed)` });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(res.body.connection, { ...connection, name: `${connection.name} (renamed)` }, 'same ids, same masks');
        const [event] = (await app.api.get('/events', { page_size: 1 })).body.results;
        assert.equal((await allEventIds(app)).length, count + 1);
        assert.equal(event.sub_events[0].updated_fields, 'name', 'credentials sent back unchanged are not a change');
      }
      // Or sends back the whole EventStream, fields under `connection` (top-level ones win).
      {
        const whole = await streamById(app, signed.event_stream_id);
        const res = await app.api.put(`/event-streams/${signed.event_stream_id}`, { ...whole, connection: { ...whole.connection, name: 'from connection', enabled: false } });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(res.body.connection, { ...whole.connection, name: 'from connection', enabled: false }, 'same secrets, new name');
        const wins = await app.api.put(`/event-streams/${signed.event_stream_id}`, { name: 'top level', connection: { ...res.body.connection, name: 'ignored', enabled: true } });
        assert.equal(wins.body.connection.name, 'top level');
        assert.equal(wins.body.connection.enabled, true);
        const bad = await app.api.put(`/event-streams/${signed.event_stream_id}`, { connection: { webhook_url: 'ftp://x.example.com/' } });
        assert.equal(bad.status, 400);
        assert.deepEqual(errorPaths(bad.body), ['connection.webhook_url']);
      }

      await tick(app.ctx, app.clock.now());
      const roundTrip = receiver.deliveries.filter((d) => d.path === '/round-trip');
      assert.ok(roundTrip.length >= 3);
      for (const delivery of roundTrip) {
        for (const secret of [SECRET_1, SECRET_2]) assert.doesNotThrow(() => new Webhook(secret).verify(delivery.body, delivery.headers));
      }
      const keyedDeliveries = receiver.deliveries.filter((d) => d.path === '/round-trip-keyed');
      assert.ok(keyedDeliveries.length >= 2);
      for (const delivery of keyedDeliveries) assert.equal(delivery.headers['x-receiver-key'], 'header-secret-0123456789');

      // A mask that is not the credential's own is refused, not stored as a secret; nothing changes.
      const before = await streamById(app, keyed.event_stream_id);
      const count = (await allEventIds(app)).length;
      const [key] = before.connection.credentials.api_key_credentials;
      const hmac = (await streamById(app, signed.event_stream_id)).connection.credentials;
      const refusals: [string, Record<string, unknown>, string][] = [
        [keyed.event_stream_id, { auth_type: 'API_KEY', api_key_credentials: [{ ...key, value: '************wxyz' }] }, 'credentials.api_key_credentials.0.value'],
        [keyed.event_stream_id, { auth_type: 'API_KEY', api_key_credentials: [{ name: 'X-Other', value: key.value }] }, 'credentials.api_key_credentials.0.value'],
        [signed.event_stream_id, { auth_type: 'HMAC', hmac_credential_1: { ...hmac.hmac_credential_1, id: hmac.hmac_credential_2.id } }, 'credentials.hmac_credential_1.secret'],
        [signed.event_stream_id, { auth_type: 'HMAC', hmac_credential_1: { secret: hmac.hmac_credential_1.secret } }, 'credentials.hmac_credential_1.secret'],
      ];
      for (const [id, credentials, path] of refusals) {
        const res = await app.api.put(`/event-streams/${id}`, { enabled: false, credentials });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.deepEqual(errorPaths(res.body), [path]);
        assert.match(res.body.details[0].message, /masked secret/);
      }
      assert.deepEqual(await streamById(app, keyed.event_stream_id), before);
      assert.equal((await allEventIds(app)).length, count);
    } finally {
      await app.close();
    }
  });

  it('backs off 1, 2, 4, 8, 16 s on failures, marks the stream FAILING after five, and catches up in order when the receiver returns', async () => {
    const app = await startApp();
    try {
      receiver.deliveries.length = 0;
      let up = false;
      receiver.answer = () => (up ? 204 : 503);
      const stream = await createStream(app, { webhook_url: `${receiver.url}/flaky` });
      for (let i = 0; i < 3; i++) await createUser(app.api);
      const expected = (await allEventIds(app)).slice(-4);
      const first = expected[0];

      const delays: number[] = [];
      for (let failure = 1; failure <= 6; failure++) {
        const summary = await tick(app.ctx, app.clock.now());
        assert.deepEqual(summary, { streams: 1, delivered: 0, failed: 1 });
        const state = (await streamById(app, stream.event_stream_id)).delivery;
        assert.equal(state.consecutive_failures, failure);
        assert.equal(state.status, failure >= 5 ? 'FAILING' : 'RETRYING');
        assert.equal(state.last_error, 'receiver answered 503 Service Unavailable');
        assert.equal(state.lag, 4);
        const wait = new Date(state.next_attempt_at).getTime() - app.clock.now().getTime();
        delays.push(wait);
        // Not before its time…
        app.clock.advance(wait - 1);
        assert.deepEqual(await tick(app.ctx, app.clock.now()), { streams: 0, delivered: 0, failed: 0 });
        app.clock.advance(1);
      }
      assert.deepEqual(delays, [1000, 2000, 4000, 8000, 16000, 32000]);
      assert.ok(receiver.eventIds().every((id) => id === first), 'every retry is the same first event');
      assert.ok(app.logs.some((l) => l.msg === 'event stream failing' && l.event_stream_id === stream.event_stream_id));

      up = true;
      receiver.deliveries.length = 0;
      assert.deepEqual(await tick(app.ctx, app.clock.now()), { streams: 1, delivered: 4, failed: 0 });
      assert.deepEqual(receiver.eventIds(), expected);
      const state = (await streamById(app, stream.event_stream_id)).delivery;
      assert.equal(state.status, 'HEALTHY');
      assert.equal(state.lag, 0);
      assert.equal(state.next_attempt_at, null);
      assert.equal(state.last_error, 'receiver answered 503 Service Unavailable', 'the last error stays for reference');
    } finally {
      receiver.answer = () => 200;
      await app.close();
    }
  });

  it('caps the back-off at GATEHOUSE_EVENT_STREAM_MAX_RETRY_DELAY_MS, and an update clears it', async () => {
    const app = await startApp({ GATEHOUSE_EVENT_STREAM_MAX_RETRY_DELAY_MS: '3000' });
    try {
      receiver.answer = () => 500;
      const stream = await createStream(app, { webhook_url: `${receiver.url}/capped` });
      const delays: number[] = [];
      for (let i = 0; i < 4; i++) {
        await tick(app.ctx, app.clock.now());
        const next = (await streamById(app, stream.event_stream_id)).delivery.next_attempt_at;
        delays.push(new Date(next).getTime() - app.clock.now().getTime());
        app.clock.set(next);
      }
      assert.deepEqual(delays, [1000, 2000, 3000, 3000]);
      await tick(app.ctx, app.clock.now());
      const updated = await app.api.put(`/event-streams/${stream.event_stream_id}`, { webhook_url: `${receiver.url}/fixed` });
      assert.equal(updated.body.delivery.next_attempt_at, null);
      receiver.answer = () => 200;
      receiver.deliveries.length = 0;
      assert.equal((await tick(app.ctx, app.clock.now())).delivered, 2, 'its creation and update, at once');
      assert.deepEqual(receiver.deliveries.map((d) => d.path), ['/fixed', '/fixed']);
    } finally {
      receiver.answer = () => 200;
      await app.close();
    }
  });

  it('counts no answer within GATEHOUSE_EVENT_STREAM_TIMEOUT_MS as a failure, and an unreachable receiver too', async () => {
    const app = await startApp({ GATEHOUSE_EVENT_STREAM_TIMEOUT_MS: '200' });
    try {
      receiver.answer = () => 'hold';
      const held = await createStream(app, { webhook_url: `${receiver.url}/slow` });
      await app.api.put(`/event-streams/${held.event_stream_id}`, { enabled: true }); // a second event, still held back
      await tick(app.ctx, app.clock.now());
      const state = (await streamById(app, held.event_stream_id)).delivery;
      assert.equal(state.last_error, 'no answer within 200 ms');
      assert.equal(state.position + state.lag, (await allEventIds(app)).length);
      await app.api.delete(`/event-streams/${held.event_stream_id}`);

      const closed = await WebhookReceiver.start();
      const url = closed.url;
      await closed.close();
      const dead = await createStream(app, { webhook_url: `${url}/gone` });
      await tick(app.ctx, app.clock.now());
      assert.match((await streamById(app, dead.event_stream_id)).delivery.last_error, /^could not connect: ECONNREFUSED$/);
    } finally {
      receiver.answer = () => 200;
      await app.close();
    }
  });

  it('records a stored header value Node will not send as a failure of that stream, not of the job, and other streams go on', async () => {
    const app = await startApp();
    try {
      const broken = await createStream(app, { webhook_url: `${receiver.url}/broken`, credentials: { auth_type: 'API_KEY', api_key_credentials: [{ name: 'X-Key', value: 'fine' }] } });
      const healthy = await createStream(app, { webhook_url: `${receiver.url}/healthy` });
      // API validation now refuses such a value; a database written before it could still hold one.
      app.ctx.db.prepare(`UPDATE event_stream_credentials SET secret = 'a' || char(13, 10) || 'b' WHERE stream_id = ?`).run(broken.event_stream_id);
      const summary = await tick(app.ctx, app.clock.now());
      assert.equal(summary.failed, 1);
      const state = (await streamById(app, broken.event_stream_id)).delivery;
      assert.equal(state.consecutive_failures, 1);
      assert.equal(state.status, 'RETRYING');
      assert.match(state.last_error, /^could not send the request: .*header/i);
      assert.doesNotMatch(state.last_error, /fine|a\r\nb/, 'the value itself is never shown');
      assert.equal((await streamById(app, healthy.event_stream_id)).delivery.lag, 0);
      assert.ok(receiver.deliveries.some((d) => d.path === '/healthy'));
      assert.ok(!receiver.deliveries.some((d) => d.path === '/broken'));
    } finally {
      await app.close();
    }
  });

  it('streams an event recorded in an open group-commit batch only once it is on disk, and nothing of a batch that could not commit', async () => {
    const app = await startApp();
    const other = openDatabase(app.dbFile, { readonly: true });
    const record = () => app.ctx.db.transaction(() => app.ctx.stores.events.record(OUTBOX_ACTOR, 'OUTBOX_ITEMS_RETRIED', [
      { sub_event_type: 'OUTBOX_ITEMS_RETRIED', outbox_seq: 1, kind: 'test.kind', key: 'k', error: null },
    ]))();
    try {
      receiver.deliveries.length = 0;
      const stream = await createStream(app, { webhook_url: `${receiver.url}/durable` });
      const durableAtDelivery: boolean[] = [];
      receiver.answer = (delivery) => {
        durableAtDelivery.push(other.prepare('SELECT 1 FROM events WHERE id = ?').get(delivery.payload.data.event_id) !== undefined);
        return 200;
      };
      // Under serve, this write waits in a batch that commits after the turn (db/group-commit.ts).
      record();
      assert.equal(app.ctx.db.inTransaction, true, 'the server batches this write');
      assert.equal((await tick(app.ctx, app.clock.now())).delivered, 2, "the stream's creation, then the batched event");
      assert.deepEqual(durableAtDelivery, [true, true]);

      // A batch whose COMMIT fails (here a foreign key checked only at COMMIT; on disk, SQLITE_FULL or
      // an I/O error) is lost: its event, readable until then on this connection, must not go out.
      const lostId = app.ctx.db.transaction(() => {
        app.ctx.db.pragma('defer_foreign_keys = ON');
        app.ctx.db.prepare('INSERT INTO owner_users (owner_id, user_id, position) VALUES (?, ?, 0)').run(NO_SUCH_ID, NO_SUCH_ID);
        return record();
      })();
      await assert.rejects(tick(app.ctx, app.clock.now()), /FOREIGN KEY/);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(receiver.deliveries.some((d) => d.payload.data.event_id === lostId), false, 'a lost event was streamed');
      assert.equal(other.prepare('SELECT 1 FROM events WHERE id = ?').get(lostId), undefined);
      assert.equal((await streamById(app, stream.event_stream_id)).delivery.lag, 0);
    } finally {
      receiver.answer = () => 200;
      other.close();
      await app.close();
    }
  });

  it('holds events for a disabled stream and delivers them, in order, once it is enabled again', async () => {
    const app = await startApp();
    try {
      receiver.deliveries.length = 0;
      const stream = await createStream(app, { webhook_url: `${receiver.url}/paused` });
      await app.api.put(`/event-streams/${stream.event_stream_id}`, { enabled: false });
      await createUser(app.api);
      assert.deepEqual(await tick(app.ctx, app.clock.now()), { streams: 0, delivered: 0, failed: 0 });
      assert.equal(receiver.deliveries.length, 0);
      assert.equal((await streamById(app, stream.event_stream_id)).delivery.lag, 3);
      await app.api.put(`/event-streams/${stream.event_stream_id}`, { enabled: true });
      await tick(app.ctx, app.clock.now());
      assert.deepEqual(receiver.eventIds(), (await allEventIds(app)).slice(-4));
    } finally {
      await app.close();
    }
  });

  it('keeps the position and the back-off across a restart on the same database file', async () => {
    let app = await startApp();
    const dbFile = app.dbFile;
    try {
      receiver.deliveries.length = 0;
      const stream = await createStream(app, { webhook_url: `${receiver.url}/durable` });
      await tick(app.ctx, app.clock.now());
      receiver.answer = () => 500;
      await createUser(app.api);
      await tick(app.ctx, app.clock.now());
      const before = await streamById(app, stream.event_stream_id);
      assert.equal(before.delivery.consecutive_failures, 1);
      await app.close({ keepFiles: true });

      app = await startTestApp({ dbFile, clock: new ManualClock(app.clock.now()) });
      assert.deepEqual(await streamById(app, stream.event_stream_id), before);
      receiver.answer = () => 200;
      assert.deepEqual(await tick(app.ctx, app.clock.now()), { streams: 0, delivered: 0, failed: 0 }, 'the back-off survived');
      app.clock.advance(1000);
      assert.deepEqual(await tick(app.ctx, app.clock.now()), { streams: 1, delivered: 1, failed: 0 });
      const ids = receiver.eventIds();
      assert.deepEqual([...new Set(ids)], (await allEventIds(app)).slice(-2));
    } finally {
      receiver.answer = () => 200;
      await app.close();
    }
  });

  it('delivers the next batch (of 100) to a URL changed mid-delivery, and nothing more once disabled', async () => {
    const app = await startApp();
    try {
      receiver.deliveries.length = 0;
      const stream = await createStream(app, { webhook_url: `${receiver.url}/old` });
      const actor = { userId: app.adminUserId, name: 'Admin', email: 'admin@gatehouse.local', tokenLabel: null, tokenPreview: null, ip: null };
      app.ctx.db.transaction(() => {
        for (let i = 0; i < 249; i++) app.ctx.stores.events.record(actor, 'USERS_UPDATED', [{ sub_event_type: 'USERS_UPDATED', user_id: app.adminUserId }]);
      })();
      const { eventStreams } = app.ctx.stores;
      const fields = { name: 'audit sink', auth_type: 'NONE' as const };
      receiver.answer = (_d, index) => {
        if (index === 10) eventStreams.update(stream.event_stream_id, { ...fields, webhook_url: `${receiver.url}/new`, enabled: true }, app.clock.now());
        if (index === 150) eventStreams.update(stream.event_stream_id, { ...fields, webhook_url: `${receiver.url}/new`, enabled: false }, app.clock.now());
        return 200;
      };
      const summary = await tick(app.ctx, app.clock.now());
      assert.equal(summary.delivered, 200);
      const where = receiver.deliveries.map((d) => d.path);
      assert.deepEqual(where, [...Array(100).fill('/old'), ...Array(100).fill('/new')]);
      assert.deepEqual(receiver.eventIds(), (await allEventIds(app)).slice(-250, -50));
    } finally {
      receiver.answer = () => 200;
      await app.close();
    }
  });

  it('with GATEHOUSE_EVENT_STREAM_PRIVATE_ADDRESSES=deny (the policy\'s former name), refuses a non-public receiver, by address or by a name resolving to one', async () => {
    const app = await startApp({ GATEHOUSE_EVENT_STREAM_PRIVATE_ADDRESSES: 'deny' });
    try {
      receiver.deliveries.length = 0;
      const port = new URL(receiver.url).port;
      const byAddress = await createStream(app, { webhook_url: `http://127.0.0.1:${port}/denied` });
      await tick(app.ctx, app.clock.now());
      assert.equal((await streamById(app, byAddress.event_stream_id)).delivery.last_error,
        'address 127.0.0.1 is not public, and GATEHOUSE_PRIVATE_ADDRESSES is deny');
      await app.api.delete(`/event-streams/${byAddress.event_stream_id}`);
      const byName = await createStream(app, { webhook_url: `http://localhost:${port}/denied` });
      await tick(app.ctx, app.clock.now());
      assert.match((await streamById(app, byName.event_stream_id)).delivery.last_error, /^address (127\.0\.0\.1|::1) is not public/);
      await app.api.delete(`/event-streams/${byName.event_stream_id}`);
      // Loopback written as IPv6 forms that embed it (SIIT and IPv4-compatible reach it on Linux).
      for (const host of ['[::ffff:0:7f00:1]', '[::127.0.0.1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::1]']) {
        const embedded = await createStream(app, { webhook_url: `http://${host}:${port}/denied` });
        await tick(app.ctx, app.clock.now());
        assert.match((await streamById(app, embedded.event_stream_id)).delivery.last_error, /is not public, and GATEHOUSE_PRIVATE_ADDRESSES is deny$/, host);
        await app.api.delete(`/event-streams/${embedded.event_stream_id}`);
      }
      assert.equal(receiver.deliveries.length, 0);
    } finally {
      await app.close();
    }
  });

  it('judges addresses public or not as documented', () => {
    for (const address of ['127.0.0.1', '::1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1',
      // IPv4 inside IPv6 (compatible, SIIT, NAT64, 6to4, Teredo) and documentation ranges (issue 21 §4).
      '::127.0.0.1', '::ffff:0:7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::1', '2001::1', '192.0.2.1', '198.51.100.7', '203.0.113.9', '2001:db8::1']) {
      assert.equal(isNonPublicAddress(address), true, address);
    }
    for (const address of ['8.8.8.8', '172.15.0.1', '93.184.216.34', '2001:4860:4860::8888', '::ffff:8.8.8.8', 'receiver.example.com']) {
      assert.equal(isNonPublicAddress(address), false, address);
    }
  });

  it('stops delivering to a stream deleted mid-delivery', async () => {
    const app = await startApp();
    try {
      receiver.deliveries.length = 0;
      const stream = await createStream(app, { webhook_url: `${receiver.url}/deleted` });
      for (let i = 0; i < 3; i++) await createUser(app.api);
      let deleted = false;
      receiver.answer = (_d, index) => {
        if (index === 1 && !deleted) {
          deleted = true;
          app.ctx.stores.eventStreams.delete(stream.event_stream_id);
        }
        return 200;
      };
      const summary = await tick(app.ctx, app.clock.now());
      assert.equal(receiver.deliveries.length, 2, 'the delivery in flight completes; nothing after it');
      assert.equal(summary.delivered, 2);
    } finally {
      receiver.answer = () => 200;
      await app.close();
    }
  });
});

describe('event streams: a test delivery (POST /v1/event-streams/{event_stream_id}/test, an extension)', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  before(async () => {
    app = await startApp();
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await receiver.close();
    await app.close();
  });

  it('sends one signed test event now and says the receiver took it, moving nothing', async () => {
    const stream = await createStream(app, { webhook_url: `${receiver.url}/test`, credentials: { auth_type: 'HMAC', hmac_credential_1: { secret: SECRET_1 } } });
    const before = await streamById(app, stream.event_stream_id);
    const eventsBefore = (await allEventIds(app)).length;
    const res = await app.api.post(`/event-streams/${stream.event_stream_id}/test`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { delivered: true, error: null });
    assert.equal(receiver.deliveries.length, 1);
    const [delivery] = receiver.deliveries;
    assert.equal(delivery!.payload.type, 'EVENT_STREAM_TEST');
    assert.equal(delivery!.payload.data.actor_user_id, app.adminUserId);
    // Signed as every delivery is: the receiver can check it with the stream's secret.
    assert.doesNotThrow(() => new Webhook(SECRET_1).verify(delivery!.body, delivery!.headers));
    // Nothing written: the stream still waits to deliver its own creation event, and the trail is as it was.
    assert.deepEqual(await streamById(app, stream.event_stream_id), before);
    assert.equal((await allEventIds(app)).length, eventsBefore);
  });

  it('says in words why the receiver did not take it, without counting a failure', async () => {
    receiver.answer = () => 503;
    const stream = await createStream(app, { webhook_url: `${receiver.url}/down` });
    const res = await app.api.post(`/event-streams/${stream.event_stream_id}/test`);
    assert.equal(res.status, 200);
    assert.equal(res.body.delivered, false);
    assert.match(res.body.error, /receiver answered 503/);
    assert.equal((await streamById(app, stream.event_stream_id)).delivery.status, 'HEALTHY');
  });

  it('is for admins: 404 for an unknown stream, 403 for a member or a READ_ONLY token', async () => {
    assert.equal((await app.api.post(`/event-streams/${NO_SUCH_ID}/test`)).status, 404);
    const readOnly = await createToken(app.api, { access_level: 'READ_ONLY' });
    const stream = await createStream(app, { webhook_url: `${receiver.url}/x` });
    assert.equal((await app.api.as(readOnly.secret).post(`/event-streams/${stream.event_stream_id}/test`)).status, 403);
  });
});

describe('event streams: a test delivery under GATEHOUSE_PRIVATE_ADDRESSES=deny', () => {
  let app: TestApp;
  before(async () => (app = await startApp({ GATEHOUSE_PRIVATE_ADDRESSES: 'deny' })));
  after(() => app.close());

  it('refuses a receiver on a private address, saying so, as delivery does', async () => {
    const stream = await createStream(app, { webhook_url: 'http://127.0.0.1:9/hook' });
    const res = await app.api.post(`/event-streams/${stream.event_stream_id}/test`);
    assert.equal(res.status, 200);
    assert.equal(res.body.delivered, false);
    assert.match(res.body.error, /not public/);
  });
});
