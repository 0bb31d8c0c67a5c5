// Valibot schemas for break-glass: breaking glass, the list's filters, and the review.
import * as v from 'valibot';
import { PageQueryEntries, QueryBoolean, QueryDate, Text, Uuid } from '../../http/common-schemas.ts';
import { BREAK_GLASS_MAX_MINUTES, RequestSettingEntries } from '../request-settings/schemas.ts';
import { REVIEW_STATES } from './store.ts';

const LowerUuid = v.pipe(Uuid, v.toLowerCase());

/** A reason says what is on fire: twenty characters at least, so "urgent" alone is not one. */
export const MIN_REASON = 20;

export const BreakGlassBody = v.object({
  resource_id: v.optional(LowerUuid),
  group_id: v.optional(LowerUuid),
  access_level_remote_id: v.optional(v.pipe(Text(1000)), ''),
  reason: v.pipe(Text(2000), v.check((text) => text.trim().length >= MIN_REASON, `must say why in at least ${MIN_REASON} characters`)),
  // Absent: the item's cap (break_glass_max_minutes), so nobody in a hurry has to look it up.
  duration_minutes: v.optional(v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number of minutes'),
    v.minValue(1, 'must be at least 1'),
    v.maxValue(BREAK_GLASS_MAX_MINUTES, `must be at most ${BREAK_GLASS_MAX_MINUTES} (four hours), and at most the item's break_glass_max_minutes`),
  )),
  incident_id: v.optional(v.pipe(Text(200), v.check((text) => text.trim() !== '', 'must not be blank'))),
});
export type BreakGlassInput = v.InferOutput<typeof BreakGlassBody>;

export const ListBreakGlassQuery = v.object({
  ...PageQueryEntries,
  state: v.optional(v.picklist(REVIEW_STATES, `must be one of ${REVIEW_STATES.join(', ')}`)),
  user_id: v.optional(LowerUuid),
  resource_id: v.optional(LowerUuid),
  group_id: v.optional(LowerUuid),
  start_date_filter: v.optional(QueryDate),
  /** Only the OPEN reviews the caller may decide: of an item whose owner they belong to, not their own. */
  awaiting_my_review: v.optional(QueryBoolean),
});
export type ListBreakGlassInput = v.InferOutput<typeof ListBreakGlassQuery>;

export const ReviewBreakGlassBody = v.object({
  decision: v.picklist(['JUSTIFIED', 'NOT_JUSTIFIED'], 'must be JUSTIFIED or NOT_JUSTIFIED'),
  comment: v.pipe(Text(2000), v.check((text) => text.trim() !== '', 'must say why: a review is read by whoever looks back at the break-glass')),
});
export type ReviewBreakGlassInput = v.InferOutput<typeof ReviewBreakGlassBody>;

/** Who may break glass on one item: the fields the bulk updates take, each optional. */
export const BreakGlassSettingsBody = v.object({
  break_glass_user_ids: RequestSettingEntries.break_glass_user_ids,
  break_glass_group_ids: RequestSettingEntries.break_glass_group_ids,
  break_glass_max_minutes: RequestSettingEntries.break_glass_max_minutes,
});
export type BreakGlassSettingsInput = v.InferOutput<typeof BreakGlassSettingsBody>;
