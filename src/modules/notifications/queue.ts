// Queuing a notice: choose the person's channel (their preference, what is set up), write the row
// (once per dedupe key, ever) and its outbox row — inside the transaction of the change that causes it.
import type { AppContext } from '../../context.ts';
import { enqueue } from '../../outbox/index.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import type { NoticeChannel, NoticeStatus, PreferredChannel } from './store.ts';

/** The outbox kind whose handler delivers a notification (deliver.ts). */
export const NOTIFICATION_KIND = 'notification';

/** Every kind of notice; docs/notifications.md says who gets each and when. */
export const NOTICE_TYPES = [
  'REQUEST_CREATED', 'REQUEST_STAGE_ADVANCED', 'REQUEST_DECIDED', 'REVIEW_CLOSED', 'REQUEST_COMMENTED',
  'REVIEW_REMINDER', 'REVIEW_ESCALATED', 'ACCESS_EXPIRING', 'PROPAGATION_FAILED', 'DIGEST', 'MESSAGE_UPDATE',
  'UAR_ASSIGNED', 'UAR_REMINDER', 'ACCESS_REMOVED', 'EMAIL_CHANGED', 'OFFBOARDING_REFUSED', 'ON_CALL_SYNC_FAILING',
  'BREAK_GLASS_USED', 'BREAK_GLASS_ENDED', 'BREAK_GLASS_REVIEWED', 'BREAK_GLASS_REVIEW_REMINDER', 'BREAK_GLASS_REVIEW_ESCALATED',
] as const;
export type NoticeType = (typeof NOTICE_TYPES)[number];

/**
 * Notices never held for a digest: the digest itself, keeping a Slack message true, and break-glass
 * news, which owners and admins must hear at once (docs/break-glass.md).
 */
const NEVER_HELD: ReadonlySet<NoticeType> = new Set(['DIGEST', 'MESSAGE_UPDATE', 'BREAK_GLASS_USED', 'BREAK_GLASS_REVIEWED', 'BREAK_GLASS_REVIEW_ESCALATED']);

export interface Notice {
  type: NoticeType;
  /** What the notice is about, without the recipient (added here): the same key twice is one notice. */
  key: string;
  requestId?: string | null;
  /** For people and the admin list: why this recipient is told. */
  reason: string;
  data?: Record<string, unknown>;
}

/** Whether email (SMTP) and Slack (a bot token) are set up. */
export function channelsReady(ctx: AppContext): { email: boolean; slack: boolean } {
  return { email: ctx.config.smtpUrl !== undefined, slack: ctx.config.slackBotToken !== undefined };
}

/** The channel a person is told on now: their choice where it is set up, else the other one; null for none. */
export function channelFor(ctx: AppContext, preferred: PreferredChannel): NoticeChannel | null {
  const ready = channelsReady(ctx);
  if (preferred === 'NONE') return null;
  if (preferred === 'SLACK' && ready.slack) return 'SLACK';
  if (ready.email) return 'EMAIL';
  return ready.slack ? 'SLACK' : null;
}

function write(ctx: AppContext, row: Parameters<AppContext['stores']['notifications']['add']>[0], outboxKey: string, now: Date): string | null {
  const id = ctx.stores.notifications.add(row, now);
  if (id !== null && row.status === 'QUEUED') enqueue(ctx, { kind: NOTIFICATION_KIND, key: outboxKey, payload: { id } });
  return id;
}

/**
 * Queues `notice` for user `userId` on their channel. Nothing for an unknown or offboarded user
 * (unless `evenIfOffboarded`: the notice that they were, sent at once even to a digest reader), a person who chose NONE, or when no channel
 * is set up; nothing for a repeat of a notice they already had (same key). Held for the digest when
 * they chose one. Call inside the write transaction. Returns the notification id, or null when
 * nothing was queued.
 */
export function tellUser(ctx: AppContext, userId: string, notice: Notice, now: Date, options: { evenIfOffboarded?: boolean } = {}): string | null {
  const { users, notifications } = ctx.stores;
  const dedupeKey = `${notice.key}:user:${userId}`;
  // A repeat costs one point read: the scheduled passes ask again and again.
  if (notifications.has(dedupeKey)) return null;
  const user = users.get(userId);
  if (!user || (isOffboarded(user.hr_idp_status) && !options.evenIfOffboarded) || user.email === '') return null;
  const preference = notifications.preference(userId);
  const channel = channelFor(ctx, preference?.channel ?? 'DEFAULT');
  if (channel === null) return null;
  // The notice to someone offboarded is never held: no digest would ever be sent to them.
  const status: NoticeStatus = preference?.daily_digest === 1 && !NEVER_HELD.has(notice.type) && !options.evenIfOffboarded ? 'HELD' : 'QUEUED';
  return write(ctx, {
    dedupe_key: dedupeKey, type: notice.type, user_id: userId, message_channel_id: null, channel,
    address: user.email, request_id: notice.requestId ?? null, reason: notice.reason, data: JSON.stringify(notice.data ?? {}), status,
  }, `notify:user:${userId}`, now);
}

/**
 * Queues `notice` by email to `address` about user `userId`, whatever their preference, status or
 * digest choice: a notice about the account itself (its email changed) must reach the address it is
 * about, which may no longer be theirs. Nothing when email is not set up or the notice was already
 * queued (same key). Call inside the write transaction.
 */
export function tellAddress(ctx: AppContext, userId: string, address: string, notice: Notice, now: Date): string | null {
  const dedupeKey = `${notice.key}:address:${address.toLowerCase()}`;
  if (!channelsReady(ctx).email || ctx.stores.notifications.has(dedupeKey)) return null;
  return write(ctx, {
    dedupe_key: dedupeKey, type: notice.type, user_id: userId, message_channel_id: null, channel: 'EMAIL',
    address, request_id: null, reason: notice.reason, data: JSON.stringify(notice.data ?? {}), status: 'QUEUED',
  }, `notify:user:${userId}`, now);
}

/**
 * Queues `notice` for an owner's reviewer channel (a message channel of provider SLACK) when Slack is
 * set up; null otherwise (the caller then tells the owner's people). Call inside the write transaction.
 */
export function tellChannel(ctx: AppContext, messageChannelId: string, notice: Notice, now: Date): string | null {
  const address = slackChannelOf(ctx, messageChannelId);
  if (address === null || ctx.stores.notifications.has(`${notice.key}:channel:${messageChannelId}`)) return null;
  return write(ctx, {
    dedupe_key: `${notice.key}:channel:${messageChannelId}`, type: notice.type, user_id: null, message_channel_id: messageChannelId, channel: 'SLACK',
    address, request_id: notice.requestId ?? null, reason: notice.reason, data: JSON.stringify(notice.data ?? {}), status: 'QUEUED',
  }, `notify:channel:${messageChannelId}`, now);
}

/** The Slack channel id of message channel `id`, or null when it is not a Slack channel or Slack is not set up. */
export function slackChannelOf(ctx: AppContext, id: string): string | null {
  if (!channelsReady(ctx).slack) return null;
  const record = ctx.stores.integrationRecords.get('message_channel', id);
  return record && record.third_party_provider === 'SLACK' ? String(record.remote_id) : null;
}

/**
 * Queues a chat.update for every Slack message already posted about request `requestId`, so each
 * shows the request as it is now (decided, a stage further), wherever the change was made. Keyed
 * like the original's recipient, so the update runs after the original is posted. `version` names
 * the change (a status, a stage) so each change updates once.
 */
export function updateSlackMessages(ctx: AppContext, requestId: string, version: string, now: Date): void {
  const { notifications } = ctx.stores;
  for (const row of notifications.ofRequest(requestId)) {
    if (row.channel !== 'SLACK' || row.type === 'MESSAGE_UPDATE' || !['REQUEST_CREATED', 'REQUEST_STAGE_ADVANCED', 'REVIEW_ESCALATED', 'REVIEW_REMINDER'].includes(row.type)) continue;
    if (row.status !== 'SENT' && row.status !== 'QUEUED') continue;
    const recipient = row.user_id !== null ? `user:${row.user_id}` : `channel:${row.message_channel_id}`;
    write(ctx, {
      dedupe_key: `update:${row.id}:${version}`, type: 'MESSAGE_UPDATE', user_id: row.user_id, message_channel_id: row.message_channel_id,
      channel: 'SLACK', address: row.address, request_id: requestId, reason: 'the request this message is about changed',
      data: JSON.stringify({ notification_id: row.id }), status: 'QUEUED',
    }, `notify:${recipient}`, now);
  }
}
