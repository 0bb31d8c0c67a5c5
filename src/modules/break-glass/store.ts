// Break-glasses and their after-the-fact reviews (sql/0025): the only SQL for them.
import type { Db } from '../../db/open.ts';
import { newId } from '../../lib/ids.ts';

export const REVIEW_STATES = ['OPEN', 'JUSTIFIED', 'NOT_JUSTIFIED'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export interface BreakGlassRow {
  seq: number;
  id: string;
  request_id: string;
  user_id: string;
  item_type: 'resource' | 'group';
  item_id: string;
  item_name: string;
  admin_owner_id: string;
  access_level_remote_id: string;
  access_level_name: string;
  reason: string;
  incident_id: string | null;
  duration_minutes: number;
  started_at: string;
  ends_at: string;
  ended_at: string | null;
  review_state: ReviewState;
  reviewed_by_user_id: string | null;
  review_comment: string | null;
  reviewed_at: string | null;
  reminded_at: string | null;
  escalated_at: string | null;
}

export type NewBreakGlass = Pick<BreakGlassRow, 'request_id' | 'user_id' | 'item_type' | 'item_id' | 'item_name' | 'admin_owner_id'
  | 'access_level_remote_id' | 'access_level_name' | 'reason' | 'incident_id' | 'duration_minutes' | 'started_at' | 'ends_at'>;

/** The filters of GET /v1/break-glass; each given one adds a condition. */
export interface BreakGlassFilter {
  state?: ReviewState | undefined;
  userId?: string | undefined;
  notUserId?: string | undefined;
  itemId?: string | undefined;
  startedSince?: string | undefined;
  /** What a member may read: their own, and those of items whose owner they belong to (see READABLE). */
  viewerId?: string | undefined;
  viewerGroups?: string | undefined;
  /** OPEN reviews @reviewerId may decide: of an owner they belong to (REVIEWS), not their own. */
  reviewerId?: string | undefined;
  reviewerGroups?: string | undefined;
}

/**
 * The owners user @user belongs to, @groups being the JSON list of groups they hold now: an owner's
 * listed users, or, while it takes them from a source group, that group's holders (owners' ownerHasUser in SQL).
 */
const OWNERS_OF = (user: string, groups: string) => `(SELECT o.id FROM owners o
  WHERE (o.source_group_id IS NULL AND o.id IN (SELECT owner_id FROM owner_users WHERE user_id = @${user}))
     OR o.source_group_id IN (SELECT value FROM json_each(@${groups})))`;

const FILTER_SQL: Record<keyof BreakGlassFilter, string> = {
  state: 'b.review_state = @state',
  userId: 'b.user_id = @userId',
  notUserId: 'b.user_id <> @notUserId',
  itemId: 'b.item_id = @itemId',
  startedSince: 'b.started_at >= @startedSince',
  viewerId: `(b.user_id = @viewerId OR b.admin_owner_id IN ${OWNERS_OF('viewerId', 'viewerGroups')})`,
  viewerGroups: '1 = 1', // read by viewerId
  reviewerId: `(b.review_state = 'OPEN' AND b.user_id <> @reviewerId AND b.admin_owner_id IN ${OWNERS_OF('reviewerId', 'reviewerGroups')})`,
  reviewerGroups: '1 = 1', // read by reviewerId
};
const FILTER_KEYS = Object.keys(FILTER_SQL) as (keyof BreakGlassFilter)[];

export function createBreakGlassStore(db: Db) {
  const insert = db.prepare<NewBreakGlass & { id: string }>(
    `INSERT INTO break_glass (id, request_id, user_id, item_type, item_id, item_name, admin_owner_id, access_level_remote_id, access_level_name,
                              reason, incident_id, duration_minutes, started_at, ends_at)
     VALUES (@id, @request_id, @user_id, @item_type, @item_id, @item_name, @admin_owner_id, @access_level_remote_id, @access_level_name,
             @reason, @incident_id, @duration_minutes, @started_at, @ends_at)`,
  );
  const byId = db.prepare<[string], BreakGlassRow>('SELECT * FROM break_glass WHERE id = ?');
  const active = db.prepare<{ userId: string; itemId: string; now: string }, BreakGlassRow>(
    'SELECT * FROM break_glass WHERE user_id = @userId AND item_id = @itemId AND ends_at > @now AND ended_at IS NULL ORDER BY seq DESC LIMIT 1',
  );
  // Guarded on OPEN: of two racing reviews one wins.
  const review = db.prepare<{ id: string; state: ReviewState; by: string; comment: string; at: string }>(
    "UPDATE break_glass SET review_state = @state, reviewed_by_user_id = @by, review_comment = @comment, reviewed_at = @at WHERE id = @id AND review_state = 'OPEN'",
  );
  const end = db.prepare<{ id: string; at: string }>('UPDATE break_glass SET ended_at = @at WHERE id = @id AND ended_at IS NULL');
  const overdueEnd = db.prepare<{ now: string; limit: number }, BreakGlassRow>(
    'SELECT * FROM break_glass WHERE ended_at IS NULL AND ends_at <= @now ORDER BY ends_at LIMIT @limit',
  );
  const toRemind = db.prepare<{ cutoff: string; limit: number }, BreakGlassRow>(
    "SELECT * FROM break_glass WHERE review_state = 'OPEN' AND reminded_at IS NULL AND started_at <= @cutoff ORDER BY started_at LIMIT @limit",
  );
  const toEscalate = db.prepare<{ cutoff: string; limit: number }, BreakGlassRow>(
    "SELECT * FROM break_glass WHERE review_state = 'OPEN' AND escalated_at IS NULL AND started_at <= @cutoff ORDER BY started_at LIMIT @limit",
  );
  const reminded = db.prepare<{ id: string; at: string }>('UPDATE break_glass SET reminded_at = @at WHERE id = @id AND reminded_at IS NULL');
  const escalated = db.prepare<{ id: string; at: string }>('UPDATE break_glass SET escalated_at = @at WHERE id = @id AND escalated_at IS NULL');

  const listStatements = new Map<string, ReturnType<typeof db.prepare<Record<string, unknown>, BreakGlassRow>>>();
  const countStatements = new Map<string, ReturnType<typeof db.prepare<Record<string, unknown>, { n: number }>>>();
  const whereOf = (filter: BreakGlassFilter) => FILTER_KEYS.filter((key) => filter[key] !== undefined);
  const params = (filter: BreakGlassFilter) => Object.fromEntries(whereOf(filter).map((k) => [k, filter[k]]));

  return {
    /** Inserts a break-glass (review OPEN) and returns its id. */
    create(fields: NewBreakGlass): string {
      const id = newId();
      insert.run({ ...fields, id });
      return id;
    },
    get: (id: string) => byId.get(id),
    /** The person's break-glass on the item that still lasts at `now`, if any. */
    active: (userId: string, itemId: string, now: Date) => active.get({ userId, itemId, now: now.toISOString() }),
    /** Records the review of an OPEN break-glass; false when it was reviewed meanwhile. */
    review: (id: string, state: Exclude<ReviewState, 'OPEN'>, by: string, comment: string, at: Date) =>
      review.run({ id, state, by, comment, at: at.toISOString() }).changes === 1,
    /** Marks it ended at `at` (its time over, or ended by review); false when it already was. */
    end: (id: string, at: Date) => end.run({ id, at: at.toISOString() }).changes === 1,
    /** Break-glasses whose time is over at `now` but not yet marked ended, oldest end first. */
    overdueEnd: (now: Date, limit: number) => overdueEnd.all({ now: now.toISOString(), limit }),
    /** OPEN reviews started at or before `cutoff` not yet reminded (or escalated), oldest first. */
    toRemind: (cutoff: Date, limit: number) => toRemind.all({ cutoff: cutoff.toISOString(), limit }),
    toEscalate: (cutoff: Date, limit: number) => toEscalate.all({ cutoff: cutoff.toISOString(), limit }),
    markReminded: (id: string, at: Date) => reminded.run({ id, at: at.toISOString() }).changes === 1,
    markEscalated: (id: string, at: Date) => escalated.run({ id, at: at.toISOString() }).changes === 1,
    /** Newest first, strictly older than `before` (a seq; null: from the newest). */
    list(filter: BreakGlassFilter, before: number | null, limit: number): BreakGlassRow[] {
      const used = whereOf(filter);
      const key = used.join(',');
      let statement = listStatements.get(key);
      if (!statement) {
        statement = db.prepare(`SELECT b.* FROM break_glass b WHERE ${['b.seq < @bound', ...used.map((k) => FILTER_SQL[k])].join(' AND ')} ORDER BY b.seq DESC LIMIT @limit`);
        listStatements.set(key, statement);
      }
      return statement.all({ ...params(filter), bound: before ?? Number.MAX_SAFE_INTEGER, limit });
    },
    count(filter: BreakGlassFilter): number {
      const used = whereOf(filter);
      const key = used.join(',');
      let statement = countStatements.get(key);
      if (!statement) {
        statement = db.prepare(`SELECT count(*) AS n FROM break_glass b WHERE ${['1 = 1', ...used.map((k) => FILTER_SQL[k])].join(' AND ')}`);
        countStatements.set(key, statement);
      }
      return statement.get(params(filter))!.n;
    },
  };
}

