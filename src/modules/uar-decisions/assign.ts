// Who reviews each row of an access review, chosen when it starts by its reviewer_assignment_policy
// (the reference's UARReviewerAssignmentPolicyEnum), with one fallback and one rule: nobody reviews
// their own access. The rules in words: docs/access-reviews.md, "Who reviews".
import type { AppContext } from '../../context.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import { announce } from '../../signals.ts';
import { ownerUserIds } from '../owners/service.ts';
import { requestSettingsFromRow } from '../request-settings/columns.ts';
import { chooseConfiguration, resolveStages, targetGroups } from '../requests/reviewers.ts';
import type { RowToAssign } from './store.ts';

/** What a review's start assigned: rows given to the policy's reviewers, to the fallback, and to nobody (admins decide those). */
export interface AssignmentCounts {
  rows_assigned_by_policy: number;
  rows_assigned_to_fallback: number;
  rows_unassigned: number;
}

/** The policies that pick one reviewer per row in turn (the reference's "round-robin"); the others assign every candidate. */
const ROUND_ROBIN = new Set(['BY_OWNING_TEAM_ADMIN', 'BY_APPROVERS']);
const CHUNK = 1000;

/**
 * Assigns reviewers to every snapshot row of review `uarId`, inside the caller's write transaction.
 * Candidates by policy, in an order that does not depend on the ids people were given (the owner's listed
 * users by position, a source group's members and the admins by email; approvers stage by stage), leaving
 * out the row's own user and offboarded users; rows come in the snapshot's order (each item's holders by
 * email: access-reviews/service.ts), so a round-robin hands the same rows to the same reviewers every time:
 * - BY_OWNING_TEAM_ADMIN(_ALL): the users of the item's admin owner (its source group's members when it has one);
 * - BY_MANAGER: the row's user's manager;
 * - BY_APPROVERS(_ALL): the reviewers a request for this item by this user would get today (every stage);
 * - MANUALLY: none.
 * The round-robin policies give each row one candidate, turning through them item by item; the others
 * give every candidate. A row left with no candidate goes to the review's creator (FALLBACK), unless it
 * is the creator's own access: then it is unassigned, and only organization admins decide it.
 */
export function assignReviewers(ctx: AppContext, uarId: string, review: { policy: string; creatorId: string; notify: boolean }, now: Date): AssignmentCounts {
  const steps = assigningReviewers(ctx, uarId, review, now);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * assignReviewers in steps of `chunk` rows: each `next()` assigns one chunk inside the caller's write
 * transaction, and the last (finding no rows left) queues the notices and returns the counts. A big
 * review's start (access-reviews/service.ts) runs one step per transaction, the event loop free between.
 */
export function* assigningReviewers(
  ctx: AppContext, uarId: string, review: { policy: string; creatorId: string; notify: boolean }, now: Date, chunk = CHUNK,
): Generator<void, AssignmentCounts, void> {
  const { uarDecisions, users, resources, groups } = ctx.stores;
  const { policy, creatorId } = review;
  const reviewers = new Set<string>();
  const counts: AssignmentCounts = { rows_assigned_by_policy: 0, rows_assigned_to_fallback: 0, rows_unassigned: 0 };

  const activeCache = new Map<string, boolean>();
  const active = (id: string) => {
    let found = activeCache.get(id);
    if (found === undefined) {
      const user = users.get(id);
      activeCache.set(id, (found = user !== undefined && !isOffboarded(user.hr_idp_status)));
    }
    return found;
  };

  // Items are read once each; rows come item by item, so the caches stay small in practice.
  const items = new Map<string, { adminOwnerId: string; settings: ReturnType<typeof requestSettingsFromRow> } | null>();
  const itemOf = (row: RowToAssign) => {
    let found = items.get(row.item_id);
    if (found === undefined) {
      const item = row.item_type === 'RESOURCE' ? resources.getRow(row.item_id) : groups.getRow(row.item_id);
      items.set(row.item_id, (found = item ? { adminOwnerId: item.admin_owner_id, settings: requestSettingsFromRow(item) } : null));
    }
    return found;
  };
  const ownerCache = new Map<string, string[]>();
  const owningTeamAdmins = (row: RowToAssign): string[] => {
    const item = itemOf(row);
    if (!item) return [];
    let found = ownerCache.get(item.adminOwnerId);
    if (!found) ownerCache.set(item.adminOwnerId, (found = ownerUserIds(ctx, item.adminOwnerId)));
    return found;
  };
  // A request's reviewers depend on the user only through the configuration their groups choose and,
  // when a stage asks for one, their manager: resolved once per (item, configuration, manager).
  const groupsCache = new Map<string, Set<string>>();
  const approverCache = new Map<string, string[]>();
  const approvers = (row: RowToAssign): string[] => {
    const item = itemOf(row);
    if (!item) return [];
    let theirGroups = groupsCache.get(row.user_id);
    if (!theirGroups) groupsCache.set(row.user_id, (theirGroups = targetGroups(ctx, { type: 'user', id: row.user_id }, now)));
    const chosen = chooseConfiguration(item.settings, theirGroups);
    const manager = chosen.stages.some((stage) => stage.require_manager_approval) ? (users.get(row.user_id)?.manager_id ?? '') : '';
    const key = `${row.item_id} ${chosen.priority} ${manager}`;
    let found = approverCache.get(key);
    if (!found) {
      const stages = resolveStages(ctx, chosen, item.adminOwnerId, { type: 'user', id: row.user_id });
      approverCache.set(key, (found = [...new Set(stages.flatMap((stage) => stage.reviewers.map((r) => r.userId)))]));
    }
    return found;
  };
  const candidatesOf = (row: RowToAssign): string[] => {
    switch (policy) {
      case 'BY_OWNING_TEAM_ADMIN':
      case 'BY_OWNING_TEAM_ADMIN_ALL':
        return owningTeamAdmins(row);
      case 'BY_MANAGER': {
        const manager = users.get(row.user_id)?.manager_id;
        return manager ? [manager] : [];
      }
      case 'BY_APPROVERS':
      case 'BY_APPROVERS_ALL':
        return approvers(row);
      default:
        return [];
    }
  };

  const turn = new Map<string, number>();
  let after = 0;
  for (;;) {
    const rows = uarDecisions.rowsToAssign(uarId, after, chunk);
    if (rows.length === 0) break;
    for (const row of rows) {
      const eligible = candidatesOf(row).filter((id) => id !== row.user_id && active(id));
      if (eligible.length > 0) {
        let chosen = eligible;
        if (ROUND_ROBIN.has(policy)) {
          const n = turn.get(row.item_id) ?? 0;
          turn.set(row.item_id, n + 1);
          chosen = [eligible[n % eligible.length]!];
        }
        for (const id of chosen) {
          uarDecisions.assign(row.seq, uarId, id, 'POLICY');
          reviewers.add(id);
        }
        counts.rows_assigned_by_policy++;
      } else if (creatorId !== row.user_id && active(creatorId)) {
        uarDecisions.assign(row.seq, uarId, creatorId, 'FALLBACK');
        counts.rows_assigned_to_fallback++;
      } else {
        counts.rows_unassigned++;
      }
    }
    after = rows[rows.length - 1]!.seq;
    yield;
  }
  if (review.notify) tellReviewers(ctx, uarId, reviewers, creatorId, now);
  return counts;
}

/**
 * Announces that `reviewerIds` were given rows of review `uarId` by `actorId` (who started the review
 * or assigned the rows), inside the caller's transaction; notifications tells each of them but the actor.
 */
export function tellReviewers(ctx: AppContext, uarId: string, reviewerIds: Iterable<string>, actorId: string, now: Date): void {
  announce(ctx, 'uar-decisions.reviewers-assigned', { uarId, reviewerIds: [...reviewerIds], actorId }, now);
}
