// A request as the API shows it: the reference's Request with its items, reviewer stages (each
// reviewer's status, and who reviews in whose place while a delegation is in force) and comments.
import type { AppContext } from '../../context.ts';
import { effectiveReviewer } from '../delegations/service.ts';
import type { CommentRow, ItemRow, RequestRow, ReviewerRow, StageRow } from './store.ts';
import type { Request, RequestComment, RequestCustomFieldResponse } from './responses.ts';

type ReviewerStatus = ReviewerRow['status'];
const RANK: Record<ReviewerStatus, number> = { PENDING: 0, APPROVED: 1, REJECTED: 2 };

export const toApiComment = (row: CommentRow): RequestComment => ({
  id: row.id,
  created_at: row.created_at,
  updated_at: row.updated_at,
  request_id: row.request_id,
  user_id: row.user_id,
  user_full_name: row.user_full_name,
  user_email: row.user_email,
  comment: row.comment,
});

const requestedItem = (item: ItemRow) => ({
  ...(item.item_type === 'resource' ? { resource_id: item.item_id } : { group_id: item.item_id }),
  name: item.item_name,
  access_level_name: item.access_level_name,
  access_level_remote_id: item.access_level_remote_id,
  ...(item.remote_id !== null && { remote_id: item.remote_id }),
  ...(item.remote_name !== null && { remote_name: item.remote_name }),
  ...(item.approval_reason !== null && { approval_reason: item.approval_reason }),
  ...(item.on_call_until !== null && { on_call_until: item.on_call_until }),
});

/** A custom field's answer as the request stores it (custom_metadata). */
type StoredAnswer = { name: string; type: RequestCustomFieldResponse['field_type']; value: string };

/** A custom field as answered: BOOLEAN fields carry a boolean value. */
const customField = (field: StoredAnswer): RequestCustomFieldResponse => ({
  field_name: field.name,
  field_type: field.type,
  field_value: field.type === 'BOOLEAN' ? field.value === 'true' : field.value,
});

/**
 * The reviewers of one stage, one entry per person. A decided row shows who decided; an undecided
 * one shows who may decide at `now` — the reviewer, or their delegate while a delegation is in force
 * (with `delegated_from_user_id`). A person in several slots reads REJECTED over APPROVED over PENDING.
 * `decision_needed`: still awaited — undecided, in a current or later stage of an open request, in a slot nobody settled.
 */
function stageReviewers(lookup: Lookup, rows: ReviewerRow[], pendingStage: boolean) {
  // A slot someone decided is settled: its other reviewers are no longer asked (notifications/plan.ts reads it so too).
  const settled = new Set(rows.filter((r) => r.status !== 'PENDING').map((r) => r.slot));
  const shown = new Map<string, { id: string; status: ReviewerStatus; needed: boolean; delegated_from_user_id?: string }>();
  for (const row of rows) {
    const id = row.acted_by_user_id ?? (pendingStage ? lookup.actingFor(row.user_id) : row.user_id);
    const entry = shown.get(id) ?? { id, status: 'PENDING' as ReviewerStatus, needed: false };
    if (RANK[row.status] > RANK[entry.status]) entry.status = row.status;
    if (pendingStage && row.status === 'PENDING' && !settled.has(row.slot)) entry.needed = true;
    if (id !== row.user_id) entry.delegated_from_user_id = row.user_id;
    shown.set(id, entry);
  }
  return [...shown.values()].map((entry) => ({
    id: entry.id,
    full_name: lookup.name(entry.id),
    status: entry.status,
    ...(entry.delegated_from_user_id !== undefined && { delegated_from_user_id: entry.delegated_from_user_id }),
    decision_needed: entry.needed && entry.status === 'PENDING',
  }));
}

/** Names and delegates read once per answer: a page of requests names the same reviewers again and again. */
interface Lookup {
  name(userId: string): string;
  actingFor(userId: string): string;
}

function lookupAt(ctx: AppContext, now: Date): Lookup {
  const names = new Map<string, string>();
  const acting = new Map<string, string>();
  return {
    name(userId) {
      let name = names.get(userId);
      if (name === undefined) names.set(userId, name = ctx.stores.users.get(userId)?.full_name ?? '');
      return name;
    },
    actingFor(userId) {
      let id = acting.get(userId);
      if (id === undefined) acting.set(userId, id = effectiveReviewer(ctx, userId, now).userId);
      return id;
    },
  };
}

/** A function giving the Request object of stored requests, read at `now`; make one per answer. */
export function requestReader(ctx: AppContext, now: Date): (row: RequestRow) => ApiRequestObject {
  const lookup = lookupAt(ctx, now);
  return (row) => buildRequest(ctx, lookup, row);
}

/** The Request object for one stored request, read at `now`. */
export function toApiRequest(ctx: AppContext, row: RequestRow, now: Date): Request {
  return buildRequest(ctx, lookupAt(ctx, now), row);
}

function buildRequest(ctx: AppContext, lookup: Lookup, row: RequestRow): Request {
  const { requests } = ctx.stores;
  const items = requests.items(row.id);
  const stages = requests.stages(row.id);
  const reviewers = requests.reviewers(row.id);
  const open = row.status === 'PENDING';
  const reviewerStages = items.map((item) => ({
    item_id: item.item_id,
    item_name: item.item_name,
    access_level_name: item.access_level_name,
    access_level_remote_id: item.access_level_remote_id,
    requestedItemName: item.item_name,
    requestedRoleName: item.access_level_name,
    stages: stages.filter((s: StageRow) => s.item_position === item.position).map((stage) => ({
      stage: stage.stage,
      operator: stage.operator,
      reviewers: stageReviewers(
        lookup,
        reviewers.filter((r) => r.item_position === item.position && r.stage_index === stage.stage_index),
        open && stage.stage_index >= item.current_stage,
      ),
    })),
  }));
  const fields = JSON.parse(row.custom_metadata) as StoredAnswer[];
  return {
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    requester_id: row.requester_id,
    ...(row.target_user_id !== null && { target_user_id: row.target_user_id }),
    ...(row.target_group_id !== null && { target_group_id: row.target_group_id }),
    status: row.status,
    reason: row.reason,
    duration_minutes: row.duration_minutes,
    ...(row.requested_duration_minutes !== null && { requested_duration_minutes: row.requested_duration_minutes }),
    requested_items_list: items.map(requestedItem),
    reviewer_stages: reviewerStages,
    // The reference's deprecated single-item form, still read by clients generated from older versions of
    // it (they show reviewers only from here): the first item's stages, the same objects as above.
    ...(reviewerStages[0] !== undefined && {
      stages: { requestedItemName: reviewerStages[0].item_name, requestedRoleName: reviewerStages[0].requestedRoleName, stages: reviewerStages[0].stages },
    }),
    request_comments: requests.comments(row.id).map(toApiComment),
    custom_fields_responses: fields.map(customField),
    ...(row.support_ticket !== null && { support_ticket: JSON.parse(row.support_ticket) as NonNullable<Request['support_ticket']> }),
    break_glass: row.break_glass === 1,
    ...(row.approval_reason !== null && { approval_reason: row.approval_reason }),
  };
}

export type ApiRequestObject = ReturnType<typeof buildRequest>;
