// Response components — user access reviews (UARs) and, as an extension, the snapshot a review takes.
// Wire facts (field names, types, formats, enums, required) agree with the reference; see docs/openapi.md.
import { component } from '../schema.ts';
import { ResourceAccessLevel } from './access.ts';
import { EntityTypeEnum, GroupTypeEnum, ResourceTypeEnum } from './enums.ts';

export const UARReviewerAssignmentPolicyEnum = component('UARReviewerAssignmentPolicyEnum', {
  description: 'How reviewers would be assigned. Stored and returned; Gatehouse assigns no reviewers yet.',
  type: 'string',
  enum: ['MANUALLY', 'BY_OWNING_TEAM_ADMIN', 'BY_OWNING_TEAM_ADMIN_ALL', 'BY_MANAGER', 'BY_APPROVERS', 'BY_APPROVERS_ALL'],
});

export const TagFilter = component('TagFilter', {
  description: 'A tag key, and optionally its value; without a value any value of the key matches.',
  type: 'object',
  properties: { key: { type: 'string' }, value: { type: 'string' } },
  required: ['key'],
});

export const UARScope = component('UARScope', {
  description: 'Which resources and groups a review covers, and whose access: see docs/access-reviews.md.',
  type: 'object',
  properties: {
    group_visibility: { type: 'string', enum: ['STRICT', 'VIEW_VISIBLE_AND_ASSIGNED', 'VIEW_ALL'] },
    users: { type: 'array', items: { type: 'string', format: 'uuid' } },
    filter_operator: { type: 'string', enum: ['ANY', 'ALL'] },
    entities: { type: 'array', items: { type: 'string', format: 'uuid' } },
    apps: { type: 'array', items: { type: 'string', format: 'uuid' } },
    admins: { type: 'array', items: { type: 'string', format: 'uuid' } },
    group_types: { type: 'array', items: GroupTypeEnum },
    resource_types: { type: 'array', items: ResourceTypeEnum },
    include_group_bindings: { type: 'boolean' },
    tags: { type: 'array', items: TagFilter },
    names: { type: 'array', items: { type: 'string' } },
  },
});

export const UAR = component('UAR', {
  description: 'A user access review, with the settings it was started with.',
  type: 'object',
  properties: {
    uar_id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    reviewer_assignment_policy: UARReviewerAssignmentPolicyEnum,
    send_reviewer_assignment_notification: { type: 'boolean' },
    deadline: { type: 'string', format: 'date-time' },
    time_zone: { type: 'string' },
    self_review_allowed: { type: 'boolean' },
    instantly_action_reviews: { type: 'boolean' },
    uar_scope: UARScope,
  },
  required: [
    'uar_id', 'name', 'deadline', 'reviewer_assignment_policy', 'send_reviewer_assignment_notification',
    'time_zone', 'self_review_allowed', 'instantly_action_reviews',
  ],
});

export const PaginatedUARsList = component('PaginatedUARsList', {
  description: 'A page of reviews, oldest first.',
  type: 'object',
  properties: {
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: UAR },
  },
  required: ['results'],
});

export const UARSnapshotEntry = component('UARSnapshotEntry', {
  description: 'One holding in a review\'s snapshot: a user held an item at a level when the review started, as the access reads answered then.',
  'x-gatehouse-extension': true,
  type: 'object',
  properties: {
    item_type: { ...EntityTypeEnum, enum: ['RESOURCE', 'GROUP'] },
    item_id: { type: 'string', format: 'uuid' },
    item_name: { type: 'string', description: 'The item\'s name when the snapshot was taken.' },
    user_id: { type: 'string', format: 'uuid' },
    full_name: { type: 'string', description: 'The user\'s name when the snapshot was taken.' },
    email: { type: 'string' },
    access_level: ResourceAccessLevel,
    expiration_date: { type: ['string', 'null'], format: 'date-time', description: 'When the holding ends (the latest over its paths); null when some path never expires.' },
    has_direct_access: { type: 'boolean' },
    num_access_paths: { type: 'integer' },
    access_path_group_ids: {
      type: 'array', items: { type: 'string', format: 'uuid' },
      description: 'The groups the user held that gave this access (the paths counted besides a direct one), ascending.',
    },
  },
  required: [
    'item_type', 'item_id', 'item_name', 'user_id', 'full_name', 'email', 'access_level', 'expiration_date',
    'has_direct_access', 'num_access_paths', 'access_path_group_ids',
  ],
});

export const UARSnapshotPage = component('UARSnapshotPage', {
  description: 'A page of a review\'s snapshot, in the order it was taken: resources then groups (each in creation order), then users by id, then levels.',
  'x-gatehouse-extension': true,
  type: 'object',
  properties: {
    snapshot_taken_at: { type: 'string', format: 'date-time', description: 'The instant the snapshot read access at: when the review started.' },
    results: { type: 'array', items: UARSnapshotEntry },
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
  },
  required: ['snapshot_taken_at', 'results', 'next', 'previous'],
});
