// Delivering one notification: the outbox handler of kind `notification`. `run` renders the notice
// from current state and makes the network call (outside any transaction); `settled` records what
// became of it on the notification's row, inside the outbox's short outcome transaction.
import type { AppContext } from '../../context.ts';
import { addressPolicy } from '../../http/outbound.ts';
import { enqueue, type Attempt, type OutboxHandler, type OutboxItem, type Outcome as OutboxOutcome } from '../../outbox/index.ts';
import type { EmailChannel, Outcome, SlackChannel } from './channels/channel.ts';
import { createSlackChannel } from './channels/slack.ts';
import { createSmtpChannel } from './channels/smtp.ts';
import { channelsReady, NOTIFICATION_KIND } from './queue.ts';
import { render, toEmail, toSlack } from './render.ts';

interface Channels {
  email: EmailChannel | null;
  slack: SlackChannel | null;
}

/** The channels made for a context, and the settings they were made from. */
interface Built {
  channels: Channels;
  /** smtpUrl, emailFrom, slackApiUrl, slackBotToken as they were: a change to any makes the channels again. */
  made: string;
}

const built = new WeakMap<AppContext, Built>();

/**
 * Slack user ids by email, kept an hour: users.lookupByEmail is rate-limited (Slack's tier 3, about
 * 50 a minute), and a burst of notices to the same people would otherwise spend it on the same answers.
 */
const SLACK_ID_TTL_MS = 3_600_000;
const slackIds = new WeakMap<AppContext, Map<string, { id: string; at: number }>>();

async function slackUserId(ctx: AppContext, slack: SlackChannel, email: string): Promise<Outcome<{ userId: string }>> {
  let cache = slackIds.get(ctx);
  if (!cache) slackIds.set(ctx, (cache = new Map()));
  const now = ctx.clock.now().getTime();
  const known = cache.get(email);
  if (known && now - known.at < SLACK_ID_TTL_MS) return { ok: true, userId: known.id };
  const found = await slack.userIdByEmail(email);
  if (found.ok) cache.set(email, { id: found.userId, at: now });
  return found;
}

/**
 * The channels set up for this service, made from the settings in effect and made again when one of
 * theirs changes (on the Settings page, without a restart): the old SMTP pool is closed then, and the
 * Slack ids found with the old token are forgotten (it may be another workspace's).
 */
export function channelsOf(ctx: AppContext): Channels {
  const { smtpUrl, emailFrom, slackApiUrl, slackBotToken } = ctx.config;
  const made = JSON.stringify([smtpUrl, emailFrom, slackApiUrl, slackBotToken]);
  const old = built.get(ctx);
  if (old?.made === made) return old.channels;
  if (old) {
    old.channels.email?.close();
    slackIds.delete(ctx);
  }
  const channels: Channels = {
    email: smtpUrl !== undefined ? createSmtpChannel(smtpUrl, emailFrom, addressPolicy(ctx.config)) : null,
    slack: slackBotToken !== undefined ? createSlackChannel(slackApiUrl, slackBotToken, addressPolicy(ctx.config)) : null,
  };
  built.set(ctx, { channels, made });
  // Pooled SMTP connections would keep a stopping process alive: shutdown closes the pool in use then.
  if (!old) ctx.jobs.add('smtp-connections', () => built.get(ctx)?.channels.email?.close());
  return channels;
}

/** The attempt code of a Slack notice whose person Slack does not know by their email. */
const SLACK_USER_UNKNOWN = 'SLACK_USER_UNKNOWN';

/** A successful attempt that posted to Slack carries where, for `settled` to keep. */
type Delivered = Attempt & { slack?: { channel: string; ts: string } };

function failed(outcome: Extract<Outcome, { ok: false }>, code?: string): Attempt {
  return {
    ok: false, error: outcome.error, code: code ?? (outcome.retryable ? 'CHANNEL_ERROR' : 'CHANNEL_REFUSED'), permanent: !outcome.retryable,
    ...(outcome.retryAfterMs !== undefined && { retryAfterMs: outcome.retryAfterMs }),
  };
}

async function run(ctx: AppContext, item: OutboxItem<{ id: string }>): Promise<Delivered> {
  const { notifications } = ctx.stores;
  const row = notifications.get(item.payload.id);
  // Already sent (a run recorded twice after a crash) or gone: nothing to do.
  if (!row || row.status !== 'QUEUED') return { ok: true };
  const channels = channelsOf(ctx);
  if (row.channel === 'EMAIL') {
    if (!channels.email) return { ok: false, error: 'email is not set up (the SMTP server URL on the Settings page, or GATEHOUSE_SMTP_URL)', code: 'CHANNEL_UNSET' };
    const user = row.user_id !== null ? ctx.stores.users.get(row.user_id) : undefined;
    const sent = await channels.email.send({ to: { name: user?.full_name ?? '', address: row.address }, ...toEmail(render(ctx, row)) });
    return sent.ok ? { ok: true } : failed(sent);
  }
  const slack = channels.slack;
  if (!slack) return { ok: false, error: 'Slack is not set up (the bot token on the Settings page, or GATEHOUSE_SLACK_BOT_TOKEN)', code: 'CHANNEL_UNSET' };
  if (row.type === 'MESSAGE_UPDATE') {
    const original = notifications.get(String((JSON.parse(row.data) as { notification_id?: string }).notification_id));
    // Never posted (it failed): there is no message to update.
    if (!original?.slack_channel || !original.slack_ts) return { ok: true };
    const updated = await slack.update(original.slack_channel, original.slack_ts, toSlack(render(ctx, original)));
    return updated.ok ? { ok: true } : failed(updated);
  }
  let target = row.address;
  if (row.user_id !== null) {
    // A person is reached by a direct message from the app: their Slack id, found by their email.
    const found = await slackUserId(ctx, slack, row.address);
    if (!found.ok) return failed(found, /: (users_not_found|user_not_found|user_not_visible)$/.test(found.error) ? SLACK_USER_UNKNOWN : undefined);
    target = found.userId;
  }
  const posted = await slack.post(target, toSlack(render(ctx, row)));
  return posted.ok ? { ok: true, slack: { channel: posted.channel, ts: posted.ts } } : failed(posted);
}

function settled(ctx: AppContext, item: OutboxItem<{ id: string }>, outcome: OutboxOutcome): void {
  const { notifications } = ctx.stores;
  const at = new Date(outcome.at);
  if (outcome.state === 'DONE') {
    const row = notifications.get(item.payload.id);
    if (row?.status === 'QUEUED') notifications.markSent(row.id, at, (outcome.attempt as Delivered).slack);
    return;
  }
  const error = outcome.attempt.ok ? 'unknown' : outcome.attempt.error;
  notifications.markAttempt(item.payload.id, error, outcome.state === 'FAILED');
  if (outcome.state !== 'FAILED') return;
  ctx.log.error('notification failed', { notification_id: item.payload.id, error });
  if (!outcome.attempt.ok && outcome.attempt.code === SLACK_USER_UNKNOWN) emailInstead(ctx, item.payload.id, at);
}

/**
 * A person who chose Slack but whom Slack does not know by their email (no account, another
 * workspace, a different address there) is told by email instead, when email is set up: the notice
 * still matters (a review waits, access ends). The Slack row stays FAILED with Slack's words, so an
 * admin sees why; the email is a row of its own, queued once.
 */
function emailInstead(ctx: AppContext, slackNoticeId: string, at: Date): void {
  const { notifications } = ctx.stores;
  const row = notifications.get(slackNoticeId);
  if (!row || row.user_id === null || row.channel !== 'SLACK' || !channelsReady(ctx).email) return;
  const id = notifications.add({
    dedupe_key: `${row.dedupe_key}:email`, type: row.type, user_id: row.user_id, message_channel_id: null, channel: 'EMAIL',
    address: row.address, request_id: row.request_id, reason: `${row.reason} (by email: Slack knows no one as ${row.address})`, data: row.data, status: 'QUEUED',
  }, at);
  if (id !== null) enqueue(ctx, { kind: NOTIFICATION_KIND, key: `notify:user:${row.user_id}`, payload: { id } });
}

/** The outbox handler for notifications; a notice that cannot be delivered within a day is FAILED (an admin may re-send it). */
export const notificationHandler: OutboxHandler<{ id: string }> = {
  run: (ctx, item) => run(ctx, item),
  settled,
  giveUpAfterMs: 24 * 3_600_000,
};
