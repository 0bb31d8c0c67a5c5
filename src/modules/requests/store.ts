// Access requests, their items, stages, reviewers and comments: the only SQL for them.
import type { Db } from '../../db/open.ts';
import { newId } from '../../lib/ids.ts';
import type { RequestStatus } from './schemas.ts';

export interface RequestRow {
  seq: number;
  id: string;
  requester_id: string;
  target_user_id: string | null;
  target_group_id: string | null;
  status: RequestStatus;
  reason: string;
  duration_minutes: number;
  /** What the requester asked for, when a reviewer approved for less (duration_minutes is then the shorter one). */
  requested_duration_minutes: number | null;
  support_ticket: string | null;
  custom_metadata: string;
  /** 1 for a request approved at once by the break-glass rule (docs/break-glass.md). */
  break_glass: number;
  /** Why a rule approved it at once, in words (on call: docs/on-call.md); null otherwise. */
  approval_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface ItemRow {
  request_id: string;
  position: number;
  item_type: 'resource' | 'group';
  item_id: string;
  item_name: string;
  remote_id: string | null;
  remote_name: string | null;
  access_level_remote_id: string;
  access_level_name: string;
  configuration_priority: number | null;
  matched_group_id: string | null;
  auto_approved: number;
  stage_count: number;
  current_stage: number;
  /** The end of the requester's shift when the rotation approved this item (0030); null otherwise. */
  on_call_until: string | null;
  /** Why the rotation approved this item, in words; null otherwise. */
  approval_reason: string | null;
}

export interface StageRow {
  request_id: string;
  item_position: number;
  stage_index: number;
  stage: number;
  operator: 'AND' | 'OR';
  /** JSON array of slot names. */
  slots: string;
}

export interface ReviewerRow {
  request_id: string;
  item_position: number;
  stage_index: number;
  slot: string;
  user_id: string;
  reason: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
  acted_by_user_id: string | null;
  delegation_id: string | null;
  decided_at: string | null;
}

export interface CommentRow {
  seq: number;
  id: string;
  request_id: string;
  user_id: string;
  comment: string;
  created_at: string;
  updated_at: string;
  user_full_name: string;
  user_email: string;
}

/** The filters of GET /requests and /requests/relay; each given one adds a condition. */
export interface RequestFilter {
  startAt?: string | undefined;
  endAt?: string | undefined;
  endBefore?: string | undefined;
  requesterId?: string | undefined;
  targetUserId?: string | undefined;
  resourceId?: string | undefined;
  groupId?: string | undefined;
  status?: RequestStatus | undefined;
  reviewerId?: string | undefined;
  /** Only PENDING requests waiting for this user's decision at `awaitingAt` (AWAITS); both given together. */
  awaitingUserId?: string | undefined;
  awaitingAt?: string | undefined;
  /** With awaitingUserId: the groups that user holds, as a JSON array of ids (a request targeting one is not theirs to decide). */
  awaitingHeldGroups?: string | undefined;
  /** Only requests this user takes part in (see INVOLVES); `involvedAt` is when delegations are read. */
  involvedUserId?: string | undefined;
  involvedAt?: string | undefined;
  /** Only requests approved by the break-glass rule (true) or only the others (false). */
  breakGlass?: 0 | 1 | undefined;
}

/**
 * The requests user @involvedUserId takes part in: as requester, as target user, as a reviewer (or the
 * one who decided in a reviewer's place), or as the delegate of a reviewer at @involvedAt. What a
 * member may read (docs/requests.md).
 */
const INVOLVES = `(r.requester_id = @involvedUserId OR r.target_user_id = @involvedUserId
  OR r.id IN (SELECT request_id FROM request_reviewers WHERE user_id = @involvedUserId)
  OR r.id IN (SELECT request_id FROM request_reviewers WHERE acted_by_user_id = @involvedUserId)
  OR r.id IN (SELECT rr.request_id FROM delegations d JOIN request_reviewers rr ON rr.user_id = d.delegator_user_id
              WHERE d.delegate_user_id = @involvedUserId AND d.start_time <= @involvedAt AND d.end_time > @involvedAt))`;

/**
 * The PENDING requests waiting for @awaitingUserId's decision at @awaitingAt: an undecided reviewer row of
 * an item's current stage that is theirs (unless they have handed their reviews to a delegate then) or
 * a delegator's whose reviews they hold then; an admin slot only while its user is an admin; never
 * their own request, one asking access for them, or one for a group they hold (@awaitingHeldGroups). (decide.ts's
 * callerRows and refuseOwnRequest are the rule; this is it in SQL, so Home counts at any size.)
 */
const AWAITS = `(r.status = 'PENDING' AND r.requester_id <> @awaitingUserId AND coalesce(r.target_user_id, '') <> @awaitingUserId
  AND (r.target_group_id IS NULL OR r.target_group_id NOT IN (SELECT value FROM json_each(@awaitingHeldGroups)))
  AND r.id IN (SELECT rr.request_id FROM request_reviewers rr
    JOIN request_items i ON i.request_id = rr.request_id AND i.position = rr.item_position
    WHERE rr.status = 'PENDING' AND rr.stage_index = i.current_stage AND i.current_stage <= i.stage_count
      AND rr.user_id IN (
        SELECT @awaitingUserId WHERE NOT EXISTS (SELECT 1 FROM delegations d WHERE d.delegator_user_id = @awaitingUserId AND d.start_time <= @awaitingAt AND d.end_time > @awaitingAt)
        UNION SELECT d.delegator_user_id FROM delegations d WHERE d.delegate_user_id = @awaitingUserId AND d.start_time <= @awaitingAt AND d.end_time > @awaitingAt)
      AND (rr.slot <> 'admin' OR EXISTS (SELECT 1 FROM users u WHERE u.id = rr.user_id AND u.organization_role = 'ADMIN'))))`;

const FILTER_SQL: Record<keyof RequestFilter, string> = {
  startAt: 'r.created_at >= @startAt',
  endAt: 'r.created_at <= @endAt',
  endBefore: 'r.created_at < @endBefore',
  requesterId: 'r.requester_id = @requesterId',
  targetUserId: 'r.target_user_id = @targetUserId',
  resourceId: "r.id IN (SELECT request_id FROM request_items WHERE item_id = @resourceId AND item_type = 'resource')",
  groupId: "r.id IN (SELECT request_id FROM request_items WHERE item_id = @groupId AND item_type = 'group')",
  status: 'r.status = @status',
  reviewerId: 'r.id IN (SELECT request_id FROM request_reviewers WHERE user_id = @reviewerId)',
  awaitingUserId: AWAITS,
  awaitingAt: '1 = 1', // read by AWAITS
  awaitingHeldGroups: '1 = 1', // read by AWAITS
  involvedUserId: INVOLVES,
  involvedAt: '1 = 1', // read by INVOLVES
  breakGlass: 'r.break_glass = @breakGlass',
};
const FILTER_KEYS = Object.keys(FILTER_SQL) as (keyof RequestFilter)[];

export type NewRequest = Omit<RequestRow, 'seq' | 'id' | 'status' | 'created_at' | 'updated_at' | 'requested_duration_minutes' | 'break_glass' | 'approval_reason'> & { break_glass?: number };

export function createRequestStore(db: Db) {
  const byId = db.prepare<[string], RequestRow>('SELECT * FROM requests WHERE id = ?');
  const insert = db.prepare<Omit<RequestRow, 'seq' | 'requested_duration_minutes' | 'approval_reason'>>(
    `INSERT INTO requests (id, requester_id, target_user_id, target_group_id, status, reason, duration_minutes, support_ticket, custom_metadata, break_glass, created_at, updated_at)
     VALUES (@id, @requester_id, @target_user_id, @target_group_id, @status, @reason, @duration_minutes, @support_ticket, @custom_metadata, @break_glass, @created_at, @updated_at)`,
  );
  const insertItem = db.prepare<ItemRow>(
    `INSERT INTO request_items (request_id, position, item_type, item_id, item_name, remote_id, remote_name, access_level_remote_id, access_level_name,
                                configuration_priority, matched_group_id, auto_approved, stage_count, current_stage, on_call_until, approval_reason)
     VALUES (@request_id, @position, @item_type, @item_id, @item_name, @remote_id, @remote_name, @access_level_remote_id, @access_level_name,
             @configuration_priority, @matched_group_id, @auto_approved, @stage_count, @current_stage, @on_call_until, @approval_reason)`,
  );
  const insertStage = db.prepare<StageRow>(
    'INSERT INTO request_stages (request_id, item_position, stage_index, stage, operator, slots) VALUES (@request_id, @item_position, @stage_index, @stage, @operator, @slots)',
  );
  const insertReviewer = db.prepare<Pick<ReviewerRow, 'request_id' | 'item_position' | 'stage_index' | 'slot' | 'user_id' | 'reason'>>(
    `INSERT OR IGNORE INTO request_reviewers (request_id, item_position, stage_index, slot, user_id, reason)
     VALUES (@request_id, @item_position, @stage_index, @slot, @user_id, @reason)`,
  );
  const items = db.prepare<[string], ItemRow>('SELECT * FROM request_items WHERE request_id = ? ORDER BY position');
  const stages = db.prepare<[string], StageRow>('SELECT * FROM request_stages WHERE request_id = ? ORDER BY item_position, stage_index');
  const reviewers = db.prepare<[string], ReviewerRow>(
    'SELECT * FROM request_reviewers WHERE request_id = ? ORDER BY item_position, stage_index, slot, user_id',
  );
  const comments = db.prepare<[string], CommentRow>(
    `SELECT c.*, u.full_name AS user_full_name, u.email AS user_email FROM request_comments c JOIN users u ON u.id = c.user_id
     WHERE c.request_id = ? ORDER BY c.seq`,
  );
  const insertComment = db.prepare<{ id: string; requestId: string; userId: string; comment: string; at: string }>(
    `INSERT INTO request_comments (id, request_id, user_id, comment, created_at, updated_at) VALUES (@id, @requestId, @userId, @comment, @at, @at)`,
  );
  // Guarded on PENDING: of two racing decisions only one changes a row; nothing leaves a final state.
  const setApprovalReason = db.prepare<{ id: string; reason: string }>('UPDATE requests SET approval_reason = @reason WHERE id = @id');
  const rotationItems = db.prepare<{ user: string; group: string; after: string }, ItemRow>(
    `SELECT i.* FROM requests r JOIN request_items i ON i.request_id = r.id
      WHERE r.target_user_id = @user AND r.status = 'APPROVED' AND i.matched_group_id = @group
        AND i.on_call_until IS NOT NULL AND i.on_call_until > @after
      ORDER BY r.seq, i.position`,
  );
  const setItemOnCallUntil = db.prepare<{ id: string; position: number; until: string }>(
    'UPDATE request_items SET on_call_until = @until WHERE request_id = @id AND position = @position',
  );
  const setItemApprovalReason = db.prepare<{ id: string; position: number; reason: string }>(
    'UPDATE request_items SET approval_reason = @reason WHERE request_id = @id AND position = @position',
  );
  const decide = db.prepare<{ id: string; status: RequestStatus; at: string }>(
    "UPDATE requests SET status = @status, updated_at = @at WHERE id = @id AND status = 'PENDING'",
  );
  const touch = db.prepare<{ id: string; at: string }>('UPDATE requests SET updated_at = @at WHERE id = @id');
  const shorten = db.prepare<{ id: string; minutes: number; at: string }>(
    `UPDATE requests SET requested_duration_minutes = coalesce(requested_duration_minutes, duration_minutes), duration_minutes = @minutes, updated_at = @at
     WHERE id = @id AND status = 'PENDING'`,
  );
  const markReviewer = db.prepare<{ requestId: string; position: number; stageIndex: number; slot: string; userId: string; status: string; actedBy: string; delegationId: string | null; at: string }>(
    `UPDATE request_reviewers SET status = @status, acted_by_user_id = @actedBy, delegation_id = @delegationId, decided_at = @at
     WHERE request_id = @requestId AND item_position = @position AND stage_index = @stageIndex AND slot = @slot AND user_id = @userId AND status = 'PENDING'`,
  );
  const setStage = db.prepare<{ requestId: string; position: number; stage: number }>(
    'UPDATE request_items SET current_stage = @stage WHERE request_id = @requestId AND position = @position',
  );
  const pending = db.prepare<{ cutoff: string; limit: number }, { id: string }>(
    "SELECT id FROM requests WHERE status = 'PENDING' AND created_at <= @cutoff ORDER BY created_at LIMIT @limit",
  );
  const pendingFor = db.prepare<{ itemId: string; level: string; userId: string }, { one: number }>(
    `SELECT 1 AS one FROM request_items i JOIN requests r ON r.id = i.request_id
     WHERE i.item_id = @itemId AND i.access_level_remote_id = @level AND r.target_user_id = @userId AND r.status = 'PENDING' LIMIT 1`,
  );
  const admins = db.prepare<[], { id: string }>(
    "SELECT id FROM users WHERE organization_role = 'ADMIN' AND hr_idp_status NOT IN ('SUSPENDED', 'DEPROVISIONED', 'DELETED') ORDER BY casefold(email), id",
  );
  const involves = db.prepare<{ id: string; involvedUserId: string; involvedAt: string }, { one: number }>(
    `SELECT 1 AS one FROM requests r WHERE r.id = @id AND ${INVOLVES}`,
  );
  // The groups a group sits in, through live nesting, transitively (a condition matches any of them).
  const containing = db.prepare<{ groupId: string; now: string }, { group_id: string }>(
    `WITH RECURSIVE up(group_id) AS (
       SELECT @groupId
       UNION SELECT gg.containing_group_id FROM group_groups gg JOIN up ON gg.group_id = up.group_id
       WHERE gg.expiration_date IS NULL OR gg.expiration_date > @now
     ) SELECT group_id FROM up`,
  );

  const listStatements = new Map<string, ReturnType<typeof db.prepare<Record<string, unknown>, RequestRow>>>();
  const countStatements = new Map<string, ReturnType<typeof db.prepare<Record<string, unknown>, { n: number }>>>();
  const whereOf = (filter: RequestFilter) => FILTER_KEYS.filter((key) => filter[key] !== undefined);
  /** Newest first (`direction` 'older', seq < @bound) or oldest first from a bound (`newer`, seq > @bound). */
  function listStatement(filter: RequestFilter, direction: 'older' | 'newer') {
    const used = whereOf(filter);
    const key = `${direction}:${used.join(',')}`;
    let statement = listStatements.get(key);
    if (!statement) {
      const bound = direction === 'older' ? 'r.seq < @bound' : 'r.seq > @bound';
      const where = [bound, ...used.map((k) => FILTER_SQL[k])].join(' AND ');
      statement = db.prepare(`SELECT r.* FROM requests r WHERE ${where} ORDER BY r.seq ${direction === 'older' ? 'DESC' : 'ASC'} LIMIT @limit`);
      listStatements.set(key, statement);
    }
    return statement;
  }
  const params = (filter: RequestFilter) => Object.fromEntries(whereOf(filter).map((k) => [k, filter[k]]));

  return {
    get: (id: string) => byId.get(id),
    items: (id: string) => items.all(id),
    stages: (id: string) => stages.all(id),
    reviewers: (id: string) => reviewers.all(id),
    comments: (id: string) => comments.all(id),
    create(fields: NewRequest, at: Date): string {
      const id = newId();
      const now = at.toISOString();
      insert.run({ break_glass: 0, ...fields, id, status: 'PENDING', created_at: now, updated_at: now });
      return id;
    },
    /** An item; `on_call_until` and `approval_reason` only for one the on-call rotation approves. */
    addItem: (row: Omit<ItemRow, 'on_call_until' | 'approval_reason'> & Partial<Pick<ItemRow, 'on_call_until' | 'approval_reason'>>) =>
      void insertItem.run({ on_call_until: null, approval_reason: null, ...row }),
    addStage: (row: StageRow) => void insertStage.run(row),
    addReviewer: (row: Pick<ReviewerRow, 'request_id' | 'item_position' | 'stage_index' | 'slot' | 'user_id' | 'reason'>) => void insertReviewer.run(row),
    addComment(requestId: string, userId: string, comment: string, at: Date): string {
      const id = newId();
      insertComment.run({ id, requestId, userId, comment, at: at.toISOString() });
      touch.run({ id: requestId, at: at.toISOString() });
      return id;
    },
    /** Moves a PENDING request to `status`; false when it was no longer PENDING. */
    decide: (id: string, status: RequestStatus, at: Date) => decide.run({ id, status, at: at.toISOString() }).changes === 1,
    touch: (id: string, at: Date) => void touch.run({ id, at: at.toISOString() }),
    /** Why a rule approves the request at once (on call), in words. */
    setApprovalReason: (id: string, reason: string) => void setApprovalReason.run({ id, reason }),
    setItemApprovalReason: (id: string, position: number, reason: string) => void setItemApprovalReason.run({ id, position, reason }),
    /** Items of `userId`'s approved requests the rotation approved through `groupId`, capped later than `after`. */
    rotationItems: (userId: string, groupId: string, after: string): ItemRow[] => rotationItems.all({ user: userId, group: groupId, after }),
    setItemOnCallUntil: (id: string, position: number, until: string) => void setItemOnCallUntil.run({ id, position, until }),
    /** A reviewer's shorter duration for a PENDING request: the grant uses it; the first asked-for duration is kept. */
    shorten: (id: string, minutes: number, at: Date) => void shorten.run({ id, minutes, at: at.toISOString() }),
    markReviewer(row: ReviewerRow, status: 'APPROVED' | 'REJECTED', actedBy: string, delegationId: string | null, at: Date): boolean {
      return markReviewer.run({
        requestId: row.request_id, position: row.item_position, stageIndex: row.stage_index, slot: row.slot, userId: row.user_id,
        status, actedBy, delegationId, at: at.toISOString(),
      }).changes === 1;
    },
    setCurrentStage: (requestId: string, position: number, stage: number) => void setStage.run({ requestId, position, stage }),
    /** Ids of PENDING requests created at or before `cutoff`, oldest first. */
    pendingSince: (cutoff: Date, limit: number) => pending.all({ cutoff: cutoff.toISOString(), limit }).map((r) => r.id),
    /** Whether a PENDING request asks for `itemId` at `level` for user `userId`. */
    hasPending: (itemId: string, level: string, userId: string) => pendingFor.get({ itemId, level, userId }) !== undefined,
    /** Users with the ADMIN role who can act (not offboarded). */
    adminUserIds: () => admins.all().map((r) => r.id),
    /** Whether `userId` takes part in the request at `now` (INVOLVES): what a member may read. */
    involves: (id: string, userId: string, now: Date) => involves.get({ id, involvedUserId: userId, involvedAt: now.toISOString() }) !== undefined,
    /** The group and every group it sits in at `now`. */
    groupAndContaining: (groupId: string, now: Date) => containing.all({ groupId, now: now.toISOString() }).map((r) => r.group_id),
    /**
     * Newest first, strictly older than `before` (a seq; null: from the newest), read row by row: a
     * request may hold ~75 KB, so a page is cut as it is read (cutPage), never held whole.
     */
    list(filter: RequestFilter, before: number | null, limit: number): IterableIterator<RequestRow> {
      return listStatement(filter, 'older').iterate({ ...params(filter), bound: before ?? Number.MAX_SAFE_INTEGER, limit });
    },
    /** Oldest first, strictly newer than `after` (a seq): the page before a relay `before` cursor; row by row, as `list`. */
    listNewer(filter: RequestFilter, after: number, limit: number): IterableIterator<RequestRow> {
      return listStatement(filter, 'newer').iterate({ ...params(filter), bound: after, limit });
    },
    count(filter: RequestFilter): number {
      const used = whereOf(filter);
      const key = used.join(',');
      let statement = countStatements.get(key);
      if (!statement) {
        statement = db.prepare(`SELECT count(*) AS n FROM requests r WHERE ${['1 = 1', ...used.map((k) => FILTER_SQL[k])].join(' AND ')}`);
        countStatements.set(key, statement);
      }
      return statement.get(params(filter))!.n;
    },
  };
}

