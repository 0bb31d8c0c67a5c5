// Benchmark: what notifications cost. POST /v1/requests with and without channels set up, email
// delivery to a loopback SMTP server (STARTTLS, login) through the outbox, and the schedule pass over
// pending requests (reminders, escalation). Run: npm run bench:notifications [requests, default 300]
import { startTestApp } from '../helpers/app.ts';
import { SmtpReceiver } from '../helpers/smtp-receiver.ts';
import { SlackStandIn, SLACK_TOKEN, SIGNING_SECRET } from '../helpers/slack-stand-in.ts';
import { makeRequest, config, stage } from '../helpers/requests.ts';
import { createMember, createOwner, createResource } from '../helpers/fixtures.ts';
import { tick as outboxTick } from '../../src/outbox/index.ts';
import { tick as scheduleTick } from '../../src/modules/notifications/schedule.ts';

const N = Number(process.argv[2] ?? 300);
async function run(withChannels: boolean) {
  const smtp = await SmtpReceiver.start();
  const slack = await SlackStandIn.start();
  const app = await startTestApp({ env: withChannels ? { GATEHOUSE_SMTP_URL: smtp.url, GATEHOUSE_SLACK_BOT_TOKEN: SLACK_TOKEN, GATEHOUSE_SLACK_SIGNING_SECRET: SIGNING_SECRET, GATEHOUSE_SLACK_API_URL: slack.url } : {} });
  const requester = await createMember(app.api);
  const reviewers = [await createMember(app.api), await createMember(app.api), await createMember(app.api)];
  const owner = await createOwner(app.api, { user_ids: reviewers.map((r) => r.user_id), access_request_escalation_period: 60 });
  const resource = await createResource(app.api, { admin_owner_id: owner.owner_id, request_configurations: [config({ reviewer_stages: [stage({ owner_ids: [owner.owner_id] })] })] });
  const times: number[] = [];
  for (let i = 0; i < N; i += 1) {
    const t = performance.now();
    await makeRequest(requester.api, { resources: [{ id: resource.resource_id }] });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.floor(q * (times.length - 1))]!.toFixed(2);
  console.log(`${withChannels ? 'with SMTP+Slack' : 'no channels   '}: POST /v1/requests x${N}: median ${p(0.5)} ms, p95 ${p(0.95)} ms`);
  if (withChannels) {
    let t = performance.now();
    const summary = await outboxTick(app.ctx, app.clock.now());
    const ms = performance.now() - t;
    console.log(`  outbox tick delivered ${summary.done} emails to a loopback SMTP server in ${ms.toFixed(0)} ms (${(summary.done / ms * 1000).toFixed(0)}/s); received ${smtp.mails.length}`);
    app.clock.advance(3 * 3_600_000);
    t = performance.now();
    const s = await scheduleTick(app.ctx, app.clock.now());
    console.log(`  schedule pass over ${N} pending requests (3 periods late): ${(performance.now() - t).toFixed(0)} ms, ${s.late} late slots`);
    app.clock.advance(61_000);
    t = performance.now();
    await scheduleTick(app.ctx, app.clock.now());
    console.log(`  a repeat pass (everything already queued): ${(performance.now() - t).toFixed(0)} ms`);
  }
  await app.close(); await smtp.stop(); await slack.close();
}
await run(false);
await run(true);
