// The outbox's lanes (issue 30, item 5): a connector that holds its answer holds only its own rows. A
// notification email queued while a push to that connector is still unanswered reaches a real SMTP server
// before the connector answers; rows of one lane take at most LANE_SHARE of what a tick runs at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enqueue, LANE_SHARE, MAX_IN_FLIGHT, tick as runOutbox, type OutboxHandler } from '../../src/outbox/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createMember, createOwner, createUser } from '../helpers/fixtures.ts';
import { OpalConnector } from '../helpers/opal-connector.ts';
import { makeRequest, requestableResource } from '../helpers/requests.ts';
import { SmtpReceiver } from '../helpers/smtp-receiver.ts';
import { until } from '../helpers/wait.ts';

const SECRET = 'connector-signing-secret-0123456789';

describe('outbox lanes', () => {
  let app: TestApp;
  let smtp: SmtpReceiver;
  let remote: OpalConnector;
  before(async () => {
    smtp = await SmtpReceiver.start();
    remote = await new OpalConnector(SECRET).start();
    app = await startTestApp({ env: { GATEHOUSE_SMTP_URL: smtp.url, GATEHOUSE_EMAIL_FROM: 'Gatehouse <gatehouse@example.test>', GATEHOUSE_PUBLIC_URL: 'https://gatehouse.example.test' } });
  });
  after(async () => {
    await app.close();
    await remote.stop();
    await smtp.stop();
  });

  it('a connector holding its answer does not delay a notification email queued meanwhile', async () => {
    const alice = await createUser(app.api);
    remote.users.set('u-alice', alice.email);
    remote.resources.set('r-db', { name: 'Database', levels: [{ id: 'read', name: 'Read' }], users: new Map() });
    const appId = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
    assert.equal((await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: SECRET, timeout_ms: 300_000 })).status, 200);
    assert.equal((await app.api.post(`/apps/${appId}/connector/sync`)).body.ok, true);
    const resources = (await app.api.get('/resources', { page_size: 1000 })).body.results as { resource_id: string; app_id: string }[];
    const synced = resources.find((r) => r.app_id === appId)!.resource_id;

    // A grant queues a push; the connector takes the call and holds its answer.
    const release = remote.holdWrites();
    const grant = await app.api.post(`/resources/${synced}/users/${alice.user_id}`, { access_level_remote_id: 'read', duration_minutes: 0 });
    assert.equal(grant.status, 200, JSON.stringify(grant.body));
    const ticking = runOutbox(app.ctx, app.clock.now());
    await until(() => remote.holding === 1, 'the connector holding the push');

    // Meanwhile a member asks for access: the reviewer's email is queued after the push started.
    const reviewer = await createMember(app.api);
    const owner = await createOwner(app.api, { user_ids: [reviewer.user_id] });
    const resource = await requestableResource(app, owner.owner_id);
    const requester = await createMember(app.api);
    await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    await until(() => smtp.to(reviewer.user.email).length > 0, 'the reviewer\'s email');
    assert.equal(remote.holding, 1, 'the email arrived while the connector still held the push');
    assert.match(smtp.to(reviewer.user.email)[0]!.subject, /^Review access request/);

    release();
    const summary = await ticking;
    assert.equal(summary.failed, 0);
    const pushed = (await app.api.get(`/resources/${synced}/users`)).body.results as { user_id: string; propagation_status: { status: string } | null }[];
    assert.equal(pushed.find((row) => row.user_id === alice.user_id)?.propagation_status?.status, 'SUCCESS');
  });

  it('runs at most LANE_SHARE rows of one lane at once, and the other lanes beside them', async () => {
    let releaseAll!: () => void;
    const gate = new Promise<void>((resolve) => (releaseAll = resolve));
    const runningOf = new Map<string, number>();
    const handler: OutboxHandler = {
      async run(_ctx, item) {
        const lane = item.key.split(':')[0]!;
        runningOf.set(lane, (runningOf.get(lane) ?? 0) + 1);
        if (lane === 'slow') await gate;
        return { ok: true };
      },
      lane: (key) => key.slice(0, key.indexOf(':') + 1),
    };
    app.ctx.db.transaction(() => {
      for (let i = 0; i < MAX_IN_FLIGHT; i++) enqueue(app.ctx, { kind: 'test.lanes', key: `slow:${i}`, payload: null });
      for (let i = 0; i < 3; i++) enqueue(app.ctx, { kind: 'test.lanes', key: `quick:${i}`, payload: null });
    }).immediate();
    const ticking = runOutbox(app.ctx, app.clock.now(), undefined, { 'test.lanes': handler });
    await until(() => runningOf.get('quick') === 3, 'the quick lane\'s rows, queued after the slow backlog');
    assert.equal(runningOf.get('slow'), LANE_SHARE, 'one lane holds only its share of the tick');
    releaseAll();
    const summary = await ticking;
    assert.equal(summary.done, MAX_IN_FLIGHT + 3);
  });
});
