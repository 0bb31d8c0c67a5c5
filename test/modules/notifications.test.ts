// Notifications end to end: every message type through a real SMTP server (parsed with mailparser) and
// a loopback Slack Web API stand-in; times moved with the clock; approving from Slack; refused Slack
// payloads; channel outages. Delivery is the outbox's tick, run by the test.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tick as outboxTick } from '../../src/outbox/index.ts';
import { tick as scheduleTick } from '../../src/modules/notifications/schedule.ts';
import { tick as timeoutTick } from '../../src/modules/requests/timeout.ts';
import { propagationFailed } from '../../src/modules/notifications/plan.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createMember, createMessageChannel, createOwner, createResource, type Signed as Member } from '../helpers/fixtures.ts';
import { config, makeRequest, requestableResource, stage } from '../helpers/requests.ts';
import { SIGNING_SECRET, SLACK_TOKEN, SlackStandIn, blockActions, signedInteraction } from '../helpers/slack-stand-in.ts';
import { SmtpReceiver } from '../helpers/smtp-receiver.ts';
import { createSmtpChannel } from '../../src/modules/notifications/channels/smtp.ts';
import { addressPolicy } from '../../src/http/outbound.ts';

const ALLOW_ALL = addressPolicy({ privateAddresses: 'allow', privateAddressesAllowed: [] });
import { expectFired } from '../helpers/fired.ts';

const PUBLIC_URL = 'https://gatehouse.example.test';
const FROM = 'Gatehouse <gatehouse@example.test>';
const MINUTE = 60_000;
const emailOf = (m: Member) => `${m.full_name.replace(/^Test /, '')}@example.com`;

describe('notifications', () => {
  let app: TestApp;
  let smtp: SmtpReceiver;
  let slack: SlackStandIn;
  const env = () => ({
    GATEHOUSE_SMTP_URL: smtp.url, GATEHOUSE_EMAIL_FROM: FROM, GATEHOUSE_PUBLIC_URL: PUBLIC_URL,
    GATEHOUSE_SLACK_BOT_TOKEN: SLACK_TOKEN, GATEHOUSE_SLACK_SIGNING_SECRET: SIGNING_SECRET, GATEHOUSE_SLACK_API_URL: slack.url,
  });
  before(async () => {
    smtp = await SmtpReceiver.start();
    slack = await SlackStandIn.start();
    app = await startTestApp({ env: env() });
  });
  after(async () => {
    await app.close();
    await smtp.stop();
    await slack.close();
  });

  /** Runs the outbox until nothing is due now. */
  const deliver = () => outboxTick(app.ctx, app.clock.now());
  const schedule = () => scheduleTick(app.ctx, app.clock.now());
  const notices = async (query: Record<string, string>) => {
    const res = await app.api.request('GET', '/notifications', undefined, { query: { page_size: 100, ...query } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.results as { id: string; type: string; user_id: string | null; status: string; reason: string; attempts: number; last_error: string | null; channel: string }[];
  };
  const interact = (body: string, headers: Record<string, string>) =>
    fetch(app.url.replace(/\/v1$/, '') + '/slack/interactivity', { method: 'POST', body, headers });
  const nowSeconds = () => Math.floor(app.clock.now().getTime() / 1000);
  /** A member who is told on Slack, with a Slack account of the same email. */
  async function slackMember(): Promise<Member & { slackId: string }> {
    const member = await createMember(app.api);
    const put = await member.api.request('PUT', `/users/${member.user_id}/notification-preferences`, { channel: 'SLACK', daily_digest: false });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    return { ...member, slackId: slack.addUser(emailOf(member)) };
  }
  /** A resource reviewed by owners' stages in order. */
  async function stagedResource(...ownerIds: string[]) {
    const stages = ownerIds.map((owner, i) => stage({ stage: i + 1, owner_ids: [owner] }));
    return requestableResource(app, (await createOwner(app.api)).owner_id, [config({ reviewer_stages: stages })]);
  }

  it('a new request reaches only the current stage\'s reviewers; each stage, the decision and nothing twice follow', async () => {
    const [requester, first, second] = [await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    const ownerA = await createOwner(app.api, { user_ids: [first.user_id] });
    const ownerB = await createOwner(app.api, { user_ids: [second.user_id] });
    const resource = await stagedResource(ownerA.owner_id, ownerB.owner_id);
    // A week's access: its expiry warnings are another test's business.
    const id = await makeRequest(requester.api, { resources: [{ id: resource.resource_id }], reason: 'deploy <the> fix', duration_minutes: 7 * 24 * 60 });
    await deliver();
    const [created] = smtp.to(emailOf(first));
    assert.ok(created, 'the stage-1 reviewer is emailed');
    assert.equal(smtp.to(emailOf(second)).length, 0, 'the stage-2 reviewer hears nothing yet');
    assert.equal(smtp.to(emailOf(requester)).length, 0, 'the requester has nothing to act on');
    assert.equal(created.secure, true, 'STARTTLS was used before logging in');
    assert.equal(created.from, '"Gatehouse" <gatehouse@example.test>');
    assert.match(created.subject, new RegExp(`^Review access request: ${resource.name}`));
    assert.match(created.text, new RegExp(`${requester.full_name} asks for access`));
    assert.match(created.text, /Reason: deploy <the> fix/);
    assert.match(created.text, /Status: waiting for review/, 'the status in words, never PENDING');
    assert.match(created.text, new RegExp(`${PUBLIC_URL}/console/requests/${id}`));
    assert.match(created.html, new RegExp(`<a href="${PUBLIC_URL}/console/requests/${id}">`));
    assert.match(created.html, /deploy &#60;the&#62; fix/, 'HTML escapes what people typed');

    assert.equal((await first.api.post(`/requests/${id}/approve`, { level: 'REGULAR' })).status, 200);
    await deliver();
    const [advanced] = smtp.to(emailOf(second));
    assert.match(advanced!.text, /reached a stage you review/);
    assert.equal(smtp.to(emailOf(requester)).length, 0);

    assert.equal((await second.api.post(`/requests/${id}/approve`, { level: 'REGULAR' })).status, 200);
    await deliver();
    const [decided] = smtp.to(emailOf(requester));
    assert.match(decided!.subject, /^Access request approved/);
    assert.match(decided!.text, /was approved/);
    assert.match(decided!.text, /Status: approved/);
    assert.equal(smtp.to(emailOf(first)).length, 1, 'a reviewer who acted is not told it closed');

    await deliver();
    await schedule();
    await deliver();
    assert.deepEqual([smtp.to(emailOf(first)).length, smtp.to(emailOf(second)).length, smtp.to(emailOf(requester)).length], [1, 1, 1], 'nothing twice');
    const listed = await notices({ request_id: id });
    assert.deepEqual(listed.map((n) => n.type).sort(), ['REQUEST_CREATED', 'REQUEST_DECIDED', 'REQUEST_STAGE_ADVANCED']);
    assert.ok(listed.every((n) => n.status === 'SENT' && n.reason.length > 0));
    const member = await first.api.request('GET', '/notifications');
    assert.equal(member.status, 403, 'the admin read is for admins');
  });

  it('a denial tells the requester and, once, the reviewers with nothing left; comments reach participants but their author', async () => {
    const [requester, r1, r2] = [await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    const owner = await createOwner(app.api, { user_ids: [r1.user_id, r2.user_id] });
    const resource = await stagedResource(owner.owner_id);
    const id = await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    // One signal, and a message queued for each participant but the comment's author: the requester and r2.
    const commented = await expectFired(app, { signals: { 'requests.commented': 1 }, outbox: { notification: 2 } },
      () => r1.api.post(`/requests/${id}/comments`, { comment: 'which ticket is this for?' }));
    assert.equal(commented.status, 200);
    await deliver();
    const [comment] = smtp.to(emailOf(requester));
    assert.match(comment!.subject, new RegExp(`^${r1.full_name} commented`));
    assert.match(comment!.text, /which ticket is this for\?/);
    assert.equal(smtp.to(emailOf(r2)).filter((m) => /commented/.test(m.subject)).length, 1);
    assert.equal(smtp.to(emailOf(r1)).filter((m) => /commented/.test(m.subject)).length, 0, 'not its author');

    // The decision's signal; the requester told of it, and the other reviewer that nothing is left.
    const denied = await expectFired(app, { signals: { 'requests.decided': 1 }, outbox: { notification: 2 } },
      () => r1.api.post(`/requests/${id}/deny`, { comment: 'no ticket' }));
    assert.equal(denied.status, 200);
    await deliver();
    await deliver();
    assert.match(smtp.to(emailOf(requester)).at(-1)!.subject, /^Access request denied/);
    assert.match(smtp.to(emailOf(requester)).at(-1)!.text, new RegExp(`${r1.full_name} commented: no ticket`), 'with the reason');
    const closed = smtp.to(emailOf(r2)).filter((m) => /Nothing is left for you/.test(m.text));
    assert.equal(closed.length, 1, 'the other reviewer is told once');
    assert.equal(smtp.to(emailOf(r1)).filter((m) => /denied/.test(m.subject)).length, 0, 'the one who denied is not told of their own decision');

    // Canceled by the requester: reviewers hear it, the requester does not hear of their own act.
    const canceled = await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    assert.equal((await requester.api.post(`/requests/${canceled}/cancel`, {})).status, 200);
    await deliver();
    assert.equal((await notices({ request_id: canceled, type: 'REVIEW_CLOSED' })).length, 2);
    assert.equal((await notices({ request_id: canceled, type: 'REQUEST_DECIDED' })).length, 0);
  });

  it('an auto-approved request: its requester read the outcome in the answer; a different target user is told', async () => {
    const [member, target] = [await createMember(app.api), await createMember(app.api)];
    const resource = await requestableResource(app, (await createOwner(app.api)).owner_id, [config({ auto_approval: true })]);
    const own = await makeRequest(member.api, { resources: [{ id: resource.resource_id }] });
    const forTarget = await makeRequest(app.api, { resources: [{ id: resource.resource_id }], target_user_id: target.user_id });
    await deliver();
    assert.equal((await notices({ request_id: own })).length, 0);
    assert.deepEqual((await notices({ request_id: forTarget })).map((n) => [n.type, n.user_id]), [['REQUEST_DECIDED', target.user_id]]);
    assert.match(smtp.to(emailOf(target))[0]!.subject, /^Access request approved/);
  });

  it('a review waiting past the escalation period: the next in the owner\'s order, a reminder, then administrators', async () => {
    const [requester, e1, e2] = [await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    const owner = await createOwner(app.api, { user_ids: [e2.user_id, e1.user_id], access_request_escalation_period: 60 });
    // Escalation order is the owner's user order: e2 first.
    const resource = await stagedResource(owner.owner_id);
    const id = await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    await deliver();
    assert.equal(smtp.to(emailOf(e2)).length, 1);
    assert.equal(smtp.to(emailOf(e1)).length, 0, 'only the first in the escalation order at first');
    app.clock.advance(59 * MINUTE);
    await schedule();
    await deliver();
    assert.equal(smtp.to(emailOf(e1)).length, 0, 'not before the period');
    app.clock.advance(2 * MINUTE);
    await schedule();
    await deliver();
    assert.match(smtp.to(emailOf(e2)).at(-1)!.subject, /^Reminder: Review access request/);
    assert.match(smtp.to(emailOf(e1))[0]!.text, /escalated to you/);
    const admins = () => smtp.to('admin@gatehouse.local').filter((m) => m.text.includes(`/console/requests/${id}`));
    assert.equal(admins().length, 0);
    app.clock.advance(60 * MINUTE);
    await schedule();
    await deliver();
    assert.equal(admins().length, 1, 'administrators after everyone in the order had a period');
    app.clock.advance(60 * MINUTE);
    await schedule();
    await deliver();
    assert.deepEqual([smtp.to(emailOf(e2)).length, smtp.to(emailOf(e1)).length, admins().length], [2, 2, 1], 'each step once');
  });

  it('a request that times out tells its requester', async () => {
    const [requester, reviewer] = [await createMember(app.api), await createMember(app.api)];
    const resource = await stagedResource((await createOwner(app.api, { user_ids: [reviewer.user_id] })).owner_id);
    const id = await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    app.clock.advance(app.ctx.config.requestTimeoutMinutes * MINUTE + MINUTE);
    timeoutTick(app.ctx, app.clock.now());
    await deliver();
    const mail = smtp.to(emailOf(requester)).find((m) => m.text.includes(`/console/requests/${id}`));
    assert.match(mail!.text, /nobody decided it in time/);
    assert.equal((await notices({ request_id: id, type: 'REVIEW_CLOSED' })).length, 1);
  });

  it('a daily digest holds a person\'s notices and sends them once a day', async () => {
    const [requester, reviewer] = [await createMember(app.api), await createMember(app.api)];
    assert.equal((await reviewer.api.request('PUT', `/users/${reviewer.user_id}/notification-preferences`, { channel: 'EMAIL', daily_digest: true })).status, 200);
    const resource = await stagedResource((await createOwner(app.api, { user_ids: [reviewer.user_id] })).owner_id);
    // Before the digest hour (08:00 UTC) of a fresh day.
    const today = app.clock.now();
    app.clock.set(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1, 6)));
    await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    await schedule();
    await deliver();
    assert.equal(smtp.to(emailOf(reviewer)).length, 0, 'held until the digest');
    assert.equal((await notices({ user_id: reviewer.user_id, status: 'HELD' })).length, 2);
    app.clock.advance(2 * 60 * MINUTE);
    await schedule();
    await deliver();
    const [digest] = smtp.to(emailOf(reviewer));
    assert.match(digest!.subject, /^Your Gatehouse digest: 2 notices/);
    assert.equal((digest!.text.match(/Review access request/g) ?? []).length, 2);
    await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    await schedule();
    await deliver();
    assert.equal(smtp.to(emailOf(reviewer)).length, 1, 'one digest a day');
    app.clock.advance(24 * 60 * MINUTE);
    await schedule();
    await deliver();
    assert.match(smtp.to(emailOf(reviewer))[1]!.subject, /digest: 1 notice$/);
  });

  it('preferences: a member sets their own (recorded), not someone else\'s; NONE tells them nothing; bad input changes nothing', async () => {
    const [requester, quiet, other] = [await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    const mine = await quiet.api.request('GET', `/users/${quiet.user_id}/notification-preferences`);
    assert.deepEqual(mine.body, { user_id: quiet.user_id, channel: 'DEFAULT', daily_digest: false });
    const bad = await quiet.api.request('PUT', `/users/${quiet.user_id}/notification-preferences`, { channel: 'PIGEON', daily_digest: false });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.details.map((d: { path: string }) => d.path), ['channel']);
    assert.equal((await quiet.api.request('PUT', `/users/${other.user_id}/notification-preferences`, { channel: 'NONE', daily_digest: false })).status, 403);
    assert.equal((await quiet.api.request('GET', `/users/${other.user_id}/notification-preferences`)).status, 403);
    const set = await quiet.api.request('PUT', `/users/${quiet.user_id}/notification-preferences`, { channel: 'NONE', daily_digest: false });
    assert.deepEqual(set.body, { user_id: quiet.user_id, channel: 'NONE', daily_digest: false });
    const events = await app.api.request('GET', '/events', undefined, { query: { event_type_filter: 'NOTIFICATION_PREFERENCES_UPDATED', page_size: 1000 } });
    const ours = (events.body.results as { sub_events: { user_id?: string; channel?: string }[] }[]).filter((e) => e.sub_events[0]?.user_id === quiet.user_id);
    assert.deepEqual(ours.map((e) => e.sub_events[0]!.channel), ['NONE'], 'the refused writes recorded nothing');
    const resource = await stagedResource((await createOwner(app.api, { user_ids: [quiet.user_id] })).owner_id);
    await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    await deliver();
    assert.equal(smtp.to(emailOf(quiet)).length, 0);
  });

  it('approve from a Slack button: decided as the API would, audited as from Slack, and every message updated', async () => {
    const [requester, reviewer] = [await createMember(app.api), await slackMember()];
    const resource = await stagedResource((await createOwner(app.api, { user_ids: [reviewer.user_id] })).owner_id);
    const id = await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    await deliver();
    const [message] = slack.dmsTo(emailOf(reviewer));
    assert.ok(message, 'a direct message on Slack');
    assert.equal(smtp.to(emailOf(reviewer)).length, 0, 'and no email');
    const post = slack.calls.find((c) => c.method === 'chat.postMessage' && c.args.channel === reviewer.slackId)!;
    assert.equal(post.authorization, `Bearer ${SLACK_TOKEN}`);
    assert.match(post.contentType, /^application\/json/);
    const buttons = JSON.stringify(message.blocks);
    assert.match(buttons, /"action_id":"gatehouse_approve"/);
    assert.match(buttons, /"action_id":"gatehouse_deny"/);
    assert.match(buttons, new RegExp(`${PUBLIC_URL}/console/requests/${id}`));

    const click = signedInteraction(blockActions(reviewer.slackId, 'gatehouse_approve', id, message), nowSeconds());
    const res = await interact(click.body, click.headers);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { ok: true, status: 'APPROVED' });
    assert.equal((await app.api.get(`/requests/${id}`)).body.status, 'APPROVED');
    const events = await app.api.request('GET', '/events', undefined, { query: { event_type_filter: 'REQUESTS_APPROVED', actor_filter: reviewer.user_id } });
    const approved = (events.body.results as { sub_events: { request_id?: string; decided_from?: string }[] }[]).find((e) => e.sub_events[0]?.request_id === id);
    assert.equal(approved?.sub_events[0]?.decided_from, 'SLACK');
    await deliver();
    assert.equal(message.history.length, 2, 'chat.update after the decision');
    assert.doesNotMatch(JSON.stringify(message.blocks), /gatehouse_approve/, 'no buttons once decided');
    assert.match(message.text, /approved/i);
    assert.match(smtp.to(emailOf(requester)).at(-1)!.subject, /^Access request approved/);

    // A decision made through the API updates the Slack message too.
    const second = await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    await deliver();
    const secondMessage = slack.dmsTo(emailOf(reviewer)).at(-1)!;
    assert.equal(slack.calls.filter((c) => c.method === 'users.lookupByEmail' && c.args.email === emailOf(reviewer)).length, 1, 'the Slack id is looked up once');
    assert.equal((await app.api.post(`/requests/${second}/deny`, { comment: 'not now', level: 'ADMIN' })).status, 200);
    await deliver();
    assert.equal(secondMessage.history.length, 2);
    assert.match(secondMessage.text, /denied/i);
  });

  it('when a stage moves on, the Slack messages of reviewers left with nothing to do lose their buttons', async () => {
    const [requester, a, b, next] = [await createMember(app.api), await slackMember(), await slackMember(), await slackMember()];
    const first = await createOwner(app.api, { user_ids: [a.user_id, b.user_id] });
    const second = await createOwner(app.api, { user_ids: [next.user_id] });
    const resource = await stagedResource(first.owner_id, second.owner_id);
    const id = await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    await deliver();
    const [toB] = slack.dmsTo(emailOf(b));
    assert.match(JSON.stringify(toB!.blocks), /gatehouse_approve/);
    assert.equal((await a.api.post(`/requests/${id}/approve`, { level: 'REGULAR' })).status, 200);
    await deliver();
    assert.equal(toB!.history.length, 2, 'updated');
    assert.doesNotMatch(JSON.stringify(toB!.blocks), /gatehouse_approve/, 'b has nothing left to click');
    assert.match(JSON.stringify(slack.dmsTo(emailOf(next))[0]!.blocks), /gatehouse_approve/, 'the next stage\'s reviewer has');
  });

  it('Slack payloads unsigned, wrongly signed, stale or replayed are refused and change nothing; a click on someone else\'s review is refused', async () => {
    const [requester, reviewer, bystander] = [await createMember(app.api), await slackMember(), await slackMember()];
    const resource = await stagedResource((await createOwner(app.api, { user_ids: [reviewer.user_id] })).owner_id);
    const id = await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    await deliver();
    const message = slack.dmsTo(emailOf(reviewer))[0]!;
    const payload = blockActions(reviewer.slackId, 'gatehouse_approve', id, message);
    const good = signedInteraction(payload, nowSeconds());
    const refused: [string, string, Record<string, string>][] = [
      ['unsigned', good.body, { 'content-type': 'application/x-www-form-urlencoded' }],
      ['wrong secret', good.body, signedInteraction(payload, nowSeconds(), 'not-the-secret').headers],
      ['body changed', good.body.replace('gatehouse_approve', 'gatehouse_deny'), good.headers],
      ['six minutes old', ...(() => { const old = signedInteraction(payload, nowSeconds() - 6 * 60); return [old.body, old.headers] as const; })()],
    ];
    for (const [why, body, headers] of refused) {
      const res = await interact(body, headers);
      assert.equal(res.status, 401, why);
      assert.equal(((await res.json()) as { code: string }).code, 'unauthenticated', why);
    }
    assert.equal((await app.api.get(`/requests/${id}`)).body.status, 'PENDING');

    // A member clicking a review that is not theirs: refused as the API would, and told why.
    const theirs = signedInteraction(blockActions(bystander.slackId, 'gatehouse_approve', id, message), nowSeconds());
    const res = await interact(theirs.body, theirs.headers);
    assert.equal(res.status, 200);
    const answer = (await res.json()) as { ok: boolean; code: string };
    assert.equal(answer.ok, false);
    assert.equal(answer.code, 'not_found', 'a request they take no part in does not exist for them');
    assert.equal((await app.api.get(`/requests/${id}`)).body.status, 'PENDING');
    for (let i = 0; i < 50 && !slack.ephemeral.some((e) => e.user === bystander.slackId); i += 1) await new Promise((r) => setImmediate(r));
    assert.match(slack.ephemeral.find((e) => e.user === bystander.slackId)?.text ?? '', /did not record your decision/);

    // The requester clicking Approve on their own request: refused as the API refuses it.
    const requesterSlack = slack.addUser(emailOf(requester));
    const own = signedInteraction(blockActions(requesterSlack, 'gatehouse_approve', id, message), nowSeconds());
    const ownAnswer = (await (await interact(own.body, own.headers)).json()) as { ok: boolean; code: string; message: string };
    assert.deepEqual([ownAnswer.ok, ownAnswer.code], [false, 'forbidden']);
    assert.match(ownAnswer.message, /own request/);
    // A Slack user with no Gatehouse account.
    const stranger = signedInteraction(blockActions(slack.addUser('nobody@elsewhere.test'), 'gatehouse_approve', id, message), nowSeconds());
    assert.equal(((await (await interact(stranger.body, stranger.headers)).json()) as { code: string }).code, 'forbidden');
    assert.equal((await app.api.get(`/requests/${id}`)).body.status, 'PENDING');

    // The same signed request again: a replay.
    const replay = await interact(theirs.body, theirs.headers);
    assert.equal(replay.status, 401);
    assert.match(((await replay.json()) as { message: string }).message, /replay/);
  });

  it('an owner\'s reviewer channel gets the review instead of its people; Slack errors and 429 Retry-After are honoured; a failed notice can be re-sent', async () => {
    const [requester, r1] = [await createMember(app.api), await createMember(app.api)];
    const channel = await createMessageChannel(app.api, { third_party_provider: 'SLACK', remote_id: 'C0REVIEWERS' });
    const owner = await createOwner(app.api, { user_ids: [r1.user_id], reviewer_message_channel_id: channel.message_channel_id });
    const resource = await stagedResource(owner.owner_id);
    slack.fail('chat.postMessage', { status: 429, retryAfter: 30 });
    const id = await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    await deliver();
    let [notice] = await notices({ request_id: id });
    assert.equal(notice!.status, 'QUEUED');
    assert.match(notice!.last_error ?? '', /rate limited \(429\)/);
    app.clock.advance(29_000);
    await deliver();
    assert.equal(slack.messages.filter((m) => m.channel === 'C0REVIEWERS').length, 0, 'not before Retry-After');
    app.clock.advance(2_000);
    await deliver();
    const posted = slack.messages.filter((m) => m.channel === 'C0REVIEWERS');
    assert.equal(posted.length, 1);
    assert.match(JSON.stringify(posted[0]!.blocks), /gatehouse_approve/);
    assert.equal(smtp.to(emailOf(r1)).length, 0, 'the owner\'s people are not told one by one');

    // A channel Slack does not know: ok:false channel_not_found fails at once; re-sent once it exists.
    const missing = await createMessageChannel(app.api, { third_party_provider: 'SLACK', remote_id: 'C0ARCHIVED' });
    const owner2 = await createOwner(app.api, { user_ids: [r1.user_id], reviewer_message_channel_id: missing.message_channel_id });
    const second = await makeRequest(requester.api, { resources: [{ id: (await stagedResource(owner2.owner_id)).resource_id }] });
    await deliver();
    [notice] = await notices({ request_id: second });
    assert.equal(notice!.status, 'FAILED');
    assert.match(notice!.last_error ?? '', /channel_not_found/);
    assert.equal((await app.api.post(`/notifications/${notice!.id}/resend`, {})).status, 200);
    assert.equal((await app.api.post(`/notifications/${notice!.id}/resend`, {})).status, 409, 'only a FAILED one');
    slack.channels.add('C0ARCHIVED');
    await deliver();
    [notice] = await notices({ request_id: second });
    assert.equal(notice!.status, 'SENT');
    const resent = await app.api.request('GET', '/events', undefined, { query: { event_type_filter: 'NOTIFICATIONS_RESENT' } });
    assert.equal(resent.body.results.length, 1);
  });

  it('a person who chose Slack but has no Slack account there is told by email instead, once; the Slack notice stays FAILED with why', async () => {
    const [requester, reviewer] = [await createMember(app.api), await createMember(app.api)];
    const put = await reviewer.api.request('PUT', `/users/${reviewer.user_id}/notification-preferences`, { channel: 'SLACK', daily_digest: false });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const resource = await stagedResource((await createOwner(app.api, { user_ids: [reviewer.user_id] })).owner_id);
    const id = await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    await deliver();
    await deliver();
    const mine = (await notices({ request_id: id })).filter((n) => n.user_id === reviewer.user_id);
    assert.deepEqual(mine.map((n) => [n.type, n.channel, n.status]).sort(), [['REQUEST_CREATED', 'EMAIL', 'SENT'], ['REQUEST_CREATED', 'SLACK', 'FAILED']]);
    assert.match(mine.find((n) => n.channel === 'SLACK')!.last_error ?? '', /users_not_found/);
    assert.match(mine.find((n) => n.channel === 'EMAIL')!.reason, /by email: Slack knows no one as/);
    const mails = smtp.to(emailOf(reviewer));
    assert.equal(mails.length, 1, 'one email');
    assert.match(mails[0]!.text, new RegExp(`/console/requests/${id}`));
    assert.equal(slack.dmsTo(emailOf(reviewer)).length, 0);
  });

  it('a propagation that failed for good tells the app\'s admin owner\'s users, once', async () => {
    const [a1, a2, outsider] = [await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    const owner = await createOwner(app.api, { user_ids: [a1.user_id, a2.user_id] });
    const connected = await createApp(app.api, { admin_owner_id: owner.owner_id });
    for (let i = 0; i < 2; i += 1) {
      app.ctx.db.transaction(() => propagationFailed(app.ctx, { appId: connected.app_id, key: 'outbox-42', error: 'ERR_REMOTE_INTERNAL_ERROR', detail: 'HTTP 500 from the connector' }, app.clock.now())).immediate();
    }
    await deliver();
    for (const member of [a1, a2]) {
      const mails = smtp.to(emailOf(member));
      assert.equal(mails.length, 1);
      assert.match(mails[0]!.subject, new RegExp(`^Access could not be applied in ${connected.name}`));
      assert.match(mails[0]!.text, /ERR_REMOTE_INTERNAL_ERROR/);
    }
    assert.equal(smtp.to(emailOf(outsider)).length, 0);
  });

  it('an access review started with send_reviewer_assignment_notification tells each assigned reviewer once, with a link to the review', async () => {
    const [first, second, holder, later] = [await createMember(app.api), await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    const owner = await createOwner(app.api, { user_ids: [first.user_id, second.user_id] });
    const resource = await createResource(app.api, { admin_owner_id: owner.owner_id });
    assert.equal((await app.api.post(`/resources/${resource.resource_id}/users/${holder.user_id}`, { duration_minutes: 0 })).status, 200);
    const start = (notify: boolean) => app.api.post('/uar', {
      name: `Owners' review ${notify}`, reviewer_assignment_policy: 'BY_OWNING_TEAM_ADMIN_ALL', send_reviewer_assignment_notification: notify,
      deadline: new Date(app.clock.now().getTime() + 14 * 86_400_000).toISOString(), time_zone: 'UTC', self_review_allowed: false,
      uar_scope: { entities: [resource.resource_id] },
    });
    const quiet = await start(false);
    assert.equal(quiet.status, 200);
    await deliver();
    assert.equal(smtp.to(emailOf(first)).length, 0, 'not asked for: nobody is told');

    const told = await start(true);
    assert.equal(told.status, 200, JSON.stringify(told.body));
    const uarId = told.body.uar_id as string;
    assert.equal((await app.api.put(`/uar/${uarId}/policy`, { unanswered_decision: 'REVOKE' })).status, 200);
    await deliver();
    for (const reviewer of [first, second]) {
      const mail = smtp.to(emailOf(reviewer));
      assert.equal(mail.length, 1, `${reviewer.full_name} is told once`);
      assert.equal(mail[0]!.subject, 'Access review "Owners\' review true": 1 item for you to review');
      assert.match(mail[0]!.text, /1 of them wait for your answer/);
      assert.match(mail[0]!.text, /items nobody answers by then are revoked/, 'rendered when sent: the policy chosen after the start');
      assert.match(mail[0]!.text, new RegExp(`${PUBLIC_URL}/console/reviews/${uarId}`));
    }
    assert.equal(smtp.to(emailOf(holder)).length, 0, 'the person reviewed is not told');

    // An admin assigning the row to someone new tells them; the reviewers already told hear nothing more.
    const [row] = (await app.api.get(`/uar/${uarId}/items`)).body.results;
    assert.equal((await app.api.post(`/uar/${uarId}/assignments`, { assignments: [{ uar_item_id: row.uar_item_id, reviewer_ids: [first.user_id, later.user_id] }] })).status, 200);
    await deliver();
    assert.equal(smtp.to(emailOf(later)).length, 1);
    assert.equal(smtp.to(emailOf(first)).length, 1);
    const listed = await notices({ type: 'UAR_ASSIGNED' });
    assert.deepEqual(listed.map((n) => n.user_id).sort(), [first.user_id, second.user_id, later.user_id].sort());
  });

  it('an access review reminds reviewers with items still unanswered, as its reminder_schedule says, and their managers when asked; once each', async () => {
    const [answers, waits, boss, holder] = [await createMember(app.api), await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    assert.equal((await app.api.put(`/users/${waits.user_id}`, { manager_id: boss.user_id })).status, 200);
    const [ownerA, ownerB] = [await createOwner(app.api, { user_ids: [answers.user_id] }), await createOwner(app.api, { user_ids: [waits.user_id] })];
    const [one, two] = [await createResource(app.api, { admin_owner_id: ownerA.owner_id }), await createResource(app.api, { admin_owner_id: ownerB.owner_id })];
    for (const r of [one, two]) assert.equal((await app.api.post(`/resources/${r.resource_id}/users/${holder.user_id}`, { duration_minutes: 0 })).status, 200);
    const deadline = app.clock.now().getTime() + 5 * 86_400_000;
    const start = (name: string, extra: Record<string, unknown>) => app.api.post('/uar', {
      name, reviewer_assignment_policy: 'BY_OWNING_TEAM_ADMIN', send_reviewer_assignment_notification: false,
      deadline: new Date(deadline).toISOString(), time_zone: 'UTC', self_review_allowed: false,
      uar_scope: { entities: [one.resource_id, two.resource_id] }, ...extra,
    });
    const scheduled = await start('Scheduled review', { reminder_schedule: [3, 1], reminder_include_manager: true });
    assert.equal(scheduled.status, 200, JSON.stringify(scheduled.body));
    const quiet = await start('Quiet review', {});
    assert.equal(quiet.status, 200, JSON.stringify(quiet.body));
    const uarId = scheduled.body.uar_id as string;
    // Each item's owning team reviews it: `answers` one, `waits` the other.
    const rows = (await app.api.get(`/uar/${uarId}/items`)).body.results as { uar_item_id: number; assigned_reviewer_ids: string[] }[];
    assert.deepEqual(rows.map((r) => r.assigned_reviewer_ids.length), [1, 1]);
    const mineOf = (m: Member) => rows.find((r) => r.assigned_reviewer_ids.includes(m.user_id))!;
    const reminders = async () => (await notices({ type: 'UAR_REMINDER' })).filter((n) => [answers, waits, boss].some((m) => m.user_id === n.user_id));
    const advanceTo = async (daysBefore: number) => {
      app.clock.set(new Date(deadline - daysBefore * 86_400_000));
      await schedule();
      await schedule();
      await deliver();
    };

    await advanceTo(4);
    assert.deepEqual(await reminders(), [], 'four days before: no reminder is due');
    await advanceTo(2.9);
    assert.deepEqual((await reminders()).map((n) => n.user_id).sort(), [answers.user_id, waits.user_id, boss.user_id].sort(), 'three days before: both reviewers and the waiting one\'s manager, once each');
    const mail = smtp.to(emailOf(waits)).filter((m) => /^Access review "Scheduled review" ends in 2 days 22 hours/.test(m.subject));
    assert.equal(mail.length, 1);
    assert.match(mail[0]!.subject, /1 item still wait/);
    assert.match(mail[0]!.text, new RegExp(`${PUBLIC_URL}/console/reviews/${uarId}`));
    const bossMail = smtp.to(emailOf(boss)).filter((m) => /Scheduled review/.test(m.subject));
    assert.equal(bossMail.length, 1);
    assert.match(bossMail[0]!.text, new RegExp(`${waits.full_name} \\(who report to you\\)`));

    // One reviewer answers; a day before, only the one still waiting (and their manager) hear again.
    assert.equal((await answers.api.post(`/uar/${uarId}/decisions`, { decisions: [{ uar_item_id: mineOf(answers).uar_item_id, decision: 'KEEP' }] })).status, 200);
    await advanceTo(0.9);
    const second = (await reminders()).filter((n) => /1 day/.test(n.reason));
    assert.deepEqual(second.map((n) => n.user_id).sort(), [waits.user_id, boss.user_id].sort());
    assert.equal((await reminders()).length, 5, 'nothing twice, and nothing from the quiet review (no schedule, nobody told)');
    assert.equal(smtp.to(emailOf(answers)).filter((m) => /Quiet review/.test(m.subject)).length, 0);
  });

  it('the SMTP channel speaks smtps:// (TLS from the start) and gives up only on a mailbox that does not exist', async () => {
    const tls = await SmtpReceiver.start(true);
    const channel = createSmtpChannel(tls.url, FROM, ALLOW_ALL);
    try {
      const sent = await channel.send({ to: { name: 'Ada', address: 'ada@example.test' }, subject: 'über TLS', text: 'plain', html: '<p>html</p>' });
      assert.equal(sent.ok, true, JSON.stringify(sent));
      assert.deepEqual([tls.mails[0]!.subject, tls.mails[0]!.secure, tls.mails[0]!.text.trim(), tls.mails[0]!.html], ['über TLS', true, 'plain', '<p>html</p>']);
      const wrong = createSmtpChannel(tls.url.replace('p%40ss', 'wrong'), FROM, ALLOW_ALL);
      const refused = await wrong.send({ to: { name: '', address: 'ada@example.test' }, subject: 's', text: 't', html: 'h' });
      wrong.close();
      assert.deepEqual(refused.ok ? null : [refused.retryable, /^SMTP 535/.test(refused.error)], [true, true], 'a refused login may be fixed: retried');
    } finally {
      channel.close();
      await tls.stop();
    }
  });

  it('SMTP down, Gatehouse restarted, SMTP up: the notice is delivered once', async () => {
    const [requester, reviewer] = [await createMember(app.api), await createMember(app.api)];
    const resource = await stagedResource((await createOwner(app.api, { user_ids: [reviewer.user_id] })).owner_id);
    await smtp.stop();
    const id = await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    await deliver();
    const [failing] = await notices({ request_id: id });
    assert.equal(failing!.status, 'QUEUED');
    assert.match(failing!.last_error ?? '', /SMTP connection failed/);
    await app.close({ keepFiles: true });
    await smtp.listen();
    app = await startTestApp({ dbFile: app.dbFile, clock: app.clock, env: env() });
    app.clock.advance(10 * MINUTE);
    await deliver();
    await schedule();
    await deliver();
    assert.equal(smtp.to(emailOf(reviewer)).length, 1);
    const [sent] = await notices({ request_id: id });
    assert.equal(sent!.status, 'SENT');
    assert.equal(sent!.attempts, 2);
  });
});
