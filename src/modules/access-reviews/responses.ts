// The access-reviews area's response shapes (Valibot): access reviews, their users, resources and groups, as the reference writes them; the types its mappers return and its answers in the API document.
import * as v from 'valibot';
import { component, uuid, dateTime, integer, extension, described, cursor } from '../../openapi/responses.ts';
import { ResourceAccessLevel } from '../access/responses.ts';
import { GroupTypeEnum, ResourceTypeEnum } from '../../openapi/enums.ts';

export const UARReviewerAssignmentPolicyEnum = component('UARReviewerAssignmentPolicyEnum', described(v.picklist(['MANUALLY', 'BY_OWNING_TEAM_ADMIN', 'BY_OWNING_TEAM_ADMIN_ALL', 'BY_MANAGER', 'BY_APPROVERS', 'BY_APPROVERS_ALL']), 'How reviewers would be assigned. Stored and returned; Gatehouse assigns no reviewers yet.'));

export const TagFilter = component('TagFilter', described(v.object({
  key: v.string(),
  value: v.optional(v.string()),
}), 'A tag key, and optionally its value; without a value any value of the key matches.'));
export type TagFilter = v.InferOutput<typeof TagFilter>;

export const UARScope = component('UARScope', described(v.object({
  group_visibility: v.optional(v.picklist(['STRICT', 'VIEW_VISIBLE_AND_ASSIGNED', 'VIEW_ALL'])),
  users: v.optional(v.array(uuid)),
  filter_operator: v.optional(v.picklist(['ANY', 'ALL'])),
  entities: v.optional(v.array(uuid)),
  apps: v.optional(v.array(uuid)),
  admins: v.optional(v.array(uuid)),
  group_types: v.optional(v.array(GroupTypeEnum)),
  resource_types: v.optional(v.array(ResourceTypeEnum)),
  include_group_bindings: v.optional(v.boolean()),
  tags: v.optional(v.array(TagFilter)),
  names: v.optional(v.array(v.string())),
}), 'Which resources and groups a review covers, and whose access: see docs/access-reviews.md.'));
export type UARScope = v.InferOutput<typeof UARScope>;

export const UAR = component('UAR', described(v.object({
  uar_id: uuid,
  name: v.string(),
  reviewer_assignment_policy: UARReviewerAssignmentPolicyEnum,
  send_reviewer_assignment_notification: v.boolean(),
  deadline: dateTime,
  time_zone: v.string(),
  self_review_allowed: v.boolean(),
  instantly_action_reviews: v.boolean(),
  uar_scope: v.optional(UARScope),
}), 'A user access review, with the settings it was started with.'));
export type UAR = v.InferOutput<typeof UAR>;

export const PaginatedUARsList = component('PaginatedUARsList', described(v.object({
  next: cursor,
  previous: cursor,
  results: v.array(UAR),
}), 'A page of reviews, oldest first.'));

export const UARSnapshotEntry = component('UARSnapshotEntry', extension(v.object({
  item_type: v.picklist(['RESOURCE', 'GROUP']),
  item_id: uuid,
  item_name: described(v.string(), "The item's name when the snapshot was taken."),
  user_id: uuid,
  full_name: described(v.string(), "The user's name when the snapshot was taken."),
  email: v.string(),
  access_level: ResourceAccessLevel,
  expiration_date: v.nullable(described(dateTime, 'When the holding ends (the latest over its paths); null when some path never expires.')),
  has_direct_access: v.boolean(),
  num_access_paths: integer,
  access_path_group_ids: described(v.array(uuid), 'The groups the user held that gave this access (the paths counted besides a direct one), ascending.'),
}), "One holding in a review's snapshot: a user held an item at a level when the review started, as the access reads answered then."));
export type UARSnapshotEntry = v.InferOutput<typeof UARSnapshotEntry>;

export const UARSnapshotPage = component('UARSnapshotPage', extension(v.object({
  snapshot_taken_at: described(dateTime, 'The instant the snapshot read access at: when the review started.'),
  results: v.array(UARSnapshotEntry),
  next: v.nullable(v.string()),
  previous: v.nullable(v.string()),
}), "A page of a review's snapshot, in the order it was taken: resources then groups (each in creation order), then users by id, then levels."));
export type UARSnapshotPage = v.InferOutput<typeof UARSnapshotPage>;
