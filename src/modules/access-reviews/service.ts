// Starting a user access review: check the scope's references, read the snapshot of the access in scope
// on a read worker (the access graph's one definition of effective access, holdings-store.ts), then write
// the review, its rows, their reviewers and its audit event — a big one in slices. Reading the snapshot back.
import type { AppContext } from '../../context.ts';
import type { PageQuery } from '../../http/common-schemas.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import { NEVER } from '../access/edges.ts';
import { casefold } from '../../lib/casefold.ts';
import type { HoldingRow } from '../access/holdings-store.ts';
import type { Actor } from '../events/store.ts';
import type { CreateUarInput, UarScopeInput } from './schemas.ts';
import type { ScopedItem } from './store.ts';
import { toApiSnapshotEntry, type SnapshotEntry } from './mappers.ts';
import type { WorkBudget } from '../../reads/budget.ts';
import { commitPendingWrites } from '../../db/group-commit.ts';
import { assigningReviewers, assignReviewers, type AssignmentCounts } from '../uar-decisions/assign.ts';

/** Throws not_found naming `uar_scope.<field>.N` for an id (or tag filter) in the scope that names nothing. */
function checkScopeReferences(ctx: AppContext, scope: UarScopeInput | undefined): void {
  if (!scope) return;
  const { users, apps, owners, resources, groups, accessReviews } = ctx.stores;
  const check = (field: string, ids: string[] | undefined, what: string, exists: (id: string) => boolean) =>
    ids?.forEach((id, i) => {
      if (!exists(id)) throw notFound(what, id, `uar_scope.${field}.${i}`);
    });
  check('users', scope.users, 'user', (id) => users.exists(id));
  check('entities', scope.entities, 'resource or group', (id) => resources.exists(id) || groups.exists(id));
  check('apps', scope.apps, 'app', (id) => apps.exists(id));
  check('admins', scope.admins, 'owner', (id) => owners.exists(id));
  scope.tags?.forEach((tag, i) => {
    if (!accessReviews.tagFilterMatches(tag.key, tag.value)) {
      const what = tag.value === undefined ? `key ${JSON.stringify(tag.key)}` : `key ${JSON.stringify(tag.key)} and value ${JSON.stringify(tag.value)}`;
      throw new AppError('not_found', `no tag has ${what}`, [{ path: `uar_scope.tags.${i}`, message: `no tag has ${what}` }]);
    }
  });
}

/**
 * The holdings in scope at `now`, item by item (in the order itemsInScope gives), then by the user's email
 * (case-folded; the user id breaks a tie) and level: an order that is the same whatever ids people were
 * given, so the round-robin policies hand the same rows to the same reviewers every time (uar-decisions/assign.ts).
 * With `users` in the scope, each selected user's holdings are read (resourcesOfUser, groupsOfUser: what
 * GET /v1/resources/users/{id} and GET /v1/groups/users/{id} read) and put in that order; otherwise each
 * item's holders are read in turn (holdersOf), one item's at a time in memory, at most one past
 * MAX_SNAPSHOT_ROWS (the caller refuses that many).
 */
function* holdingsInScope(ctx: AppContext, items: ScopedItem[], scope: UarScopeInput | undefined, now: Date, emailOf: (userId: string) => string): Generator<[ScopedItem, HoldingRow]> {
  const { holdings } = ctx.stores;
  const folded = new Map<string, string>();
  const key = (userId: string) => {
    let found = folded.get(userId);
    if (found === undefined) folded.set(userId, (found = casefold(emailOf(userId))));
    return found;
  };
  const byPerson = (x: HoldingRow, y: HoldingRow) => compareText(key(x.user_id), key(y.user_id)) || compareText(x.user_id, y.user_id) || compareText(x.level, y.level);
  if (!scope?.users) {
    for (const item of items) {
      const rows: HoldingRow[] = [];
      for (const row of holdings.everyHolder(item.item_type === 'RESOURCE' ? 'resource' : 'group', item.item_id, now)) {
        rows.push(row);
        if (rows.length > MAX_SNAPSHOT_ROWS) break;
      }
      for (const row of rows.sort(byPerson)) yield [item, row];
    }
    return;
  }
  const position = new Map(items.map((item, i) => [item.item_id, i]));
  const found: [number, HoldingRow][] = [];
  for (const userId of new Set(scope.users)) {
    for (const row of [...holdings.resourcesOfUser(userId, now), ...holdings.groupsOfUser(userId, now)]) {
      const at = position.get(row.item_id);
      if (at !== undefined) found.push([at, row]);
    }
  }
  found.sort(([a, x], [b, y]) => a - b || byPerson(x, y));
  for (const [at, row] of found) yield [items[at]!, row];
}

/** Code-unit order, as SQLite's BINARY collation compares. */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The most rows one review's snapshot may hold; a wider scope is refused (400 naming uar_scope) as too broad to review. */
export const MAX_SNAPSHOT_ROWS = 50_000;

/**
 * A snapshot as read, handed to the writer: its rows as JSON (UTF-8) in chunks of `uarSnapshotSliceRows`,
 * one chunk per slice the writer writes. From a read worker the chunks' buffers are transferred, not
 * copied, and the main thread parses one slice's rows at a time: never the whole snapshot as objects
 * on its heap, nor one long deserialisation on the event loop.
 */
export interface TakenSnapshot {
  items: number;
  rows: number;
  chunks: Uint8Array[];
}

/**
 * Reads the snapshot of the access in `scope` at `now`, without writing: the slow part of starting a
 * review (every holder of every item in scope, through the access graph), so it runs on a read worker
 * (src/reads/tasks.ts). Throws validation_failed naming `uar_scope` past MAX_SNAPSHOT_ROWS or the budget.
 */
export function readSnapshot(ctx: AppContext, scope: UarScopeInput | undefined, now: Date, budget: WorkBudget): TakenSnapshot {
  const { access, accessReviews } = ctx.stores;
  const people = new Map<string, { name: string; detail: string }>();
  const person = (id: string) => {
    let found = people.get(id);
    if (!found) people.set(id, (found = access.describe('user', id) ?? { name: '', detail: '' }));
    return found;
  };
  const items = accessReviews.itemsInScope(scope);
  budget.spend(items.length, 'uar_scope');
  const slice = ctx.config.uarSnapshotSliceRows;
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  let chunk: SnapshotEntry[] = [];
  let rows = 0;
  for (const [item, row] of holdingsInScope(ctx, items, scope, now, (userId) => person(userId).detail)) {
    if (rows >= MAX_SNAPSHOT_ROWS) {
      throw invalidField('uar_scope', `selects more than ${MAX_SNAPSHOT_ROWS} holdings, more than one review can hold; narrow it`);
    }
    if (rows % 1000 === 0) budget.spend(1000, 'uar_scope');
    const user = person(row.user_id);
    chunk.push({
      item_type: item.item_type, item_id: item.item_id, item_name: item.name,
      user_id: row.user_id, user_full_name: user.name, user_email: user.detail,
      access_level_remote_id: row.level, access_level_name: row.level_name,
      expiration_date: row.exp === NEVER ? null : row.exp,
      has_direct_access: row.direct === 1, num_access_paths: row.paths,
      access_path_group_ids: row.vias === null ? [] : row.vias.split(',').sort(),
    });
    rows++;
    if (chunk.length === slice) {
      chunks.push(encoder.encode(JSON.stringify(chunk)));
      chunk = [];
    }
  }
  if (chunk.length > 0 || chunks.length === 0) chunks.push(encoder.encode(JSON.stringify(chunk)));
  return { items: items.length, rows, chunks };
}

/** The rows of one chunk of a TakenSnapshot; its bytes are freed once read (their buffer is detached). */
function takeChunk(taken: TakenSnapshot, index: number): SnapshotEntry[] {
  const bytes = taken.chunks[index]!;
  const rows = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as SnapshotEntry[];
  (bytes.buffer as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
  return rows;
}

/** Resolves on a later turn of the event loop, after the I/O that arrived meanwhile has been served. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Starts a review: reads the snapshot of the access in its scope at this instant on a read worker
 * (one read transaction, so one consistent reading, while the event loop serves others), then writes
 * the review, its snapshot rows, their reviewers (uar-decisions/assign.ts) and UARS_CREATED.
 *
 * A snapshot of up to `uarSnapshotSliceRows` rows is written in one immediate transaction. A bigger one
 * is written in slices of that many rows — the rows, then their reviewers' assignment — one transaction
 * each, each made durable before the next (so a lost batch stops the review instead of leaving a hole)
 * and on a later turn of the event loop, so other requests are answered between slices. Until the last
 * slice the review is marked in progress (uar_snapshots_in_progress) and no read sees it; the last slice
 * removes the mark, queues the reviewers' notices and records UARS_CREATED in one transaction: the review
 * is created, for the API and the audit trail alike, whole or not at all. If a slice fails, what was
 * written is deleted (in slices too) and the error thrown.
 * Throws validation_failed for a deadline not in the future or a scope too broad; not_found naming `uar_scope.<field>.N`.
 */
export async function createUar(ctx: AppContext, actor: Actor, input: CreateUarInput) {
  const { accessReviews, events } = ctx.stores;
  const now = ctx.clock.now();
  if (input.deadline.getTime() <= now.getTime()) throw invalidField('deadline', 'must be in the future');
  checkScopeReferences(ctx, input.uar_scope);
  const taken = await ctx.reads.run('uar.snapshot', { scope: input.uar_scope }, actor.userId, now);
  const slice = ctx.config.uarSnapshotSliceRows;
  const sliced = taken.chunks.length > 1;
  const assignment = { policy: input.reviewer_assignment_policy, creatorId: actor.userId, notify: input.send_reviewer_assignment_notification };
  const write = (id: string, chunk: number) => {
    for (const row of takeChunk(taken, chunk)) accessReviews.addSnapshotRow(id, row);
  };
  /** The end of the last (or only) transaction: the review becomes visible and its event is recorded together. */
  const created = (id: string, assigned: AssignmentCounts) => {
    if (sliced) accessReviews.finishWriting(id);
    events.record(actor, 'UARS_CREATED', [
      { sub_event_type: 'UARS_CREATED', uar_id: id, uar_name: input.name, items_in_scope: taken.items, snapshot_rows: taken.rows, ...assigned },
    ]);
    return accessReviews.get(id)!;
  };
  let id = '';
  const whole = ctx.db.transaction(() => {
    id = accessReviews.create({ ...input, created_by_user_id: actor.userId }, now);
    if (sliced) accessReviews.startWriting(id, now);
    write(id, 0);
    return sliced ? null : created(id, assignReviewers(ctx, id, assignment, now));
  }).immediate();
  if (whole) return whole;
  /** The next slice on a later turn, once what came before is durable (commitPendingWrites throws for a lost batch). */
  const nextSlice = async <T>(work: () => T): Promise<T> => {
    commitPendingWrites(ctx.db);
    await nextTurn();
    return ctx.db.transaction(work).immediate();
  };
  try {
    for (let chunk = 1; chunk < taken.chunks.length; chunk++) await nextSlice(() => write(id, chunk));
    const assigning = assigningReviewers(ctx, id, assignment, now, slice);
    for (;;) {
      const review = await nextSlice(() => {
        const step = assigning.next();
        return step.done ? created(id, step.value) : null;
      });
      if (review) return review;
    }
  } catch (err) {
    await dropReview(ctx, id).catch((dropErr: unknown) =>
      ctx.log.error('a review whose snapshot failed to be written could not be deleted; the job drops it later', { uar_id: id, error: String(dropErr) }));
    throw err;
  }
}

/**
 * Deletes a review that was never created (its snapshot not finished), its rows in slices as they were
 * written. Nothing is recorded: the audit trail never saw the review.
 */
async function dropReview(ctx: AppContext, id: string): Promise<void> {
  const { accessReviews } = ctx.stores;
  const slice = ctx.config.uarSnapshotSliceRows;
  while (ctx.db.transaction(() => accessReviews.dropRows(id, slice)).immediate() > 0) await nextTurn();
  ctx.db.transaction(() => accessReviews.drop(id)).immediate();
}

/** How long a snapshot may be in progress before it counts as abandoned (a crash mid-way): far longer than writing 50,000 rows takes. */
export const ABANDONED_SNAPSHOT_MS = 10 * 60_000;

/** The job's tick: drops reviews whose snapshot was being written when the service stopped (or whose cleanup failed). */
export async function dropAbandonedSnapshots(ctx: AppContext, now: Date): Promise<void> {
  for (const id of ctx.stores.accessReviews.abandonedBefore(new Date(now.getTime() - ABANDONED_SNAPSHOT_MS))) {
    await dropReview(ctx, id);
    ctx.log.info('dropped a review whose snapshot was never finished', { uar_id: id });
  }
}

/** One page of a review's snapshot, in the order it was taken (items, then users, then levels). Throws not_found for an unknown review. */
export function snapshotPage(ctx: AppContext, uarId: string, query: PageQuery) {
  const { accessReviews } = ctx.stores;
  const takenAt = accessReviews.snapshotTakenAt(uarId);
  if (takenAt === undefined) throw notFound('UAR', uarId, 'uar_id');
  // The list name carries the review, so a cursor of one review's snapshot is refused on another's.
  const list = `uar_snapshot_${uarId}`;
  const rows = accessReviews.snapshot(uarId, ctx.pager.afterSeq(list, query), query.page_size + 1);
  const page = ctx.pager.page(list, query, rows, (row) => row.seq, toApiSnapshotEntry);
  return { snapshot_taken_at: takenAt, ...page };
}
