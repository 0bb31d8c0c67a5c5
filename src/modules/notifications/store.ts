// Notifications and notification preferences: the only SQL for either (sql/0013_notifications.sql).
import type { Db } from '../../db/open.ts';
import { newId } from '../../lib/ids.ts';
import type { Notification } from './responses.ts';

export type NoticeChannel = 'EMAIL' | 'SLACK';
export type NoticeStatus = 'QUEUED' | 'SENT' | 'FAILED' | 'HELD' | 'DIGESTED';
export type PreferredChannel = 'DEFAULT' | 'EMAIL' | 'SLACK' | 'NONE';

export interface NotificationRow {
  seq: number;
  id: string;
  dedupe_key: string;
  type: Notification['type'];
  user_id: string | null;
  message_channel_id: string | null;
  channel: NoticeChannel;
  address: string;
  request_id: string | null;
  reason: string;
  data: string;
  status: NoticeStatus;
  digest_id: string | null;
  attempts: number;
  last_error: string | null;
  slack_channel: string | null;
  slack_ts: string | null;
  created_at: string;
  sent_at: string | null;
}

export type NewNotification = Pick<NotificationRow, 'dedupe_key' | 'type' | 'user_id' | 'message_channel_id' | 'channel' | 'address' | 'request_id' | 'reason' | 'data' | 'status'>;

export interface PreferenceRow {
  user_id: string;
  channel: PreferredChannel;
  daily_digest: number;
  updated_at: string;
}

/** The filters of GET /v1/notifications. */
export interface NotificationFilter {
  userId?: string | undefined;
  requestId?: string | undefined;
  status?: NoticeStatus | undefined;
  type?: string | undefined;
}

const FILTER_SQL: Record<keyof NotificationFilter, string> = {
  userId: 'user_id = @userId',
  requestId: 'request_id = @requestId',
  status: 'status = @status',
  type: 'type = @type',
};
const FILTER_KEYS = Object.keys(FILTER_SQL) as (keyof NotificationFilter)[];

export function createNotificationStore(db: Db) {
  const insert = db.prepare<NewNotification & { id: string; at: string }>(
    `INSERT OR IGNORE INTO notifications (id, dedupe_key, type, user_id, message_channel_id, channel, address, request_id, reason, data, status, created_at)
     VALUES (@id, @dedupe_key, @type, @user_id, @message_channel_id, @channel, @address, @request_id, @reason, @data, @status, @at)`,
  );
  const byId = db.prepare<[string], NotificationRow>('SELECT * FROM notifications WHERE id = ?');
  const byKey = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM notifications WHERE dedupe_key = ?');
  const ofRequest = db.prepare<[string], NotificationRow>('SELECT * FROM notifications WHERE request_id = ? ORDER BY seq');
  const sent = db.prepare<{ id: string; at: string; slackChannel: string | null; ts: string | null }>(
    `UPDATE notifications SET status = 'SENT', sent_at = @at, attempts = attempts + 1, last_error = NULL,
       slack_channel = coalesce(@slackChannel, slack_channel), slack_ts = coalesce(@ts, slack_ts)
     WHERE id = @id`,
  );
  const attempted = db.prepare<{ id: string; error: string; failed: number }>(
    `UPDATE notifications SET attempts = attempts + 1, last_error = @error,
       status = CASE WHEN @failed = 1 THEN 'FAILED' ELSE status END
     WHERE id = @id AND status = 'QUEUED'`,
  );
  const requeue = db.prepare<[string]>("UPDATE notifications SET status = 'QUEUED', last_error = NULL WHERE id = ? AND status = 'FAILED'");
  const heldUsers = db.prepare<{ before: string }, { user_id: string }>(
    "SELECT DISTINCT user_id FROM notifications WHERE status = 'HELD' AND created_at < @before ORDER BY user_id",
  );
  const heldOf = db.prepare<{ userId: string; before: string }, NotificationRow>(
    "SELECT * FROM notifications WHERE status = 'HELD' AND user_id = @userId AND created_at < @before ORDER BY seq",
  );
  const digested = db.prepare<{ id: string; digestId: string }>(
    "UPDATE notifications SET status = 'DIGESTED', digest_id = @digestId WHERE id = @id AND status = 'HELD'",
  );
  const inDigest = db.prepare<[string], NotificationRow>('SELECT * FROM notifications WHERE digest_id = ? ORDER BY seq');
  const preference = db.prepare<[string], PreferenceRow>('SELECT * FROM notification_preferences WHERE user_id = ?');
  const setPreference = db.prepare<PreferenceRow>(
    `INSERT INTO notification_preferences (user_id, channel, daily_digest, updated_at) VALUES (@user_id, @channel, @daily_digest, @updated_at)
     ON CONFLICT (user_id) DO UPDATE SET channel = excluded.channel, daily_digest = excluded.daily_digest, updated_at = excluded.updated_at`,
  );
  // Users whose own access ends within the window: the holders told before expiry (direct edges only:
  // access held through a group ends when the group's membership does, which is this same list). Read
  // in slices, soonest first, after the last row of the slice before (expiration_date, seq, item_type):
  // each arm walks its expiry index, (expiration_date, seq), from there and the merge stops at the limit.
  // (Many edges may share one expiry instant — a bulk grant —, so the order within one is the index's,
  // never a sort of all of them for every slice.)
  const expiringArm = (type: 'group' | 'resource', edges: string, items: string, itemColumn: string) =>
    `SELECT '${type}' AS item_type, e.seq AS edge_seq, e.${itemColumn} AS item_id, x.name AS item_name, e.user_id, e.access_level_remote_id,
            e.access_level_name, e.expiration_date, coalesce(e.updated_at, e.created_at) AS expiry_set_at
       FROM ${edges} e JOIN ${items} x ON x.id = e.${itemColumn}
      WHERE e.expiration_date > @from AND e.expiration_date <= @to
        AND (e.expiration_date, e.seq) >= (@afterDate, @afterSeq)
        AND NOT (e.expiration_date = @afterDate AND e.seq = @afterSeq AND '${type}' <= @afterType)`;
  const expiring = db.prepare<{ from: string; to: string; afterDate: string; afterType: string; afterSeq: number; limit: number }, ExpiringEdge>(
    `${expiringArm('group', 'group_users', 'groups', 'group_id')}
     UNION ALL
     ${expiringArm('resource', 'resource_users', 'resources', 'resource_id')}
     ORDER BY 8, 2, 1 LIMIT @limit`,
  );

  // One more ended item in an offboarding notice not yet sent: listed while the list is short, always counted.
  const addEndedItem = db.prepare<{ key: string; item: string; limit: number }>(
    `UPDATE notifications SET data = json_set(
       CASE WHEN json_array_length(data, '$.items') < @limit THEN json_insert(data, '$.items[#]', json(@item)) ELSE data END,
       '$.count', json_extract(data, '$.count') + 1)
     WHERE dedupe_key = @key AND status IN ('QUEUED', 'HELD')`,
  );

  const escalating = db.prepare<[], { one: number }>('SELECT 1 AS one FROM owners WHERE access_request_escalation_period > 0 LIMIT 1');
  const rememberSignature = db.prepare<{ signature: string; at: string }>(
    'INSERT OR IGNORE INTO slack_request_signatures (signature, seen_at) VALUES (@signature, @at)',
  );
  const forgetSignatures = db.prepare<{ before: string }>('DELETE FROM slack_request_signatures WHERE seen_at < @before');

  const lists = new Map<string, ReturnType<typeof db.prepare<Record<string, unknown>, NotificationRow>>>();
  function listStatement(filter: NotificationFilter) {
    const used = FILTER_KEYS.filter((key) => filter[key] !== undefined);
    const key = used.join(',');
    let statement = lists.get(key);
    if (!statement) {
      statement = db.prepare(`SELECT * FROM notifications WHERE ${['seq < @bound', ...used.map((k) => FILTER_SQL[k])].join(' AND ')} ORDER BY seq DESC LIMIT @limit`);
      lists.set(key, statement);
    }
    return { statement, params: Object.fromEntries(used.map((k) => [k, filter[k]])) };
  }

  return {
    /** Inserts a notice unless one with its dedupe key exists; returns its id, or null when it was a repeat. */
    add(row: NewNotification, at: Date): string | null {
      const id = newId();
      return insert.run({ ...row, id, at: at.toISOString() }).changes === 1 ? id : null;
    },
    get: (id: string) => byId.get(id),
    has: (dedupeKey: string) => byKey.get(dedupeKey) !== undefined,
    ofRequest: (requestId: string) => ofRequest.all(requestId),
    /** Newest first, strictly older than `before` (a seq; null: from the newest). */
    list(filter: NotificationFilter, before: number | null, limit: number): NotificationRow[] {
      const { statement, params } = listStatement(filter);
      return statement.all({ ...params, bound: before ?? Number.MAX_SAFE_INTEGER, limit });
    },
    markSent: (id: string, at: Date, slack?: { channel: string; ts: string }) =>
      void sent.run({ id, at: at.toISOString(), slackChannel: slack?.channel ?? null, ts: slack?.ts ?? null }),
    /** Counts a failed attempt; `failed` gives up on it (FAILED). */
    markAttempt: (id: string, error: string, failed: boolean) => void attempted.run({ id, error, failed: failed ? 1 : 0 }),
    /** FAILED → QUEUED; false when it was not FAILED. */
    requeue: (id: string) => requeue.run(id).changes === 1,
    /** Users with notices held for a digest, created before `before`. */
    usersWithHeld: (before: Date) => heldUsers.all({ before: before.toISOString() }).map((r) => r.user_id),
    held: (userId: string, before: Date) => heldOf.all({ userId, before: before.toISOString() }),
    markDigested: (id: string, digestId: string) => void digested.run({ id, digestId }),
    inDigest: (digestId: string) => inDigest.all(digestId),
    preference: (userId: string) => preference.get(userId),
    setPreference: (row: PreferenceRow) => void setPreference.run(row),
    /** Adds `item` to the `items` (up to `limit`) and `count` of the unsent notice `dedupeKey` (an offboarding's). */
    addEndedItem: (dedupeKey: string, item: object, limit: number) => void addEndedItem.run({ key: dedupeKey, item: JSON.stringify(item), limit }),
    /** Whether any owner has an escalation period (else no review is ever reminded or escalated). */
    anyEscalation: () => escalating.get() !== undefined,
    /** Records a Slack request signature; false when it was seen before (a replay). Forgets those seen before `forgetBefore`. */
    firstSighting(signature: string, at: Date, forgetBefore: Date): boolean {
      forgetSignatures.run({ before: forgetBefore.toISOString() });
      return rememberSignature.run({ signature, at: at.toISOString() }).changes === 1;
    },
    /**
     * Up to `limit` direct user edges whose expiry falls in (from, to], soonest first, after `after` (the
     * last edge of the slice before; none for the first): a long window is read a slice at a time.
     */
    expiringBetween(from: Date, to: Date, after: ExpiringEdge | undefined, limit: number): ExpiringEdge[] {
      const bounds = { from: from.toISOString(), to: to.toISOString(), limit };
      return expiring.all(after === undefined
        ? { ...bounds, afterDate: bounds.from, afterType: '', afterSeq: 0 }
        : { ...bounds, afterDate: after.expiration_date, afterType: after.item_type, afterSeq: after.edge_seq });
    },
  };
}

export interface ExpiringEdge {
  item_type: 'resource' | 'group';
  item_id: string;
  item_name: string;
  user_id: string;
  access_level_remote_id: string;
  access_level_name: string;
  expiration_date: string;
  /** When the edge got this expiry (granted, extended, moved to another level): warnings are for thresholds after it. */
  expiry_set_at: string;
  /** The edge's row (with item_type, the slices' order within one expiry instant). */
  edge_seq: number;
}

