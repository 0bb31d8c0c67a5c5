// The break-glass area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, uuid, dateTime, integer, described, extension, cursor } from '../../openapi/responses.ts';

export const BreakGlass = component('BreakGlass', extension(described(v.object({
  id: uuid,
  request_id: described(uuid, 'The access request the break-glass rule approved at once (its `break_glass` is true).'),
  user_id: described(uuid, 'Who broke glass, for their own access.'),
  resource_id: v.optional(uuid),
  group_id: v.optional(uuid),
  item_name: v.string(),
  admin_owner_id: described(uuid, 'The item\'s admin owner when it happened: its users review it.'),
  access_level_remote_id: v.string(),
  access_level_name: v.string(),
  reason: v.string(),
  incident_id: v.optional(described(v.string(), 'The incident given (checked with PagerDuty when it is set up).')),
  duration_minutes: integer,
  started_at: dateTime,
  ends_at: described(dateTime, 'When the access it gave ends (or ended: a NOT_JUSTIFIED review ends it at once).'),
  active: described(v.boolean(), 'Whether it still lasts.'),
  state: described(v.picklist(['OPEN', 'JUSTIFIED', 'NOT_JUSTIFIED']), 'The after-the-fact review: OPEN until an owner (or an admin) decides.'),
  reviewed_by_user_id: v.optional(uuid),
  review_comment: v.optional(v.string()),
  reviewed_at: v.optional(dateTime),
}), 'Access someone gave themselves at once on an item that names them for break-glass, and its review afterwards (docs/break-glass.md).'),
'Gatehouse\'s break-glass: the reference has no such object.'));
export type BreakGlass = v.InferOutput<typeof BreakGlass>;

export const PaginatedBreakGlassList = component('PaginatedBreakGlassList', extension(v.object({
  next: cursor,
  previous: cursor,
  results: v.array(BreakGlass),
  total_count: integer,
}), 'A page of break-glasses, newest first.'));

export const BreakGlassSettings = component('BreakGlassSettings', extension(v.object({
  break_glass_user_ids: v.array(uuid),
  break_glass_group_ids: v.array(uuid),
  break_glass_max_minutes: integer,
}), 'Who may break glass on an item, and for how long at most (docs/break-glass.md).'));
