// Bodies and queries of user access reviews: the reference's CreateUARInfo and UARScope, and paging.
import * as v from 'valibot';
import { Name, PageQueryEntries, Text, Uuid } from '../../http/common-schemas.ts';
import { parseDateInput } from '../../lib/dates.ts';
import { GROUP_TYPES } from '../groups/kinds.ts';
import { RESOURCE_TYPES } from '../resources/kinds.ts';

export const REVIEWER_ASSIGNMENT_POLICIES = ['MANUALLY', 'BY_OWNING_TEAM_ADMIN', 'BY_OWNING_TEAM_ADMIN_ALL', 'BY_MANAGER', 'BY_APPROVERS', 'BY_APPROVERS_ALL'] as const;
export const FILTER_OPERATORS = ['ANY', 'ALL'] as const;
export const GROUP_VISIBILITIES = ['STRICT', 'VIEW_VISIBLE_AND_ASSIGNED', 'VIEW_ALL'] as const;

const Bool = v.boolean('must be true or false');
const oneOf = <T extends readonly [string, ...string[]]>(values: T) => v.picklist(values, `must be one of ${values.join(', ')}`);

const IdList = (what: string) =>
  v.pipe(
    v.array(Uuid, `must be a list of ${what} ids`),
    v.maxLength(1000, 'must list at most 1000 ids'),
    v.transform((ids) => ids.map((id) => id.toLowerCase())),
  );

/** The reference's TagFilter: a tag key, and optionally its value (without one, any value of the key matches). */
const TagFilter = v.object({
  key: v.pipe(Text(200), v.minLength(1, 'must not be empty')),
  value: v.optional(Text(200)),
});

/** The reference's UARScope. Which items and users each field selects: docs/access-reviews.md. */
export const UarScope = v.object({
  group_visibility: v.optional(oneOf(GROUP_VISIBILITIES)),
  users: v.optional(IdList('user')),
  filter_operator: v.optional(oneOf(FILTER_OPERATORS)),
  entities: v.optional(IdList('resource or group')),
  apps: v.optional(IdList('app')),
  admins: v.optional(IdList('owner')),
  group_types: v.optional(v.pipe(v.array(v.picklist(GROUP_TYPES, 'must be one of the reference GroupTypeEnum values'), 'must be a list of group types'), v.maxLength(100, 'must list at most 100 types'))),
  resource_types: v.optional(v.pipe(v.array(v.picklist(RESOURCE_TYPES, 'must be one of the reference ResourceTypeEnum values'), 'must be a list of resource types'), v.maxLength(100, 'must list at most 100 types'))),
  include_group_bindings: v.optional(Bool),
  tags: v.optional(v.pipe(v.array(TagFilter, 'must be a list of tag filters'), v.maxLength(100, 'must list at most 100 tag filters'))),
  names: v.optional(v.pipe(v.array(v.pipe(Text(200), v.minLength(1, 'must not be empty')), 'must be a list of strings'), v.maxLength(100, 'must list at most 100 names'))),
});
export type UarScopeInput = v.InferOutput<typeof UarScope>;

/** A date-time with a time zone, read by the one strict date reader; a bare date is refused (it names no instant). */
const DateTime = v.pipe(
  v.string('must be a string'),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const parsed = parseDateInput(dataset.value);
    if (parsed && !parsed.wholeDay) return parsed.at;
    addIssue({ message: 'must be a real date-time with a time zone (YYYY-MM-DDTHH:MM:SSZ, YYYY-MM-DD HH:MM:SS+00:00)' });
    return NEVER;
  }),
);

/** An IANA time zone name, as the runtime's time-zone database knows it. */
const TimeZone = v.pipe(
  Text(100),
  v.check((name) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      return name.length > 0;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone name (e.g. America/Los_Angeles, Europe/Paris, UTC)'),
);

/** POST /v1/uar: the reference's CreateUARInfo, its required fields required. */
export const CreateUarBody = v.object({
  name: Name(200),
  reviewer_assignment_policy: oneOf(REVIEWER_ASSIGNMENT_POLICIES),
  send_reviewer_assignment_notification: Bool,
  deadline: DateTime,
  time_zone: TimeZone,
  self_review_allowed: Bool,
  instantly_action_reviews: v.optional(Bool, false),
  reminder_schedule: v.optional(v.pipe(
    v.array(v.pipe(v.number('must be a number'), v.integer('must be a whole number of days'), v.minValue(0, 'must be at least 0'), v.maxValue(366, 'must be at most 366')), 'must be a list of whole days before the deadline'),
    v.maxLength(30, 'must list at most 30 reminders'),
  )),
  reminder_include_manager: v.optional(Bool),
  uar_scope: v.optional(UarScope),
});
export type CreateUarInput = v.InferOutput<typeof CreateUarBody>;

/** GET /v1/uars and GET /v1/uar/{uar_id}/snapshot: the reference's paging (page_size at most 1000). */
export const ListUarsQuery = v.object({ ...PageQueryEntries });
