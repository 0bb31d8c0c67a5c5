// Break-glass through the API (docs/break-glass.md): who may (items' and templates' fields, round-tripped
// by PUT and GET), breaking glass (the request approved by the rule, the grant, the event), every
// refusal recording BREAK_GLASS_REFUSED and nothing else, the noise (real SMTP, the Slack stand-in),
// the review (NOT_JUSTIFIED ends access at once), and time: the end told, reminders, escalation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tick as outboxTick } from '../../src/outbox/index.ts';
import { tick as breakGlassTick } from '../../src/modules/break-glass/schedule.ts';
import { tick as sweepExpiredAccess } from '../../src/modules/access/sweep.ts';
import { verifyDatabase } from '../../src/modules/audit/service.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { countEvents, readEvents } from '../helpers/events.ts';
import { errorPaths } from '../helpers/errors.ts';
import {
  createAdmin, createApp, createGroup, createMember, createMessageChannel, createOwner, createResource, NO_SUCH_ID, type Signed,
} from '../helpers/fixtures.ts';
import { SIGNING_SECRET, SLACK_TOKEN, SlackStandIn } from '../helpers/slack-stand-in.ts';
import { SmtpReceiver } from '../helpers/smtp-receiver.ts';
import { PAGERDUTY_TOKEN, PagerDutyStandIn } from '../helpers/on-call-stand-ins.ts';
import { OpalConnector } from '../helpers/opal-connector.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { tick as deliverEventStreams } from '../../src/modules/event-streams/delivery.ts';

const MINUTE = 60_000;
const REASON = 'prod database is down, paging did not reach anyone';
const emailOf = (m: Signed) => `${m.full_name.replace(/^Test /, '')}@example.com`;

describe('break-glass', () => {
  let app: TestApp;
  let smtp: SmtpReceiver;
  let slack: SlackStandIn;
  before(async () => {
    smtp = await SmtpReceiver.start();
    slack = await SlackStandIn.start();
    app = await startTestApp({
      env: {
        GATEHOUSE_SMTP_URL: smtp.url, GATEHOUSE_EMAIL_FROM: 'Gatehouse <gatehouse@example.test>', GATEHOUSE_PUBLIC_URL: 'https://gatehouse.example.test',
        GATEHOUSE_SLACK_BOT_TOKEN: SLACK_TOKEN, GATEHOUSE_SLACK_SIGNING_SECRET: SIGNING_SECRET, GATEHOUSE_SLACK_API_URL: slack.url,
        GATEHOUSE_BREAK_GLASS_REVIEW_MINUTES: '120',
      },
    });
  });
  after(async () => {
    await app.close();
    await smtp.stop();
    await slack.close();
  });

  const deliver = () => outboxTick(app.ctx, app.clock.now());
  const schedule = () => breakGlassTick(app.ctx, app.clock.now());

  /** A production resource: its owner's users are `owners`, and `named` may break glass on it. */
  async function production(owners: Signed[], named: Signed[], extra: Record<string, unknown> = {}) {
    const owner = await createOwner(app.api, { user_ids: owners.map((o) => o.user_id), ...extra });
    const resource = await createResource(app.api, { admin_owner_id: owner.owner_id, max_duration: 30 });
    const put = await app.api.put('/resources', { resources: [{ resource_id: resource.resource_id, break_glass_user_ids: named.map((n) => n.user_id), break_glass_max_minutes: 120 }] });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    return { ...resource, owner };
  }
  const holders = async (resourceId: string) => {
    const res = await app.api.get(`/resources/${resourceId}/users`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.results as { user_id: string; expiration_date?: string | null }[];
  };
  const breakGlass = (who: Signed, body: Record<string, unknown>) =>
    who.api.post('/break-glass', { reason: REASON, duration_minutes: 60, ...body });

  it('who may is set with PUT /v1/resources and /v1/groups, read back by their GETs, refused when bad, and given by a template', async () => {
    const [alice, bob] = [await createMember(app.api), await createMember(app.api)];
    const team = await createGroup(app.api);
    const resource = await createResource(app.api);
    const fresh = await app.api.get(`/resources/${resource.resource_id}`);
    assert.deepEqual([fresh.body.break_glass_user_ids, fresh.body.break_glass_group_ids, fresh.body.break_glass_max_minutes], [[], [], 60], 'nobody by default, 60 minutes');
    const put = await app.api.put('/resources', { resources: [{
      resource_id: resource.resource_id, break_glass_user_ids: [alice.user_id.toUpperCase()], break_glass_group_ids: [team.group_id], break_glass_max_minutes: 240,
    }] });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const got = await app.api.get(`/resources/${resource.resource_id}`);
    assert.deepEqual([got.body.break_glass_user_ids, got.body.break_glass_group_ids, got.body.break_glass_max_minutes], [[alice.user_id], [team.group_id], 240]);
    const listed = await app.api.get('/resources', { resource_ids: resource.resource_id });
    assert.equal(listed.body.results[0].break_glass_max_minutes, 240, 'the list carries it too');

    const group = await createGroup(app.api);
    const gput = await app.api.put('/groups', { groups: [{ group_id: group.group_id, break_glass_user_ids: [bob.user_id], break_glass_max_minutes: 15 }] });
    assert.equal(gput.status, 200, JSON.stringify(gput.body));
    const ggot = await app.api.get(`/groups/${group.group_id}`);
    assert.deepEqual([ggot.body.break_glass_user_ids, ggot.body.break_glass_max_minutes], [[bob.user_id], 15]);

    const before = await countEvents(app.api, { type: 'RESOURCES_UPDATED' });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ break_glass_max_minutes: 241 }, 400, 'resources.0.break_glass_max_minutes'],
      [{ break_glass_max_minutes: 0 }, 400, 'resources.0.break_glass_max_minutes'],
      [{ break_glass_user_ids: [NO_SUCH_ID] }, 404, 'resources.0.break_glass_user_ids.0'],
      [{ break_glass_group_ids: [alice.user_id] }, 404, 'resources.0.break_glass_group_ids.0'],
      [{ break_glass_user_ids: [alice.user_id, alice.user_id] }, 400, 'resources.0.break_glass_user_ids'],
    ];
    for (const [fields, status, path] of cases) {
      const res = await app.api.put('/resources', { resources: [{ resource_id: resource.resource_id, ...fields }] });
      assert.equal(res.status, status, `${JSON.stringify(fields)}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(errorPaths(res.body), [path]);
    }
    assert.equal(await countEvents(app.api, { type: 'RESOURCES_UPDATED' }), before, 'a refused update records nothing');
    assert.equal((await app.api.get(`/resources/${resource.resource_id}`)).body.break_glass_max_minutes, 240, 'and changes nothing');

    // A template gives its items its own, and a linked item's own cannot differ.
    const owner = await createOwner(app.api);
    const template = await app.api.post('/configuration-templates', {
      name: `template-${Date.now()}`, admin_owner_id: owner.owner_id, visibility: { visibility: 'GLOBAL' }, require_mfa_to_approve: false, require_mfa_to_connect: false,
      break_glass_user_ids: [bob.user_id], break_glass_group_ids: [team.group_id], break_glass_max_minutes: 30,
    });
    assert.equal(template.status, 200, JSON.stringify(template.body));
    assert.deepEqual([template.body.break_glass_user_ids, template.body.break_glass_group_ids, template.body.break_glass_max_minutes], [[bob.user_id], [team.group_id], 30]);
    const linked = await createResource(app.api, { configuration_template_id: template.body.configuration_template_id });
    const read = await app.api.get(`/resources/${linked.resource_id}`);
    assert.deepEqual([read.body.break_glass_user_ids, read.body.break_glass_max_minutes], [[bob.user_id], 30]);
    const override = await app.api.put('/resources', { resources: [{ resource_id: linked.resource_id, break_glass_max_minutes: 60 }] });
    assert.equal(override.status, 409, JSON.stringify(override.body));
    assert.deepEqual(errorPaths(override.body), ['resources.0.break_glass_max_minutes']);
    const changed = await app.api.put('/configuration-templates', { configuration_template_id: template.body.configuration_template_id, break_glass_user_ids: [alice.user_id] });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual((await app.api.get(`/resources/${linked.resource_id}`)).body.break_glass_user_ids, [alice.user_id], 'the item follows the template');
    const bad = await app.api.put('/configuration-templates', { configuration_template_id: template.body.configuration_template_id, break_glass_max_minutes: 500 });
    assert.equal(bad.status, 400);
    assert.deepEqual(errorPaths(bad.body), ['break_glass_max_minutes']);
  });

  it('an item\'s owners (and admins) say who may on the item alone; nobody else; not while a template does', async () => {
    const [owner, stranger, oncall] = [await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    const team = await createOwner(app.api, { user_ids: [owner.user_id] });
    const resource = await createResource(app.api, { admin_owner_id: team.owner_id });
    const group = await createGroup(app.api, { admin_owner_id: team.owner_id });
    const before = await countEvents(app.api, { type: 'RESOURCES_UPDATED', object: resource.resource_id });
    const set = await owner.api.put(`/resources/${resource.resource_id}/break-glass`, { break_glass_user_ids: [oncall.user_id], break_glass_max_minutes: 45 });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(set.body, { break_glass_user_ids: [oncall.user_id], break_glass_group_ids: [], break_glass_max_minutes: 45 });
    const read = await app.api.get(`/resources/${resource.resource_id}`);
    assert.deepEqual([read.body.break_glass_user_ids, read.body.break_glass_max_minutes], [[oncall.user_id], 45]);
    assert.equal(await countEvents(app.api, { type: 'RESOURCES_UPDATED', object: resource.resource_id }), before + 1);
    const groupSet = await owner.api.put(`/groups/${group.group_id}/break-glass`, { break_glass_group_ids: [group.group_id] });
    assert.equal(groupSet.status, 200, JSON.stringify(groupSet.body));
    assert.deepEqual((await app.api.get(`/groups/${group.group_id}`)).body.break_glass_group_ids, [group.group_id]);

    const refusals: [Signed | null, string, Record<string, unknown>, number, string[]][] = [
      [stranger, `/resources/${resource.resource_id}/break-glass`, { break_glass_user_ids: [] }, 403, ['resource_id']],
      [owner, `/resources/${resource.resource_id}/break-glass`, { break_glass_user_ids: [NO_SUCH_ID] }, 404, ['break_glass_user_ids.0']],
      [owner, `/resources/${resource.resource_id}/break-glass`, { break_glass_max_minutes: 300 }, 400, ['break_glass_max_minutes']],
      [owner, `/resources/${NO_SUCH_ID}/break-glass`, { break_glass_max_minutes: 30 }, 404, ['resource_id']],
    ];
    for (const [who, path, body, status, paths] of refusals) {
      const res = await (who ?? { api: app.api }).api.put(path, body);
      assert.equal(res.status, status, `${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(errorPaths(res.body), paths);
    }
    assert.equal(await countEvents(app.api, { type: 'RESOURCES_UPDATED', object: resource.resource_id }), before + 1, 'a refusal changes nothing');
    const template = await app.api.post('/configuration-templates', {
      name: `linked-${Date.now()}`, admin_owner_id: team.owner_id, visibility: { visibility: 'GLOBAL' }, require_mfa_to_approve: false, require_mfa_to_connect: false,
    });
    const linked = await createResource(app.api, { configuration_template_id: template.body.configuration_template_id });
    const templated = await owner.api.put(`/resources/${linked.resource_id}/break-glass`, { break_glass_max_minutes: 30 });
    assert.equal(templated.status, 409, JSON.stringify(templated.body));
    assert.deepEqual(errorPaths(templated.body), ['break_glass_max_minutes']);
  });

  it('a named person breaks glass and holds the access at once, for no longer than asked; the request says so; everyone is told', async () => {
    const [oncall, owner1, owner2, bystander] = [await createMember(app.api), await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    const channel = await createMessageChannel(app.api, { third_party_provider: 'SLACK', remote_id: 'C0REVIEWERS' });
    const resource = await production([owner1, owner2], [oncall], { reviewer_message_channel_id: channel.message_channel_id });
    const admin2 = await createAdmin(app.api);
    const now = app.clock.now();
    // 90 minutes: more than the resource's ordinary max_duration (30), within its break-glass cap (120).
    const res = await breakGlass(oncall, { resource_id: resource.resource_id, duration_minutes: 90, incident_id: 'PXYZ123' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const bg = res.body;
    assert.equal(bg.state, 'OPEN');
    assert.equal(bg.active, true);
    assert.equal(bg.user_id, oncall.user_id);
    assert.equal(bg.ends_at, new Date(now.getTime() + 90 * MINUTE).toISOString());
    const held = (await holders(resource.resource_id)).find((h) => h.user_id === oncall.user_id);
    assert.ok(held, 'held at once');
    assert.equal(held.expiration_date, bg.ends_at);

    const request = await app.api.get(`/requests/${bg.request_id}`);
    assert.equal(request.body.status, 'APPROVED');
    assert.equal(request.body.break_glass, true);
    assert.equal(request.body.reason, REASON);
    const flagged = await app.api.get('/requests', { break_glass: 'true' });
    assert.ok(flagged.body.requests.some((r: { id: string }) => r.id === bg.request_id));
    assert.ok(flagged.body.requests.every((r: { break_glass: boolean }) => r.break_glass));
    const others = await app.api.get('/requests', { break_glass: 'false' });
    assert.ok(!others.body.requests.some((r: { id: string }) => r.id === bg.request_id));
    assert.deepEqual((await oncall.api.get('/requests', { break_glass: 'true' })).body.requests.map((r: { id: string }) => r.id), [bg.request_id], 'a member sees their own');

    const [used] = await readEvents(app.api, { type: 'BREAK_GLASS_USED', object: resource.resource_id });
    assert.ok(used, 'BREAK_GLASS_USED is recorded');
    assert.equal(used.actor_user_id, oncall.user_id);
    assert.equal(used.sub_events[0]!.reason, REASON);
    assert.equal(used.sub_events[0]!.incident_id, 'PXYZ123');
    const chain = verifyDatabase(app.ctx.db);
    assert.equal(chain.problem, undefined, 'the chain verifies');
    assert.equal(chain.last!.eventId, used.event_id, 'BREAK_GLASS_USED is the chain\'s last link (nothing written since)');

    await deliver();
    for (const person of [owner1, owner2, admin2]) {
      const [mail] = smtp.to(emailOf(person)).filter((m) => /^Break-glass/.test(m.subject));
      assert.ok(mail, `${person.full_name} is told`);
      assert.match(mail.subject, new RegExp(`${oncall.full_name} took ${resource.name} for 90 minutes`));
      assert.match(mail.text, /Reason: prod database is down/);
      assert.match(mail.text, /Incident: PXYZ123/);
    }
    assert.equal(smtp.to(emailOf(oncall)).length, 0, 'the person is not told what they did');
    assert.equal(smtp.to(emailOf(bystander)).length, 0);
    assert.equal(slack.messages.filter((m) => m.channel === 'C0REVIEWERS' && /Break-glass/.test(m.text)).length, 1, 'the owner\'s reviewer channel too');

    // Not extendable: a second while the first lasts is refused.
    const again = await breakGlass(oncall, { resource_id: resource.resource_id });
    assert.equal(again.status, 409, JSON.stringify(again.body));

    // The end: the access expires with it; the person is told; then they may break glass again.
    app.clock.advance(91 * MINUTE);
    assert.ok(!(await holders(resource.resource_id)).some((h) => h.user_id === oncall.user_id), 'ended at its time');
    assert.equal((await schedule()).ended, 1);
    assert.ok(sweepExpiredAccess(app.ctx, app.clock.now()) >= 1, 'the expiry sweep ends the edge (the person hears of it once, below)');
    await deliver();
    assert.deepEqual(smtp.to(emailOf(oncall)).map((m) => m.subject), [`Your break-glass on ${resource.name} has ended`], 'one message: not also "your access ended"');
    assert.equal((await schedule()).ended, 0, 'told once');
    const second = await breakGlass(oncall, { resource_id: resource.resource_id, duration_minutes: 5 });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.notEqual(second.body.id, bg.id, 'a new break-glass, reviewed on its own');
  });

  it('every refusal is a clear error, grants nothing and records BREAK_GLASS_REFUSED alone', async () => {
    const [named, stranger, owner] = [await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    const resource = await production([owner], [named]);
    const plain = await createResource(app.api);
    const id = resource.resource_id;
    const cases: [string, Signed, Record<string, unknown>, number, string[]][] = [
      ['not named', stranger, { resource_id: id }, 403, ['resource_id']],
      ['an item without break-glass', named, { resource_id: plain.resource_id }, 403, ['resource_id']],
      ['a reason too short', named, { resource_id: id, reason: 'it is down' }, 400, ['reason']],
      ['minutes over the cap', named, { resource_id: id, duration_minutes: 121 }, 400, ['duration_minutes']],
      ['minutes over any cap', named, { resource_id: id, duration_minutes: 241 }, 400, ['duration_minutes']],
      ['an unknown level', named, { resource_id: id, access_level_remote_id: 'admin' }, 400, ['access_level_remote_id']],
      ['no item', named, {}, 400, ['resource_id']],
      ['both items', named, { resource_id: id, group_id: id }, 400, ['group_id']],
      ['an unknown item', named, { resource_id: NO_SUCH_ID }, 404, ['resource_id']],
    ];
    const granted = async () => (await holders(id)).length;
    for (const [what, who, body, status, paths] of cases) {
      const refusedBefore = await countEvents(app.api, { type: 'BREAK_GLASS_REFUSED' });
      const createdBefore = await countEvents(app.api, { type: 'REQUESTS_CREATED' });
      const res = await breakGlass(who, body);
      assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(errorPaths(res.body), paths, what);
      assert.equal(await countEvents(app.api, { type: 'BREAK_GLASS_REFUSED' }), refusedBefore + 1, `${what}: the refusal is recorded`);
      assert.equal(await countEvents(app.api, { type: 'REQUESTS_CREATED' }), createdBefore, `${what}: no request`);
      assert.equal(await countEvents(app.api, { type: 'BREAK_GLASS_USED' , object: id }), 0, what);
      assert.equal(await granted(), 0, `${what}: nothing granted`);
    }
    const over = await breakGlass(named, { resource_id: id, duration_minutes: 121 });
    assert.match(over.body.details[0].message, /at most 120 minutes/, 'the cap is named');
    const [refusal] = await readEvents(app.api, { type: 'BREAK_GLASS_REFUSED' });
    assert.equal(refusal!.sub_events[0]!.error_path, 'duration_minutes');
    const readOnly = await createMember(app.api, {}, { access_level: 'READ_ONLY' });
    assert.equal((await breakGlass(readOnly, { resource_id: id })).status, 403, 'a READ_ONLY token cannot write');
  });

  it('members of a named group may break glass on a group; the access comes through the group\'s path', async () => {
    const [member, owner] = [await createMember(app.api), await createMember(app.api)];
    const team = await createGroup(app.api);
    const joined = await app.api.post(`/groups/${team.group_id}/users/${member.user_id}`, { duration_minutes: 0 });
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    const ownerRow = await createOwner(app.api, { user_ids: [owner.user_id] });
    const target = await createGroup(app.api, { admin_owner_id: ownerRow.owner_id });
    assert.equal((await app.api.put('/groups', { groups: [{ group_id: target.group_id, break_glass_group_ids: [team.group_id] }] })).status, 200);
    const res = await member.api.post('/break-glass', { group_id: target.group_id, reason: REASON });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.group_id, target.group_id);
    const users = await app.api.get(`/groups/${target.group_id}/users`);
    assert.ok(users.body.results.some((u: { user_id: string }) => u.user_id === member.user_id));
    assert.equal(res.body.duration_minutes, 60, 'without duration_minutes, the item\'s cap');
    assert.equal((await breakGlass(owner, { group_id: target.group_id })).status, 403, 'an owner not in the group is not named');
  });

  it('the review: owners see it waiting, nobody reviews their own, NOT_JUSTIFIED ends access at once and tells the admins', async () => {
    const [oncall, owner, other, outsider] = [await createMember(app.api), await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    // The person is an owner too: still nobody reviews their own.
    const resource = await production([oncall, owner, other], [oncall]);
    const admin2 = await createAdmin(app.api);
    const bg = (await breakGlass(oncall, { resource_id: resource.resource_id })).body;
    const waiting = await owner.api.get('/break-glass', { awaiting_my_review: 'true' });
    assert.equal(waiting.status, 200, JSON.stringify(waiting.body));
    assert.deepEqual(waiting.body.results.map((r: { id: string }) => r.id), [bg.id]);
    assert.deepEqual((await oncall.api.get('/break-glass', { awaiting_my_review: 'true' })).body.results, [], 'not their own');
    assert.deepEqual((await outsider.api.get('/break-glass')).body.results, [], 'an outsider sees none');
    assert.equal((await outsider.api.get(`/break-glass/${bg.id}`)).status, 404);
    assert.ok((await app.api.get('/break-glass', { state: 'OPEN' })).body.results.some((r: { id: string }) => r.id === bg.id), 'admins see every one');

    const refused = await countEvents(app.api, { type: 'BREAK_GLASS_REFUSED' });
    const own = await oncall.api.post(`/break-glass/${bg.id}/review`, { decision: 'JUSTIFIED', comment: 'I needed it' });
    assert.equal(own.status, 403, JSON.stringify(own.body));
    assert.equal((await outsider.api.post(`/break-glass/${bg.id}/review`, { decision: 'JUSTIFIED', comment: 'fine' })).status, 404);
    const noComment = await owner.api.post(`/break-glass/${bg.id}/review`, { decision: 'NOT_JUSTIFIED', comment: ' ' });
    assert.equal(noComment.status, 400);
    assert.deepEqual(errorPaths(noComment.body), ['comment']);
    assert.equal(await countEvents(app.api, { type: 'BREAK_GLASS_REFUSED' }), refused + 3, 'each refused review is recorded');
    assert.equal(await countEvents(app.api, { type: 'BREAK_GLASS_REVIEWED' }), 0);

    const review = await owner.api.post(`/break-glass/${bg.id}/review`, { decision: 'NOT_JUSTIFIED', comment: 'no incident was open' });
    assert.equal(review.status, 200, JSON.stringify(review.body));
    assert.equal(review.body.state, 'NOT_JUSTIFIED');
    assert.equal(review.body.active, false);
    assert.equal(review.body.reviewed_by_user_id, owner.user_id);
    assert.ok(!(await holders(resource.resource_id)).some((h) => h.user_id === oncall.user_id), 'ended at once');
    assert.equal(await countEvents(app.api, { type: 'RESOURCE_USERS_REMOVED', object: resource.resource_id }), 1);
    const [reviewed] = await readEvents(app.api, { type: 'BREAK_GLASS_REVIEWED' });
    assert.equal(reviewed!.sub_events[0]!.decision, 'NOT_JUSTIFIED');
    assert.equal((await other.api.post(`/break-glass/${bg.id}/review`, { decision: 'JUSTIFIED', comment: 'it was fine' })).status, 409, 'a review is final');
    await deliver();
    assert.ok(smtp.to(emailOf(admin2)).some((m) => /found not justified/.test(m.subject)), 'the admins are told');
    assert.ok(smtp.to(emailOf(oncall)).some((m) => /found not justified/.test(m.subject)), 'and the person');
    // Ended early: the schedule does not tell them it ended again later.
    app.clock.advance(61 * MINUTE);
    await schedule();
    await deliver();
    assert.ok(!smtp.to(emailOf(oncall)).some((m) => /has ended/.test(m.subject)));
  });

  it('an unreviewed break-glass is chased: the owners reminded, then the admins told', async () => {
    const [oncall, owner] = [await createMember(app.api), await createMember(app.api)];
    const resource = await production([owner], [oncall]);
    const admin2 = await createAdmin(app.api);
    const bg = (await breakGlass(oncall, { resource_id: resource.resource_id, duration_minutes: 10 })).body;
    await schedule();
    await deliver();
    const remindersOf = (m: Signed) => smtp.to(emailOf(m)).filter((mail) => /^Reminder: review/.test(mail.subject));
    const escalationsOf = (m: Signed) => smtp.to(emailOf(m)).filter((mail) => /^Escalated:/.test(mail.subject) && mail.text.includes(resource.name));
    app.clock.advance(119 * MINUTE);
    await schedule();
    await deliver();
    assert.equal(remindersOf(owner).length, 0, 'not before GATEHOUSE_BREAK_GLASS_REVIEW_MINUTES');
    app.clock.advance(2 * MINUTE);
    await schedule();
    await deliver();
    assert.equal(remindersOf(owner).length, 1, 'reminded');
    assert.equal(escalationsOf(admin2).length, 0);
    app.clock.advance(120 * MINUTE);
    await schedule();
    await schedule();
    await deliver();
    assert.equal(remindersOf(owner).length, 1, 'once');
    assert.equal(escalationsOf(admin2).length, 1, 'escalated to the admins');
    // An admin may review it, once escalated or not.
    const review = await admin2.api.post(`/break-glass/${bg.id}/review`, { decision: 'JUSTIFIED', comment: 'the incident log shows the outage' });
    assert.equal(review.status, 200, JSON.stringify(review.body));
  });
});

describe('break-glass with PagerDuty set up', () => {
  let app: TestApp;
  let pagerDuty: PagerDutyStandIn;
  before(async () => {
    pagerDuty = await PagerDutyStandIn.start(() => new Date());
    app = await startTestApp({ env: { GATEHOUSE_PAGERDUTY_TOKEN: PAGERDUTY_TOKEN, GATEHOUSE_PAGERDUTY_API_URL: pagerDuty.url } });
  });
  after(async () => {
    await app.close();
    await pagerDuty.close();
  });

  it('the incident must exist and be triggered or acknowledged; nobody unnamed gets PagerDuty asked', async () => {
    const [named, stranger] = [await createMember(app.api), await createMember(app.api)];
    const owner = await createOwner(app.api);
    const resource = await createResource(app.api, { admin_owner_id: owner.owner_id });
    assert.equal((await app.api.put('/resources', { resources: [{ resource_id: resource.resource_id, break_glass_user_ids: [named.user_id] }] })).status, 200);
    const open = pagerDuty.addIncident('triggered', 'Checkout is down');
    const acknowledged = pagerDuty.addIncident('acknowledged');
    const resolved = pagerDuty.addIncident('resolved');
    const post = (who: Signed, incident: string, minutes = 5) =>
      who.api.post('/break-glass', { resource_id: resource.resource_id, reason: REASON, duration_minutes: minutes, incident_id: incident });

    const calls = pagerDuty.calls.length;
    const refused = await post(stranger, open);
    assert.equal(refused.status, 403);
    assert.equal(pagerDuty.calls.length, calls, 'PagerDuty is not asked for someone not named');
    for (const [incident, what] of [[resolved, /resolved/], ['PNOSUCH', /no incident/]] as const) {
      const res = await post(named, incident);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(errorPaths(res.body), ['incident_id']);
      assert.match(res.body.details[0].message, what);
    }
    assert.equal(await countEvents(app.api, { type: 'BREAK_GLASS_USED' }), 0);
    assert.equal(await countEvents(app.api, { type: 'BREAK_GLASS_REFUSED' }), 3);

    const res = await post(named, open);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.incident_id, open);
    const [used] = await readEvents(app.api, { type: 'BREAK_GLASS_USED' });
    assert.equal(used!.sub_events[0]!.incident_status, 'triggered');
    assert.equal(used!.sub_events[0]!.incident_title, 'Checkout is down');
    assert.ok(pagerDuty.calls.some((call) => call.path === `/incidents/${open}`));
    assert.deepEqual(pagerDuty.violations, [], 'every answer the stand-in gave is one PagerDuty\'s document allows');

    // An acknowledged incident will do too (another item: the first still lasts).
    const other = await createResource(app.api, { admin_owner_id: owner.owner_id });
    assert.equal((await app.api.put('/resources', { resources: [{ resource_id: other.resource_id, break_glass_user_ids: [named.user_id] }] })).status, 200);
    const second = await named.api.post('/break-glass', { resource_id: other.resource_id, reason: REASON, incident_id: acknowledged });
    assert.equal(second.status, 200, JSON.stringify(second.body));
  });
});

describe('break-glass reaches connected systems and event streams', () => {
  const SECRET = 'connector-signing-secret-0123456789';
  let app: TestApp;
  let remote: OpalConnector;
  let receiver: WebhookReceiver;
  before(async () => {
    app = await startTestApp();
    remote = await new OpalConnector(SECRET).start();
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await app.close();
    await remote.stop();
    await receiver.close();
  });

  it('the grant is pushed through the connector as any approval\'s is, the not-justified end too, and the stream forwards the events', async () => {
    const [oncall, owner] = [await createMember(app.api), await createMember(app.api)];
    remote.users.set('u-oncall', oncall.user.email);
    remote.resources.set('r-db', { name: 'Production database', levels: [{ id: 'write', name: 'Write' }], users: new Map() });
    const connected = await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' });
    assert.equal((await app.api.put(`/apps/${connected.app_id}/connector`, { url: remote.url, signing_secret: SECRET })).status, 200);
    const synced = await app.api.post(`/apps/${connected.app_id}/connector/sync`);
    assert.equal(synced.body.ok, true, JSON.stringify(synced.body));
    const resources = (await app.api.get('/resources', { app_id: connected.app_id })).body.results as { resource_id: string }[];
    const resourceId = resources[0]!.resource_id;
    const team = await createOwner(app.api, { user_ids: [owner.user_id] });
    const put = await app.api.put('/resources', { resources: [{ resource_id: resourceId, admin_owner_id: team.owner_id, break_glass_user_ids: [oncall.user_id] }] });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const stream = await app.api.post('/event-streams', { name: 'siem', connection_type: 'WEBHOOK', webhook_url: `${receiver.url}/hook` });
    assert.equal(stream.status, 200, JSON.stringify(stream.body));

    const res = await oncall.api.post('/break-glass', { resource_id: resourceId, access_level_remote_id: 'write', reason: REASON, duration_minutes: 30 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // Queued in the break-glass's own transaction: the next outbox pass carries it.
    await outboxTick(app.ctx, app.clock.now());
    assert.deepEqual(remote.edges(), ['resource_user:u-oncall:r-db:write']);
    const review = await owner.api.post(`/break-glass/${res.body.id}/review`, { decision: 'NOT_JUSTIFIED', comment: 'the incident was already over' });
    assert.equal(review.status, 200, JSON.stringify(review.body));
    await outboxTick(app.ctx, app.clock.now());
    assert.deepEqual(remote.edges(), [], 'ended in the connected system too');

    await deliverEventStreams(app.ctx, app.clock.now());
    const types = receiver.deliveries.map((d) => d.payload.type);
    for (const type of ['BREAK_GLASS_USED', 'REQUESTS_APPROVED', 'RESOURCE_USERS_ADDED', 'BREAK_GLASS_REVIEWED', 'RESOURCE_USERS_REMOVED']) {
      assert.ok(types.includes(type), `the stream forwarded ${type} (got ${types.join(', ')})`);
    }
  });
});
