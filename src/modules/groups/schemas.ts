// Valibot schemas for groups: create, bulk update and list filters.
import * as v from 'valibot';
import { Name, PageQueryEntries, QueryList, Text, Uuid } from '../../http/common-schemas.ts';
import { AccessLevels, itemListExtensionFilters, RemoteText } from '../items/schemas.ts';
import { RequestSettingEntries } from '../request-settings/schemas.ts';
import { GROUP_TYPES } from './kinds.ts';

const GroupType = v.picklist(GROUP_TYPES, 'must be one of the reference GroupTypeEnum values (e.g. OPAL_GROUP, OKTA_GROUP)');

/** Group leaders; each user at most once. Replaces the set when given. */
const LeaderIds = v.pipe(
  v.array(Uuid, 'must be a list of user ids'),
  v.maxLength(1000, 'must list at most 1000 users'),
  v.transform((ids) => ids.map((id) => id.toLowerCase())),
  v.check((ids) => new Set(ids).size === ids.length, 'must not list a user twice'),
);

export const CreateGroupBody = v.object({
  name: Name(200),
  group_type: GroupType,
  app_id: Uuid,
  description: v.optional(Text(2000), ''),
  admin_owner_id: v.optional(Uuid),
  remote_info: v.optional(v.record(v.string(), v.unknown(), 'must be a JSON object')),
  remote_group_id: v.optional(RemoteText),
  metadata: v.optional(Text(10000)),
  group_leader_user_ids: v.optional(LeaderIds, []),
  access_levels: v.optional(AccessLevels),
  ...RequestSettingEntries,
});
export type CreateGroupInput = v.InferOutput<typeof CreateGroupBody>;

export const UpdateGroupItem = v.object({
  group_id: Uuid,
  name: v.optional(Name(200)),
  description: v.optional(Text(2000)),
  admin_owner_id: v.optional(Uuid),
  group_leader_user_ids: v.optional(LeaderIds),
  access_levels: v.optional(AccessLevels),
  ...RequestSettingEntries,
});
export type UpdateGroupInput = v.InferOutput<typeof UpdateGroupItem>;

export const UpdateGroupsBody = v.object({
  groups: v.pipe(v.array(UpdateGroupItem, 'must be a list of groups'), v.maxLength(1000, 'must list at most 1000 groups')),
});

export const ListGroupsQuery = v.object({
  ...PageQueryEntries,
  group_type_filter: v.optional(GroupType),
  group_ids: v.optional(QueryList(Uuid, { commaSeparated: true })),
  group_name: v.optional(v.pipe(v.string('must be given once'), v.minLength(1, 'must not be empty'))),
  tag_ids: v.optional(QueryList(Uuid, { commaSeparated: true })),
  ...itemListExtensionFilters('groups'),
});
