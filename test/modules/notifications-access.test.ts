// Notices about a person's own access, word for word, through a real SMTP server and the Slack stand-in
// with the clock moved: warnings only for thresholds still ahead when the access got its expiry, saying
// the time really left; times in words with their zone; and the holder told once when access ends —
// removed by an admin, revoked by an access review, expired, or everything at once by offboarding.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tick as outboxTick } from '../../src/outbox/index.ts';
import { tick as scheduleTick } from '../../src/modules/notifications/schedule.ts';
import { tick as sweepTick } from '../../src/modules/access/sweep.ts';
import { closeDueReviews } from '../../src/modules/uar-decisions/service.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createGroup, createMember, createOwner, createResource, createTag, NO_SUCH_ID, type Signed } from '../helpers/fixtures.ts';
import { SIGNING_SECRET, SLACK_TOKEN, SlackStandIn } from '../helpers/slack-stand-in.ts';
import { SmtpReceiver } from '../helpers/smtp-receiver.ts';

const PUBLIC_URL = 'https://gatehouse.example.test';
const emailOf = (m: Signed) => m.user.email;

describe('notifications: a person\'s own access', () => {
  let app: TestApp;
  let smtp: SmtpReceiver;
  let slack: SlackStandIn;
  before(async () => {
    smtp = await SmtpReceiver.start();
    slack = await SlackStandIn.start();
    app = await startTestApp({
      clock: new ManualClock('2026-11-27T09:00:00.000Z'),
      env: {
        GATEHOUSE_SMTP_URL: smtp.url, GATEHOUSE_EMAIL_FROM: 'Gatehouse <gatehouse@example.test>', GATEHOUSE_PUBLIC_URL: PUBLIC_URL,
        GATEHOUSE_SLACK_BOT_TOKEN: SLACK_TOKEN, GATEHOUSE_SLACK_SIGNING_SECRET: SIGNING_SECRET, GATEHOUSE_SLACK_API_URL: slack.url,
        GATEHOUSE_EXPIRY_WARNING_MINUTES: '1440,60',
      },
    });
  });
  after(async () => {
    await app.close();
    await smtp.stop();
    await slack.close();
  });

  /** What the service's jobs would do by now: schedule notices, sweep expired edges, deliver. */
  const jobs = async () => {
    await scheduleTick(app.ctx, app.clock.now());
    sweepTick(app.ctx, app.clock.now());
    await outboxTick(app.ctx, app.clock.now());
  };
  /** Moves the clock to `iso` and runs the jobs there. */
  const moveTo = async (iso: string) => {
    app.clock.set(new Date(iso));
    await jobs();
  };
  const grant = async (resourceId: string, userId: string, minutes: number) => {
    const res = await app.api.post(`/resources/${resourceId}/users/${userId}`, { duration_minutes: minutes });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const noticesOf = async (userId: string, type: string) => {
    const res = await app.api.get('/notifications', { user_id: userId, type, page_size: 100 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.results as { status: string; reason: string; channel: string }[];
  };
  /** A member told on Slack (a Slack account of the same email). */
  async function slackMember(): Promise<Signed> {
    const member = await createMember(app.api);
    assert.equal((await member.api.put(`/users/${member.user_id}/notification-preferences`, { channel: 'SLACK', daily_digest: false })).status, 200);
    slack.addUser(emailOf(member));
    return member;
  }
  /** The Slack message's text as a person reads it (the section block), unescaped. */
  const slackText = (message: { blocks: unknown[] }) =>
    ((message.blocks[1] as { text: { text: string } }).text.text).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

  it('a 4-hour grant hears only the hour\'s warning, an hour before, saying 1 hour and the time in words; then that it ended', async () => {
    app.clock.set(new Date('2026-11-27T09:00:00.000Z'));
    const holder = await createMember(app.api);
    const resource = await createResource(app.api, { name: 'Staging database' });
    await grant(resource.resource_id, holder.user_id, 4 * 60);
    await jobs();
    await moveTo('2026-11-27T09:01:00.000Z');
    await moveTo('2026-11-27T11:59:00.000Z');
    assert.deepEqual(smtp.to(emailOf(holder)), [], 'no day\'s warning for access that never had a day');

    await moveTo('2026-11-27T12:00:00.000Z');
    const [warning, ...more] = smtp.to(emailOf(holder));
    assert.equal(more.length, 0);
    assert.equal(warning!.subject, 'Your access to Staging database ends in 1 hour');
    assert.equal(warning!.text.split('\n\n')[0], 'Your access to resource "Staging database" ends in 1 hour, on Friday, November 27, 2026 at 13:00 UTC.');
    assert.match(warning!.text, /You get this because you hold this access and it ends within 1 hour\./);
    assert.match(warning!.text, new RegExp(`Extend my access: ${PUBLIC_URL}/console/access`));
    assert.doesNotMatch(warning!.text, /\d{4}-\d\d-\d\dT/, 'no ISO timestamps');

    await moveTo('2026-11-27T12:30:00.000Z');
    assert.equal(smtp.to(emailOf(holder)).length, 1, 'once');
    await moveTo('2026-11-27T13:00:00.000Z');
    const ended = smtp.to(emailOf(holder))[1]!;
    assert.equal(ended.subject, 'Your access to Staging database has ended');
    assert.equal(ended.text.split('\n\n')[0], 'Your access to resource "Staging database" ended on Friday, November 27, 2026 at 13:00 UTC, when the time it was given for was over.');
    await moveTo('2026-11-27T14:00:00.000Z');
    assert.equal(smtp.to(emailOf(holder)).length, 2, 'told once that it ended');
    assert.equal((await noticesOf(holder.user_id, 'ACCESS_REMOVED')).length, 1);
  });

  it('a 1-day grant hears no "1 day" at its start; a 3-day grant hears the day\'s and the hour\'s warnings, on Slack in the same words', async () => {
    app.clock.set(new Date('2026-11-28T09:00:00.000Z'));
    const [day, three] = [await createMember(app.api), await slackMember()];
    const resource = await createResource(app.api, { name: 'Billing console' });
    await grant(resource.resource_id, day.user_id, 24 * 60);
    await grant(resource.resource_id, three.user_id, 3 * 24 * 60);
    await jobs();
    await moveTo('2026-11-28T09:01:00.000Z');
    assert.deepEqual(smtp.to(emailOf(day)), [], 'a day\'s access is not told it ends in a day');

    await moveTo('2026-11-29T08:00:00.000Z');
    assert.deepEqual(smtp.to(emailOf(day)).map((m) => m.subject), ['Your access to Billing console ends in 1 hour']);

    await moveTo('2026-11-30T09:00:00.000Z');
    const [dayWarning] = slack.dmsTo(emailOf(three));
    assert.equal(dayWarning!.text, 'Your access to Billing console ends in 1 day');
    assert.equal(slackText(dayWarning!).split('\n')[0], 'Your access to resource "Billing console" ends in 1 day, on Tuesday, December 1, 2026 at 09:00 UTC.');
    assert.equal(smtp.to(emailOf(three)).length, 0, 'Slack, as they chose');

    // The scan runs once a minute, so a warning can go out a little after its moment: it says what is left then, to the nearest minute.
    await moveTo('2026-12-01T08:01:10.000Z');
    const hourWarning = slack.dmsTo(emailOf(three))[1]!;
    assert.equal(hourWarning.text, 'Your access to Billing console ends in 59 minutes');
    assert.equal(slackText(hourWarning).split('\n')[0], 'Your access to resource "Billing console" ends in 59 minutes, on Tuesday, December 1, 2026 at 09:00 UTC.');
  });

  it('extended after a warning was queued: the warning says it was extended; the new expiry is warned of afresh', async () => {
    app.clock.set(new Date('2026-12-02T09:00:00.000Z'));
    const holder = await createMember(app.api);
    const resource = await createResource(app.api, { name: 'Metrics' });
    await grant(resource.resource_id, holder.user_id, 2 * 60);
    app.clock.set(new Date('2026-12-02T10:00:00.000Z'));
    await scheduleTick(app.ctx, app.clock.now());
    // Extended before the warning is delivered.
    const put = await app.api.put(`/resources/${resource.resource_id}/users/${holder.user_id}`, { duration_minutes: 2 * 24 * 60 });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    await outboxTick(app.ctx, app.clock.now());
    const [stale] = smtp.to(emailOf(holder));
    assert.equal(stale!.subject, 'Your access to Metrics was extended');
    assert.equal(stale!.text.split('\n\n')[0], 'Your access to resource "Metrics" was extended: it now ends on Friday, December 4, 2026 at 10:00 UTC.');
    await moveTo('2026-12-03T10:00:00.000Z');
    assert.equal(smtp.to(emailOf(holder))[1]!.subject, 'Your access to Metrics ends in 1 day');
  });

  it('granted again before the sweep ended the old grant: told it ended, and that they have it again', async () => {
    app.clock.set(new Date('2026-12-04T09:00:00.000Z'));
    const holder = await createMember(app.api);
    const resource = await createResource(app.api, { name: 'Reports' });
    await grant(resource.resource_id, holder.user_id, 30);
    app.clock.set(new Date('2026-12-04T10:00:00.000Z'));
    await grant(resource.resource_id, holder.user_id, 120);
    await outboxTick(app.ctx, app.clock.now());
    const [ended, ...more] = smtp.to(emailOf(holder));
    assert.equal(more.length, 0);
    assert.deepEqual(ended!.text.split('\n\n').slice(0, 2), [
      'Your access to resource "Reports" ended on Friday, December 4, 2026 at 09:30 UTC, when the time it was given for was over.',
      'You have it again now, until Friday, December 4, 2026 at 12:00 UTC.',
    ]);
  });

  it('removed by an admin: the holder is told once, by whom and when; queued with the change, before any delivery', async () => {
    app.clock.set(new Date('2026-12-05T14:30:00.000Z'));
    const [holder, onSlack] = [await createMember(app.api), await slackMember()];
    const resource = await createResource(app.api, { name: 'Payroll' });
    const group = await createGroup(app.api, { name: 'On-call' });
    await grant(resource.resource_id, holder.user_id, 0);
    assert.equal((await app.api.post(`/groups/${group.group_id}/users/${onSlack.user_id}`, { duration_minutes: 0 })).status, 200);
    await jobs();

    assert.equal((await app.api.delete(`/resources/${resource.resource_id}/users/${holder.user_id}`)).status, 200);
    assert.equal((await app.api.delete(`/groups/${group.group_id}/users/${onSlack.user_id}`)).status, 200);
    assert.deepEqual((await noticesOf(holder.user_id, 'ACCESS_REMOVED')).map((n) => n.status), ['QUEUED'], 'written with the change, sent afterwards');
    await jobs();
    const [mail, ...more] = smtp.to(emailOf(holder));
    assert.equal(more.length, 0);
    assert.equal(mail!.subject, 'Your access to Payroll was removed');
    assert.equal(mail!.text.split('\n\n')[0], 'Your access to resource "Payroll" was removed on Saturday, December 5, 2026 at 14:30 UTC. Gatehouse Admin removed it.');
    assert.match(mail!.text, /You get this because you held this access and it was removed\./);
    const [dm] = slack.dmsTo(emailOf(onSlack));
    assert.equal(dm!.text, 'Your access to On-call was removed');
    assert.equal(slackText(dm!).split('\n')[0], 'Your access to group "On-call" was removed on Saturday, December 5, 2026 at 14:30 UTC. Gatehouse Admin removed it.');

    // Removing what is no longer held changes nothing and tells nobody again.
    assert.equal((await app.api.delete(`/resources/${resource.resource_id}/users/${holder.user_id}`)).status, 200);
    await jobs();
    assert.equal(smtp.to(emailOf(holder)).length, 1);
  });

  it('an item deleted: its holders are told who deleted it', async () => {
    app.clock.set(new Date('2026-12-06T08:15:00.000Z'));
    const holder = await createMember(app.api);
    const resource = await createResource(app.api, { name: 'Old wiki' });
    await grant(resource.resource_id, holder.user_id, 0);
    assert.equal((await app.api.delete(`/resources/${resource.resource_id}`)).status, 200);
    await jobs();
    const [mail] = smtp.to(emailOf(holder));
    assert.equal(mail!.subject, 'Your access to Old wiki was removed');
    assert.equal(mail!.text.split('\n\n')[0], 'Your access to resource "Old wiki" was removed on Sunday, December 6, 2026 at 08:15 UTC. Gatehouse Admin deleted it from Gatehouse.');
  });

  it('an access rule: a member who no longer matches it is told why', async () => {
    app.clock.set(new Date('2026-12-06T10:00:00.000Z'));
    const member = await createMember(app.api);
    const tag = await createTag(app.api, { tag_key: 'team', tag_value: 'data' });
    assert.equal((await app.api.post(`/tags/${tag.tag_id}/users/${member.user_id}`)).status, 200);
    const rule = await app.api.post('/access-rules', {
      name: 'Data team', description: 'everyone tagged team:data', admin_owner_id: (await createOwner(app.api)).owner_id, status: 'ACTIVE',
      // connection_id is kept but takes no part in matching (docs/access-graph.md).
      ruleClauses: { when: { clauses: [{ selectors: [{ key: 'team', value: 'data', connection_id: NO_SUCH_ID }] }] } },
    });
    assert.equal(rule.status, 201, JSON.stringify(rule.body));
    assert.equal((await app.api.delete(`/tags/${tag.tag_id}/users/${member.user_id}`)).status, 200);
    await jobs();
    const [mail] = smtp.to(emailOf(member));
    assert.equal(mail!.text.split('\n\n')[0], 'Your access to group "Data team" was removed on Sunday, December 6, 2026 at 10:00 UTC. You no longer match the access rule that gave it.');
  });

  it('a group\'s own access ending is the group\'s: its members are not told one by one', async () => {
    const member = await createMember(app.api);
    const group = await createGroup(app.api);
    const resource = await createResource(app.api);
    assert.equal((await app.api.post(`/groups/${group.group_id}/users/${member.user_id}`, { duration_minutes: 0 })).status, 200);
    assert.equal((await app.api.post(`/groups/${group.group_id}/resources/${resource.resource_id}`, { duration_minutes: 0 })).status, 200);
    assert.equal((await app.api.delete(`/groups/${group.group_id}/resources/${resource.resource_id}`)).status, 200);
    await jobs();
    assert.deepEqual(await noticesOf(member.user_id, 'ACCESS_REMOVED'), []);
  });

  it('an access review: a reviewer\'s revoke names the reviewer and the review; the deadline\'s revoke says why', async () => {
    app.clock.set(new Date('2026-12-07T10:00:00.000Z'));
    const [reviewer, kept, revoked, unanswered] = [await createMember(app.api), await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    const resource = await createResource(app.api, { name: 'Ledger' });
    for (const holder of [kept, revoked, unanswered]) await grant(resource.resource_id, holder.user_id, 0);
    const started = await app.api.post('/uar', {
      name: 'December review', reviewer_assignment_policy: 'MANUALLY', send_reviewer_assignment_notification: false,
      deadline: '2026-12-10T17:00:00.000Z', time_zone: 'UTC', self_review_allowed: false, uar_scope: { entities: [resource.resource_id] },
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const uarId = started.body.uar_id as string;
    assert.equal((await app.api.put(`/uar/${uarId}/policy`, { unanswered_decision: 'REVOKE' })).status, 200);
    const rows = (await app.api.get(`/uar/${uarId}/items`)).body.results as { uar_item_id: number; user_id: string }[];
    const rowOf = (m: Signed) => rows.find((r) => r.user_id === m.user_id)!.uar_item_id;
    assert.equal((await app.api.post(`/uar/${uarId}/assignments`, {
      assignments: rows.map((r) => ({ uar_item_id: r.uar_item_id, reviewer_ids: [reviewer.user_id] })),
    })).status, 200);
    const decided = await reviewer.api.post(`/uar/${uarId}/decisions`, {
      decisions: [{ uar_item_id: rowOf(kept), decision: 'KEEP' }, { uar_item_id: rowOf(revoked), decision: 'REVOKE' }],
    });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    await jobs();
    assert.deepEqual(smtp.to(emailOf(kept)), []);
    assert.deepEqual(smtp.to(emailOf(revoked)), [], 'a revoke acts when the review closes: nothing has ended yet');

    app.clock.set(new Date('2026-12-10T17:00:00.000Z'));
    closeDueReviews(app.ctx, app.clock.now());
    await jobs();
    const [byReviewer] = smtp.to(emailOf(revoked));
    assert.equal(byReviewer!.subject, 'Your access to Ledger was removed');
    assert.equal(byReviewer!.text.split('\n\n')[0], `Your access to resource "Ledger" was removed on Thursday, December 10, 2026 at 17:00 UTC. ${reviewer.full_name} revoked it in the access review "December review".`);
    const [byDeadline] = smtp.to(emailOf(unanswered));
    assert.equal(byDeadline!.text.split('\n\n')[0], 'Your access to resource "Ledger" was removed on Thursday, December 10, 2026 at 17:00 UTC. The access review "December review" revoked it: nobody answered for it by the deadline, and the review revokes what is left unanswered.');
    assert.equal(smtp.to(emailOf(kept)).length, 0, 'kept access: nothing to tell');
  });

  it('offboarding tells the person once, at once, listing what they held, although they are offboarded; nothing after', async () => {
    app.clock.set(new Date('2026-12-11T16:00:00.000Z'));
    const leaver = await createMember(app.api);
    // A digest reader: the last notice is not held for a digest that would never come.
    assert.equal((await leaver.api.put(`/users/${leaver.user_id}/notification-preferences`, { channel: 'EMAIL', daily_digest: true })).status, 200);
    const [wiki, vpn] = [await createResource(app.api, { name: 'Wiki' }), await createResource(app.api, { name: 'VPN' })];
    const group = await createGroup(app.api, { name: 'Engineering' });
    await grant(wiki.resource_id, leaver.user_id, 0);
    await grant(vpn.resource_id, leaver.user_id, 7 * 24 * 60);
    assert.equal((await app.api.post(`/groups/${group.group_id}/users/${leaver.user_id}`, { duration_minutes: 0 })).status, 200);
    await jobs();

    const off = await app.api.put(`/users/${leaver.user_id}`, { hr_idp_status: 'DEPROVISIONED' });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    await jobs();
    const mails = smtp.to(emailOf(leaver));
    assert.equal(mails.length, 1, 'one notice, not one per item');
    assert.equal(mails[0]!.subject, 'Your access was removed: 3 items');
    const paragraphs = mails[0]!.text.split('\n\n');
    assert.equal(paragraphs[0], 'Gatehouse Admin offboarded you. Gatehouse removed all the access you held (3 items):');
    assert.deepEqual(paragraphs.slice(1, 4).sort(), ['• group "Engineering"', '• resource "VPN"', '• resource "Wiki"']);
    assert.match(mails[0]!.text, /You get this because you were offboarded, so the access you held was removed\./);
    // Offboarded: the week's expiry warnings of the access they held never come, nor anything else.
    await moveTo('2026-12-18T16:00:00.000Z');
    assert.equal(smtp.to(emailOf(leaver)).length, 1);
  });

  it('times in access-review notices are words with the zone too', async () => {
    app.clock.set(new Date('2026-12-20T09:00:00.000Z'));
    const [reviewer, holder] = [await createMember(app.api), await createMember(app.api)];
    const resource = await createResource(app.api, { name: 'Archive' });
    await grant(resource.resource_id, holder.user_id, 0);
    const started = await app.api.post('/uar', {
      name: 'Archive review', reviewer_assignment_policy: 'MANUALLY', send_reviewer_assignment_notification: true,
      deadline: '2026-12-23T12:00:00.000Z', time_zone: 'UTC', self_review_allowed: false, uar_scope: { entities: [resource.resource_id] },
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const uarId = started.body.uar_id as string;
    const [row] = (await app.api.get(`/uar/${uarId}/items`)).body.results as { uar_item_id: number }[];
    assert.equal((await app.api.post(`/uar/${uarId}/assignments`, { assignments: [{ uar_item_id: row!.uar_item_id, reviewer_ids: [reviewer.user_id] }] })).status, 200);
    await jobs();
    const [assigned] = smtp.to(emailOf(reviewer));
    assert.match(assigned!.text, /The deadline is Wednesday, December 23, 2026 at 12:00 UTC; items nobody answers by then are kept\./);
    await moveTo('2026-12-22T13:00:00.000Z');
    const reminder = smtp.to(emailOf(reviewer))[1]!;
    assert.equal(reminder.subject, 'Access review "Archive review" ends in 23 hours: 1 item still wait');
    assert.match(reminder.text, /ends in 23 hours, on Wednesday, December 23, 2026 at 12:00 UTC\./);
  });

  it('more expiring access than one slice: each warned once when its warning comes due, also access granted between two passes', async () => {
    app.clock.set(new Date('2027-01-10T09:00:00.000Z'));
    const holder = await createMember(app.api);
    const first = await createResource(app.api, { name: 'Shard 0' });
    const resources = [first];
    // Past the pass's slice (100 edges a transaction): the warnings span slices.
    for (let i = 1; i < 130; i += 1) resources.push(await createResource(app.api, { name: `Shard ${i}`, app_id: first.app_id }));
    for (const resource of resources) await grant(resource.resource_id, holder.user_id, 3 * 24 * 60);
    await jobs();
    await moveTo('2027-01-11T09:00:00.000Z');
    // Granted between two passes, ending within a day: its day's warning was past when it was set, its hour's comes.
    app.clock.set(new Date('2027-01-11T21:00:00.000Z'));
    const late = await createResource(app.api, { name: 'Late shard', app_id: first.app_id });
    await grant(late.resource_id, holder.user_id, 13 * 60);
    const expiring = async () => {
      const res = await app.api.get('/notifications', { user_id: holder.user_id, type: 'ACCESS_EXPIRING', page_size: 1000 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body.results as { reason: string }[]).map((n) => n.reason);
    };
    assert.deepEqual(await expiring(), [], 'nothing due yet');

    await moveTo('2027-01-12T09:00:00.000Z');
    const due = await expiring();
    assert.equal(due.filter((reason) => reason.endsWith('within 1 day')).length, 130, 'every day\'s warning, once');
    assert.equal(due.filter((reason) => reason.endsWith('within 1 hour')).length, 1, 'the late grant\'s hour');
    await moveTo('2027-01-12T09:01:00.000Z');
    assert.equal((await expiring()).length, 131, 'none again');
    await moveTo('2027-01-13T08:00:00.000Z');
    assert.equal((await expiring()).filter((reason) => reason.endsWith('within 1 hour')).length, 131, 'then every hour\'s warning, once');
  });
});
